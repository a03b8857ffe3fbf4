package commands

import (
	"context"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// act is who acts on req, and when: now.
func (s *Service) act(req Request) docket.Act {
	return docket.Act{By: req.User, Request: req.RequestID, At: s.Now()}
}

// saying is what one request says while the record records it: the posts said, for the
// Response, and for a change of a meeting, which of its notices the change posts. The
// record's sayer (Say, SayMeeting, wired into the record once) finds it in the request's
// context.
type saying struct {
	posts   []outbox.Post
	meeting *meetingSaying // nil for a request on a case alone
}

// meetingSaying is which notice a change of a meeting posts (see changeMeeting).
type meetingSaying struct {
	notice    meetingNoticeKind
	withdrawn string // for a withdrawnNotice, the item withdrawn, in the agenda's words
	cancelled int    // the case steps the change takes off the agenda, which its notice still counts
}

type sayingKey struct{}

// sayer returns ctx for one request, given to the record, and the posts the request says,
// for the Response; meeting, for a change of a meeting, says which notice it posts. The
// posts are read only once the record has returned without error: then they are exactly
// the posts committed with the events.
func (s *Service) sayer(ctx context.Context, meeting ...meetingSaying) (context.Context, *[]outbox.Post) {
	r := &saying{}
	if len(meeting) > 0 {
		r.meeting = &meeting[0]
	}
	return context.WithValue(ctx, sayingKey{}, r), &r.posts
}

// Say derives what a recorded step causes ethicsbot to say (say), for the record to
// commit with the step's event: the record calls it inside its transaction (store.Sayer).
// In a change of a meeting that posts a notice of its own, the case steps' own public
// notices are left out (changeMeeting).
func (s *Service) Say(ctx context.Context, st docket.Step) []outbox.Post {
	r, _ := ctx.Value(sayingKey{}).(*saying)
	if r == nil || r.meeting == nil {
		p := s.say(st)
		if r != nil {
			r.posts = append(r.posts, p...)
		}
		return p
	}
	var p []outbox.Post
	for _, post := range s.say(st) {
		if r.meeting.notice == caseNotices || post.Key.To.Channel != s.Settings().Channels.Notices {
			p = append(p, post)
		}
	}
	r.posts = append(r.posts, p...)
	return p
}

// SayMeeting derives the public notice a change of meeting m posts, as the request chose
// it, for the record to commit with the change (store.Sayer); nothing for a change made
// outside a request of the meeting commands, or one that posts no notice of the meeting's.
func (s *Service) SayMeeting(ctx context.Context, m docket.CommissionMeeting,
	_ []docket.CommissionMeeting) []outbox.Post {
	r, _ := ctx.Value(sayingKey{}).(*saying)
	if r == nil || r.meeting == nil || r.meeting.notice == noNotice || r.meeting.notice == caseNotices {
		return nil
	}
	var p []outbox.Post
	if r.meeting.notice == withdrawnNotice {
		p = s.withdrawalNotice(&m, r.meeting.withdrawn)
	} else {
		p = s.meetingNotice(&m, r.meeting.notice, len(m.Items)+r.meeting.cancelled)
	}
	r.posts = append(r.posts, p...)
	return p
}

// say derives what a recorded step causes ethicsbot to say: a line in the private docket
// channel, and whatever public notice the ordinance calls for. It runs inside the
// transaction that records the step, and each post is keyed by the step's event, so a
// post exists if and only if its event does, and a retried request adds none.
//
// In the docket channel a case is a thread: its parent is the case's card,
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
		if start, ok := st.NoticedMeeting(); ok { // 5 ILCS 120/2.02(b): the news media's copies
			out[len(out)-1].Media = s.mediaCopies(start)
		}
	}
	return out
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

// cardActions are what a case's card in the docket channel offers: an "Open
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
	if _, ok := st.Action.(docket.Amending); ok {
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
	text := said(st.Action.Did(s.Engine.Wording(st)))
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

// said shows an act's words in a message: the text escaped, each member it names mentioned.
func said(words docket.Words) outbox.Markup {
	var text outbox.Markup
	for _, w := range words {
		if w.Member != "" {
			text += outbox.Mention(w.Member)
			continue
		}
		text += outbox.Escape(w.Text)
	}
	return text
}

// publicNotices are the posts to the public channel that a step calls for: the public
// notice its act gives (docket.Noticed), laid out with the commission's texts quoted and
// the fine on a line of its own. Nothing else about a case is ever posted there.
func (s *Service) publicNotices(st docket.Step) []outbox.Markup {
	if s.Settings().Channels.Notices == "" {
		return nil
	}
	if _, failed := failedMotion(st); failed {
		return nil // a motion that failed changed nothing the public is told of
	}
	act, ok := st.Action.(docket.Noticed)
	if !ok {
		return nil
	}
	n, ok := act.Notice(s.Engine.Wording(st))
	if !ok {
		return nil
	}
	text := outbox.Escape(n.Text)
	for _, q := range n.Quoted {
		text += labelled(q.Label, q.Text)
	}
	return []outbox.Markup{text + fineLine(n.Fine)}
}
