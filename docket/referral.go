package docket

import (
	"fmt"
	"slices"
)

// ReportReferral records where a matter referred to the attorney stands, as the attorney
// reports it: the (C)(2) request to adjudicate judicially, or the (C)(3) transmittal of a
// §103.05 complaint. The ordinance hands the matter to the attorney and says nothing more;
// the commission follows it, so that a referral stays on the docket, with its status,
// until it is closed with its outcome, and the clerk is reminded at the commission's
// interval (referral_follow_up) to ask.
type ReportReferral struct {
	// Paper is the referral reported on: adjudication_request (C)(2) or referral (C)(3);
	// "" when the case has one referral.
	Paper  Paper  `json:"paper,omitempty"`
	Status string `json:"status"` // as the attorney reports it: "complaint filed in circuit court"
	// Outcome, when given, closes the referral: "judgment for the city, fine of $2,000".
	Outcome string `json:"outcome,omitempty"`
	On      Date   `json:"on,omitzero"` // zero: today
}

// Referral is a matter sent to the attorney, as the schedule follows it.
type Referral struct {
	Paper  Paper `json:"paper"` // adjudication_request or referral
	Last   Date  `json:"last"`  // its sending, or the attorney's last report
	Closed Date  `json:"closed,omitzero"`
}

// ReferralReport is one report of the attorney on a referral.
type ReferralReport struct {
	Paper   Paper  `json:"paper"`
	Status  string `json:"status"`
	Outcome string `json:"outcome,omitempty"`
	On      Date   `json:"on"`
}

// open reports whether the referral awaits its outcome.
func (r Referral) open() bool { return r.Closed.IsZero() }

// Rule is the subsection of the referral: (C)(2) for adjudication, (C)(3) for a transmittal.
func (r Referral) Rule() string {
	info, _ := r.Paper.Info()
	return info.Rule
}

// follow starts following referral paper p, sent on day on.
func (c *Case) follow(p Paper, on Date) {
	if !slices.ContainsFunc(c.Referrals, func(r Referral) bool { return r.Paper == p }) {
		c.Referrals = append(c.Referrals, Referral{Paper: p, Last: on})
	}
}

// Kind implements Action.
func (ReportReferral) Kind() string { return "referral_status" }

// Did implements Action: "the attorney reports on the referral (C)(3): "under review"",
// and, with an outcome, "...; closed: "..."".
func (a ReportReferral) Did(w Wording) Words {
	what := "the referral"
	if info, ok := a.paperOf(w.After).Info(); ok {
		what = "the " + info.Name + " " + info.Rule
	}
	words := fmt.Sprintf("the attorney reports on %s: %s", what, Quoted(a.Status))
	if a.Outcome != "" {
		words += "; closed with its outcome: " + Quoted(a.Outcome)
	}
	return said("%s", words)
}

// paperOf is the referral the report is on: its Paper, or the case's one referral.
func (a ReportReferral) paperOf(c *Case) Paper {
	if a.Paper != "" || c == nil || len(c.Referrals) != 1 {
		return a.Paper
	}
	return c.Referrals[0].Paper
}

func (a ReportReferral) apply(x *applying) error {
	c := x.c
	p := a.paperOf(c)
	if p == "" && len(c.Referrals) > 1 {
		return Invalid("(C)(3)", "paper", "the case has two referrals: say which with paper=adjudication_request or "+
			"paper=referral")
	}
	i := slices.IndexFunc(c.Referrals, func(r Referral) bool { return r.Paper == p })
	if i < 0 {
		return conflict("(C)(3)", fmt.Sprintf("case %s has no referral to the attorney followed: one is followed from "+
			"the recorded sending of its adjudication_request (C)(2) or referral (C)(3)", c.Number))
	}
	r := &c.Referrals[i]
	if !r.open() {
		return conflict(r.Rule(), fmt.Sprintf("the referral was closed on %s", r.Closed.Long()))
	}
	if err := x.checkLine("status", r.Rule(), a.Status, true, MaxName); err != nil {
		return err
	}
	if err := x.checkLine("outcome", r.Rule(), a.Outcome, false, MaxName); err != nil {
		return err
	}
	on, err := x.stepDate("on", r.Rule(), a.On, r.Last, "the referral's sending or last report")
	if err != nil {
		return err
	}
	r.Last = on
	if a.Outcome != "" {
		r.Closed = on
	}
	c.ReferralReports = append(c.ReferralReports, ReferralReport{Paper: p, Status: a.Status, Outcome: a.Outcome, On: on})
	return nil
}

// ReferralLines says where each referral of case c stands, for its card: its last report,
// and when the next is asked for, or its outcome. Plain text: what the attorney reported
// is data for the renderer to escape.
func (e *Engine) ReferralLines(c *Case) []string {
	var out []string
	for _, r := range c.Referrals {
		info, _ := r.Paper.Info()
		line := fmt.Sprintf("%s %s: sent", info.Name, info.Rule)
		for _, rep := range c.ReferralReports {
			if rep.Paper == r.Paper {
				line = fmt.Sprintf("%s %s: %s (%s)", info.Name, info.Rule, Quoted(rep.Status), rep.On.Long())
			}
		}
		if r.open() {
			line += "; next report asked by " + e.after(ReferralFollowUp, r.Last).Due.Long()
		} else {
			rep := c.ReferralReports[slices.IndexFunc(c.ReferralReports, func(rr ReferralReport) bool {
				return rr.Paper == r.Paper && rr.Outcome != ""
			})]
			line += "; closed with its outcome: " + Quoted(rep.Outcome)
		}
		out = append(out, line)
	}
	return out
}
