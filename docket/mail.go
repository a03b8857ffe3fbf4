package docket

import (
	"fmt"
	"slices"
	"strings"
)

// How a certified mailing ends. (B) and (C)(2) send their notices "by certified mail,
// return receipt requested": the Postal Service returns the receipt (PS Form 3811) signed
// by whoever took the piece, or returns the piece itself, endorsed refused (the addressee
// would not take it), unclaimed (left with a notice, and not called for) or undeliverable
// (no such address, moved, left no forwarding address).

// MailOutcome is how a certified mailing ended.
type MailOutcome string

// The outcomes of a certified mailing.
const (
	Delivered     MailOutcome = "delivered"     // the return receipt came back signed
	Refused       MailOutcome = "refused"       // the addressee refused it
	Unclaimed     MailOutcome = "unclaimed"     // noticed, and not called for
	Undeliverable MailOutcome = "undeliverable" // the address could not be served
)

// ReturnedOutcomes are the outcomes of a piece that came back, as a clerk types them.
var ReturnedOutcomes = []MailOutcome{Refused, Unclaimed, Undeliverable}

// Outcome is how mailing m ended: Delivered with its receipt, one of ReturnedOutcomes, or ""
// while neither has come back (and for a delivery otherwise than by certified mail).
func (m Mailing) Outcome() MailOutcome {
	switch {
	case !m.Returned.IsZero():
		return Delivered
	case m.Failed != "":
		return m.Failed
	}
	return ""
}

// NextStep is what the commission does with a paper whose certified mailing came back.
// The ordinance requires the mailing, not its delivery: a notice sent by certified mail,
// return receipt requested, is sent, whether or not it is taken. What follows is the
// commission's choice, configured (MailPolicy) and reminded as a task until it is done.
type NextStep string

// The next steps a commission may choose.
const (
	FirstClass NextStep = "first_class" // the paper again by first-class mail, recorded as a delivery
	ByHand     NextStep = "hand"        // the paper delivered by hand, recorded as a delivery
	Recertify  NextStep = "certified"   // the paper again by certified mail, with a new article number
	NoStep     NextStep = "none"        // nothing: the certified mailing was the notice
)

// NextSteps lists every NextStep, for configuration.
var NextSteps = []NextStep{FirstClass, ByHand, Recertify, NoStep}

// MailPolicy is the commission's choice of the next step after a certified mailing came
// back. The zero policy is the default: a refused or unclaimed paper goes again by
// first-class mail to the same address, since the address was good and first-class mail
// is not refused at the door nor left waiting at the post office; an undeliverable one
// goes again by certified mail, to an address corrected first, since the same address
// would fail again.
type MailPolicy struct {
	Unclaimed     NextStep // after a refused or unclaimed mailing; "" is FirstClass
	Undeliverable NextStep // after an undeliverable one; "" is Recertify
}

// After is the next step policy p chooses after outcome.
func (p MailPolicy) After(outcome MailOutcome) NextStep {
	switch outcome {
	case Refused, Unclaimed:
		if p.Unclaimed == "" {
			return FirstClass
		}
		return p.Unclaimed
	case Undeliverable:
		if p.Undeliverable == "" {
			return Recertify
		}
		return p.Undeliverable
	}
	return NoStep
}

// CheckNextStep refuses a next step that is not one of NextSteps.
func CheckNextStep(s NextStep) error {
	if !slices.Contains(NextSteps, s) {
		return fmt.Errorf("%q is not a next step after returned mail: use one of %s", s, join(NextSteps, ", "))
	}
	return nil
}

// ReturnedMail is a fact: a certified mailing of Paper came back on On; Step is the next
// step the commission had chosen then, taken on Then (zero: not yet). It drives the task
// that reminds the clerk of it.
type ReturnedMail struct {
	Paper   Paper       `json:"paper"`
	Outcome MailOutcome `json:"outcome"`
	On      Date        `json:"on"`
	Step    NextStep    `json:"step"`
	Then    Date        `json:"then,omitzero"`
}

// waiting reports whether r's next step is still to be taken.
func (r ReturnedMail) waiting() bool { return r.Step != NoStep && r.Then.IsZero() }

// RecordUndelivered records that a certified mailing came back without a signed receipt:
// refused, unclaimed or undeliverable, on the day it came back.
type RecordUndelivered struct {
	Article string      `json:"article"`
	Outcome MailOutcome `json:"outcome"`
	On      Date        `json:"on,omitzero"` // zero: today
	// Next is the next step the commission had chosen when it was recorded (MailPolicy),
	// kept with the event so that a case rebuilt under another policy keeps the task it
	// had; empty, the engine's policy is used.
	Next NextStep `json:"next,omitempty"`
}

// Kind implements Action.
func (RecordUndelivered) Kind() string { return "undelivered" }

// Did implements Action.
func (a RecordUndelivered) Did(Wording) Words {
	return said("certified mailing article %s came back %s", CompactArticle(a.Article), a.Outcome)
}

func (a RecordUndelivered) apply(x *applying) error {
	if !slices.Contains(ReturnedOutcomes, a.Outcome) {
		return Invalid("(B)", "outcome",
			fmt.Sprintf("%q is not how a certified mailing comes back: use %s; a signed receipt is recorded with receipt",
				a.Outcome, join(ReturnedOutcomes, ", ")))
	}
	i, err := x.mailingOf(a.Article)
	if err != nil {
		return err
	}
	c := x.c
	m := &c.Mailings[i]
	info, _ := m.Paper.Info()
	if err := x.stillOut(*m); err != nil {
		return err
	}
	on, err := x.stepDate("on", info.Rule, a.On, m.Mailed, "the mailing")
	if err != nil {
		return err
	}
	step := a.Next
	if step == "" {
		step = x.e.Mail.After(a.Outcome)
	}
	if err := CheckNextStep(step); err != nil {
		return Invalid(info.Rule, "next", err.Error())
	}
	m.Failed, m.FailedOn = a.Outcome, on
	if m.Paper != "" {
		c.Returned = append(c.Returned, ReturnedMail{Paper: m.Paper, Outcome: a.Outcome, On: on, Step: step})
	}
	return nil
}

// mailingOf finds the certified mailing with article number s: by the number as recorded,
// even one recorded before check digits were checked; a number no mailing has is checked,
// to say why.
func (x *applying) mailingOf(s string) (int, error) {
	article, err := articleAsRecorded(s)
	if err != nil {
		return 0, err
	}
	i := slices.IndexFunc(x.c.Mailings, func(m Mailing) bool { return m.Article == article })
	if i >= 0 {
		return i, nil
	}
	if !x.replay {
		if _, err := NormalizeArticle(s); err != nil {
			return 0, err
		}
	}
	return 0, &Error{Code: ENOTFOUND, Field: "article",
		Message: fmt.Sprintf("no mailing with article %s is recorded on case %s; record the mailing first", article,
			x.c.Number)}
}

// stillOut refuses a second ending of a mailing that has ended.
func (x *applying) stillOut(m Mailing) error {
	rule := m.Satisfies // the rule that sent it certified: (B) or (C)(2)
	if rule == "" {
		rule = "(B)"
	}
	switch o := m.Outcome(); o {
	case "":
		return nil
	case Delivered:
		return conflict(rule,
			fmt.Sprintf("the return receipt for article %s was recorded on %s", m.Article, m.Returned.Long()))
	default:
		return conflict(rule,
			fmt.Sprintf("article %s was recorded as %s on %s; correct that event if it was recorded in error", m.Article, o,
				m.FailedOn.Long()))
	}
}

// resent records that paper was sent again on on: the next step of each returned mailing
// of it still waiting for one.
func (c *Case) resent(paper Paper, on Date) {
	for i := range c.Returned {
		if r := &c.Returned[i]; r.Paper == paper && r.waiting() {
			r.Then = on
		}
	}
}

// waitsForNextStep reports whether a certified mailing of paper came back and its next
// step, by policy, is still to be taken: then the paper may be delivered otherwise than by
// certified mail, as the commission chose.
func (c *Case) waitsForNextStep(paper Paper) bool {
	return slices.ContainsFunc(c.Returned, func(r ReturnedMail) bool {
		return r.Paper == paper && r.waiting() && (r.Step == FirstClass || r.Step == ByHand)
	})
}

// resendPrefix begins the id of a returned mailing's task: resend_respondent.
const resendPrefix = "resend_"

// resendTasks appends a task for each returned mailing of f: the next step policy chooses,
// open until the paper is sent again. The ordinance gives it no time: it is the
// commission's own step, so it is an undated task, reminded when it arises and listed in
// the clerk's digest until done.
func (e *Engine) resendTasks(ds []Deadline, f *Facts) []Deadline {
	for _, r := range f.Returned {
		step := r.Step
		info, ok := r.Paper.Info()
		if !ok || step == NoStep {
			continue
		}
		how := map[NextStep]string{
			FirstClass: "sent again by first-class mail to the same address",
			ByHand:     "delivered by hand",
			Recertify:  "mailed again by certified mail",
		}[step]
		if r.Outcome == Undeliverable && step != ByHand {
			how = strings.Replace(how, "to the same address", "", 1)
			how = strings.TrimSpace(how) + " to a corrected address"
		}
		p := &Period{ID: DeadlineID(resendPrefix + string(r.Paper)), Rule: info.Rule, Unit: Task, Party: Commission,
			Trigger: fmt.Sprintf("the certified mailing came back %s", r.Outcome),
			Duty:    fmt.Sprintf("%s %s (it came back %s)", info.Name, how, r.Outcome)}
		d := Deadline{ID: p.ID, Rule: p.Rule, Period: p, Status: Open, From: r.On, Done: !r.Then.IsZero(), DoneOn: r.Then}
		if d.Done {
			d.Status = Met
		}
		ds = append(ds, d)
	}
	return ds
}

// ResendCommand is the /ethics command, without /ethics, that takes the next step of the
// task d of a returned mailing of case c: the paper delivered (by first-class mail or by
// hand), or mailed again by certified mail; "" for any other deadline.
func (e *Engine) ResendCommand(c *Case, d Deadline) string {
	paper, step, ok := e.ResendOf(c, d)
	if !ok {
		return ""
	}
	if step == Recertify {
		return "mail " + c.Number + " " + string(paper) + " <article no.>"
	}
	return "delivered " + c.Number + " " + string(paper)
}

// ResendOf says, for the task of a returned mailing of case c, which paper it sends again
// and how; ok is false for any other deadline.
func (e *Engine) ResendOf(c *Case, d Deadline) (paper Paper, step NextStep, ok bool) {
	paper = Paper(strings.TrimPrefix(string(d.ID), resendPrefix))
	if !strings.HasPrefix(string(d.ID), resendPrefix) {
		return "", "", false
	}
	for _, r := range c.Returned {
		if r.Paper == paper && r.On == d.From {
			return paper, r.Step, true
		}
	}
	return "", "", false
}
