package docket

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Recusal is a commissioner's withdrawal from a case: they may not see its confidential
// details, be reminded of it, act on it or vote on it.
type Recusal struct {
	User   string `json:"user"`
	Reason string `json:"reason,omitempty"`
	On     Date   `json:"on"`
}

// Recused reports whether user is recused from c, and why: a party to the complaint (the
// Slack id recorded for the respondent or the complainant is theirs), or a recusal they
// declared. A recusal cannot be taken back.
func (c *Case) Recused(user string) (why string, recused bool) {
	if user == "" {
		return "", false
	}
	if p := c.PartyOf(user); p != "" {
		return "you are the " + string(p), true
	}
	for _, r := range c.Recusals {
		if r.User == user {
			why := "you recused yourself on " + r.On.Long()
			if r.Reason != "" {
				why += ": " + r.Reason
			}
			return why, true
		}
	}
	return "", false
}

// Interested is what of a stored case says who is recused from it (Recused): its parties
// and its recusals, under the same JSON names as in Case. Decoded alone from a stored case,
// it sifts a long list by viewer without decoding every whole case.
type Interested struct {
	Complainant Person    `json:"complainant"`
	Respondent  Person    `json:"respondent"`
	Recusals    []Recusal `json:"recusals,omitempty"`
}

// Recused is Case.Recused of the case i was read from.
func (i *Interested) Recused(user string) (why string, recused bool) {
	c := Case{Complainant: i.Complainant, Respondent: i.Respondent, Recusals: i.Recusals}
	return c.Recused(user)
}

// thirdPerson turns Recused's reason, said to the member, into one said of them.
var thirdPerson = strings.NewReplacer("you are", "they are", "you recused yourself", "they recused themselves")

// PartyOf is the party to c whose Slack account is user's: Respondent, Complainant, or ""
// for neither.
func (c *Case) PartyOf(user string) Party {
	switch {
	case user == "":
		return ""
	case user == c.Respondent.SlackID:
		return Respondent
	case user == c.Complainant.SlackID:
		return Complainant
	}
	return ""
}

// TakingPart lists the members among seated who may take part in the business of case c,
// in their order: those not recused from it (Recused). Every one of them when c is nil (no
// case, or none known yet).
func TakingPart(c *Case, seated []string) []string {
	var out []string
	for _, u := range seated {
		if c != nil {
			if _, recused := c.Recused(u); recused {
				continue
			}
		}
		out = append(out, u)
	}
	return out
}

// RecusedUsers lists who is recused from c among users, in their order.
func (c *Case) RecusedUsers(users []string) []string {
	var out []string
	for _, u := range users {
		if _, ok := c.Recused(u); ok {
			out = append(out, u)
		}
	}
	return out
}

// Recuse records that a commissioner withdraws from a case.
type Recuse struct {
	User   string `json:"user"`
	Reason string `json:"reason,omitempty"`
}

// Kind implements Action.
func (Recuse) Kind() string { return "recuse" }

// Did implements Action: the member recused is named by id, for the renderer to mention.
func (a Recuse) Did(Wording) Words {
	if a.Reason != "" {
		return Words{{Member: a.User}, {Text: " recused: " + a.Reason}}
	}
	return Words{{Member: a.User}, {Text: " recused"}}
}

func (a Recuse) apply(x *applying) error {
	if err := checkSlackID("commissioner", a.User); err != nil || a.User == "" {
		return Invalid("", "commissioner", "give the Slack user id of the commissioner who recuses")
	}
	if err := x.checkLine("reason", "", a.Reason, false, MaxName); err != nil {
		return err
	}
	if why, ok := x.c.Recused(a.User); ok {
		return conflict("",
			fmt.Sprintf("%s is already recused from case %s (%s)", a.User, x.c.Number, thirdPerson.Replace(why)))
	}
	x.c.Recusals = append(x.c.Recusals, Recusal{User: a.User, Reason: a.Reason, On: x.today})
	return nil
}

// Carry says which majority carries a motion.
type Carry string

// The majorities a town may choose.
const (
	// MajorityOfVotesCast: more yes than no among those present and voting; abstentions,
	// absences and recusals do not count. The default.
	MajorityOfVotesCast Carry = "majority_of_votes_cast"
	// MajorityPresent: more yes than half of those present, abstainers included.
	MajorityPresent Carry = "majority_present"
	// MajorityOfSeated: more yes than half of all seated commissioners.
	MajorityOfSeated Carry = "majority_of_seated"
)

// Carries lists every Carry.
var Carries = []Carry{MajorityOfVotesCast, MajorityPresent, MajorityOfSeated}

// Vote is a roll call on one of the commission's actions: the (C) ruling, the (E)
// decision, the (F) final recommendation, the (H) frivolous finding. It records who was
// seated, how each voted, and the rules it was counted by, so the record shows how the
// commission acted.
type Vote struct {
	Seated  []string `json:"seated"` // every seated commissioner at the time
	Yes     []string `json:"yes,omitempty"`
	No      []string `json:"no,omitempty"`
	Abstain []string `json:"abstain,omitempty"`
	Absent  []string `json:"absent,omitempty"`
	Recused []string `json:"recused,omitempty"` // seated but recused: not in the roll call
	Quorum  int      `json:"quorum"`            // members present needed to act
	Carry   Carry    `json:"carry"`
}

// Present is how many took part: voted yes or no, or abstained.
func (v *Vote) Present() int { return len(v.Yes) + len(v.No) + len(v.Abstain) }

// Carried reports whether the motion carried under v's rule.
func (v *Vote) Carried() bool {
	yes := len(v.Yes)
	switch v.Carry {
	case MajorityPresent:
		return 2*yes > v.Present()
	case MajorityOfSeated:
		return 2*yes > len(v.Seated)
	}
	return 2*yes > yes+len(v.No)
}

// Tally is the vote as the public reads it: "adopted 3–0", "adopted 3–1, 1 abstaining",
// "failed 1–2".
func (v *Vote) Tally() string {
	word := "adopted"
	if !v.Carried() {
		word = "failed"
	}
	s := fmt.Sprintf("%s %d–%d", word, len(v.Yes), len(v.No))
	var more []string
	if n := len(v.Abstain); n > 0 {
		more = append(more, fmt.Sprintf("%d abstaining", n))
	}
	if n := len(v.Absent); n > 0 {
		more = append(more, fmt.Sprintf("%d absent", n))
	}
	if n := len(v.Recused); n > 0 {
		more = append(more, fmt.Sprintf("%d recused", n))
	}
	if len(more) > 0 {
		s += ", " + strings.Join(more, ", ")
	}
	return s
}

// LeaveOutRecused refuses a roll call about case c (a step of it, or the vote to close a
// meeting for it, 5 ILCS 120/2a) that lists a member recused from c, and records who among
// the seated is recused: they take no part in it.
func (v *Vote) LeaveOutRecused(c *Case, rule string) error {
	for _, list := range []struct {
		name  string
		users []string
	}{{"yes", v.Yes}, {"no", v.No}, {"abstain", v.Abstain}, {"absent", v.Absent}} {
		for _, u := range list.users {
			if why, ok := c.Recused(u); ok {
				return Invalid(rule, list.name,
					fmt.Sprintf("%s is recused from case %s (%s) and takes no part in its votes; leave them out", u, c.Number,
						thirdPerson.Replace(why)))
			}
		}
	}
	v.Recused = c.RecusedUsers(v.Seated)
	return nil
}

// DefaultQuorum is a majority of the seated commissioners.
func DefaultQuorum(seated int) int { return seated/2 + 1 }

// check refuses a roll call that does not account for every seated commissioner who is
// not recused exactly once, that lists a recused one, or that lacks a quorum.
func (v *Vote) check(c *Case, rule string) error {
	if len(v.Seated) == 0 {
		return Invalid(rule, "yes", "no commissioners are seated; the configuration names them")
	}
	if v.Quorum < 1 || v.Quorum > len(v.Seated) {
		return Invalid(rule, "quorum",
			fmt.Sprintf("a quorum of %d is impossible with %d seated commissioners", v.Quorum, len(v.Seated)))
	}
	if !slices.Contains(Carries, v.Carry) {
		return Invalid(rule, "carry", fmt.Sprintf("%q is not a majority rule", v.Carry))
	}
	seen := map[string]string{}
	for _, list := range []struct {
		name  string
		users []string
	}{{"yes", v.Yes}, {"no", v.No}, {"abstain", v.Abstain}, {"absent", v.Absent}} {
		for _, u := range list.users {
			switch {
			case !slices.Contains(v.Seated, u):
				return Invalid(rule, list.name, fmt.Sprintf("%s is not a seated commissioner", u))
			case seen[u] != "":
				return Invalid(rule, list.name, fmt.Sprintf("%s is listed twice, under %s= and %s=", u, seen[u], list.name))
			}
			if why, ok := c.Recused(u); ok {
				return Invalid(rule, list.name,
					fmt.Sprintf("%s is recused from case %s (%s) and takes no part in its votes; leave them out", u, c.Number,
						thirdPerson.Replace(why)))
			}
			seen[u] = list.name
		}
	}
	var missing []string
	for _, u := range v.Seated {
		if _, ok := c.Recused(u); !ok && seen[u] == "" {
			missing = append(missing, u)
		}
	}
	if len(missing) > 0 {
		return Invalid(rule, "yes",
			fmt.Sprintf("the roll call must account for every seated commissioner who is not recused: %s %s not listed as "+
				"yes=, no=, abstain= or absent=",
				strings.Join(missing, ", "), map[bool]string{true: "is", false: "are"}[len(missing) == 1]))
	}
	if p := v.Present(); p < v.Quorum {
		return conflict(rule,
			fmt.Sprintf("no quorum: %d commissioner%s present, and %d are needed to act; nothing was recorded", p,
				map[bool]string{true: "", false: "s"}[p == 1], v.Quorum))
	}
	v.Recused = c.RecusedUsers(v.Seated)
	return nil
}

// Motion is a vote that failed: it is on the record, and changed nothing else.
type Motion struct {
	Action string `json:"action"` // the action's kind, e.g. "rule"
	What   string `json:"what"`   // what was moved, e.g. "ruling: insufficient"
	Rule   string `json:"rule"`
	Vote   Vote   `json:"vote"`
	On     Date   `json:"on"`
	// At is the instant of the roll call: the time of the event that records it. The
	// minutes place the vote by it in open or closed session (5 ILCS 120/2(e)); zero on
	// a record kept before it was recorded.
	At time.Time `json:"at,omitzero"`
}

// Adopted is a vote that carried, with the action it adopted.
type Adopted struct {
	Action string `json:"action"`
	What   string `json:"what"`
	Rule   string `json:"rule"`
	Vote   Vote   `json:"vote"`
	On     Date   `json:"on"`
	// At is the instant of the roll call: the time of the event that records it. The
	// minutes place the vote by it in open or closed session (5 ILCS 120/2(e)); zero on
	// a record kept before it was recorded.
	At time.Time `json:"at,omitzero"`
}

// voted applies an action of the commission that carries a roll call. With no vote it
// applies as it is (a town that records votes elsewhere). With one, the roll call is
// checked; a motion that fails is recorded as such and changes nothing else. what says
// what was moved, for the record.
func (x *applying) voted(v *Vote, kind, what, rule string, apply func() error) error {
	if v == nil {
		return apply()
	}
	vote := *v
	if err := vote.check(x.c, rule); err != nil {
		return err
	}
	// The motion is checked as if it carried, so a motion the ordinance would not allow is
	// refused whichever way the vote went.
	before, warned := x.c.clone(), len(x.warnings)
	if err := apply(); err != nil {
		return err
	}
	if !vote.Carried() {
		// Only the failed motion is recorded; the case is otherwise as it was.
		*x.c = before
		x.warnings = x.warnings[:warned]
		x.c.Motions = append(x.c.Motions, Motion{Action: kind, What: what, Rule: rule, Vote: vote, On: x.today, At: x.at})
		return nil
	}
	x.c.Votes = append(x.c.Votes, Adopted{Action: kind, What: what, Rule: rule, Vote: vote, On: x.today, At: x.at})
	return nil
}

// actorMayAct refuses an action by someone recused from the case.
func (x *applying) actorMayAct(a Action) error {
	if x.by == "" {
		return nil
	}
	if _, isFiling := a.(File); isFiling {
		return nil
	}
	if why, ok := x.c.Recused(x.by); ok {
		return Unauthorized("", "",
			fmt.Sprintf("you are recused from case %s (%s), so you cannot act or vote on it", x.c.Number, why))
	}
	return nil
}

// ApplyBy is Apply for an action taken by user by, who must not be recused from the case.
func (e *Engine) ApplyBy(c Case, a Action, by string, at time.Time) (Case, []Warning, error) {
	return e.apply(c, a, by, at)
}
