package commands

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The commission's meetings as a body: /ethics meeting, meetings, agenda, and
// schedule, posted and cancel for a meeting rather than one case step.

// MeetingRecord is what the meeting commands need of the record beside Record; store.Store
// is one. A Record without it refuses them.
type MeetingRecord interface {
	// Meetings returns the commission's meetings, folded with the case steps each holds
	// (docket.Engine.Fold), in order of start. It writes nothing.
	Meetings(ctx context.Context) ([]docket.CommissionMeeting, error)
	// ChangeMeeting records ch in one transaction, with what the Service says of each case
	// action (Say) and of the meeting as it then stands (SayMeeting).
	ChangeMeeting(ctx context.Context, act docket.Act, ch docket.MeetingChange) (docket.MeetingResult, error)
}

// meetingPattern is a meeting's name: its date, and a letter for a second one that day.
var meetingPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[a-z]?$`)

// meetings returns the record's meetings, or a refusal if the record keeps none.
func (s *Service) meetingRecord() (MeetingRecord, error) {
	mr, ok := s.Record.(MeetingRecord)
	if !ok {
		return nil, docket.Unavailable("this record does not keep the commission's meetings")
	}
	return mr, nil
}

// changeMeeting records ch and replies with what was done. The case steps' posts (docket
// lines, notices) are committed with the events, as for apply.
//
// A case step that is an item of a recorded meeting is announced by the meeting's one
// notice (meetingNotice), not by a notice of its own: notice says what the meeting's
// notice is for this change ("" when the change posts none), and the case steps' own
// public notices are then left out.
func (s *Service) changeMeeting(ctx context.Context, req Request, ch docket.MeetingChange, what outbox.Markup,
	notice meetingNoticeKind) (docket.MeetingResult, Response, error) {
	return s.changeMeetingWithdrawing(ctx, req, ch, what, notice, "")
}

// changeMeetingWithdrawing is changeMeeting; for a withdrawnNotice, withdrawn is the item
// withdrawn, in the agenda's words.
func (s *Service) changeMeetingWithdrawing(ctx context.Context, req Request, ch docket.MeetingChange,
	what outbox.Markup, notice meetingNoticeKind, withdrawn string) (docket.MeetingResult, Response, error) {
	mr, err := s.meetingRecord()
	if err != nil {
		return docket.MeetingResult{}, Response{}, err
	}
	// The items the notice counts are those of the agenda before the change: a
	// cancellation has cancelled each case step on its case (one CaseActions each,
	// cancelMeeting) by the time the notice is drawn, leaving the other business.
	ctx, posts := s.sayer(ctx, meetingSaying{notice: notice, withdrawn: withdrawn, cancelled: len(ch.Cases)})
	res, err := mr.ChangeMeeting(ctx, s.act(req), ch)
	if err != nil {
		return res, Response{}, err
	}
	if res.Replayed {
		return res, reply(outbox.Format("Already recorded for meeting %s (this request was received twice; nothing new "+
			"was recorded).", res.Meeting.Name)), nil
	}
	var lines []outbox.Markup
	var warnings []docket.Warning
	for _, r := range res.Cases {
		var done []outbox.Markup
		for _, st := range r.Steps {
			done = append(done, s.done(st)+overridden(st))
		}
		lines = append(lines, outbox.Format("Case %s: %s.", r.Case.Number, outbox.Join(done, "; ")))
		warnings = append(warnings, r.Warnings...)
	}
	text := outbox.Format("Meeting *%s*: %s.", res.Meeting.Name, what)
	if len(lines) > 0 {
		text += "\n" + outbox.Join(lines, "\n")
	}
	text += warningText(warnings) + s.agendaStatus(&res.Meeting)
	return res, Response{Messages: []Message{{Text: text}}, Posts: *posts}, nil
}

// meetingNoticeKind is which public notice of a meeting a change posts.
type meetingNoticeKind int

const (
	noNotice        meetingNoticeKind = iota
	agendaNotice                      // the notice and agenda, as posted (amended if it was posted before)
	cancelledNotice                   // the meeting is cancelled, with all its items
	movedNotice                       // the meeting is moved, with all its items
	caseNotices                       // no notice of the meeting's: the case steps' own are posted
	withdrawnNotice                   // an item withdrawn from the agenda of a meeting that goes on
)

// meetingNotice is a meeting's one public notice in the notices channel (5 ILCS 120/2.02):
// its time, place and whole agenda, each case step by its case number and step only, the
// closed items with their exception.
//
// cancelledItems is, for a cancellation, how many items the agenda held before it.
func (s *Service) meetingNotice(m *docket.CommissionMeeting, kind meetingNoticeKind, cancelledItems int) []outbox.Post {
	channel := s.Settings().Channels.Notices
	if channel == "" {
		return nil
	}
	loc := s.Engine.Cal.Location()
	const at = "Mon 2 Jan 2006 at 15:04 MST"
	what := "regular meeting"
	if m.Special {
		what = "special meeting"
	}
	var text outbox.Markup
	switch kind {
	case cancelledNotice:
		text = outbox.Format("PUBLIC NOTICE, CANCELLED. Ethics Commission: the %s set for %s at %s is cancelled, with "+
			"every item of its agenda (%s).",
			what, m.Start.In(loc).Format(at), m.Place, count(cancelledItems, "item"))
	default:
		head := "PUBLIC NOTICE"
		if kind == movedNotice {
			head = "PUBLIC NOTICE, MOVED"
		} else if len(m.Postings) > 1 {
			head = "PUBLIC NOTICE, AMENDED AGENDA"
		}
		text = outbox.Format("%s. Ethics Commission, %s on %s at %s", head, what, m.Start.In(loc).Format(at), m.Place)
		if kind == movedNotice {
			moved := m.Moved[len(m.Moved)-1]
			text += outbox.Format(", moved with every item of its agenda from %s at %s", moved.Start.In(loc).Format(at),
				moved.Place)
		}
		text += ". Agenda:"
		if len(m.Agenda()) == 0 {
			// A meeting moved before any item joined it: its agenda is posted, once it has
			// items, 48 hours ahead (5 ILCS 120/2.02); "Agenda: Open to the public." would
			// read as if that were the agenda.
			text += " none yet."
		}
		// The parts of every meeting frame its numbered business, as the agenda posted
		// at the meeting place gives them (docket.Frame).
		var opening, closing outbox.Markup
		if len(m.Agenda()) > 0 {
			before, after := docket.Frame(m.Doc().Items)
			for _, w := range before {
				opening += outbox.Format(" %s", w)
			}
			for _, w := range after {
				closing += outbox.Format(" %s", w)
			}
		}
		text += opening
		listed, more := listAgenda(m.Agenda(), " %d. %s.", slackTextBudget-utf8.RuneCountInString(string(text+closing)))
		text += listed
		if more > 0 {
			text += outbox.Format(" And %s more: the whole agenda is on the public notice board%s and posted at the "+
				"meeting place.", count(more, "item"), s.boardLink(m))
		}
		text += closing
		text += " Open to the public"
		for _, it := range m.Agenda() {
			if it.Closed {
				text += ", except the items marked closed session"
				break
			}
		}
		text += "."
	}
	to := outbox.Dest{Channel: channel}
	key := outbox.Key{Series: outbox.MeetingSeries,
		Step: fmt.Sprintf("%s.%d.%d", m.Name, len(m.Postings), len(m.Moved)), To: to}
	if kind == cancelledNotice {
		key.Step = m.Name + ".cancelled"
	}
	return []outbox.Post{{Key: key, Text: text, Due: s.Now(), Media: s.mediaCopies(m.Start)}}
}

// withdrawalNotice is the public notice of an item withdrawn from the agenda of meeting
// m, which goes on (5 ILCS 120/2.02(a): the public is told of the agenda as it stands):
// posted only if the meeting's agenda was, since the public knew the item only from it.
// The case step's own notice of a cancelled meeting is not posted: the meeting is not
// cancelled, and a notice saying so, at its time and place, would tell the public it is.
func (s *Service) withdrawalNotice(m *docket.CommissionMeeting, item string) []outbox.Post {
	channel := s.Settings().Channels.Notices
	if channel == "" || len(m.Postings) == 0 {
		return nil
	}
	loc := s.Engine.Cal.Location()
	what := "regular meeting"
	if m.Special {
		what = "special meeting"
	}
	text := outbox.Format("PUBLIC NOTICE, AMENDED AGENDA: ITEM WITHDRAWN. Ethics Commission, %s on %s at %s: the item "+
		"“%s” is withdrawn from its agenda. The meeting is held as noticed",
		what, m.Start.In(loc).Format("Mon 2 Jan 2006 at 15:04 MST"), m.Place, item)
	if n := len(m.Agenda()); n > 0 {
		text += outbox.Format(", with %s; the amended agenda will be posted.", count(n, "item"))
	} else {
		text += "; the amended agenda will be posted."
	}
	key := outbox.Key{Series: outbox.MeetingSeries,
		Step: fmt.Sprintf("%s.%d.%d.withdrawn.%d.%d", m.Name, len(m.Postings), len(m.Moved), len(m.Agenda()),
			s.Now().UnixNano()), To: outbox.Dest{Channel: channel}}
	return []outbox.Post{{Key: key, Text: text, Due: s.Now(), Media: s.mediaCopies(m.Start)}}
}

// agendaStatus says how many items the meeting holds and where its notice stands.
func (s *Service) agendaStatus(m *docket.CommissionMeeting) outbox.Markup {
	n := len(m.Agenda())
	var posted outbox.Markup
	switch {
	case !m.Cancelled.IsZero():
		return outbox.Format("\nCancelled %s.", s.when(m.Cancelled))
	case !m.Posted().IsZero():
		posted = outbox.Format("agenda posted %s", s.when(m.Posted()))
		if m.Amended() {
			posted += " (amended)"
		}
	case m.Amended():
		posted = outbox.Format("the agenda changed after it was posted: post it again, marked amended, by %s (%s), then "+
			"`/ethics posted %s`", s.when(m.AgendaDue()), docket.OMANotice, m.Name)
	default:
		posted = outbox.Format("agenda to be posted by %s (%s), then `/ethics posted %s`", s.when(m.AgendaDue()),
			docket.OMANotice, m.Name)
	}
	return outbox.Format("\n%s, %s: %s; %s.", s.when(m.Start), m.Place, count(n, "item"), posted)
}

// allItems says a posting's reach: "its one item", "all 5 items".
func allItems(n int) string {
	if n == 1 {
		return "its one item"
	}
	return "all " + count(n, "item")
}

// count says n things: "1 item", "5 items".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// allMeetings returns the commission's meetings as folded now, or a refusal if the record
// keeps none.
func (s *Service) allMeetings(ctx context.Context) ([]docket.CommissionMeeting, error) {
	mr, err := s.meetingRecord()
	if err != nil {
		return nil, err
	}
	all, err := mr.Meetings(ctx)
	return s.withRegular(all), err
}

// findMeeting returns the meeting named name, as folded now.
func (s *Service) findMeeting(ctx context.Context,
	name string) (*docket.CommissionMeeting, []docket.CommissionMeeting, error) {
	all, err := s.allMeetings(ctx)
	if err != nil {
		return nil, nil, err
	}
	m, err := docket.FindMeeting(all, name)
	return m, all, err
}

// recordFolded makes ch create the record of m first if m is folded from its cases and has
// none yet, under the name it is shown by.
func recordFolded(m *docket.CommissionMeeting, ch *docket.MeetingChange) {
	ch.Meeting = m.Name
	if m.Folded {
		ch.Create = &docket.CreateMeeting{Name: m.Name, Start: m.Start, Place: m.Place, Posted: m.Posted(), Since: m.Created,
			Regular: m.Regular}
	}
}

func runMeeting(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	start, place := a.instant("start"), a.str("place")
	all, err := s.allMeetings(ctx)
	if err != nil {
		return Response{}, err
	}
	if m := docket.MeetingAt(all, start, place); m != nil {
		return Response{}, docket.Conflict("", "start", fmt.Sprintf("meeting %s is already then and there", m.Name))
	}
	sched := s.Settings().Regular
	onSchedule := sched.Holds(start, s.Engine.Cal.Location())
	ch := docket.MeetingChange{Create: &docket.CreateMeeting{Start: start, Place: place,
		Special: a.str("kind") == "special", Regular: onSchedule}}
	kind := outbox.Markup("regular")
	if !ch.Create.Special && len(sched.Dates) > 0 && !onSchedule {
		// 5 ILCS 120/2.02(a): a meeting not on the year's schedule of regular meetings (2.03)
		// is a special meeting, whatever it is called.
		ch.Create.Special = true
		kind = outbox.Format("special (not on the year's schedule of regular meetings, %s)", docket.OMASchedule)
	} else if ch.Create.Special {
		kind = "special"
	}
	_, resp, err := s.changeMeeting(ctx, req, ch, kind+" meeting created", noNotice)
	if err == nil {
		resp.Messages[0].Text += outbox.Format("\nAdd its items: `/ethics schedule <case> sufficiency meeting=<name>`, " +
			"`/ethics agenda <name> add \"Election of a chair\"`.")
	}
	return resp, err
}

func runMeetings(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	all, err := s.allMeetings(ctx)
	if err != nil {
		return Response{}, err
	}
	now := s.Now()
	var coming, past []outbox.Markup
	for i := range all {
		m := &all[i]
		line := outbox.Format("• *%s*%s", m.Name, s.agendaStatus(m))
		line = outbox.Markup(strings.Replace(string(line), "\n", " ", 1))
		if m.Special {
			line += " Special meeting."
		} else if m.Regular {
			line += " Regular meeting of the year's schedule (5 ILCS 120/2.03); nothing recorded yet."
		}
		line += s.minutesState(m, all)
		if m.Start.After(now) {
			coming = append(coming, line)
		} else {
			past = append(past, line)
		}
	}
	if len(all) == 0 {
		return reply("No meetings yet. Create one: `/ethics meeting 2027-01-12T17:00 place=\"City Hall, Room 201\"`."), nil
	}
	text := outbox.Format("*Coming meetings*\n")
	if len(coming) == 0 {
		text += "None.\n"
	} else {
		text += outbox.Join(coming, "\n") + "\n"
	}
	text += outbox.Format("*Past meetings*\n")
	if len(past) == 0 {
		text += "None."
	} else {
		// The most recent first.
		for i, j := 0, len(past)-1; i < j; i, j = i+1, j-1 {
			past[i], past[j] = past[j], past[i]
		}
		text += outbox.Join(past, "\n")
	}
	return reply(text), nil
}

func runAgenda(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, _, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return Response{}, err
	}
	var ch docket.MeetingChange
	var what outbox.Markup
	switch a.str("action") {
	case "add":
		kind := docket.ItemKind(a.str("item"))
		if kind == "" {
			kind = docket.BusinessItem
		}
		recordFolded(m, &ch)
		ch.Actions = []docket.MeetingAction{docket.AddItem{Item: kind, Text: a.str("text"), Authority: a.str("closed")}}
		what = "item added"
	case "close":
		n, err := strconv.Atoi(strings.TrimSpace(a.str("text")))
		agenda := m.Agenda()
		if err != nil || n < 1 || n > len(agenda) {
			return Response{}, docket.Invalid(docket.OMAClose, "item",
				fmt.Sprintf("give the number of the item to close, 1 to %d, as /ethics agenda %s lists them", len(agenda), m.Name))
		}
		if n <= len(m.Cases) {
			it := agenda[n-1]
			return Response{}, docket.Invalid(docket.OMAClose, "item",
				fmt.Sprintf("item %d is case %s's %s: close it where it is scheduled, `/ethics schedule %s %s meeting=%s "+
					"closed=\"5 ILCS 120/2(c)(4)\"`", n, it.Case, it.Step.Name(), it.Case, it.Step, m.Name))
		}
		recordFolded(m, &ch)
		ch.Actions = []docket.MeetingAction{docket.CloseItem{Item: n - len(m.Cases), Authority: a.str("closed")}}
		what = outbox.Format("item %d closed to the public under %s", n, a.str("closed"))
	default:
		return reply(s.agendaText(m)), nil
	}
	res, resp, err := s.changeMeeting(ctx, req, ch, what, noNotice)
	if err == nil && !res.Replayed {
		resp.Messages[0].Text = outbox.Format("Meeting *%s*: %s.\n", res.Meeting.Name, what) + s.agendaText(&res.Meeting)
	}
	return resp, err
}

// slackTextBudget bounds how much of a message in Slack an agenda's items may take, in
// characters. chat.postMessage truncates a text over 40,000 characters, and Slack advises
// at most 4,000 for a message to read well; an agenda of 220 items of 199 characters made
// a notice of 45,348. The items are listed up to this budget, leaving room for the
// notice's head and tail; the rest are counted, and the whole agenda is in the agenda PDF
// (/ethics letters) and on the board. The number of items is not capped: 5 ILCS 120/2.02
// asks for the whole agenda, and the PDF and the board hold any length.
const slackTextBudget = 3500

// listAgenda lists items in the form line ("%d. %s", the item's number and title), as
// many as fit in budget characters, and says how many are left out.
func listAgenda(items []docket.MeetingItem, line string, budget int) (outbox.Markup, int) {
	var out outbox.Markup
	used := 0
	for i, it := range items {
		l := outbox.Format(line, i+1, it.Title())
		n := utf8.RuneCountInString(string(l))
		if used+n > budget {
			return out, len(items) - i
		}
		out += l
		used += n
	}
	return out, 0
}

// boardLink is ", <address>" of meeting m's card on the public notice board, or "" when
// the board's address is not configured.
func (s *Service) boardLink(m *docket.CommissionMeeting) string {
	base := s.Settings().PublicURL
	if base == "" {
		return ""
	}
	return ", " + base + "/#meeting-" + m.Name // web.Board.meetingCard's anchor
}

// agendaText is a meeting's agenda, numbered: the case steps, then the other business.
func (s *Service) agendaText(m *docket.CommissionMeeting) outbox.Markup {
	kind := "Regular"
	if m.Special {
		kind = "Special"
	}
	text := outbox.Format("*%s meeting %s*: %s, %s", kind, m.Name, s.when(m.Start), m.Place)
	listed, more := listAgenda(m.Agenda(), "\n%d. %s", slackTextBudget-utf8.RuneCountInString(string(text)))
	text += listed
	if more > 0 {
		text += outbox.Format("\n… and %s more: `/ethics letters %s` draws the whole agenda.", count(more, "item"), m.Name)
	}
	if len(m.Agenda()) == 0 {
		text += "\nNo items yet."
	}
	return text + s.agendaStatus(m)
}

// scheduleAtMeeting schedules a case step as an item of a meeting: the
// meeting named meeting=, or the one at the start and place given, whose agenda must still
// be open (5 ILCS 120/2.02). With no meeting recorded there it returns ok false: the step
// is scheduled on its own case, and the fold makes it an item of the meeting at its start
// and place.
func (s *Service) scheduleAtMeeting(ctx context.Context, req Request, a args,
	act docket.ScheduleMeeting) (resp Response, ok bool, err error) {
	mr, merr := s.meetingRecord()
	name := a.str("meeting_name")
	if merr != nil {
		if name != "" {
			return Response{}, true, merr
		}
		return Response{}, false, nil
	}
	all, err := mr.Meetings(ctx)
	if err != nil {
		return Response{}, true, err
	}
	all = s.withRegular(all)
	var m *docket.CommissionMeeting
	if name != "" {
		if m, err = s.meetingNamed(ctx, all, name, a.str("number"), act.Meeting); err != nil {
			return Response{}, true, err
		}
		if !act.Start.IsZero() && (!act.Start.Equal(m.Start) || act.Place != "" && act.Place != m.Place) {
			return Response{}, true, docket.Invalid("", "meeting",
				fmt.Sprintf("meeting %s is at %s, %s; give meeting= or a start and place, not both", m.Name,
					s.when(m.Start), m.Place))
		}
		act.Start, act.Place = m.Start, m.Place
		act.Regular = s.regularDay(m.Start) && !m.Special
	} else if m = docket.MeetingAt(all, act.Start, act.Place); m == nil || m.Folded {
		// Not to a recorded meeting: the step is a meeting of its own, or joins one folded
		// from its cases. A recorded meeting it leaves has its agenda changed with it.
		old := docket.HoldsItem(all, a.str("number"), act.Meeting)
		if old == nil || old.Folded || !old.Start.After(s.Now()) {
			return Response{}, false, nil
		}
		ch := docket.MeetingChange{Meeting: old.Name,
			Cases: []docket.CaseActions{{Number: a.str("number"), Actions: []docket.Action{act}}},
			Actions: []docket.MeetingAction{docket.AgendaChanged{What: fmt.Sprintf("case %s %s moved", a.str("number"),
				act.Meeting)}}}
		_, resp, err = s.changeMeeting(ctx, req, ch,
			outbox.Format("case %s's %s moved off its agenda", a.str("number"), act.Meeting.Name()), caseNotices)
		return resp, true, err
	}
	if !m.Cancelled.IsZero() {
		return Response{}, true, docket.Conflict("", "meeting", fmt.Sprintf("meeting %s was cancelled", m.Name))
	}
	if err := s.Engine.CheckAgendaOpen(m, s.Now()); err != nil {
		return Response{}, true, err
	}
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	if old := docket.HoldsItem(all, a.str("number"), act.Meeting); old != nil && !old.Folded && old.Name != m.Name &&
		old.Start.After(s.Now()) {
		ch.Left = old.Name
	}
	ch.Cases = []docket.CaseActions{{Number: a.str("number"), Actions: []docket.Action{act}}}
	ch.Actions = []docket.MeetingAction{docket.AgendaChanged{What: fmt.Sprintf("case %s %s", a.str("number"),
		act.Meeting)}}
	_, resp, err = s.changeMeeting(ctx, req, ch,
		outbox.Format("case %s's %s added", a.str("number"), act.Meeting.Name()), noNotice)
	return resp, true, err
}

// leaveMeeting cancels a case step that is an item of a recorded meeting which has not
// begun: its agenda changes with it, in the same transaction, so that a notice already
// posted is to be posted again, amended. The public is told the item is withdrawn and the
// meeting is held (withdrawalNotice), not that a meeting is cancelled. ok is false when
// no recorded meeting holds the step.
func (s *Service) leaveMeeting(ctx context.Context, req Request, number string,
	act docket.CancelMeeting) (resp Response, ok bool, err error) {
	all, err := s.allMeetings(ctx)
	if err != nil {
		return Response{}, false, nil // a record without meetings cancels on the case alone
	}
	m := docket.HoldsItem(all, number, act.Meeting)
	if m == nil || m.Folded || !m.Start.After(s.Now()) {
		return Response{}, false, nil
	}
	ch := docket.MeetingChange{Meeting: m.Name,
		Cases:   []docket.CaseActions{{Number: number, Actions: []docket.Action{act}}},
		Actions: []docket.MeetingAction{docket.AgendaChanged{What: fmt.Sprintf("case %s %s withdrawn", number, act.Meeting)}}}
	// The item in the words the public was given on the agenda.
	item := number
	for _, it := range m.Cases {
		if it.Case == number && it.Step == act.Meeting {
			item = it.Title()
		}
	}
	_, resp, err = s.changeMeetingWithdrawing(ctx, req, ch,
		outbox.Format("case %s's %s withdrawn from its agenda", number, act.Meeting.Name()), withdrawnNotice, item)
	return resp, true, err
}

// postMeeting records the posting of a meeting's notice once for all its items (5 ILCS
// 120/2.02): the meeting's, and each case step's whose notice is not yet recorded as
// posted, so that each case's own notice deadline (C)(1), (D), (F), (H) is met with it.
func (s *Service) postMeeting(ctx context.Context, req Request, m *docket.CommissionMeeting,
	at time.Time) (Response, error) {
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	if m.Folded && !m.Start.After(s.Now()) {
		// A meeting folded from its cases that has begun is not recorded now: its posting,
		// recorded late, is each case's (the ordinance's notice, missed, is warned of).
		ch.Create = nil
	} else {
		ch.Actions = []docket.MeetingAction{docket.PostAgenda{Posted: at}}
	}
	if ch.Create != nil {
		ch.Create.Posted = time.Time{} // recorded again, for every item
	}
	for _, it := range m.Cases {
		if !it.NoticePosted.IsZero() {
			continue
		}
		ch.Cases = append(ch.Cases,
			docket.CaseActions{Number: it.Case, Actions: []docket.Action{docket.PostNotice{Meeting: it.Step, Posted: at}}})
	}
	if len(ch.Cases) == 0 && len(ch.Actions) == 0 {
		return Response{}, docket.Conflict(docket.OMANotice, "",
			fmt.Sprintf("the notice of meeting %s is already recorded as posted for every item", m.Name))
	}
	when := at
	if when.IsZero() {
		when = s.Now()
	}
	// The case steps' postings recorded with it meet the same rule as the meeting's
	// (PostAgenda checks it again in the transaction): no posting before the agenda, as it
	// stands, existed (5 ILCS 120/2.02).
	if err := s.Engine.CheckPostedAfterChange(m, when); err != nil {
		return Response{}, err
	}
	notice := agendaNotice
	if len(ch.Actions) == 0 {
		notice = noNotice // the meeting has begun: a notice now would announce nothing
	}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("notice and agenda posted %s, for %s", s.when(when), allItems(len(m.Agenda()))), notice)
	return resp, err
}

// cancelMeeting cancels a meeting with all its items, in one transaction and with one
// public notice: each case step is cancelled on its case, and the meeting on its record.
func (s *Service) cancelMeeting(ctx context.Context, req Request, m *docket.CommissionMeeting,
	reason string) (Response, error) {
	if err := s.Engine.CheckChangeable(m, "cancelled", s.Now()); err != nil {
		return Response{}, err
	}
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	for _, it := range m.Cases {
		ch.Cases = append(ch.Cases,
			docket.CaseActions{Number: it.Case,
				Actions: []docket.Action{docket.CancelMeeting{Meeting: it.Step, Reason: reason}}})
	}
	ch.Actions = []docket.MeetingAction{docket.CancelCommissionMeeting{Reason: reason}}
	_, resp, err := s.changeMeeting(ctx, req, ch, outbox.Format("cancelled, with its %s", count(len(m.Agenda()), "item")),
		cancelledNotice)
	return resp, err
}

// runMove moves a meeting with all its items to another start or place, in one
// transaction and with one public notice: each case step is rescheduled on its case.
func runMove(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, all, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return Response{}, err
	}
	start, place := a.instant("start"), a.str("place")
	if place == "" {
		place = m.Place
	}
	// Checked before its case steps are: a meeting held is refused as such, not by a case.
	if err := s.Engine.CheckChangeable(m, "moved", s.Now()); err != nil {
		return Response{}, err
	}
	// One meeting at a start and place, as /ethics meeting has it: moved onto another, the
	// two agendas could not be told apart (the store checks it again in the transaction).
	if o := docket.MeetingAt(all, start, place); o != nil && o.Name != m.Name {
		return Response{}, docket.Conflict(docket.OMANotice, "start",
			fmt.Sprintf("meeting %s is already then and there: a meeting cannot be moved onto another; take its items up at "+
				"%s (/ethics schedule <case> <step> meeting=%s), or choose another time or place", o.Name, o.Name, o.Name))
	}
	// 5 ILCS 120/2.01, 2.02(a): a meeting moved is rescheduled, regular only if moved to the
	// start of a regular meeting of the schedule.
	regular := !m.Special && s.regularDay(start)
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	for _, it := range m.Cases {
		ch.Cases = append(ch.Cases,
			docket.CaseActions{Number: it.Case,
				Actions: []docket.Action{docket.ScheduleMeeting{Meeting: it.Step, Start: start, Place: place, Closed: it.Closed,
					Authority: it.Authority, Regular: regular}}})
	}
	ch.Actions = []docket.MeetingAction{docket.MoveMeeting{Start: start, Place: place, Regular: regular}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("moved to %s, %s, with its %s; post its notice again", s.when(start), place,
			count(len(m.Agenda()), "item")), movedNotice)
	return resp, err
}

// sitting is the meeting in progress now that holds a step of case number, if any.
func (s *Service) sitting(ctx context.Context, number string) (*docket.CommissionMeeting, error) {
	mr, err := s.meetingRecord()
	if err != nil || number == "" {
		return nil, nil // a record without meetings has no meeting in progress
	}
	all, err := mr.Meetings(ctx)
	if err != nil {
		return nil, err
	}
	return docket.SittingFor(all, number, s.Now()), nil
}

// rollAt is a roll call at meeting m at instant now, defaulting to the members present
// (docket.MinutesRecord.PresentAt): absent are those not present; yes are those present
// not given as voting no or abstaining, nor recused from case number ("" for a roll call
// about no case: the approval of minutes).
func (s *Service) rollAt(ctx context.Context, a args, m *docket.CommissionMeeting, now time.Time,
	number string) (*docket.Vote, error) {
	r := m.Minutes
	present := r.PresentAt(now)
	var recused []string
	if number != "" {
		c, err := s.Record.Case(ctx, number)
		if err != nil {
			return nil, err
		}
		recused = c.RecusedUsers(r.Seated)
	}
	v := &docket.Vote{Seated: slices.Clone(r.Seated), No: a.users("no"), Abstain: a.users("abstain"),
		Absent: a.users("absent"), Quorum: r.Quorum, Carry: s.Settings().Voting.Carry}
	if v.Carry == "" {
		v.Carry = docket.MajorityOfVotesCast
	}
	if !a.has("absent") {
		for _, who := range r.Seated {
			if !slices.Contains(present, who) && !slices.Contains(recused, who) {
				v.Absent = append(v.Absent, who)
			}
		}
	}
	if a.has("yes") {
		v.Yes = a.users("yes")
	} else {
		for _, who := range present {
			if !slices.Contains(v.No, who) && !slices.Contains(v.Abstain, who) && !slices.Contains(recused, who) &&
				!slices.Contains(v.Absent, who) {
				v.Yes = append(v.Yes, who)
			}
		}
	}
	// The roll call agrees with the meeting's roll: who votes is present, who is absent is.
	if err := s.Engine.CheckRollCall(r, v, now); err != nil {
		return nil, err
	}
	return v, nil
}

// namedMeeting reads the meeting named in a, and starts its change: recorded first if it
// is folded from its cases (recordFolded).
func (s *Service) namedMeeting(ctx context.Context, a args) (*docket.CommissionMeeting, docket.MeetingChange, error) {
	var ch docket.MeetingChange
	m, _, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err == nil {
		recordFolded(m, &ch)
	}
	return m, ch, err
}

// runConvene records the roll at the call to order, and whether a quorum is present
// (5 ILCS 120/2.01); with late= or left=, arrivals and departures after it.
func runConvene(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	var what outbox.Markup
	switch {
	case a.has("late") || a.has("left"):
		if a.has("present") || a.has("absent") {
			return Response{}, docket.Invalid(docket.OMAMinutes, "late",
				"late= and left= record arrivals and departures after the call to order; give them apart from present=")
		}
		ch.Actions = []docket.MeetingAction{docket.MemberMoves{Late: a.users("late"), Left: a.users("left"),
			At: a.instant("at")}}
		what = "arrivals and departures recorded"
	default:
		st := s.Settings()
		seated := slices.Clone(st.Roles.Commissioners)
		quorum := st.Voting.Quorum
		if quorum == 0 {
			quorum = docket.DefaultQuorum(len(seated))
		}
		present := a.users("present")
		if !a.has("present") && a.has("absent") {
			for _, who := range seated {
				if !slices.Contains(a.users("absent"), who) {
					present = append(present, who)
				}
			}
		}
		for _, who := range a.users("absent") {
			if slices.Contains(present, who) {
				return Response{}, docket.Invalid(docket.OMAQuorum, "absent", who+" is given as both present and absent")
			}
		}
		ch.Actions = []docket.MeetingAction{docket.Convene{Seated: seated, Quorum: quorum, Present: present,
			Remote: a.users("remote"), At: a.instant("at"), Emergency: a.str("emergency")}}
		what = "called to order"
		if a.has("emergency") {
			what = "called to order as an emergency meeting (5 ILCS 120/2.02(a)); post its notice as soon as practicable"
		}
	}
	res, resp, err := s.changeMeeting(ctx, req, ch, what, noNotice)
	if err != nil || res.Replayed {
		return resp, err
	}
	r := res.Meeting.Minutes
	at := s.Now()
	if !a.has("late") && !a.has("left") {
		at = r.Convened
	} else if a.has("at") {
		at = a.instant("at")
	}
	quorum := "a quorum is present"
	if err := r.QuorumAt(at); err != nil {
		quorum = "no quorum: " + docket.ErrorMessage(err) + " (" + docket.OMAQuorum + "); the commission may act on " +
			"nothing until one is present"
	}
	resp.Messages[0].Text = outbox.Format("Meeting *%s*: %s at %s. Present: %s. Absent: %s. %s.", res.Meeting.Name,
		what, s.when(at),
		s.members(r.PresentAt(at)), s.members(absentAt(r, at)), capitalize(quorum))
	return resp, nil
}

// absentAt lists the seated members not present at t.
func absentAt(r docket.MinutesRecord, t time.Time) []string {
	present := r.PresentAt(t)
	var out []string
	for _, who := range r.Seated {
		if !slices.Contains(present, who) {
			out = append(out, who)
		}
	}
	return out
}

// members names members by mention, "none" for none.
func (s *Service) members(ids []string) outbox.Markup {
	if len(ids) == 0 {
		return "none"
	}
	ms := make([]outbox.Markup, len(ids))
	for i, id := range ids {
		ms[i] = outbox.Mention(id)
	}
	return outbox.Join(ms, ", ")
}

// runSession records the entry into closed session for an item, by roll call in open
// session citing its exception (5 ILCS 120/2a), or the return to open session.
func runSession(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	var what outbox.Markup
	switch a.str("action") {
	case "close":
		n, err := strconv.Atoi(a.str("item"))
		if err != nil {
			return Response{}, docket.Invalid(docket.OMAClose, "item",
				"give the number of the item on the agenda to close the meeting for, e.g. /ethics session "+m.Name+" close 5")
		}
		now := orNow(a.instant("at"), s.Now())
		if !m.InSession(now) {
			return Response{}, docket.Conflict(docket.OMAMinutes, "meeting",
				fmt.Sprintf("meeting %s is not in progress: /ethics convene %s present=...", m.Name, m.Name))
		}
		// A member recused from the item's case may not move to close the meeting for it,
		// and takes no part in the vote.
		c, err := s.itemCase(ctx, m.Agenda(), n, req.User)
		if err != nil {
			return Response{}, err
		}
		number := ""
		if c != nil {
			number = c.Number
		}
		vote, err := s.rollAt(ctx,
			args{"yes": a["yes"], "no": a["no"], "abstain": a["abstain"], "absent": a["absent"]}.present(), m, now, number)
		if err != nil {
			return Response{}, err
		}
		if c != nil {
			// Recorded as recused in the roll, and so left out of who is present in the
			// closed session (letters' closed minutes).
			if err := vote.LeaveOutRecused(c, docket.OMAClose); err != nil {
				return Response{}, err
			}
		}
		ch.Actions = []docket.MeetingAction{docket.EnterClosed{Item: n, Exception: a.str("closed"), Vote: vote,
			At: a.instant("at"), Recorded: a.str("recorded") == "yes"}}
		what = outbox.Format("closed session entered for item %d by roll call, %s", n, vote.Tally())
	default:
		ch.Actions = []docket.MeetingAction{docket.ReturnToOpen{At: a.instant("at")}}
		what = "returned to open session"
	}
	_, resp, err := s.changeMeeting(ctx, req, ch, what, noNotice)
	return resp, err
}

// itemCase is the case whose step is item n of agenda, nil for other business (or no such
// item, which the meeting's action refuses). An item that is a case's step is the case's
// business: user, if recused from the case, is refused in the words Service.mayTouch uses
// for the case itself, whatever they do to the item (close the meeting for it, note it in
// the minutes, record who moved its motions).
func (s *Service) itemCase(ctx context.Context, agenda []docket.MeetingItem, n int, user string) (*docket.Case, error) {
	if n < 1 || n > len(agenda) || agenda[n-1].Kind != docket.CaseItem {
		return nil, nil
	}
	c, err := s.Record.Case(ctx, agenda[n-1].Case)
	if err != nil {
		return nil, err
	}
	if err := refuseRecused(&c, user); err != nil {
		return nil, err
	}
	return &c, nil
}

// runAdjourn records the time of adjournment.
func runAdjourn(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, ch, err := s.namedMeeting(ctx, a)
	if err != nil {
		return Response{}, err
	}
	ch.Actions = []docket.MeetingAction{docket.Adjourn{At: a.instant("at")}}
	_, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("adjourned at %s", s.when(orNow(a.instant("at"), s.Now()))), noNotice)
	return resp, err
}

// present drops the roll call's options not given.
func (a args) present() args {
	out := args{}
	for k, v := range a {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// orNow is t, or now if t is zero.
func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// capitalize puts a capital to the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// recusedInClosed names the first case the minutes r take in closed session that user is
// recused from, and why; "" if none.
func (s *Service) recusedInClosed(ctx context.Context, r docket.MinutesRecord, user string) (string, error) {
	for _, e := range r.Entries {
		if e.Session == 0 || e.Item.Case == "" {
			continue
		}
		c, err := s.Record.Case(ctx, e.Item.Case)
		if err != nil {
			return "", err
		}
		if why, recused := c.Recused(user); recused {
			return fmt.Sprintf("case %s, from which you are recused (%s)", c.Number, why), nil
		}
	}
	return "", nil
}

// runMinutesDraft drafts a meeting's minutes from what was recorded (5 ILCS 120/2.06): the
// open minutes, and, if the meeting had a closed session, the closed minutes, which are
// confidential; each as PDF and Markdown, shared in the private docket channel. Members
// are named by Names (by default their ids).
func runMinutesDraft(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if s.Letters == nil {
		return Response{}, docket.Conflict("", "", "letters are not set up here; see docs/clerk.md, \"Letters\"")
	}
	m, all, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return Response{}, err
	}
	r, err := s.minutesRecord(ctx, m, all)
	if err != nil {
		return Response{}, err
	}
	docs, parts, err := s.Letters.Minutes(r, s.names())
	if err != nil {
		return Response{}, err
	}
	// The closed minutes tell what was said and voted on a case in closed session: a member
	// recused from one of those cases gets the open minutes only (Service.mayTouch keeps
	// the case itself from them the same way).
	withheld, err := s.recusedInClosed(ctx, r, req.User)
	if err != nil {
		return Response{}, err
	}
	if withheld != "" {
		n := 0
		for i := range docs {
			if parts[i] != docket.ClosedPart {
				docs[n], parts[n] = docs[i], parts[i]
				n++
			}
		}
		docs, parts = docs[:n], parts[:n]
	}
	var files []File
	text := outbox.Format("Meeting %s: its minutes, drafted from the record (%s):", m.Name, docket.OMAMinutes)
	kind := "draft"
	if !r.Approved.IsZero() {
		kind = "approved"
		text = outbox.Format("Meeting %s: its minutes as approved on %s, at the meeting of %s (%s):", m.Name,
			r.Approved.Long(), r.ApprovedAt, docket.OMAMinutes)
	}
	for i, d := range docs {
		files = append(files, File{Name: d.Name, Title: d.Title, Data: d.Data})
		text += outbox.Format("\n• %s minutes: %s", parts[i], d.Name)
	}
	if len(r.Sessions) > 0 {
		text += "\nThe closed minutes are confidential until the commission finds, on its semi-annual review, that they " +
			"need no longer be (5 ILCS 120/2.06(d))."
	}
	if withheld != "" {
		text += outbox.Format("\nThe closed minutes are not given to you: they take %s, in closed session.", withheld)
	}
	text += s.minutesClock(m, all, r)
	note := outbox.Format("Meeting %s: its %s minutes, produced by %s.", m.Name, kind, outbox.Mention(req.User))
	return Response{Messages: []Message{{Text: text}}, Files: files, FilesNote: note}, nil
}
