package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// MoveBusiness records a motion on an item of other business of a meeting, with its roll
// call: electing a chair, adopting the year's schedule of meetings, accepting the annual
// report, approving the minutes of a meeting held before ethicsbot kept them. A case's acts
// carry their own motions (Voted); the meeting's own business has no case, so its motion
// is kept with the meeting, and its minutes give it with its roll call by name (5 ILCS
// 120/2.06(a): the minutes give "a summary of discussion on all matters proposed,
// deliberated, or decided, and a record of any votes taken").
type MoveBusiness struct {
	Item int       `json:"item"` // the item's number on the agenda
	Text string    `json:"text"` // what was moved: "To elect Ann Alder chair for 2027"
	At   time.Time `json:"at"`   // when the roll call was taken
	Vote *Vote     `json:"vote"`
}

// Kind implements MeetingAction.
func (MoveBusiness) Kind() string { return "business_motion" }

func (a MoveBusiness) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if err := draftable(e, m); err != nil {
		return err
	}
	items := m.Agenda()
	if a.Item < 1 || a.Item > len(items) {
		return NotFound(OMAMinutes, "item", fmt.Sprintf("meeting %s has no item %d; it has %d", m.Name, a.Item, len(items)))
	}
	if k := items[a.Item-1].Kind; k != BusinessItem {
		return Invalid(OMAMinutes, "item", fmt.Sprintf("item %d of meeting %s is not other business (%s): a case's "+
			"motions are its acts, recorded with their roll calls, and the approval of minutes ethicsbot keeps is /ethics "+
			"minutes <meeting> approve", a.Item, m.Name, k))
	}
	if err := CheckLine("text", OMAMinutes, a.Text, true, MaxText); err != nil {
		return err
	}
	if it := items[a.Item-1]; m.Minutes.Emergency == "" && !m.onPostedAgenda(func(p AgendaItem) bool {
		return p.Kind == BusinessItem && p.Text == it.Text
	}, it.Added) {
		return Conflict(OMAAgenda, "item", fmt.Sprintf("item %d of meeting %s was not on its agenda as posted: the "+
			"commission may discuss it, and take the vote at a later meeting whose posted agenda sets it forth", a.Item,
			m.Name))
	}
	if !m.InSession(a.At) {
		return Conflict(OMAMinutes, "at", fmt.Sprintf("meeting %s is not in progress: a motion is recorded with its roll "+
			"call at the meeting, once it is called to order", m.Name))
	}
	if m.Minutes.SessionAt(a.At) > 0 {
		return Conflict(OMAFinal, "at", "the meeting is in closed session: no final action may be taken at a closed "+
			"meeting (5 ILCS 120/2(e)); return to open session and take the vote there")
	}
	if a.Vote == nil {
		return Invalid(OMAMinutes, "yes", "a motion is recorded with its roll call: give the votes, or let them default "+
			"to the members present")
	}
	if err := a.Vote.check(&Case{}, OMAMinutes); err != nil {
		return err
	}
	// The same motion on the same item again is the same vote typed or sent twice: the
	// minutes would print it twice.
	for _, b := range m.Business {
		if b.Item == a.Item && strings.EqualFold(strings.TrimSpace(b.Text), strings.TrimSpace(a.Text)) {
			return Conflict(OMAMinutes, "text", fmt.Sprintf("item %d of meeting %s already has this motion, recorded "+
				"with its roll call at %s; a new vote on it is a motion in other words (to reconsider, say)", a.Item,
				m.Name, e.shortTime(b.At)))
		}
	}
	m.Business = append(m.Business, a)
	return nil
}

// businessMotions puts the motions on other business (MoveBusiness) on their items of r.
func (r *MinutesRecord) businessMotions(ms []MoveBusiness) {
	for _, mb := range ms {
		if mb.Item < 1 || mb.Item > len(r.Entries) || mb.Vote == nil {
			continue
		}
		v := *mb.Vote
		e := &r.Entries[mb.Item-1]
		e.Motions = append(e.Motions, MeetingMotion{At: mb.At, Text: mb.Text, Roll: &v})
		slices.SortStableFunc(e.Motions, func(a, b MeetingMotion) int { return a.At.Compare(b.At) })
	}
}
