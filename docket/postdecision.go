package docket

import (
	"fmt"
	"time"
)

// After the decision: the (H) finding of a frivolous complaint, enforcement of the
// recommendation or fine, and (F)'s stay of it.

// FindFrivolous is the (H) finding that the complainant knowingly filed a frivolous
// complaint, with a fine against the complainant.
type FindFrivolous struct {
	Findings string `json:"findings"`
	Fine     int    `json:"fine"`
	// Knowingly is the (H) finding that the complainant filed it knowing it frivolous,
	// which the fine needs.
	Knowingly bool  `json:"knowingly,omitempty"`
	On        Date  `json:"on,omitzero"` // zero: today
	Vote      *Vote `json:"vote,omitempty"`

	// Override is why the finding is recorded although the record does not show the
	// complainant heard at a meeting noticed 48 hours ahead, with certified notice (H).
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (FindFrivolous) Kind() string { return "frivolous" }

// Roll implements Voted.
func (a FindFrivolous) Roll() *Vote { return a.Vote }

// Did implements Action.
func (a FindFrivolous) Did(Wording) Words {
	return said("complaint found knowingly frivolous; complainant fined $%s", Dollars(a.Fine))
}

// Motion implements Voted: "that John Doe knowingly filed a frivolous complaint, and a
// fine of $1,500 be imposed under (H); findings: "..."".
func (a FindFrivolous) Motion(w Wording) Words {
	filed := "filed"
	if a.Knowingly {
		filed = "knowingly filed"
	}
	return said("that %s %s a frivolous complaint, and a fine of $%s be imposed under (H)%s", party(w.After, Complainant),
		filed, Dollars(a.Fine), findings(a.Findings))
}

func (a FindFrivolous) apply(x *applying) error {
	err := x.voted(a.Vote, a.Kind(), "finding that the complaint was knowingly frivolous", "(H)",
		func() error { return a.find(x) })
	if err == nil {
		// (H): the matter is decided, by a finding or by a motion for one that failed.
		x.c.FrivolousPending = false
	}
	return err
}

// find records the (H) finding, once the commission has adopted it.
func (a FindFrivolous) find(x *applying) error {
	c := x.c
	if err := x.needState("(H)", "find the complaint frivolous: only a dismissed complaint can be",
		StateDismissed); err != nil {
		return err
	}
	if c.Frivolous != nil {
		return conflict("(H)", fmt.Sprintf("the complaint was already found frivolous on %s", c.Frivolous.On.Long()))
	}
	if err := checkText("findings", a.Findings, true, MaxText); err != nil {
		return err
	}
	if a.Fine == 0 {
		return Invalid("(H)", "fine",
			fmt.Sprintf("required: from $%s to $%s", Dollars(x.e.Ord.FineMin), Dollars(x.e.Ord.FineMax)))
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	if !a.Knowingly && !x.replay {
		return Invalid("(H)", "knowingly",
			"the commission may fine only a person who knowingly files a frivolous complaint: record that finding with "+
				"knowingly=yes, or make no finding")
	}
	dismissed := c.DecisionIssued // (E)(1), or the (C)(2) ruling
	if dismissed.IsZero() {
		dismissed = c.RulingDate
	}
	on, err := x.stepDate("on", "(H)", a.On, dismissed, "the dismissal")
	if err != nil {
		return err
	}
	if err := x.checkOverride("(H)", a.Override); err != nil {
		return err
	}
	gaps := x.frivolousGaps()
	if x.replay && a.Override == "" {
		gaps = nil // a finding recorded before (H) asked for the meeting
	}
	if err := x.override("finding", a.Override, gaps); err != nil {
		return err
	}
	c.Frivolous = &Finding{Text: a.Findings, Fine: a.Fine, Knowingly: a.Knowingly, On: on}
	c.FrivolousFound = on // (H): its certified notice to the complainant is now due
	c.impose("(H)", Complainant, a.Fine, on)
	return nil
}

// RecordEnforcement records a step taken to enforce the recommendation or fine: the fine
// collected, the discipline imposed. (F) stays enforcement while the respondent may still
// demand a public hearing after a closed one, and once demanded, until the final
// recommendation.
type RecordEnforcement struct {
	What string `json:"what"`
	On   Date   `json:"on,omitzero"` // zero: today
}

// Kind implements Action.
func (RecordEnforcement) Kind() string { return "enforce" }

// Did implements Action.
func (a RecordEnforcement) Did(Wording) Words { return said("enforcement recorded: %s", a.What) }

func (a RecordEnforcement) apply(x *applying) error {
	c := x.c
	if err := x.checkLine("what", "(E)(2)", a.What, true, MaxName); err != nil {
		return err
	}
	if err := x.needState("(E)(2)",
		"record enforcement: there is a recommendation or fine to enforce only once it has issued", StateDecided, StateFinal,
		StateDemanded, StatePublicSet, StatePublicHeld); err != nil {
		return err
	}
	if c.State == StateFinal && c.Final == nil || c.Decision == nil || c.Decision.Dismissed {
		return conflict("(E)(2)", "there is no recommendation or fine to enforce")
	}
	on, err := x.stepDate("on", "(F)", a.On, c.RecommendationIssued, "the recommendation or fine")
	if err != nil {
		return err
	}
	if stay := x.e.stayOn(c, on); stay.Stayed {
		return conflict("(F)", "enforcement is stayed: "+stay.Why)
	}
	c.Enforced = append(c.Enforced, Enforcement{What: a.What, On: on})
	return nil
}

// Stay is where (F)'s stay of enforcement stands.
type Stay struct {
	Stayed bool
	Why    string // why it is stayed, or why it has ended; "" when (F) never applied
	Until  Date   // the day the demand window closes, while it is open
}

// Stay says whether (F) stays enforcement of the case's recommendation or fine at now:
// after a closed hearing, the respondent has the demand window to demand a public
// hearing, and a demand stays enforcement until the final recommendation. The stay ends
// at the final recommendation, or when the window closes with no demand.
func (e *Engine) Stay(c *Case, now time.Time) Stay { return e.stayOn(c, e.Cal.DateOf(now)) }

func (e *Engine) stayOn(c *Case, today Date) Stay {
	if !c.HearingClosed || c.RecommendationIssued.IsZero() {
		return Stay{}
	}
	if c.Final != nil {
		return Stay{Why: fmt.Sprintf("the stay ended with the final recommendation on %s (F)", c.Final.On.Long())}
	}
	if !c.DemandReceived.IsZero() {
		return Stay{Stayed: true,
			Why: fmt.Sprintf("the respondent demanded a public hearing on %s, which stays enforcement until the final "+
				"recommendation (F)", c.DemandReceived.Long())}
	}
	window := e.after(PublicHearingDemand, c.RecommendationIssued)
	if today <= window.Due {
		return Stay{Stayed: true, Until: window.Due,
			Why: fmt.Sprintf("the respondent may demand a public hearing until %s (F); enforcement waits until that window "+
				"closes with no demand", window.Due.Long())}
	}
	return Stay{Why: fmt.Sprintf("the window to demand a public hearing closed on %s with no demand (F)",
		window.Due.Long())}
}
