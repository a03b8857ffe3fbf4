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
	FrivolousFinding        Paper = "frivolous_finding"              // (H): the finding and the fine, to the complainant, certified
	// (D): "the commission shall conduct a hearing on the complaint and shall allow both
	// parties the opportunity to present testimony and evidence". The parties' notice of
	// the hearing is the (C)(2) notice of the ruling, which "shall include a hearing date"
	// (ruling_respondent, ruling_complainant); a recessed hearing reconvenes on a date no
	// notice gave, so each party is told of it.
	RecessedToRespondent  Paper = "recessed_hearing_respondent"
	RecessedToComplainant Paper = "recessed_hearing_complainant"
	// (F): the respondent's written demand for a public hearing is acknowledged, and both
	// parties, whom the public hearing must "allow ... the opportunity to present testimony
	// and evidence", are told of it.
	DemandAcknowledgement Paper = "demand_acknowledgement"
	PublicHearingToResp   Paper = "public_hearing_respondent"
	PublicHearingToComp   Paper = "public_hearing_complainant"
)

// Recipients of papers besides the parties.
const (
	Attorney Party = "attorney" // the attorney designated by the corporate authorities (C)(2), (C)(3)
	Officer  Party = "officer"  // the chief executive or other officer with authority to discipline (E)(2), (F)
)

// PaperInfo describes a paper: its rule, its recipient, what it is, whether the ordinance
// requires certified mail, return receipt requested, and what the letter must give. The
// letters read it, so a paper's letter needs its template and nothing else.
type PaperInfo struct {
	Paper     Paper
	Rule      string
	To        Party
	Name      string // "notice of the complaint to the respondent"
	Certified bool
	// Meeting is the meeting whose date, time and place the paper gives: the sufficiency
	// meeting (B), the hearing and a recessed session (D), the public hearing (F), the
	// meeting on a frivolous complaint (H).
	Meeting MeetingKind
	// Complaint: the paper transmits the complaint's text, (B) to the respondent and
	// (C)(3) to the attorney.
	Complaint bool
	// Hearing: a notice of a ruling of probable cause includes the hearing date (C)(2).
	Hearing bool
	// Documents: the paper lists "all additional documents in the custody of the
	// Commission concerning the alleged violation" (C)(3).
	Documents bool
	// Signer signs the letter for the commission by default (letters.signers overrides
	// it): the chair for a paper that carries the commission's own act, a ruling (C)(1),
	// (C)(2), the request it elects (C)(2), a decision (E) or a recommendation (E)(2),
	// (F); the clerk for the papers that give notice of what the record holds, (B) and
	// (H), and transmit it (C)(3). The ordinance names no signer; this follows who acts.
	Signer Signer
}

// papers is the table of papers, in order.
var papers = []PaperInfo{
	{Paper: RespondentNoticePaper, Rule: "(B)", To: Respondent,
		Name:      "notice of the complaint to the respondent",
		Certified: true, Meeting: SufficiencyMeeting, Complaint: true, Signer: ClerkSigns},
	{Paper: ComplainantConfirmPaper, Rule: "(B)", To: Complainant,
		Name: "confirmation of receipt to the complainant", Certified: true, Meeting: SufficiencyMeeting, Signer: ClerkSigns},
	{Paper: RulingToRespondent, Rule: "(C)(1)", To: Respondent,
		Name: "notice of the ruling to the respondent", Hearing: true, Signer: ChairSigns},
	{Paper: RulingToComplainant, Rule: "(C)(1)", To: Complainant,
		Name: "notice of the ruling to the complainant", Hearing: true, Signer: ChairSigns},
	{Paper: DismissalToRespondent, Rule: "(C)(2)", To: Respondent,
		Name: "notice of dismissal to the respondent", Certified: true, Hearing: true, Signer: ChairSigns},
	{Paper: DismissalToComplainant, Rule: "(C)(2)", To: Complainant,
		Name: "notice of dismissal to the complainant", Certified: true, Hearing: true, Signer: ChairSigns},
	{Paper: AdjudicationRequest, Rule: "(C)(2)", To: Attorney,
		Name: "written request to the attorney for judicial adjudication", Signer: ChairSigns},
	{Paper: ReferralTransmittal, Rule: "(C)(3)", To: Attorney,
		Name: "transmittal of the complaint and its documents to the attorney", Complaint: true, Documents: true,
		Signer: ClerkSigns},
	// (D): the ordinance sets no form for these, and no certified mail: the clerk records
	// how each went (`delivered`), or mails it certified and records its article number.
	{Paper: RecessedToRespondent, Rule: "(D)", To: Respondent,
		Name: "notice of the recessed hearing to the respondent", Meeting: RecessedHearing, Signer: ClerkSigns},
	{Paper: RecessedToComplainant, Rule: "(D)", To: Complainant,
		Name: "notice of the recessed hearing to the complainant", Meeting: RecessedHearing, Signer: ClerkSigns},
	{Paper: RecommendationToResp, Rule: "(E)(2)", To: Respondent, Name: "recommendation to the respondent",
		Signer: ChairSigns},
	{Paper: RecommendationToOfficer, Rule: "(E)(2)", To: Officer,
		Name: "recommendation to the officer with authority to discipline", Signer: ChairSigns},
	{Paper: DemandAcknowledgement, Rule: "(F)", To: Respondent,
		Name: "acknowledgement of the demand for a public hearing", Signer: ClerkSigns},
	{Paper: PublicHearingToResp, Rule: "(F)", To: Respondent,
		Name: "notice of the public hearing to the respondent", Meeting: PublicHearing, Signer: ClerkSigns},
	{Paper: PublicHearingToComp, Rule: "(F)", To: Complainant,
		Name: "notice of the public hearing to the complainant", Meeting: PublicHearing, Signer: ClerkSigns},
	{Paper: FinalToRespondent, Rule: "(F)", To: Respondent, Name: "final recommendation to the respondent",
		Signer: ChairSigns},
	{Paper: FinalToOfficer, Rule: "(F)", To: Officer,
		Name: "final recommendation to the officer with authority to discipline", Signer: ChairSigns},
	{Paper: DecisionDismissalToResp, Rule: "(E)(1)", To: Respondent,
		Name: "notice of the dismissal after the hearing to the respondent", Signer: ChairSigns},
	{Paper: DecisionDismissalToComp, Rule: "(E)(1)", To: Complainant,
		Name: "notice of the dismissal after the hearing to the complainant", Signer: ChairSigns},
	{Paper: FrivolousNotice, Rule: "(H)", To: Complainant,
		Name:      "notice to the complainant of the meeting on a frivolous complaint",
		Certified: true, Meeting: FrivolousMeeting, Signer: ClerkSigns},
	// (H): the finding and the fine are the commission's act on the person fined, who is
	// told of them, and of how and by when to pay, by certified mail, as (C)(2) sends its
	// notice of dismissal: the record then proves that the person fined was told.
	{Paper: FrivolousFinding, Rule: "(H)", To: Complainant,
		Name:      "notice to the complainant of the finding of a knowingly frivolous complaint and the fine",
		Certified: true, Signer: ChairSigns},
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
		return info, Invalid("", "paper", fmt.Sprintf("unknown paper %q: use one of %s", p, join(names, ", ")))
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

// ArticleAsMailed is the article number mailing ml was first recorded with, before any
// correction of its article (/ethics correct ... article=): the number its letter kept as
// sent bears. It is ml.Article when none was corrected.
func (c *Case) ArticleAsMailed(ml Mailing) string {
	n := ml.Article
	for i := len(c.Amendments) - 1; i >= 0; i-- {
		a := c.Amendments[i]
		if a.Void || a.Kind != (RecordMailing{}).Kind() || a.Field != "article" {
			continue
		}
		from, err1 := articleAsRecorded(a.From)
		to, err2 := articleAsRecorded(a.To)
		if err1 == nil && err2 == nil && to == n {
			n = from
		}
	}
	return n
}
