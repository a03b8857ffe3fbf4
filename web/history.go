package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
)

// What happened stays shown. The public keeps what it was told (5 ILCS 120/2.02): a meeting
// cancelled stays on the board, marked cancelled with the date of its cancellation notice;
// a meeting moved shows the start and place it had before; and the calendar feed keeps
// each meeting's event through its moves and its cancellation, raising its SEQUENCE (RFC
// 5545) at each change, so that a subscribed calendar changes the event it has. And what
// the clerk drafts stays the clerk's: a recorded meeting, with the case steps on its
// agenda, reaches the board when its agenda is posted, dated by that posting.

// view is the record as a page shows it: the public records as entries, each case step's
// notice placed with its meeting (place), and the commission's meetings (nil when the
// record keeps none).
type view struct {
	entries  []entry
	meetings []docket.CommissionMeeting
	at       func(start time.Time, place string) *docket.CommissionMeeting // docket.MeetingAt over meetings
}

// view reads the meetings and makes recs the entries of a page at root, leaving out the
// case steps of agendas not yet posted.
func (b *Board) view(ctx context.Context, recs []docket.Posting, now time.Time, root string) (view, error) {
	var ms []docket.CommissionMeeting
	if m, ok := b.Records.(Meetings); ok {
		var err error
		if ms, err = m.Meetings(ctx); err != nil {
			return view{}, err
		}
	}
	return b.viewOf(ms, recs, now, root), nil
}

// viewOf makes recs the entries of a page at root among the meetings ms.
func (b *Board) viewOf(ms []docket.CommissionMeeting, recs []docket.Posting, now time.Time, root string) view {
	v := view{meetings: ms}
	// Each notice is looked up among the meetings: by a map, not a walk over every meeting
	// for each notice, which at 10,000 cases was most of a board's making.
	v.at = docket.IndexMeetings(v.meetings)
	v.entries = make([]entry, 0, len(recs)) // an entry is large: grown, the list would be copied again and again
	for _, r := range recs {
		e := b.entry(r, now, root)
		if e.Record == "meeting_notice" && !b.place(&e, &v) {
			continue
		}
		v.entries = append(v.entries, e)
	}
	return v
}

// place finds where case step notice e stands among the recorded meetings of v, and reports
// whether the public has been told of it:
//   - a notice standing at a recorded meeting is on that meeting's agenda: it is public once
//     a posting of the agenda gave it, and dated by that posting (Held);
//   - a notice withdrawn by its meeting's move or cancellation is that meeting's (Of), public
//     if a posting of the agenda gave it before;
//   - a notice cancelled at a meeting that goes on was withdrawn from its agenda
//     (itemWithdrawn), public if a posting gave it before.
//
// A notice no recorded meeting holds (a case step alone, or one of a meeting folded from its
// cases) is the case's own notice, public from the moment it is recorded, as before
// meetings were kept.
func (b *Board) place(e *entry, v *view) bool {
	ms := v.meetings
	if e.Withdrawn == "" {
		m := v.at(e.Start, e.Place)
		if m == nil || m.Folded {
			return true
		}
		i := slices.IndexFunc(m.Cases, func(it docket.MeetingItem) bool { return it.Case == e.Case && it.Step == e.Meeting })
		if i < 0 {
			return true
		}
		at, ok := postingOf(m, e.Case, e.Meeting, m.Cases[i].Added, time.Time{})
		if ok {
			// The step's notice is the meeting's agenda as posted: the case's page shows
			// that agenda, with its other business, as the PDF of the notice does.
			e.Held, e.Posted = m.Name, at.In(b.Loc)
			e.Agenda = postedAgenda(m)
			e.Opening, e.Closing = agendaFrame(lastPosted(m))
		}
		return ok
	}
	for i := range ms {
		m := &ms[i]
		if m.Folded || !withdrew(m, e.PublicRecord) {
			continue
		}
		e.Of = m.Name
		_, ok := postingOf(m, e.Case, e.Meeting, time.Time{}, e.WithdrawnAt)
		return ok
	}
	m := v.at(e.Start, e.Place)
	if m == nil {
		return true
	}
	if e.Withdrawn == "cancelled" {
		e.Withdrawn = itemWithdrawn
	}
	if m.Folded {
		return true
	}
	_, ok := postingOf(m, e.Case, e.Meeting, time.Time{}, e.WithdrawnAt)
	return ok
}

// withdrew reports whether notice r was withdrawn by meeting m's own cancellation or move:
// at the same instant, from m's start and place then.
func withdrew(m *docket.CommissionMeeting, r docket.PublicRecord) bool {
	switch r.Withdrawn {
	case "cancelled":
		return m.Cancelled.Equal(r.WithdrawnAt) && m.Start.Equal(r.Start) && m.Place == r.Place
	case "moved":
		return slices.ContainsFunc(m.Moved, func(mv docket.Moved) bool {
			return mv.At.Equal(r.WithdrawnAt) && mv.Start.Equal(r.Start) && mv.Place == r.Place
		})
	}
	return false
}

// postingOf is the first posting of m's agenda, from from on and until until (zero: no
// bound), that gave case number's step k; ok is false if none did. A posting recorded
// before the agenda it gave was kept is taken to give every step.
func postingOf(m *docket.CommissionMeeting, number string, k docket.MeetingKind, from, until time.Time) (time.Time,
	bool) {
	for _, p := range m.Postings {
		if p.At.Before(from) || !until.IsZero() && p.At.After(until) {
			continue
		}
		if p.Agenda == nil || slices.ContainsFunc(p.Agenda.Items, func(it docket.AgendaItem) bool {
			return it.Kind == docket.CaseItem && it.Case == number && it.Step == k
		}) {
			return p.At, true
		}
	}
	return time.Time{}, false
}

// isPublic reports whether a recorded meeting has reached the board: its agenda was posted.
func isPublic(m *docket.CommissionMeeting) bool {
	return !m.Folded && len(m.Postings) > 0
}

// postedAgenda is meeting m's agenda as last posted, each item as the agenda prints it; a
// meeting whose last posting predates the keeping of the agenda posted, or folded from its
// cases, gives its order of business as it stands.
func postedAgenda(m *docket.CommissionMeeting) []string {
	return agendaWords(m, lastPosted(m))
}

// agendaWords is the agenda a posting of m gave, each item as the agenda prints it; m's
// order of business as it stands if the posting did not keep it.
func agendaWords(m *docket.CommissionMeeting, a *docket.Agenda) []string {
	if a == nil {
		return m.OrderOfBusiness()
	}
	var out []string
	for _, it := range a.Items {
		out = append(out, it.Title()+".")
	}
	return out
}

// agendaFrame is what an agenda shows around its items, as a posting a of it gave them
// (docket.Frame); nil a is the order of business before a posting, which lists only the
// case steps.
func agendaFrame(a *docket.Agenda) (opening, closing []string) {
	if a == nil {
		return docket.Frame(nil)
	}
	return docket.Frame(a.Items)
}

// meetingTitle names meeting m as its card does: "Meeting of the commission", or a
// special one.
func meetingTitle(m *docket.CommissionMeeting) string {
	if m.Special {
		return "Special meeting of the commission"
	}
	return "Meeting of the commission"
}

// meetingPage is the path of a recorded meeting's page, from the board's root.
func meetingPage(name string) string { return "meetings/" + name + ".html" }

// change is one thing that happened to a recorded meeting's public notice, as its page and
// the Atom feed tell it: a posting of its agenda, a move, its cancellation.
type change struct {
	ID    string // its id on the meeting's page: posted-1, moved-1, cancelled
	At    time.Time
	Title string // "agenda posted", "moved to Tue 8 Dec 2026 18:00 CST, City Hall"
	Text  string // what the notice said, in words
}

// history lists what happened to recorded meeting m's notice once its agenda was first
// posted, in order: each posting (the first, then each amended one) with the agenda it
// gave, each move from where to where, and its cancellation. A move before the first
// posting is not there: the public was not told of the meeting yet.
func (b *Board) history(m *docket.CommissionMeeting) []change {
	if !isPublic(m) {
		return nil
	}
	var out []change
	what := strings.ToLower(meetingTitle(m)[:1]) + meetingTitle(m)[1:]
	where := func(start time.Time, place string) string { return start.In(b.Loc).Format(feedTime) + ", " + place }
	for i, p := range m.Postings {
		start, place := m.Start, m.Place
		if p.Agenda != nil {
			start, place = p.Agenda.Start, p.Agenda.Place
		}
		c := change{ID: fmt.Sprintf("posted-%d", i+1), At: p.At, Title: where(start, place) + ", agenda posted"}
		if i > 0 {
			c.Title = where(start, place) + ", amended agenda posted"
		}
		opening, closing := agendaFrame(p.Agenda)
		items := opening
		for j, it := range agendaWords(m, p.Agenda) {
			items = append(items, fmt.Sprintf("%d. %s", j+1, it))
		}
		items = append(items, closing...)
		c.Text = fmt.Sprintf("The %s on %s at %s. Agenda: %s", what, start.In(b.Loc).Format(feedTime), place,
			strings.Join(items, " "))
		out = append(out, c)
	}
	first := m.Postings[0].At
	for i, mv := range m.Moved {
		if mv.At.Before(first) {
			continue
		}
		to, toPlace := m.Start, m.Place
		if i+1 < len(m.Moved) {
			to, toPlace = m.Moved[i+1].Start, m.Moved[i+1].Place
		}
		out = append(out, change{ID: fmt.Sprintf("moved-%d", i+1), At: mv.At, Title: "moved to " + where(to, toPlace),
			Text: fmt.Sprintf("The %s set for %s is moved to %s, with every item of its agenda; its agenda is posted "+
				"again 48 hours ahead (5 ILCS 120/2.02).", what, where(mv.Start, mv.Place), where(to, toPlace))})
	}
	if !m.Cancelled.IsZero() && !m.Cancelled.Before(first) {
		out = append(out, change{ID: "cancelled", At: m.Cancelled, Title: where(m.Start, m.Place) + ", cancelled",
			Text: fmt.Sprintf("The %s set for %s is cancelled, with every item of its agenda.", what,
				where(m.Start, m.Place))})
	}
	// At one instant (the console, or one request), a move comes after the posting before
	// it and before the posting it calls for, and a cancellation after both.
	rank := func(c change) int {
		switch {
		case c.ID == "posted-1":
			return 0
		case strings.HasPrefix(c.ID, "moved-"):
			return 1
		case c.ID == "cancelled":
			return 3
		}
		return 2
	}
	slices.SortStableFunc(out, func(a, c change) int {
		if n := a.At.Compare(c.At); n != 0 {
			return n
		}
		return rank(a) - rank(c)
	})
	for i := range out {
		out[i].At = out[i].At.In(b.Loc)
	}
	return out
}

// lastPosted is the agenda meeting m's last posting gave, if it was kept.
func lastPosted(m *docket.CommissionMeeting) *docket.Agenda {
	if len(m.Postings) == 0 {
		return nil
	}
	return m.Postings[len(m.Postings)-1].Agenda
}

// agendaCases are the cases whose steps m's agenda, as last posted, holds, in its order.
func agendaCases(m *docket.CommissionMeeting) []string {
	var out []string
	if a := lastPosted(m); a != nil {
		for _, it := range a.Items {
			if it.Kind == docket.CaseItem && !slices.Contains(out, it.Case) {
				out = append(out, it.Case)
			}
		}
		return out
	}
	for _, it := range m.Cases {
		if !slices.Contains(out, it.Case) {
			out = append(out, it.Case)
		}
	}
	return out
}

// recordedCard is the card of recorded meeting m, whose agenda was posted: where and when
// it is, and was before each move; its agenda as last posted, dated by its first posting
// and its last; its cancellation; and its calendar event's sequence and last change.
func (b *Board) recordedCard(m *docket.CommissionMeeting, now time.Time, root string) entry {
	e := entry{Posting: docket.Posting{PublicRecord: docket.PublicRecord{Record: "meeting_notice",
		Start: m.Start.In(b.Loc), Place: m.Place, Moves: b.inZone(m.Moved)}, Posted: m.Postings[0].At.In(b.Loc)},
		Root: root, UID: "meeting-" + m.Name}
	e.Past = !m.Start.After(now)
	e.Cases = agendaCases(m)
	if !m.Cancelled.IsZero() {
		e.Withdrawn, e.WithdrawnAt = "cancelled", m.Cancelled.In(b.Loc)
	}
	if n := len(m.Postings); n > 1 {
		e.Amended = m.Postings[n-1].At.In(b.Loc)
	}
	b.meetingCard(&e, m)
	e.Seq, e.Modified = meetingSequence(m, b.schedule().IsRegular(m, b.Loc)), lastChange(m).In(b.Loc)
	return e
}

// meetingSequence counts the changes to recorded meeting m's calendar event since it first
// appeared in the feed: each posting of its agenda after the first, each move and its
// cancellation. A regular meeting's event is in the feed from the year's schedule (5 ILCS
// 120/2.03), before any posting: each posting counts. The record only grows, so the count
// only rises, and the same record always gives the same count.
func meetingSequence(m *docket.CommissionMeeting, regular bool) int {
	n := len(m.Postings) + len(m.Moved)
	if !regular && len(m.Postings) > 0 {
		n-- // the first posting made the event
		for _, mv := range m.Moved {
			if mv.At.Before(m.Postings[0].At) {
				n-- // moved before the public knew of it
			}
		}
	}
	if !m.Cancelled.IsZero() {
		n++
	}
	return n
}

// lastChange is when recorded meeting m's event last changed: its last posting, move or
// cancellation.
func lastChange(m *docket.CommissionMeeting) time.Time {
	last := m.Cancelled
	for _, p := range m.Postings {
		last = later(last, p.At)
	}
	for _, mv := range m.Moved {
		last = later(last, mv.At)
	}
	return last
}

// later is the later of a and c.
func later(a, c time.Time) time.Time {
	if c.After(a) {
		return c
	}
	return a
}
