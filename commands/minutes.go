package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The minutes after the meeting (5 ILCS 120/2.06): /ethics minutes <meeting>
// drafts them; note, approve, publish, destroy-recording and reviewed record what follows,
// each an event of the meeting's own record.

// minutesActions are what /ethics minutes does besides drafting.
var minutesActions = []string{"note", "moved", "motion", "approve", "publish", "destroy_recording", "reviewed",
	"adopted_schedule"}

func runMinutes(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	switch a.str("action") {
	case "note":
		return runMinutesNote(s, ctx, req, a)
	case "moved":
		return runMotionMover(s, ctx, req, a)
	case "motion":
		return runBusinessMotion(s, ctx, req, a)
	case "approve":
		return runMinutesApprove(s, ctx, req, a)
	case "publish":
		return runMinutesPublish(s, ctx, req, a)
	case "destroy_recording":
		return runDestroyRecording(s, ctx, req, a)
	case "reviewed":
		return runReviewed(s, ctx, req, a)
	case "adopted_schedule":
		return runAdoptedSchedule(s, ctx, req, a)
	}
	return runMinutesDraft(s, ctx, req, a)
}

// runReviewed records the semi-annual review of the minutes of closed meetings at the
// named meeting, with the commission's determination (5 ILCS 120/2.06(d)): the meetings
// named in release= have their closed minutes made public on the board, as approved; the
// others under review stay confidential.
func runReviewed(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if s.Letters == nil {
		return Response{}, docket.Conflict("", "", "letters are not set up here; see docs/clerk.md, \"Letters\"")
	}
	m, all, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return Response{}, err
	}
	if a.has("text") {
		// A determination is final: a word the command does not take, most often a meeting
		// after a space in release=, would be dropped and that meeting's minutes kept.
		return Response{}, docket.Invalid(docket.OMAReview, "release", fmt.Sprintf("reviewed takes no text (\"%s\"): "+
			"name the meetings whose closed minutes are released in release=, separated by commas and no spaces, e.g. "+
			"release=2026-06-09,2026-09-08", a.str("text")))
	}
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	item, ok := a.whole("item")
	if !ok {
		return Response{}, docket.Invalid(docket.OMAReview, "item",
			"give the agenda item the review was taken up under, e.g. item=4: the determination is a final action, "+
				"taken on what the posted agenda sets forth (5 ILCS 120/2.02(c))")
	}
	var release []string
	for _, n := range strings.Split(a.str("release"), ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(release, n) {
			release = append(release, n)
		}
	}
	review, err := docket.Determine(all, m, item, release, func(o *docket.CommissionMeeting) (string, error) {
		r, err := s.minutesRecord(ctx, o, all)
		if err != nil {
			return "", err
		}
		r.Released = s.Engine.Cal.DateOf(s.Now()) // released by this review, as recorded now
		d, err := s.Letters.MinutesMarkdown(r, docket.ClosedPart, s.names())
		return string(d.Data), err
	})
	if err != nil {
		return Response{}, err
	}
	ch.Actions = []docket.MeetingAction{review}
	what := outbox.Format("the commission's review of the minutes of its closed meetings recorded (%s)", docket.OMAReview)
	if len(review.Released) > 0 {
		var names []string
		for _, r := range review.Released {
			names = append(names, r.Meeting)
		}
		what += outbox.Format("; the closed minutes of %s are on the public board", strings.Join(names, ", "))
	}
	if len(review.Kept) > 0 {
		what += outbox.Format("; those of %s stay confidential", strings.Join(review.Kept, ", "))
	}
	res, resp, err := s.changeMeeting(ctx, req, ch, what, noNotice)
	if err == nil && !res.Replayed {
		all, err := s.allMeetings(ctx)
		if err != nil {
			return Response{}, err
		}
		resp.Messages[0].Text += outbox.Format("\nThe next review is due by %s.", docket.ReviewDue(all, s.Engine.Cal).Long())
	}
	return resp, err
}

// runAdoptedSchedule records the commission's vote adopting the year's schedule of regular
// meetings at the named meeting (5 ILCS 120/2.03): the dates, time and place the
// configuration holds for that year now, which the record then keeps as adopted.
func runAdoptedSchedule(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	if a.has("text") {
		return Response{}, docket.Invalid(docket.OMASchedule, "year", fmt.Sprintf("adopted-schedule takes no text "+
			"(\"%s\"): the schedule adopted is the one meetings.regular holds for year=, e.g. `adopted-schedule item=3 "+
			"year=2028`", a.str("text")))
	}
	item, ok := a.whole("item")
	if !ok {
		return Response{}, docket.Invalid(docket.OMASchedule, "item",
			"give the agenda item the schedule was adopted under, e.g. item=3: the adoption is a final action, taken on "+
				"what the posted agenda sets forth (5 ILCS 120/2.02(c))")
	}
	year, ok := a.whole("year")
	if !ok {
		return Response{}, docket.Invalid(docket.OMASchedule, "year", "give the year of the schedule adopted, e.g. year=2028")
	}
	r := s.Settings().Regular
	ch.Actions = []docket.MeetingAction{docket.AdoptSchedule{Item: item, Year: year, Place: r.Place, Clock: r.Clock,
		Dates: r.Year(year)}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("the commission's adoption of its schedule of regular meetings for %d recorded (%s): %s",
			year, docket.OMASchedule, count(len(r.Year(year)), "regular meeting")), noNotice)
	return resp, err
}

// runMinutesNote adds the clerk's narrative to a meeting's draft minutes, on an item or on
// the meeting as a whole; refused once the minutes are approved.
func runMinutesNote(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	item := 0
	if a.has("item") {
		if item, err = strconv.Atoi(strings.TrimSpace(a.str("item"))); err != nil || item < 0 {
			// item=0 is the meeting as a whole, as no item= is, and as the refusal of an item
			// past the agenda says (docket MinutesNote).
			return Response{}, docket.Invalid(docket.OMAMinutes, "item",
				"give the item's number on the agenda, e.g. item=3, or item=0 or no item= for the meeting as a whole")
		}
	}
	// A note on a case's item is the case's business, and lands in minutes a recused member
	// is not given if the item was closed.
	if _, err := s.itemCase(ctx, m.Agenda(), item, req.User); err != nil {
		return Response{}, err
	}
	ch.Actions = []docket.MeetingAction{docket.MinutesNote{Item: item, Text: a.str("text")}}
	what := outbox.Format("the clerk's note added to its draft minutes, on the meeting as a whole")
	if item > 0 {
		what = outbox.Format("the clerk's note added to its draft minutes, on item %d", item)
	}
	_, resp, err := s.changeMeeting(ctx, req, ch, what, noNotice)
	return resp, err
}

// runMotionMover records who moved and seconded a motion on an item, as the draft minutes
// number them; refused once the minutes are approved, or for a motion the draft lacks.
func runMotionMover(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, ch, r, err := s.namedMinutes(ctx, a)
	if err != nil {
		return Response{}, err
	}
	item, err1 := strconv.Atoi(strings.TrimSpace(a.str("item")))
	motion, err2 := 1, error(nil)
	if a.has("motion") {
		motion, err2 = strconv.Atoi(strings.TrimSpace(a.str("motion")))
	}
	if err1 != nil || err2 != nil {
		return Response{}, docket.Invalid(docket.OMAMinutes, "item",
			fmt.Sprintf("give the item's number on the agenda and the motion's on the item, as the draft lists them: /ethics "+
				"minutes %s moved item=3 motion=1 mover=@ann seconder=@ben", m.Name))
	}
	c, err := s.itemCase(ctx, m.Agenda(), item, req.User)
	if err != nil {
		return Response{}, err
	}
	if item >= 1 && item <= len(r.Entries) && motion > len(r.Entries[item-1].Motions) {
		return Response{}, docket.NotFound(docket.OMAMinutes, "motion",
			fmt.Sprintf("item %d of meeting %s has %s on the record; a motion is recorded with its roll call first", item,
				m.Name, count(len(r.Entries[item-1].Motions), "motion")))
	}
	if item >= 1 && item <= len(r.Entries) && motion >= 1 {
		mo := r.Entries[item-1].Motions[motion-1]
		for _, who := range [][2]string{{"mover", a.str("mover")}, {"seconder", a.str("seconder")}} {
			if who[1] == "" {
				continue
			}
			if err := r.TakesPart(mo, c, who[1], who[0]); err != nil {
				return Response{}, err
			}
		}
	}
	ch.Actions = []docket.MeetingAction{docket.MotionMover{Item: item, Motion: motion, Mover: a.str("mover"),
		Seconder: a.str("seconder")}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("who moved motion %d on item %d recorded for its minutes", motion, item), noNotice)
	return resp, err
}

// runBusinessMotion records, at a meeting in progress, a motion on an item of other
// business with its roll call (docket.MoveBusiness): its minutes then give it, and who
// moved and seconded it is recorded with moved, as for any motion.
func runBusinessMotion(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	item, err := strconv.Atoi(strings.TrimSpace(a.str("item")))
	if err != nil {
		return Response{}, docket.Invalid(docket.OMAMinutes, "item",
			fmt.Sprintf("give the item's number on the agenda and what was moved: /ethics minutes %s motion item=4 "+
				"\"To elect Ann Alder chair for 2027\" yes=@ann,@ben,@cal", m.Name))
	}
	now := s.Now()
	if !m.InSession(now) {
		return Response{}, docket.Conflict(docket.OMAMinutes, "meeting",
			fmt.Sprintf("meeting %s is not in progress: a motion is recorded with its roll call at the meeting, once it is "+
				"called to order (/ethics convene %s present=...)", m.Name, m.Name))
	}
	vote, err := s.rollAt(ctx,
		args{"yes": a["yes"], "no": a["no"], "abstain": a["abstain"], "absent": a["absent"]}.present(), m, now, "")
	if err != nil {
		return Response{}, err
	}
	ch.Actions = []docket.MeetingAction{docket.MoveBusiness{Item: item, Text: a.str("text"), At: now, Vote: vote}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("motion on item %d recorded for its minutes, %s: %s", item, vote.Tally(), a.str("text")), noNotice)
	return resp, err
}

// runMinutesApprove records the roll call, at the later meeting at=, on approving a
// meeting's minutes (5 ILCS 120/2.06(b)). The vote is taken on that meeting's item
// "approval of the minutes of", and recorded once, on the meeting whose minutes it
// approves: the later meeting's minutes show it on its item (MinutesRecord.AddApprovals).
// The roll defaults to the members present at the later meeting.
func runMinutesApprove(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	all, err := s.allMeetings(ctx)
	if err != nil {
		return Response{}, err
	}
	if a.str("at") == "" {
		return Response{}, docket.Invalid(docket.OMAMinutes, "at",
			fmt.Sprintf("give the later meeting whose agenda holds the approval of these minutes: /ethics minutes %s approve "+
				"at=2027-02-09", m.Name))
	}
	later, err := docket.FindMeeting(all, a.str("at"))
	if err != nil {
		return Response{}, err
	}
	now := s.Now()
	item, err := docket.CheckApprovalAt(later, m.Name, now)
	if err != nil {
		return Response{}, err
	}
	vote, err := s.rollAt(ctx,
		args{"yes": a["yes"], "no": a["no"], "abstain": a["abstain"], "absent": a["absent"]}.present(), later, now, "")
	if err != nil {
		return Response{}, err
	}
	on := a.date("on")
	if on.IsZero() {
		on = s.Engine.Cal.DateOf(now)
	}
	ch.Actions = []docket.MeetingAction{docket.ApproveMinutes{At: docket.MeetingName(later.Name), On: on, Vote: vote}}
	res, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("roll call on approving its minutes at meeting %s, item %d: %s", later.Name, item,
			vote.Tally()), noNotice)
	if err != nil || res.Replayed {
		return resp, err
	}
	if !vote.Carried() {
		resp.Messages[0].Text += outbox.Format("\nThe motion failed: the minutes stay a draft. Correct them (`/ethics "+
			"minutes %s note \"...\"`) and put their approval on a later agenda.", m.Name)
		return resp, nil
	}
	due, _ := res.Meeting.PublishedBy(s.Engine.Cal)
	resp.Messages[0].Text += outbox.Format("\nThe minutes of %s are approved, no longer a draft: `/ethics minutes %s` "+
		"makes the approved copies. Make the approved open minutes public by %s (%s): `/ethics minutes %s publish`.",
		m.Name, m.Name, due.Long(), docket.OMAMinutes, m.Name)
	if len(res.Meeting.Minutes.Sessions) > 0 {
		resp.Messages[0].Text += " The closed minutes stay confidential until the commission's review finds they need no " +
			"longer be (5 ILCS 120/2.06(d))."
	}
	if d, ok := res.Meeting.RecordingsDestroyable(s.Engine.Cal); ok {
		resp.Messages[0].Text += outbox.Format(" The verbatim recording of its closed session may be destroyed from %s, "+
			"once the commission approves its destruction (%s).", d.Long(), docket.OMARecording)
	}
	return resp, nil
}

// runMinutesPublish puts a meeting's approved open minutes on the public board, as the
// open minutes draw them now (MinutesMarkdown): "within 10 days after the approval"
// (5 ILCS 120/2.06(b)). The closed minutes are never published by it.
func runMinutesPublish(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if s.Letters == nil {
		return Response{}, docket.Conflict("", "", "letters are not set up here; see docs/clerk.md, \"Letters\"")
	}
	// A draft is drawn, then refused by the record (docket.PublishMinutes): the rule is kept
	// in one place.
	_, ch, r, err := s.namedMinutes(ctx, a)
	if err != nil {
		return Response{}, err
	}
	d, err := s.Letters.MinutesMarkdown(r, docket.OpenPart, s.names())
	if err != nil {
		return Response{}, err
	}
	ch.Actions = []docket.MeetingAction{docket.PublishMinutes{Text: string(d.Data)}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("its approved open minutes are on the public board (%s); the closed minutes stay confidential",
			docket.OMAMinutes), noNotice)
	return resp, err
}

// runDestroyRecording records the destruction of the verbatim recording of a closed
// session, refused before 5 ILCS 120/2.06(c) allows it.
func runDestroyRecording(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	n := 1
	if a.has("session") {
		if n, err = strconv.Atoi(strings.TrimSpace(a.str("session"))); err != nil {
			return Response{}, docket.Invalid(docket.OMARecording, "session", "give the closed session's number, e.g. session=1")
		}
	}
	on := a.date("on")
	if on.IsZero() {
		on = s.Engine.Cal.DateOf(s.Now())
	}
	if approved := a.date("approved"); !approved.IsZero() {
		if err := s.heldOn(ctx, approved); err != nil {
			return Response{}, err
		}
	}
	ch.Actions = []docket.MeetingAction{docket.DestroyRecording{Session: n, On: on, Approved: a.date("approved")}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("the verbatim recording of closed session %d destroyed on %s (%s)", n, on.Long(),
			docket.OMARecording), noNotice)
	return resp, err
}

// heldOn refuses day as the day the commission approved destroying a verbatim recording
// unless the commission held a meeting that day, called to order with its roll: "the public
// body approves the destruction of a particular recording" by a vote, and a public body
// votes only at a meeting (5 ILCS 120/2.06(c)(1), 1.02).
func (s *Service) heldOn(ctx context.Context, day docket.Date) error {
	all, err := s.allMeetings(ctx)
	if err != nil {
		return err
	}
	for i := range all {
		m := &all[i]
		if !m.Minutes.Convened.IsZero() && m.Held(s.Engine.Cal) == day {
			return nil
		}
	}
	return docket.Conflict(docket.OMARecording, "approved", fmt.Sprintf("the commission held no meeting on %s, and "+
		"it approves destroying a recording only by a vote at a meeting: give approved= the day of the meeting, called "+
		"to order (/ethics minutes <meeting> convene), at which it voted", day.Long()))
}

// namedMinutes reads the meeting named in a, starts its change (namedMeeting), and drafts
// the record its minutes are drawn from.
func (s *Service) namedMinutes(ctx context.Context,
	a args) (*docket.CommissionMeeting, docket.MeetingChange, docket.MinutesRecord, error) {
	var ch docket.MeetingChange
	m, all, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return nil, ch, docket.MinutesRecord{}, err
	}
	recordFolded(m, &ch)
	r, err := s.minutesRecord(ctx, m, all)
	return m, ch, r, err
}

// minutesRecord is the record meeting m's minutes are drafted from (docket.CommissionMeeting.Record).
func (s *Service) minutesRecord(ctx context.Context, m *docket.CommissionMeeting,
	all []docket.CommissionMeeting) (docket.MinutesRecord, error) {
	return m.Record(all, s.Engine, func(n string) (docket.Case, []docket.Entry, error) {
		c, err := s.Record.Case(ctx, n)
		if err != nil {
			return c, nil, err
		}
		entries, err := s.Record.Entries(ctx, n)
		return c, entries, err
	})
}

// minutesClock says where the minutes of meeting m, drafted as r, stand against 5 ILCS
// 120/2.06: to be approved by, with what the draft still lacks; to be made public by; or
// made public.
func (s *Service) minutesClock(m *docket.CommissionMeeting, all []docket.CommissionMeeting,
	r docket.MinutesRecord) outbox.Markup {
	cal := s.Engine.Cal
	switch {
	case r.Convened.IsZero():
		return ""
	case r.Approved.IsZero():
		due, known := m.ApprovalDue(cal, all)
		text := outbox.Format("\nTo be approved by %s (%s: within 30 days after the meeting or at the second regular "+
			"meeting after it, whichever is later", due.Long(), docket.OMAMinutes)
		if !known {
			text += "; fewer than two regular meetings are recorded after it, so the date is the 30 days'"
		}
		text += outbox.Format("): put their approval on a later agenda, `/ethics agenda <later meeting> add "+
			"item=minutes %s`.", m.Name)
		if gaps := r.Gaps(docket.OpenPart); len(gaps) > 0 {
			text += outbox.Format("\nThe open minutes still need: %s.", strings.Join(gaps, "; "))
		}
		if len(r.Sessions) > 0 {
			if gaps := r.Gaps(docket.ClosedPart); len(gaps) > 0 {
				text += outbox.Format("\nThe closed minutes still need: %s.", strings.Join(gaps, "; "))
			}
		}
		return text
	case m.Published.IsZero():
		due, _ := m.PublishedBy(cal)
		return outbox.Format("\nThe approved open minutes are to be made public by %s (%s): `/ethics minutes %s publish`.",
			due.Long(), docket.OMAMinutes, m.Name)
	}
	return outbox.Format("\nThe approved open minutes are on the public board since %s.", s.when(m.Published))
}

// minutesState says in a line of /ethics meetings where a held meeting's minutes stand
// (5 ILCS 120/2.06(b)); "" for a meeting not held.
func (s *Service) minutesState(m *docket.CommissionMeeting, all []docket.CommissionMeeting) outbox.Markup {
	cal := s.Engine.Cal
	switch {
	case m.Minutes.Convened.IsZero():
		return ""
	case m.Minutes.Approved.IsZero():
		due, _ := m.ApprovalDue(cal, all)
		return outbox.Format(" Minutes to be approved by %s.", due.Long())
	case m.Published.IsZero():
		due, _ := m.PublishedBy(cal)
		return outbox.Format(" Minutes approved %s; to be made public by %s.", m.Minutes.Approved.Long(), due.Long())
	}
	return outbox.Format(" Minutes approved %s, public on the board.", m.Minutes.Approved.Long())
}
