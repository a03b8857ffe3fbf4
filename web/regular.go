package web

import (
	"fmt"
	"time"

	"ethicsbot/docket"
)

// The year's schedule of regular meetings on the board and in its calendar feed.
// 5 ILCS 120/2.03: "every public body shall give public notice of the schedule of
// regular meetings at the beginning of each calendar or fiscal year and shall state the
// regular dates, times, and places of such meetings". The front page lists the schedule
// of this year and of any later year configured, so that next year's schedule is up
// before the year begins; the feed has one event per regular meeting, whose UID is the
// regular meeting's date, kept when the meeting is moved and when its agenda is posted.

// regularRow is one regular meeting of the schedule as the board lists it.
type regularRow struct {
	Date  docket.Date
	Start time.Time // as scheduled
	Place string
	// Now are the start and place the meeting now has: moved, they differ from the
	// schedule's. Cancelled says it will not be held; Name is its name, once recorded.
	Now       time.Time
	NowPlace  string
	Cancelled bool
	Name      string
	Anchor    string // its card on the page, once its agenda is there
	// Seq and Modified are its calendar event's SEQUENCE and LAST-MODIFIED, from the
	// meeting's record (meetingSequence); zero while nothing is recorded of it.
	Seq      int
	Modified time.Time
}

// Moved reports whether the meeting was moved from the schedule's start or place.
func (r regularRow) Moved() bool { return !r.Now.Equal(r.Start) || r.NowPlace != r.Place }

// regularYear is a year's schedule.
type regularYear struct {
	Year int
	Rows []regularRow
}

// schedule is the schedule in force, if any.
func (b *Board) schedule() docket.RegularSchedule {
	if b.Regular == nil {
		return docket.RegularSchedule{}
	}
	return b.Regular()
}

// regularStarts are the starts of the schedule's regular meetings: the board folds the
// case steps at each, so that a regular meeting's row finds the meeting held there.
func (b *Board) regularStarts(r docket.RegularSchedule) []time.Time {
	out := make([]time.Time, 0, len(r.Dates))
	for _, d := range r.Dates {
		out = append(out, r.Start(d, b.Loc))
	}
	return out
}

// regular lists the schedule's regular meetings of the years from first on, each as it
// now stands: the meeting recorded at, or moved from, its start (not a special one), or
// as scheduled, among the meetings ms, which hold those at the schedule's starts. p's
// cards give the anchors.
func (b *Board) regular(p *page, first int, ms []docket.CommissionMeeting) []regularYear {
	r := b.schedule()
	if len(r.Dates) == 0 {
		return nil
	}
	cards := map[int64]string{}
	for _, es := range [][]entry{p.Upcoming, p.Past, p.Changed} {
		for _, e := range es {
			if e.Cases != nil || e.Name != "" {
				cards[e.Start.UnixNano()] = e.Anchor
			}
		}
	}
	var out []regularYear
	for _, y := range r.Years() {
		if y < first {
			continue
		}
		ry := regularYear{Year: y}
		for _, d := range r.Year(y) {
			row := b.regularRow(r, d, ms)
			row.Anchor = cards[row.Now.UnixNano()]
			ry.Rows = append(ry.Rows, row)
		}
		out = append(out, ry)
	}
	return out
}

// regularRow is the regular meeting of d as it now stands among ms.
func (b *Board) regularRow(r docket.RegularSchedule, d docket.Date, ms []docket.CommissionMeeting) regularRow {
	start := r.Start(d, b.Loc)
	row := regularRow{Date: d, Start: start, Place: r.Place, Now: start, NowPlace: r.Place}
	for i := range ms {
		m := &ms[i]
		if m.Special || !m.HeldAt(start) {
			continue
		}
		row.Now, row.NowPlace, row.Cancelled = m.Start.In(b.Loc), m.Place, !m.Cancelled.IsZero()
		if !m.Folded {
			row.Name, row.Seq, row.Modified = m.Name, meetingSequence(m, true), lastChange(m).In(b.Loc)
		}
		if row.Cancelled {
			break // a meeting held again there after a cancellation would be found next
		}
	}
	return row
}

// regularUID is the calendar UID of the regular meeting of d: its date, for as long as
// the meeting is held, wherever it moves.
func regularUID(d docket.Date, host string) string {
	return fmt.Sprintf("regular-%s@%s", d, host)
}

// regularEvents puts the regular meetings of the schedule into the feed's events: a
// meeting whose notice has its own event gives that event its regular UID, so a calendar
// that had the schedule keeps one event as the agenda is posted; a meeting with none yet
// is an event of its own at its start and place as they stand. A cancelled one stays,
// marked cancelled, as a cancelled notice does, and each change to the meeting raises its
// event's SEQUENCE. from bounds the meetings listed, as the notices are; ms are the
// meetings, which hold those at the schedule's starts.
func (b *Board) regularEvents(events []Event, host string, from time.Time, commission string,
	ms []docket.CommissionMeeting) []Event {
	r := b.schedule()
	for _, d := range r.Dates {
		row := b.regularRow(r, d, ms)
		if row.Now.Before(from) {
			continue
		}
		found := false
		for i := range events {
			if events[i].Start.Equal(row.Now) && events[i].Location == row.NowPlace && events[i].Cancelled == row.Cancelled {
				events[i].UID, found = regularUID(d, host), true
				break
			}
		}
		if found {
			continue
		}
		ev := Event{
			UID:     regularUID(d, host),
			Summary: commission + ": regular meeting of the commission",
			Description: "Regular meeting of the schedule of the year, 5 ILCS 120/2.03. Its agenda is posted 48 hours ahead " +
				"(5 ILCS 120/2.02). " + b.url() + "#regular-" + d.String(),
			Location:  row.NowPlace,
			Start:     row.Now,
			End:       row.Now.Add(MeetingLength),
			Modified:  row.Modified,
			Sequence:  row.Seq,
			Cancelled: row.Cancelled,
		}
		if row.Cancelled {
			ev.Summary = "Cancelled: " + ev.Summary
		}
		events = append(events, ev)
	}
	return events
}
