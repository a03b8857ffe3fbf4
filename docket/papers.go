package docket

import (
	"fmt"
	"slices"
)

// Paper names one written notice the procedure requires: who receives it, under which
// rule, and whether it must go by certified mail. The names are what a clerk types:
// `/ethics mail 2026-001 respondent <article no.>`, `/ethics delivered 2026-001 referral`.
type Paper string

// The papers of the ordinance, in the order a case needs them.
const (
	RespondentNoticePaper   Paper = "respondent"            // (B): notice and copy of the complaint, certified
	ComplainantConfirmPaper Paper = "complainant"           // (B): confirmation of receipt, certified
	RulingToRespondent      Paper = "ruling_respondent"     // (C)(1): notice of the ruling
	RulingToComplainant     Paper = "ruling_complainant"    // (C)(1)
	DismissalToRespondent   Paper = "dismissal_respondent"  // (C)(2): notice of dismissal, certified; it is the (C)(1) ruling notice too
	DismissalToComplainant  Paper = "dismissal_complainant" // (C)(2)
	AdjudicationRequest     Paper = "adjudication_request"  // (C)(2): written request to the attorney to adjudicate judicially
	ReferralTransmittal     Paper = "referral"              // (C)(3): the complaint and all documents, to the attorney
	RecommendationToResp    Paper = "recommendation_respondent"
	RecommendationToOfficer Paper = "recommendation_officer" // (E)(2): to the officer with authority to discipline
	FinalToRespondent       Paper = "final_respondent"       // (F): the final recommendation
	FinalToOfficer          Paper = "final_officer"
	DecisionDismissalToResp Paper = "decision_dismissal_respondent"  // (E)(1): the dismissal after a hearing
	DecisionDismissalToComp Paper = "decision_dismissal_complainant" // (E)(1)
	FrivolousNotice         Paper = "frivolous_notice"               // (H): the complainant's notice of the meeting, certified
)

// Recipients of papers besides the parties.
const (
	Attorney Party = "attorney" // the attorney designated by the corporate authorities (C)(2), (C)(3)
	Officer  Party = "officer"  // the chief executive or other officer with authority to discipline (E)(2), (F)
)

// PaperInfo describes a paper: its rule, its recipient, what it is, and whether the
// ordinance requires certified mail, return receipt requested.
type PaperInfo struct {
	Paper     Paper
	Rule      string
	To        Party
	Name      string // "notice of the complaint to the respondent"
	Certified bool
}

// papers is the table of papers, in order.
var papers = []PaperInfo{
	{RespondentNoticePaper, "(B)", Respondent, "notice of the complaint to the respondent", true},
	{ComplainantConfirmPaper, "(B)", Complainant, "confirmation of receipt to the complainant", true},
	{RulingToRespondent, "(C)(1)", Respondent, "notice of the ruling to the respondent", false},
	{RulingToComplainant, "(C)(1)", Complainant, "notice of the ruling to the complainant", false},
	{DismissalToRespondent, "(C)(2)", Respondent, "notice of dismissal to the respondent", true},
	{DismissalToComplainant, "(C)(2)", Complainant, "notice of dismissal to the complainant", true},
	{AdjudicationRequest, "(C)(2)", Attorney, "written request to the attorney for judicial adjudication", false},
	{ReferralTransmittal, "(C)(3)", Attorney, "transmittal of the complaint and its documents to the attorney", false},
	{RecommendationToResp, "(E)(2)", Respondent, "recommendation to the respondent", false},
	{RecommendationToOfficer, "(E)(2)", Officer, "recommendation to the officer with authority to discipline", false},
	{FinalToRespondent, "(F)", Respondent, "final recommendation to the respondent", false},
	{FinalToOfficer, "(F)", Officer, "final recommendation to the officer with authority to discipline", false},
	{DecisionDismissalToResp, "(E)(1)", Respondent, "notice of the dismissal after the hearing to the respondent", false},
	{DecisionDismissalToComp, "(E)(1)", Complainant, "notice of the dismissal after the hearing to the complainant", false},
	{FrivolousNotice, "(H)", Complainant, "notice to the complainant of the meeting on a frivolous complaint", true},
}

// Papers lists every paper, in order.
func Papers() []PaperInfo { return slices.Clone(papers) }

// Info returns the description of p.
func (p Paper) Info() (PaperInfo, bool) {
	i := slices.IndexFunc(papers, func(pi PaperInfo) bool { return pi.Paper == p })
	if i < 0 {
		return PaperInfo{}, false
	}
	return papers[i], true
}

// checkPaper refuses a paper the ordinance does not have.
func checkPaper(p Paper) (PaperInfo, error) {
	info, ok := p.Info()
	if !ok {
		names := make([]string, len(papers))
		for i, pi := range papers {
			names[i] = string(pi.Paper)
		}
		return info, invalid("paper", "", fmt.Sprintf("unknown paper %q: use one of %s", p, join(names, ", ")))
	}
	return info, nil
}

// Sent returns the record of paper p's sending, the first if several: its certified
// mailing with the article number, or its delivery.
func (c *Case) Sent(p Paper) (Mailing, bool) {
	i := slices.IndexFunc(c.Mailings, func(m Mailing) bool { return m.Paper == p })
	if i < 0 {
		return Mailing{}, false
	}
	return c.Mailings[i], true
}
