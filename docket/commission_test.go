package docket_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

func TestVoteCarries(t *testing.T) {
	seated := []string{"U1", "U2", "U3", "U4", "U5"}
	for _, tc := range []struct {
		name             string
		yes, no, abstain int
		carry            docket.Carry
		carried          bool
		tally            string
	}{
		{"Unanimous", 5, 0, 0, docket.MajorityOfVotesCast, true, "adopted 5–0"},
		{"Tie", 2, 2, 1, docket.MajorityOfVotesCast, false, "failed 2–2, 1 abstaining"},
		{"AbstentionsDoNotCount", 2, 1, 2, docket.MajorityOfVotesCast, true, "adopted 2–1, 2 abstaining"},
		{"AbstentionsCountPresent", 2, 1, 2, docket.MajorityPresent, false, "failed 2–1, 2 abstaining"},
		{"MajorityOfSeated", 2, 0, 1, docket.MajorityOfSeated, false, "failed 2–0, 1 abstaining, 2 absent"},
		{"MajorityOfSeatedMet", 3, 0, 0, docket.MajorityOfSeated, true, "adopted 3–0, 2 absent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := docket.Vote{Seated: seated, Quorum: 3, Carry: tc.carry}
			i := 0
			take := func(n int) []string { out := seated[i : i+n]; i += n; return out }
			v.Yes, v.No, v.Abstain = take(tc.yes), take(tc.no), take(tc.abstain)
			v.Absent = seated[i:]
			if v.Carried() != tc.carried || v.Tally() != tc.tally {
				t.Errorf("carried %v, tally %q; want %v, %q", v.Carried(), v.Tally(), tc.carried, tc.tally)
			}
		})
	}
}

// TestFailedMotionChangesNothing: a ruling voted down is on the record as a failed motion,
// and the case is otherwise as it was; a motion the ordinance would refuse is refused
// whichever way the vote went.
func TestFailedMotionChangesNothing(t *testing.T) {
	e := MustEngine(t)
	steps := closedHearingCase()[:6]
	c := apply(t, e, steps)
	vote := &docket.Vote{Seated: []string{"U1", "U2", "U3"}, Yes: []string{"U1"}, No: []string{"U2", "U3"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	next, _, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient, Vote: vote}, T(t, "2026-12-10T18:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if next.State != c.State || next.Ruling != "" || len(next.Motions) != 1 || len(next.Votes) != 0 ||
		next.Motions[0].What != "ruling: insufficient" {
		t.Errorf("after a failed motion: state %s, ruling %q, motions %+v, votes %+v", next.State, next.Ruling,
			next.Motions, next.Votes)
	}
	// A ruling before the meeting is refused even when voted down.
	if _, _, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient, Vote: vote},
		T(t, "2026-12-09T18:00:00-06:00")); docket.ErrorCode(err) != docket.ECONFLICT {
		t.Errorf("a ruling before its meeting, voted down: %v", err)
	}
	// The respondent (U024BE7LH in the filing) takes no part.
	vote = &docket.Vote{Seated: []string{"U1", "U024BE7LH", "U3"}, Yes: []string{"U1", "U024BE7LH", "U3"}, Quorum: 2,
		Carry: docket.MajorityOfVotesCast}
	if _, _, err := e.Apply(c, docket.Rule{Ruling: docket.Insufficient, Vote: vote},
		T(t, "2026-12-10T18:00:00-06:00")); err == nil || !strings.Contains(err.Error(), "U024BE7LH is recused") {
		t.Errorf("the respondent voting: %v", err)
	}
	if _, _, err := e.ApplyBy(c, docket.Rule{Ruling: docket.Insufficient}, "U024BE7LH",
		T(t, "2026-12-10T18:00:00-06:00")); docket.ErrorCode(err) != docket.EUNAUTHORIZED {
		t.Errorf("the respondent ruling: %v", err)
	}
}

// TestInterestedRecused: the parties and recusals decoded alone from a stored case say who
// is recused from it, and why, as the whole case does.
func TestInterestedRecused(t *testing.T) {
	c := docket.Case{Number: "2026-001", Summary: "Used the city's email.",
		Respondent:  docket.Person{Name: "Jane Roe", SlackID: "U_RESP"},
		Complainant: docket.Person{Name: "John Doe", SlackID: "U_COMP"},
		Recusals:    []docket.Recusal{{User: "U_COMM2", Reason: "a neighbour", On: docket.NewDate(2026, time.December, 4)}}}
	doc, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	var who docket.Interested
	if err := json.Unmarshal(doc, &who); err != nil {
		t.Fatal(err)
	}
	for _, user := range []string{"U_RESP", "U_COMP", "U_COMM2", "U_COMM1", ""} {
		why, recused := who.Recused(user)
		wantWhy, want := c.Recused(user)
		if recused != want || why != wantWhy {
			t.Errorf("Interested.Recused(%q) = %q, %v; the case says %q, %v", user, why, recused, wantWhy, want)
		}
	}
	if _, recused := who.Recused("U_COMM2"); !recused {
		t.Error("U_COMM2's recusal was not read")
	}
}
