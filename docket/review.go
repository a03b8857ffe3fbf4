package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The semi-annual review of the minutes of closed meetings (5 ILCS 120/2.06(d)): "the
// public body shall periodically, but no less than semi-annually, meet to review minutes of
// all closed meetings. At such meetings a determination shall be made, and reported in an
// open session that (1) the need for confidentiality still exists as to all or part of those
// minutes or (2) that the minutes or portions thereof no longer require confidential
// treatment and are available for public inspection."
//
// ethicsbot keeps the review as one act of the meeting that holds it, taken up under an
// item of its posted agenda and decided by the motion recorded on that item: the act holds
// the determination, meeting by meeting, and the closed minutes it releases, as the
// commission released them, for the public notice board. The Act lets a body release part
// of a set of minutes; ethicsbot releases or keeps a meeting's closed minutes whole, and a
// part is released by releasing nothing and publishing the redacted part as other business
// of the meeting: the record does not hold two texts of one set of minutes.

// ReviewClosedMinutes records the commission's review, at this meeting, of the minutes of
// all its closed meetings, and its determination (5 ILCS 120/2.06(d)): which still need
// confidentiality (Kept), which no longer do and are made public (Released). Engine.Determine
// builds it from the meetings under review.
type ReviewClosedMinutes struct {
	// Item is the agenda item of other business the review is taken up under: releasing
	// minutes is a final action, taken only on what the posted agenda sets forth (2.02(c)),
	// and decided by the motion recorded on it.
	Item     int               `json:"item,omitempty"`
	Released []ReleasedMinutes `json:"released,omitempty"`
	Kept     []string          `json:"kept,omitempty"` // the meetings whose closed minutes stay confidential
}

// ReleasedMinutes are the closed minutes of meeting Meeting, as the review made them public
// (Text, the closed minutes as approved, drawn as the open minutes are published).
type ReleasedMinutes struct {
	Meeting string `json:"meeting"`
	Text    string `json:"text"`
}

// ClosedReview is a review recorded at a meeting (CommissionMeeting.Review): when, under
// which item, and its determination.
type ClosedReview struct {
	At       time.Time         `json:"at"`
	Item     int               `json:"item,omitempty"`
	Released []ReleasedMinutes `json:"released,omitempty"`
	Kept     []string          `json:"kept,omitempty"`
}

// Kind implements MeetingAction.
func (ReviewClosedMinutes) Kind() string { return "closed_minutes_reviewed" }

func (a ReviewClosedMinutes) applyMeeting(e *Engine, m *CommissionMeeting, at time.Time) error {
	if m.ReviewedClosed {
		return Conflict(OMAReview, "meeting",
			fmt.Sprintf("the review of the closed minutes is already recorded at meeting %s", m.Name))
	}
	if m.Minutes.Convened.IsZero() || m.Minutes.Convened.After(at) {
		return Conflict(OMAReview, "meeting",
			fmt.Sprintf("meeting %s has not been called to order: the review is made at a meeting", m.Name))
	}
	if err := a.checkItem(e, m); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range a.Released {
		if r.Meeting == "" || strings.TrimSpace(r.Text) == "" {
			return Invalid(OMAReview, "release", "a release names the meeting and carries its closed minutes")
		}
		if seen[r.Meeting] {
			return Invalid(OMAReview, "release", fmt.Sprintf("meeting %s is named twice in the determination", r.Meeting))
		}
		seen[r.Meeting] = true
	}
	for _, k := range a.Kept {
		if seen[k] {
			return Invalid(OMAReview, "release", fmt.Sprintf("meeting %s is named twice in the determination", k))
		}
		seen[k] = true
	}
	m.ReviewedClosed = true
	m.Review = ClosedReview{At: at.In(e.Cal.Location()), Item: a.Item, Released: a.Released, Kept: a.Kept}
	return nil
}

// checkItem refuses a review not taken up under an item of other business on m's posted
// agenda and decided by a motion recorded on it (decidedItem): the determination is the
// commission's, by its vote, reported in open session (2.06(d)).
func (a ReviewClosedMinutes) checkItem(e *Engine, m *CommissionMeeting) error {
	how := fmt.Sprintf("put the review on the agenda of a meeting (`/ethics agenda %s add Semi-annual review of the "+
		"minutes of closed meetings`, before its 48 hours), record the vote on it (`/ethics minutes %s motion item=N "+
		"\"To find ...\"`), then `/ethics minutes %s reviewed item=N release=...`", m.Name, m.Name, m.Name)
	return m.decidedItem(e, a.Item, OMAReview, "review", how)
}

// decidedItem refuses an act of the commission (what: "review") recorded under item of m
// unless the item is other business on m's posted agenda (5 ILCS 120/2.02(c), unless the
// meeting is an emergency one) and a motion is recorded on it: the act is a final action,
// taken by the commission's vote. rule is the act's own section; how says the way forward.
// The act is reported in m's minutes, so not once they are approved: they stand as
// approved (draftable, 2.06(b)).
func (m *CommissionMeeting) decidedItem(e *Engine, item int, rule, what, how string) error {
	if err := draftable(e, m); err != nil {
		return err
	}
	items := m.Agenda()
	if item < 1 || item > len(items) {
		return Invalid(rule, "item",
			fmt.Sprintf("give the number of the agenda item the %s was taken up under (meeting %s: items 1 to %d): %s",
				what, m.Name, len(items), how))
	}
	it := items[item-1]
	if it.Kind != BusinessItem {
		return Invalid(rule, "item", fmt.Sprintf("item %d of meeting %s is not other business (%s): %s", item,
			m.Name, it.Kind, how))
	}
	if m.Minutes.Emergency == "" && !m.onPostedAgenda(func(p AgendaItem) bool {
		return p.Kind == BusinessItem && p.Text == it.Text
	}, it.Added) {
		return Conflict(OMAAgenda, "item", fmt.Sprintf("item %d of meeting %s was not on its agenda as posted: the "+
			"commission may discuss the %s, and decide it at a later meeting whose posted agenda sets it forth", item,
			m.Name, what))
	}
	if !slices.ContainsFunc(m.Business, func(b MoveBusiness) bool { return b.Item == item }) {
		return Conflict(rule, "item", fmt.Sprintf("no motion is recorded on item %d of meeting %s: the %s is "+
			"decided by the commission's vote, in open session; record it first with `/ethics minutes %s motion item=%d "+
			"\"To ...\"`", item, m.Name, what, m.Name, item))
	}
	// A motion that failed decided nothing: the act is the commission's only by a motion
	// that carried.
	carried := func(b MoveBusiness) bool { return b.Item == item && b.Vote != nil && b.Vote.Carried() }
	if !slices.ContainsFunc(m.Business, carried) {
		return Conflict(rule, "item", fmt.Sprintf("no motion on item %d of meeting %s carried: the %s is the "+
			"commission's act only by a motion adopted by its vote; record the vote that carried it (`/ethics minutes %s "+
			"motion item=%d \"To ...\"`), or take it up at a later meeting", item, m.Name, what, m.Name, item))
	}
	return nil
}

// UnderReview lists the meetings among all whose closed minutes a review at m decides on,
// in order of start: every meeting before m with a closed session, save those a review at
// another meeting released (their minutes are public already). Those m's own review
// released stay: the same request received twice determines the same thing again.
func UnderReview(all []CommissionMeeting, m *CommissionMeeting) []*CommissionMeeting {
	released := map[string]bool{}
	for i := range all {
		if all[i].Name == m.Name {
			continue
		}
		for _, r := range all[i].Review.Released {
			released[r.Meeting] = true
		}
	}
	var out []*CommissionMeeting
	for i := range all {
		o := &all[i]
		if o.Name != m.Name && len(o.Minutes.Sessions) > 0 && o.Start.Before(m.Start) && !released[o.Name] {
			out = append(out, o)
		}
	}
	return out
}

// Determine builds the review at m of the closed minutes among all (UnderReview): those of
// the meetings named in release are made public, each as text draws them; the rest stay
// confidential. A meeting named that is not under review, or whose minutes are not approved
// (a draft is never made public, 2.06(b)), is refused.
func Determine(all []CommissionMeeting, m *CommissionMeeting, item int, release []string,
	text func(*CommissionMeeting) (string, error)) (ReviewClosedMinutes, error) {
	a := ReviewClosedMinutes{Item: item}
	under := UnderReview(all, m)
	for _, name := range release {
		i := slices.IndexFunc(under, func(o *CommissionMeeting) bool { return o.Name == name })
		if i < 0 {
			var names []string
			for _, o := range under {
				names = append(names, o.Name)
			}
			listed := "none"
			if len(names) > 0 {
				listed = strings.Join(names, ", ")
			}
			return a, NotFound(OMAReview, "release",
				fmt.Sprintf("meeting %s has no closed minutes under review at meeting %s (under review: %s)", name, m.Name,
					listed))
		}
		o := under[i]
		if o.Minutes.Approved.IsZero() {
			return a, Conflict(OMAReview, "release",
				fmt.Sprintf("the minutes of meeting %s are not approved: a draft is never made public; approve them "+
					"first (/ethics minutes %s approve at=<meeting>), or keep them confidential at this review", o.Name,
					o.Name))
		}
		t, err := text(o)
		if err != nil {
			return a, err
		}
		a.Released = append(a.Released, ReleasedMinutes{Meeting: o.Name, Text: t})
	}
	for _, o := range under {
		if !slices.Contains(release, o.Name) {
			a.Kept = append(a.Kept, o.Name)
		}
	}
	return a, nil
}

// ClosedRelease is the release of a meeting's closed minutes by a review: the meeting that
// held the review, when, and the minutes as made public.
type ClosedRelease struct {
	By   string
	At   time.Time
	Text string
}

// ReleasedClosed is the release of meeting name's closed minutes among all, if a review
// released them.
func ReleasedClosed(all []CommissionMeeting, name string) (ClosedRelease, bool) {
	for i := range all {
		for _, r := range all[i].Review.Released {
			if r.Meeting == name {
				return ClosedRelease{By: all[i].Name, At: all[i].Review.At, Text: r.Text}, true
			}
		}
	}
	return ClosedRelease{}, false
}

// Words is the determination as the minutes of the meeting that made it report it
// (2.06(d): "reported in an open session").
func (r ClosedReview) Words() string {
	if r.At.IsZero() {
		return ""
	}
	meetings := func(names []string) string {
		if len(names) == 1 {
			return "the meeting of " + names[0]
		}
		return "the meetings of " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	var released []string
	for _, m := range r.Released {
		released = append(released, m.Meeting)
	}
	var parts []string
	if len(released) > 0 {
		parts = append(parts, "the minutes of the closed sessions of "+meetings(released)+
			" no longer require confidential treatment and are available for public inspection")
	}
	if len(r.Kept) > 0 {
		parts = append(parts, "the need for confidentiality still exists as to the minutes of the closed sessions of "+
			meetings(r.Kept))
	}
	if len(parts) == 0 {
		return "Semi-annual review of the minutes of closed meetings (5 ILCS 120/2.06(d)): the commission had no minutes " +
			"of closed meetings to review."
	}
	return "Semi-annual review of the minutes of closed meetings (5 ILCS 120/2.06(d)): the commission determined that " +
		strings.Join(parts, "; and that ") + "."
}

// reportOn reports an act of the commission, in words w, on item (from 1) of r: on the
// item, or, if it was taken in closed session, among the notes on the meeting as a whole,
// which the open minutes give: the act is a final action, reported in open session (5 ILCS
// 120/2(e), 2.06(d)). Nothing when w is empty or item is none.
func (r *MinutesRecord) reportOn(item int, w string) {
	if w == "" || item < 1 || item > len(r.Entries) {
		return
	}
	if e := &r.Entries[item-1]; e.Session == 0 {
		e.Notes = append(e.Notes, w)
		return
	}
	r.Notes = append(r.Notes, fmt.Sprintf("Item %d: %s", item, w))
}

// ReviewDue is the day by which the commission must next review the minutes of its closed
// meetings, among ms (ClosedMinutesReviewDue); zero when none was ever closed.
func ReviewDue(ms []CommissionMeeting, c *Calendar) Date {
	var last, first Date
	for i := range ms {
		m := &ms[i]
		if m.ReviewedClosed {
			last = max(last, m.Held(c))
		}
		if len(m.Minutes.Sessions) > 0 && (first.IsZero() || m.Held(c) < first) {
			first = m.Held(c)
		}
	}
	return ClosedMinutesReviewDue(last, first)
}
