package docket

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Serving the papers: (B) the complaint sent to the respondent, the (C) notices, and the
// other papers the ordinance requires, by certified mail, return receipt requested, or
// otherwise, with the receipts that come back.

// RecordMailing records a paper sent by certified mail, return receipt requested.
type RecordMailing struct {
	Paper     Paper  `json:"paper,omitempty"` // empty in records from before papers were named: see legacyPaper
	Recipient Party  `json:"recipient,omitempty"`
	Article   string `json:"article"`
	Mailed    Date   `json:"mailed,omitzero"` // zero: today
	// Letter is the PDF that went out, kept in the record as sent; nil in
	// records from before letters were kept, and where letters are not set up.
	Letter *SentLetter `json:"letter,omitempty"`
}

// SentLetter is the PDF of a paper as it went out: its bytes are stored by the store in
// the same transaction as the mailing or delivery, under SHA256, which the event carries,
// so the hash chain covers them; Dated is the date the letter bears.
//
// PDF, when given, is the letter's bytes, which travel with the act that records them to
// the store; they are never part of the event or the case (the record holds them once, by
// SHA256), so a case's Mailing never carries them (kept).
type SentLetter struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Dated  Date   `json:"dated"`
	PDF    []byte `json:"-"`
}

// kept is l as the case keeps it: without its bytes.
func (l *SentLetter) kept() *SentLetter {
	if l == nil || l.PDF == nil {
		return l
	}
	k := *l
	k.PDF = nil
	return &k
}

// check refuses a SentLetter that is not one.
func (l *SentLetter) check() error {
	if l == nil {
		return nil
	}
	if b, err := hex.DecodeString(l.SHA256); err != nil || len(b) != 32 || hex.EncodeToString(b) != l.SHA256 {
		return Invalid("", "letter", fmt.Sprintf("%q is not a SHA-256 in lower-case hex", l.SHA256))
	}
	if l.Size <= 0 || l.Dated.IsZero() {
		return Invalid("", "letter", "a letter as sent has bytes and a date")
	}
	return nil
}

// Kind implements Action.
func (RecordMailing) Kind() string { return "mail" }

// Did implements Action: "certified mailing recorded: notice of the complaint to the
// respondent (B), article 9407111898765432101634".
func (a RecordMailing) Did(Wording) Words {
	article := CompactArticle(a.Article)
	if info, ok := a.Paper.Info(); ok {
		return said("certified mailing recorded: %s %s, article %s", info.Name, info.Rule, article)
	}
	return said("certified mail to the %s recorded, article %s", a.Recipient, article)
}

// Sent implements Sending.
func (a RecordMailing) Sent() *SentLetter { return a.Letter }

func (a RecordMailing) apply(x *applying) error {
	paper := a.Paper
	if paper == "" {
		var err error
		if paper, err = x.legacyPaper(a.Recipient); err != nil {
			return err
		}
	}
	info, err := checkPaper(paper)
	if err != nil {
		return err
	}
	if a.Recipient != "" && a.Recipient != info.To {
		return Invalid(info.Rule, "recipient",
			fmt.Sprintf("the %s goes to the %s, not the %s", info.Name, info.To, a.Recipient))
	}
	article, err := x.article(a.Article)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(x.c.Mailings, func(m Mailing) bool { return m.Article == article }) {
		return ArticleTaken(article, x.c.Number)
	}
	mailed, err := x.stepDate("mailed", info.Rule, a.Mailed, 0, "")
	if err != nil {
		return err
	}
	if err := a.Letter.check(); err != nil {
		return err
	}
	return x.sendPaper(info, article, mailed, a.Letter)
}

// legacyPaper is the paper a mailing recorded before papers were named was for: the
// (B) notice before the ruling, the notice of a dismissal or of the hearing date after it.
func (x *applying) legacyPaper(to Party) (Paper, error) {
	if to != Respondent && to != Complainant {
		return "", Invalid("", "paper",
			fmt.Sprintf("%q is not a paper: name one, such as respondent, ruling_complainant or referral", to))
	}
	switch x.c.State {
	case StateReceived, StateNoticesSent:
		return Paper(to), nil
	case StateDismissed:
		if x.c.Decision == nil {
			return Paper("dismissal_" + to), nil
		}
	case StateHearingPending, StateHearingSet:
		if x.c.Decision == nil {
			return Paper("ruling_" + to), nil
		}
	}
	return "", Invalid("", "paper",
		fmt.Sprintf("name the paper mailed, such as ruling_%s; %q alone is the (B) notice, which case %s is past", to, to,
			x.c.Number))
}

// RecordDelivery records a paper delivered otherwise than by certified mail: by hand, by
// first-class mail or e-mail. Papers the ordinance sends by certified mail cannot be.
type RecordDelivery struct {
	Paper Paper `json:"paper"`
	On    Date  `json:"on,omitzero"` // zero: today
	// Letter is the PDF that went out, as for RecordMailing.
	Letter *SentLetter `json:"letter,omitempty"`
}

// Kind implements Action.
func (RecordDelivery) Kind() string { return "deliver" }

// Did implements Action.
func (a RecordDelivery) Did(Wording) Words {
	info, _ := a.Paper.Info()
	return said("delivery recorded: %s %s", info.Name, info.Rule)
}

// Sent implements Sending.
func (a RecordDelivery) Sent() *SentLetter { return a.Letter }

func (a RecordDelivery) apply(x *applying) error {
	info, err := checkPaper(a.Paper)
	if err != nil {
		return err
	}
	// A paper the ordinance sends by certified mail may be delivered otherwise once its
	// certified mailing came back and the commission's next step is a delivery (MailPolicy).
	if info.Certified && !x.c.waitsForNextStep(info.Paper) {
		return Invalid(info.Rule, "paper",
			fmt.Sprintf("the %s goes by certified mail, return receipt requested; record its mailing with its article number "+
				"(mail %s %s <article no.>)", info.Name, x.number(), a.Paper))
	}
	on, err := x.stepDate("on", info.Rule, a.On, 0, "")
	if err != nil {
		return err
	}
	if err := a.Letter.check(); err != nil {
		return err
	}
	return x.sendPaper(info, "", on, a.Letter)
}

// sendPaper records paper info sent on day on (by certified mail when article is given),
// once the case needs it, and the fact that meets its deadline.
func (x *applying) sendPaper(info PaperInfo, article string, on Date, letter *SentLetter) error {
	c := x.c
	if err := c.Needs(info.Paper); err != nil {
		return err
	}
	m := Mailing{Paper: info.Paper, Recipient: info.To, Article: article, Mailed: on, Satisfies: info.Rule,
		Letter: letter.kept()}
	switch info.To {
	case Respondent:
		m.Address = c.Respondent.Address
	case Complainant:
		m.Address = c.Complainant.Address
	case Officer:
		m.Officer = c.OfficerKey()
	}
	first := func(d *Date) {
		if d.IsZero() {
			*d = on
		}
	}
	switch info.Paper {
	case RespondentNoticePaper, ComplainantConfirmPaper:
		// (B): the notices give the sufficiency meeting's date, time and place.
		m.MeetingStart, m.MeetingPlace = c.Sufficiency.Start, c.Sufficiency.Place
		if info.Paper == RespondentNoticePaper {
			first(&c.RespondentNoticeMailed)
		} else {
			first(&c.ComplainantConfirmationMailed)
		}
		if c.State == StateReceived && !c.RespondentNoticeMailed.IsZero() && !c.ComplainantConfirmationMailed.IsZero() {
			c.State = StateNoticesSent
		}
	case RulingToRespondent, DismissalToRespondent:
		first(&c.RulingNoticeRespondent)
	case RulingToComplainant, DismissalToComplainant:
		first(&c.RulingNoticeComplainant)
	case AdjudicationRequest:
		first(&c.AdjudicationRequested)
		c.follow(info.Paper, on)
	case ReferralTransmittal:
		first(&c.ReferralTransmitted)
		c.follow(info.Paper, on)
	case RecommendationToResp:
		first(&c.RecommendationToResp)
	case RecommendationToOfficer:
		first(&c.RecommendationToOff)
		if c.Decision != nil && strings.TrimSpace(c.Decision.Recommendation) != "" {
			c.AwaitingOfficer = on // (E)(2): discipline is the officer's to impose, or not
		}
	case FinalToRespondent:
		first(&c.FinalToResp)
	case FinalToOfficer:
		first(&c.FinalToOff)
		c.AwaitingOfficer = on // (F): the final recommendation replaces the decision's
	case DecisionDismissalToResp:
		first(&c.DismissalToResp)
	case DecisionDismissalToComp:
		first(&c.DismissalToComp)
	case FrivolousNotice:
		// (H): the notice gives the meeting's date, time and place, as (B)'s do.
		m.MeetingStart, m.MeetingPlace = c.FrivolousHearing.Start, c.FrivolousHearing.Place
		first(&c.FrivolousNoticeMailed)
	default:
		// A paper of a step whose row has no Done: each sending meets the next deadline.
		if !recordedAsSent(info.Paper) {
			break
		}
		if c.PapersSent == nil {
			c.PapersSent = make(map[Paper][]Date)
		}
		c.PapersSent[info.Paper] = append(c.PapersSent[info.Paper], on)
	}
	c.Mailings = append(c.Mailings, m)
	c.resent(info.Paper, on)
	return nil
}

// dismissedAtC reports whether the (C) ruling dismissed the complaint, or a part of it:
// (C)(2) then requires a notice of dismissal by certified mail, made public.
func (c *Case) dismissedAtC() bool {
	dismissal := func(r Ruling) bool { return r == Insufficient || r == NoProbableCause }
	return dismissal(c.Ruling) || dismissal(c.ReferralRuling)
}

// RecordReturnReceipt records the signed return receipt of a certified mailing: the date
// of delivery on it, and who signed it.
type RecordReturnReceipt struct {
	Article  string `json:"article"`
	Returned Date   `json:"returned,omitzero"` // zero: today
	// Signer is the name the receipt gives for who took the piece; empty in records from
	// before it was asked.
	Signer string `json:"signer,omitempty"`
}

// Kind implements Action.
func (RecordReturnReceipt) Kind() string { return "return_receipt" }

// Did implements Action.
func (a RecordReturnReceipt) Did(Wording) Words {
	article := CompactArticle(a.Article)
	if a.Signer != "" {
		return said("return receipt recorded for article %s, signed by %s", article, a.Signer)
	}
	return said("return receipt recorded for article %s", article)
}

func (a RecordReturnReceipt) apply(x *applying) error {
	i, err := x.mailingOf(a.Article)
	if err != nil {
		return err
	}
	if err := x.checkLine("signer", "(B)", a.Signer, !x.replay, MaxName); err != nil {
		if strings.TrimSpace(a.Signer) == "" {
			err.(*Error).Message = "required: who signed the return receipt, as printed on it (signer=\"...\")"
		}
		return err
	}
	c := x.c
	if err := x.stillOut(c.Mailings[i]); err != nil {
		return err
	}
	returned, err := x.stepDate("returned", "(B)", a.Returned, c.Mailings[i].Mailed, "the mailing")
	if err != nil {
		return err
	}
	c.Mailings[i].Returned, c.Mailings[i].SignedBy = returned, a.Signer
	return nil
}
