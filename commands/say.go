package commands

import (
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// say derives what a recorded step causes ethicsbot to say: a line in the private docket
// channel, and whatever public notice the ordinance calls for. It runs inside the
// transaction that records the step, and each post is keyed by the step's event, so a
// post exists if and only if its event does, and a retried request adds none.
func (s *Service) say(st docket.Step) []outbox.Post {
	var out []outbox.Post
	add := func(channel string, text outbox.Markup) {
		if channel == "" {
			return
		}
		to := outbox.Dest{Channel: channel}
		out = append(out, outbox.Post{Key: outbox.EventKey(st.After.Number, st.Event, len(out)+1, to), Text: text, Due: st.At})
	}
	add(s.Channels.Docket, s.docketLine(st))
	for _, n := range s.publicNotices(st) {
		add(s.Channels.Notices, n)
	}
	return out
}

// docketLine is the docket channel's line about a step: who did what to which case.
func (s *Service) docketLine(st docket.Step) outbox.Markup {
	c := st.After
	if _, ok := st.Action.(docket.File); ok {
		return outbox.Format("New case %s%s: %s v. %s, §%s, received %s, filed by %s.%s",
			c.Number, s.expeditedTag(c), c.Complainant.Name, c.Respondent.Name, strings.Join(c.Sections, ", §"), s.when(c.Received), outbox.Mention(st.By), warningText(st.Warnings))
	}
	return outbox.Format("%s%s: %s%s, recorded by %s.%s", c.Number, s.expeditedTag(c), s.done(st), overridden(st), outbox.Mention(st.By), warningText(st.Warnings))
}

// done says what a step did, from its action: "hearing scheduled for Thu 10 Dec 2026
// 17:00 CST at Council Chambers".
func (s *Service) done(st docket.Step) outbox.Markup {
	c := st.After
	switch a := st.Action.(type) {
	case docket.File:
		return outbox.Format("filed, received %s", s.when(c.Received))
	case docket.ScheduleMeeting:
		verb := "scheduled"
		if s.reschedules(st, a.Meeting) {
			verb = "rescheduled"
		}
		return outbox.Format("%s %s for %s at %s", a.Meeting.Name(), verb, s.when(a.Start), a.Place)
	case docket.CancelMeeting:
		return outbox.Format("%s cancelled", a.Meeting.Name())
	case docket.PostNotice:
		return outbox.Format("notice of the %s posted %s", a.Meeting.Name(), s.when(c.Meeting(a.Meeting).NoticePosted))
	case docket.RecordMailing:
		m := c.Mailings[len(c.Mailings)-1]
		return outbox.Format("certified mail to the %s recorded, article %s", m.Recipient, m.Article)
	case docket.RecordReturnReceipt:
		article, _ := docket.NormalizeArticle(a.Article)
		return outbox.Format("return receipt recorded for article %s", article)
	case docket.Rule:
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
	}
	return outbox.Format("%s recorded", st.Action.Kind())
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
	if s.Channels.Notices == "" {
		return nil
	}
	loc := s.Engine.Cal.Location()
	c := st.After
	const at = "Mon 2 Jan 2006 at 15:04 MST"
	switch a := st.Action.(type) {
	case docket.ScheduleMeeting:
		notice := docket.MeetingNotice(a.Meeting, c.Meeting(a.Meeting), loc)
		if s.reschedules(st, a.Meeting) {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE, RESCHEDULED. Ethics Commission, case %s: the %s set for %s is moved to: %s.",
				c.Number, a.Meeting.Name(), st.Before.Meeting(a.Meeting).Start.In(loc).Format(at), notice)}
		}
		return []outbox.Markup{outbox.Format("PUBLIC NOTICE. Ethics Commission, case %s: %s.", c.Number, notice)}
	case docket.CancelMeeting:
		return []outbox.Markup{outbox.Format("PUBLIC NOTICE, CANCELLED. Ethics Commission, case %s: the %s set for %s is cancelled.",
			c.Number, a.Meeting.Name(), st.Before.Meeting(a.Meeting).Start.In(loc).Format(at))}
	case docket.Rule:
		if r, ok := publicRecord(c, "dismissal", loc); ok {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission has dismissed case %s, the %s: %s.", r.Rule, r.Case, parties(r), rulingWords(r.Ruling))}
		}
	case docket.Decide:
		if r, ok := publicRecord(c, "decision", loc); ok {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission's decision in case %s, the %s, on %s: %s.%s",
				r.Rule, r.Case, parties(r), r.On.Long(), r.Text, outcomeDetail(r.Findings, r.Recommendation, r.Fine))}
		}
	case docket.IssueFinal:
		if r, ok := publicRecord(c, "final_recommendation", loc); ok {
			return []outbox.Markup{outbox.Format("PUBLIC NOTICE %s. The Ethics Commission's final recommendation in case %s, the %s, on %s:%s%s",
				r.Rule, r.Case, parties(r), r.On.Long(), labelled("Final recommendation", r.Text), fineLine(r.Fine))}
		}
	}
	return nil
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

func parties(r docket.PublicRecord) outbox.Markup {
	return outbox.Format("complaint of %s against %s", r.Complainant, r.Respondent)
}

func rulingWords(r string) string {
	if r == string(docket.Insufficient) {
		return "the complaint does not sufficiently allege a violation"
	}
	return "there is no probable cause to proceed"
}
