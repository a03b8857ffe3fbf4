package commands

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// say derives what a recorded step causes ethicsbot to say: a line in the private docket
// channel, and whatever public notice the ordinance calls for. It runs inside the
// transaction that records the step, and each post is keyed by the step's event, so a
// post exists if and only if its event does, and a retried request adds none.
//
// In the docket channel a case is a thread (issue 22 §3): its parent is the case's card,
// posted with the case's first step there and updated in place after each step; the step's
// line is a reply in the thread. The parent is written with every step, and kept as it is
// if already there, so a case filed before threads gets its card with its next step.
func (s *Service) say(st docket.Step) []outbox.Post {
	var out []outbox.Post
	ch := s.Settings().Channels
	n := 0
	add := func(channel string, text outbox.Markup, thread outbox.Key) {
		if channel == "" {
			return
		}
		n++
		to := outbox.Dest{Channel: channel}
		out = append(out,
			outbox.Post{Key: outbox.EventKey(st.After.Number, st.Event, n, to), Text: text, Due: st.At, Thread: thread})
	}
	if ch.Docket != "" {
		to := outbox.Dest{Channel: ch.Docket}
		card := outbox.CardKey(st.After.Number, to)
		text, actions := s.channelCard(st.After, st.At), s.cardActions(st.After)
		out = append(out, outbox.Post{Key: card, Text: text, Actions: actions, Due: st.At})
		add(ch.Docket, s.docketLine(st), card)
		out = append(out,
			outbox.Post{Key: outbox.CardUpdateKey(st.After.Number, st.Event, to), Text: text, Actions: actions, Due: st.At,
				Thread: card, Edit: true})
	}
	for _, n := range s.publicNotices(st) {
		add(ch.Notices, n, outbox.Key{})
		if start, ok := noticedMeeting(st); ok { // 5 ILCS 120/2.02(b): the news media's copies
			out[len(out)-1].Media = s.mediaCopies(start)
		}
	}
	return out
}

// noticedMeeting is the start of the meeting whose public notice step posts, if it posts
// one: a meeting scheduled, moved or cancelled.
func noticedMeeting(st docket.Step) (time.Time, bool) {
	switch a := st.Action.(type) {
	case docket.ScheduleMeeting:
		return st.After.Meeting(a.Meeting).Start, true
	case docket.CancelMeeting:
		return st.Before.Meeting(a.Meeting).Start, true
	}
	return time.Time{}, false
}

// channelCard is a case's card in the docket channel, the parent of its thread there: its
// state, its parties and its open deadlines as they stand after a step, so that the channel
// shows each case once, as it is now.
func (s *Service) channelCard(c *docket.Case, now time.Time) outbox.Markup {
	e := s.Engine
	sched := e.Schedule(&c.Facts, now)
	text := outbox.Format("*Case %s: %s*%s\n%s v. %s, §%s, received %s.", c.Number, stateName(c), s.expeditedTag(c),
		c.Complainant.Name, c.Respondent.Name, strings.Join(c.Sections, ", §"), s.when(c.Received))
	var open []outbox.Markup
	for _, d := range sched.Deadlines {
		if d.Status == docket.Open && d.Period.Party == docket.Commission {
			open = append(open, outbox.Format("• %s", DeadlineLine(e, d, now)))
		}
	}
	if len(open) == 0 {
		text += "\nNothing open for the commission."
	} else {
		text += "\n*Open:*\n" + outbox.Join(open, "\n")
	}
	return text + outbox.Format("\n_As of %s; each step is in this thread._", s.when(now))
}

// cardActions are what a case's card in the docket channel offers (issue 22 §3): an "Open
// case" button, and the menu of the steps the case allows now that any member who sees
// the channel may take (stepActions over readers), as the case's row on the App Home tab
// offers them. They are committed with the step, in the card's post and its update, so
// that the card's menu is always that of the state the card shows. A click is checked
// again against the clicker's role and recusal (Service.Action, Service.OpenCase), and the
// form's submission too (Service.mayTouch).
func (s *Service) cardActions(c *docket.Case) []outbox.Action {
	out := []outbox.Action{{Label: "Open case", Case: c.Number}}
	for _, a := range s.stepActions(c, readers...) {
		a.Menu = true
		out = append(out, a)
	}
	return out
}

// docketLine is the docket channel's line about a step: who did what to which case.
func (s *Service) docketLine(st docket.Step) outbox.Markup {
	c := st.After
	if _, ok := st.Action.(docket.File); ok {
		return outbox.Format("New case %s%s: %s v. %s, §%s, received %s, filed by %s.%s",
			c.Number, s.expeditedTag(c), c.Complainant.Name, c.Respondent.Name, strings.Join(c.Sections, ", §"),
			s.when(c.Received), outbox.Mention(st.By), warningText(st.Warnings))
	}
	line := outbox.Format("%s%s: %s%s, recorded by %s.%s", c.Number, s.expeditedTag(c), s.done(st), overridden(st),
		outbox.Mention(st.By), warningText(st.Warnings))
	switch st.Action.(type) {
	case docket.Correct, docket.Void:
		line += s.recalculation(st.Before, st.After, st.At)
	}
	return line
}

// done says what a step did, from its action: "hearing scheduled for Thu 10 Dec 2026
// 17:00 CST at Council Chambers". An action of the commission says how the vote went.
func (s *Service) done(st docket.Step) outbox.Markup {
	if m, failed := failedMotion(st); failed {
		return outbox.Format("motion failed: %s %s, %s; nothing else changed", m.What, m.Rule, m.Vote.Tally())
	}
	moved := false
	if a, ok := st.Action.(docket.ScheduleMeeting); ok {
		moved = s.reschedules(st, a.Meeting)
	}
	text := s.did(st.Action, st.At, moved)
	if v, adopted := adoptedVote(st); adopted {
		text += outbox.Format(" (%s)", v.Vote.Tally())
	}
	return text
}

// failedMotion is the motion a step recorded as failed, if it did.
func failedMotion(st docket.Step) (docket.Motion, bool) {
	if len(st.After.Motions) > len(st.Before.Motions) {
		return st.After.Motions[len(st.After.Motions)-1], true
	}
	return docket.Motion{}, false
}

// adoptedVote is the roll call that adopted a step's action, if one did.
func adoptedVote(st docket.Step) (docket.Adopted, bool) {
	if len(st.After.Votes) > len(st.Before.Votes) {
		return st.After.Votes[len(st.After.Votes)-1], true
	}
	return docket.Adopted{}, false
}

// did says what an action taken at at did, from the action alone, so that the history of
// a case can say it too; moved is a schedule that moved a meeting still to come.
func (s *Service) did(act docket.Action, at time.Time, moved bool) outbox.Markup {
	orAt := func(t time.Time) time.Time {
		if t.IsZero() {
			return at
		}
		return t
	}
	switch a := act.(type) {
	case docket.File:
		return outbox.Format("filed, received %s", s.when(orAt(a.Received)))
	case docket.ScheduleMeeting:
		verb := "scheduled"
		if moved {
			verb = "rescheduled"
		}
		return outbox.Format("%s %s for %s at %s", a.Meeting.Name(), verb, s.when(a.Start), a.Place)
	case docket.CancelMeeting:
		return outbox.Format("%s cancelled", a.Meeting.Name())
	case docket.PostNotice:
		return outbox.Format("notice of the %s posted %s", a.Meeting.Name(), s.when(orAt(a.Posted)))
	case docket.RecordMailing:
		article := docket.CompactArticle(a.Article)
		if info, ok := a.Paper.Info(); ok {
			return outbox.Format("certified mailing recorded: %s %s, article %s", info.Name, info.Rule, article)
		}
		return outbox.Format("certified mail to the %s recorded, article %s", a.Recipient, article)
	case docket.RecordDelivery:
		info, _ := a.Paper.Info()
		return outbox.Format("delivery recorded: %s %s", info.Name, info.Rule)
	case docket.RecordEnforcement:
		return outbox.Format("enforcement recorded: %s", a.What)
	case docket.RecordReturnReceipt:
		article := docket.CompactArticle(a.Article)
		if a.Signer != "" {
			return outbox.Format("return receipt recorded for article %s, signed by %s", article, a.Signer)
		}
		return outbox.Format("return receipt recorded for article %s", article)
	case docket.RecordUndelivered:
		return outbox.Format("certified mailing article %s came back %s", docket.CompactArticle(a.Article), a.Outcome)
	case docket.Rule:
		if a.ReferralRuling != "" {
			o := s.Engine.Ord
			return outbox.Format("ruling recorded: §%s part %s; §%s part %s", o.HearingSection,
				strings.ReplaceAll(string(a.Ruling), "_", " "), o.ReferralSection,
				strings.ReplaceAll(string(a.ReferralRuling), "_", " "))
		}
		return outbox.Format("ruling recorded: %s", strings.ReplaceAll(string(a.Ruling), "_", " "))
	case docket.RecessHearing:
		return "hearing recessed"
	case docket.ConcludeHearing:
		return "hearing concluded"
	case docket.Decide:
		return outbox.Format("decision recorded (%s)", outcome(a))
	case docket.DemandPublicHearing:
		return "demand for a public hearing recorded; enforcement is stayed (F)"
	case docket.HoldPublicHearing:
		return "public hearing held"
	case docket.IssueFinal:
		return "final recommendation issued"
	case docket.FindFrivolous:
		return outbox.Format("complaint found knowingly frivolous; complainant fined $%s", docket.Dollars(a.Fine))
	case docket.AddCandidacy:
		return outbox.Format("candidacy at the election on %s recorded", a.Election.Long())
	case docket.Recuse:
		if a.Reason != "" {
			return outbox.Format("%s recused: %s", outbox.Mention(a.User), a.Reason)
		}
		return outbox.Format("%s recused", outbox.Mention(a.User))
	case docket.AddDocument:
		return outbox.Format("document added to the case file: \"%s\" (%s, %s)", a.Title, a.Of, docket.Size(a.Size))
	case docket.SetOfficer:
		// The papers already sent went to the officer named then (Mailing.Officer).
		return outbox.Format("the officer with authority to discipline named: %s; the (E)(2) and (F) recommendations not "+
			"yet sent go to them", a.Officer)
	case docket.SetParty:
		// The details themselves are confidential and stay in the record and on the card.
		return outbox.Format("the %s's %s recorded", a.Party, partyDetails(a))
	case docket.Correct:
		return outbox.Format("event %d corrected: %s %s → %s (%s)", a.Seq, a.Field, quoted(a.From), quoted(a.To), a.Reason)
	case docket.Void:
		return outbox.Format("event %d (%s) voided (%s)", a.Seq, kindName(a.Of), a.Reason)
	}
	return outbox.Format("%s recorded", act.Kind())
}

// outcome names a decision as /ethics decide does: dismiss, recommend or fine.
func outcome(d docket.Decide) string {
	switch {
	case d.Dismiss:
		return "dismiss"
	case d.Recommendation == "" && d.Fine > 0:
		return "fine"
	}
	return "recommend"
}

// reschedules reports whether scheduling meeting k in st moved a meeting that was still to
// come. Scheduling a session after one that was held (a recessed hearing reconvened
// again) is a new meeting, not a move.
func (s *Service) reschedules(st docket.Step, k docket.MeetingKind) bool {
	b := st.Before.Meeting(k)
	return b.Scheduled() && b.Start.After(st.At)
}

// publicNotices are the posts to the public channel that a step calls for: meeting
// notices, moves and cancellations, and the outcomes the ordinance makes public. Nothing
// else about a case is ever posted there.
func (s *Service) publicNotices(st docket.Step) []outbox.Markup {
	if s.Settings().Channels.Notices == "" {
		return nil
	}
	if _, failed := failedMotion(st); failed {
		return nil // a motion that failed changed nothing the public is told of
	}
	loc := s.Engine.Cal.Location()
	c := st.After
	const at = "Mon 2 Jan 2006 at 15:04 MST"
	switch a := st.Action.(type) {
	case docket.ScheduleMeeting:
		notice := docket.MeetingNotice(a.Meeting, c.Meeting(a.Meeting), loc)
		if s.reschedules(st, a.Meeting) {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE, RESCHEDULED. Ethics Commission, case %s: the %s set for %s "+
				"is moved to: %s.",
				c.Number, a.Meeting.Name(), st.Before.Meeting(a.Meeting).Start.In(loc).Format(at), notice)}
		}
		return []outbox.Markup{outbox.Format("PUBLIC NOTICE. Ethics Commission, case %s: %s.", c.Number, notice)}
	case docket.CancelMeeting:
		return []outbox.Markup{outbox.Format("PUBLIC NOTICE, CANCELLED. Ethics Commission, case %s: the %s set for %s "+
			"is cancelled.",
			c.Number, a.Meeting.Name(), st.Before.Meeting(a.Meeting).Start.In(loc).Format(at))}
	case docket.Rule:
		if r, ok := publicRecord(c, "dismissal", loc); ok {
			if r.Section != "" {
				return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission has dismissed the §%s part of "+
					"case %s, the %s: %s.%s", r.Rule, r.Section, r.Case, parties(r),
					docket.DismissalWords(docket.Ruling(r.Ruling), docket.Ground(r.Ground)), byVote(r))}
			}
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission has dismissed case %s, the %s: %s.%s",
				r.Rule, r.Case, parties(r), docket.DismissalWords(docket.Ruling(r.Ruling), docket.Ground(r.Ground)), byVote(r))}
		}
	case docket.Decide:
		if r, ok := publicRecord(c, "decision", loc); ok {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission's decision in case %s, the %s, on "+
				"%s: %s.%s%s",
				r.Rule, r.Case, parties(r), r.On.Long(), r.Text, byVote(r), outcomeDetail(r.Findings, r.Recommendation, r.Fine))}
		}
	case docket.Correct:
		if !reflect.DeepEqual(docket.PublicRecords(st.Before, loc), docket.PublicRecords(c, loc)) {
			// What the public was told changed: it is told of the correction, quoting it.
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE, CORRECTION. Ethics Commission, case %s: the %s recorded as "+
				"%s is corrected to %s.",
				c.Number, correctedWhat(a), quoted(a.From), quoted(a.To))}
		}
	case docket.Void:
		before, after := docket.PublicRecords(st.Before, loc), docket.PublicRecords(c, loc)
		if reflect.DeepEqual(before, after) {
			return nil
		}
		// What the public was told changed: it is told which record is withdrawn, quoting
		// it from what was public before, and which notice stands again.
		gone, back := standingOnly(before, after), standingOnly(after, before)
		var text outbox.Markup
		switch {
		case len(gone) > 0:
			text = outbox.Format("%s %s recorded in error and %s withdrawn", publicWords(gone), plural(gone, "was", "were"),
				plural(gone, "is", "are"))
			if len(back) > 0 {
				text += outbox.Format("; %s %s", publicWords(back), plural(back, "stands", "stand"))
			}
		case len(back) > 0:
			text = outbox.Format("%s %s after all: %s withdrawal was recorded in error", publicWords(back),
				plural(back, "stands", "stand"), plural(back, "its", "their"))
		default:
			text = outbox.Format("the %s recorded earlier was recorded in error and is withdrawn", kindName(a.Of))
		}
		return []outbox.Markup{outbox.Format("PUBLIC NOTICE, CORRECTION. Ethics Commission, case %s: %s.", c.Number, text)}
	case docket.IssueFinal:
		if r, ok := publicRecord(c, "final_recommendation", loc); ok {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission's final recommendation in case %s, "+
				"the %s, on %s.%s%s%s",
				r.Rule, r.Case, parties(r), r.On.Long(), byVote(r), labelled("Final recommendation", r.Text), fineLine(r.Fine))}
		}
	}
	return nil
}

// standingOnly lists the records of rs that stand (a meeting notice not withdrawn, or an
// outcome) and are not in others. Party names are left out of the comparison: they are in
// every record while the case is public, and a void that unmakes its outcome removes them.
func standingOnly(rs, others []docket.PublicRecord) []docket.PublicRecord {
	bare := func(r docket.PublicRecord) docket.PublicRecord {
		r.Complainant, r.Respondent = "", ""
		return r
	}
	var out []docket.PublicRecord
	for _, r := range rs {
		if r.Withdrawn == "" &&
			!slices.ContainsFunc(others, func(o docket.PublicRecord) bool { return reflect.DeepEqual(bare(o), bare(r)) }) {
			out = append(out, r)
		}
	}
	return out
}

// publicWords names public records as a citizen reads them, quoting what they said, from
// the records alone: "the dismissal of case 2026-001 announced on Mon 7 Dec 2026 (complaint
// insufficient, (C)(2))". Long or multi-line texts are folded onto the line, or named by
// their length, so a notice stays one line.
func publicWords(rs []docket.PublicRecord) outbox.Markup {
	words := make([]outbox.Markup, len(rs))
	for i, r := range rs {
		on := r.On.In(time.UTC).Format("Mon 2 Jan 2006")
		inline := func(v string) string { return quoted(strings.Join(strings.Fields(v), " ")) }
		switch r.Record {
		case "meeting_notice":
			// (C)(1), (D), (F): the notice as it was given.
			words[i] = outbox.Format("the notice of the %s,", r.Text)
		case "dismissal":
			// (C)(2): the notice of dismissal, of the case or of one part of it.
			what := outbox.Format("case %s", r.Case)
			if r.Section != "" {
				what = outbox.Format("the §%s part of case %s", r.Section, r.Case)
			}
			ground := map[string]string{string(docket.Insufficient): "complaint insufficient",
				string(docket.NoProbableCause): "no probable cause"}[r.Ruling]
			if r.Ground == string(docket.GroundTimeBarred) {
				ground = "time-barred under (I)"
			}
			words[i] = outbox.Format("the dismissal of %s announced on %s (%s, %s)", what, on, ground, r.Rule)
		case "decision":
			// (E): the decision, with its findings, recommendation and fine.
			detail := outbox.Format("%s", r.Text)
			if strings.TrimSpace(r.Findings) != "" {
				detail += outbox.Format("; findings %s", inline(r.Findings))
			}
			if strings.TrimSpace(r.Recommendation) != "" {
				detail += outbox.Format("; recommendation %s", inline(r.Recommendation))
			}
			if r.Fine > 0 {
				detail += outbox.Format("; fine $%s", docket.Dollars(r.Fine))
			}
			words[i] = outbox.Format("the decision in case %s announced on %s (%s)", r.Case, on, detail)
		case "final_recommendation":
			// (F): the final recommendation, and its fine.
			detail := outbox.Format("%s: %s", r.Rule, inline(r.Text))
			if r.Fine > 0 {
				detail += outbox.Format("; fine $%s", docket.Dollars(r.Fine))
			}
			words[i] = outbox.Format("the final recommendation in case %s announced on %s (%s)", r.Case, on, detail)
		default:
			words[i] = outbox.Format("the %s in case %s of %s", kindName(r.Record), r.Case, on)
		}
	}
	return outbox.Join(words, " and ")
}

// plural picks the word for one record or for more.
func plural(rs []docket.PublicRecord, one, more string) string {
	if len(rs) == 1 {
		return one
	}
	return more
}

// correctedWhat names a corrected fact for the public: "place of the sufficiency meeting".
func correctedWhat(a docket.Correct) string {
	field := strings.ReplaceAll(a.Field, "_", " ")
	if act, err := docket.DecodeAction(a.Of, a.Action); err == nil {
		if k := meetingOf(act); k != "" {
			return field + " of the " + k.Name()
		}
	}
	return field
}

// publicRecord finds c's public record of kind: what the ordinance makes public of it.
func publicRecord(c *docket.Case, kind string, loc *time.Location) (docket.PublicRecord, bool) {
	for _, r := range docket.PublicRecords(c, loc) {
		if r.Record == kind {
			return r, true
		}
	}
	return docket.PublicRecord{}, false
}

// byVote says how the commission voted on a public action: " Adopted 3–0." ("" without a
// roll call).
func byVote(r docket.PublicRecord) outbox.Markup {
	if r.Tally == "" {
		return ""
	}
	return outbox.Format(" By roll call: %s.", r.Tally)
}

func parties(r docket.PublicRecord) outbox.Markup {
	return outbox.Format("complaint of %s against %s", r.Complainant, r.Respondent)
}
