package docket

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// File is (A): a complaint received by the commission. It opens a case.
type File struct {
	Complainant   Person    `json:"complainant"`
	Respondent    Person    `json:"respondent"`
	Sections      []string  `json:"sections"`
	ViolationDate Date      `json:"violation_date,omitzero"`
	Received      time.Time `json:"received"`
	Elections     []Date    `json:"elections,omitempty"` // (G) the respondent is a candidate
	Summary       string    `json:"summary"`
}

// Kind implements Action.
func (File) Kind() string { return "file" }

func (a File) apply(x *applying) error {
	if x.c.State != "" {
		return conflict("(A)", "this case is already filed")
	}
	for _, check := range []error{
		x.checkLine("respondent", "(A)", a.Respondent.Name, true, MaxName),
		x.checkLine("complainant", "(A)", a.Complainant.Name, true, MaxName),
		checkSlackID("respondent_slack_id", a.Respondent.SlackID),
		checkSlackID("complainant_slack_id", a.Complainant.SlackID),
		checkText("summary", a.Summary, true, MaxSummary),
		x.checkContact("respondent", "(A)", a.Respondent),
		x.checkContact("complainant", "(A)", a.Complainant),
	} {
		if check != nil {
			return check
		}
	}
	if len(a.Sections) == 0 {
		return invalid("section", "(A)", fmt.Sprintf("required: the section alleged, %s or %s", x.e.Ord.HearingSection, x.e.Ord.ReferralSection))
	}
	received := a.Received
	if received.IsZero() {
		received = x.at
	}
	if received.After(x.at) {
		return invalid("received", "(A)", fmt.Sprintf("%s is in the future: it is now %s", x.e.shortTime(received), x.e.shortTime(x.at)))
	}
	c := x.c
	c.State = StateReceived
	c.Complainant, c.Respondent, c.Summary = a.Complainant, a.Respondent, a.Summary
	c.Received = received
	c.Sections = dedupe(a.Sections)
	c.ViolationDate = a.ViolationDate
	c.Elections = dedupe(a.Elections)
	s := x.e.Schedule(&c.Facts, time.Time{})
	if s.TimeBarred != nil && *s.TimeBarred {
		d, _ := s.Find(FilingLimit)
		x.warn("(I)", "time-barred: the complaint was received on %s, after the last day to file, %s; the ruling on it is a dismissal (rule %s insufficient ground=time_barred) unless overridden with a reason", s.Received.Long(), d.Due.Long(), x.number())
	}
	if s.Expedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)", "EXPEDITED: received within %d days before the election on %s; the decision is due by %s", x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	}
	x.whyNotExpedited(c.Elections)
	return nil
}

func dedupe[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// ScheduleMeeting schedules, or reschedules, one of the commission's meetings on a case.
// Its public notice cannot be posted before it is scheduled, so it must start at least the
// notice period after it is scheduled.
type ScheduleMeeting struct {
	Meeting   MeetingKind `json:"meeting"`
	Start     time.Time   `json:"start"`
	Place     string      `json:"place"`
	Closed    bool        `json:"closed,omitempty"`
	Authority string      `json:"authority,omitempty"` // Open Meetings Act exception for a closed meeting
}

// Kind implements Action.
func (ScheduleMeeting) Kind() string { return "schedule_meeting" }

func (a ScheduleMeeting) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	if err := x.checkLine("place", mr.rule, a.Place, true, MaxName); err != nil {
		return err
	}
	if a.Start.IsZero() {
		return invalid("start", mr.rule, "required: when the "+mr.name+" starts")
	}
	if a.Closed {
		if a.Meeting == PublicHearing {
			return invalid("closed", "(F)", "the public hearing demanded under (F) cannot be closed to the public")
		}
		if strings.TrimSpace(a.Authority) == "" {
			return invalid("authority", mr.rule, "a closed meeting needs the Open Meetings Act exception that allows it, e.g. 5 ILCS 120/2(c)(4)")
		}
		if err := x.checkLine("authority", mr.rule, a.Authority, true, MaxName); err != nil {
			return err
		}
	} else if a.Authority != "" {
		return invalid("authority", mr.rule, "an Open Meetings Act exception is given only for a closed meeting")
	}
	if err := x.meetingAllowed(a.Meeting); err != nil {
		return err
	}
	if m := x.c.Meeting(a.Meeting); m.Scheduled() && m.Start.After(x.at) && m.Start.Equal(a.Start) && m.Place == a.Place && m.Closed == a.Closed && m.Authority == a.Authority {
		// Nothing would change, and a notice of a move that is no move would mislead.
		return conflict(mr.rule, fmt.Sprintf("the %s is already scheduled for %s at %s; nothing was changed", mr.name, x.e.shortTime(m.Start), m.Place))
	}
	if earliest := x.e.EarliestMeeting(mr.notice, x.at); a.Start.Before(earliest) {
		p := x.e.Ord.Period(mr.notice)
		return invalid("start", mr.rule, fmt.Sprintf("a %s needs at least %s' public notice; the earliest lawful start is %s", mr.name, p.describe(), x.e.shortTime(earliest)))
	}
	c := x.c
	if a.Meeting == RecessedHearing && c.State == StateHearingRecessed && c.Reconvened.Scheduled() {
		// (D): a session held and recessed again keeps its own notice and its status.
		c.Sessions = append(c.Sessions, c.Reconvened)
	}
	m := c.meeting(a.Meeting)
	if m.Scheduled() && m.Start.After(x.at) {
		c.Withdrawn = append(c.Withdrawn, WithdrawnMeeting{Kind: a.Meeting, Meeting: *m, At: x.at, MovedTo: a.Start})
	}
	*m = Meeting{Start: a.Start.In(x.e.Cal.Location()), Place: a.Place, Closed: a.Closed, Authority: a.Authority, ScheduledAt: x.at.In(x.e.Cal.Location())}
	x.warnClosedDeadline(a.Meeting, *m)
	if a.Meeting != PublicHearing {
		x.warnAfterElectionDate(mr.name, a.Start)
	}
	switch a.Meeting {
	case SufficiencyMeeting:
		if slices.ContainsFunc(c.Mailings, func(ml Mailing) bool { return ml.Satisfies == "(B)" && !ml.announces(*m) }) {
			x.warn("(B)", "the notices already mailed give the old date, time or place; mail both parties notice of the sufficiency meeting as it now stands")
		}
		if rd := x.e.after(SufficiencyRuling, x.e.Cal.DateOf(c.Received)); x.e.Cal.DateOf(a.Start) > rd.Due {
			x.warn("(C)(1)", "the sufficiency meeting on %s is after the ruling deadline, %s", x.e.Cal.DateOf(a.Start).Long(), rd.Due.Long())
		}
	case HearingMeeting:
		c.State = StateHearingSet
		if hb := x.e.after(HearingBy, x.e.Cal.DateOf(c.Received)); x.e.Cal.DateOf(a.Start) > hb.Due {
			x.warn("(C)(2)", "the hearing on %s is after the last day for it, %s", x.e.Cal.DateOf(a.Start).Long(), hb.Due.Long())
		}
	case RecessedHearing:
		c.State = StateHearingSet
	case PublicHearing:
		c.State = StatePublicSet
		if ph := x.e.after(PublicHearingBy, c.DemandReceived); x.e.Cal.DateOf(a.Start) > ph.Due {
			x.warn("(F)", "the public hearing on %s is after the last day for it, %s", x.e.Cal.DateOf(a.Start).Long(), ph.Due.Long())
		}
	case FrivolousMeeting:
		if !c.FrivolousNoticeMailed.IsZero() && !x.frivolousNoticeGiven() {
			x.warn("(H)", "the notice mailed to the complainant gives the old date, time or place; mail the complainant notice of the meeting as it now stands")
		}
	}
	return nil
}

// meetingAllowed says whether the case's state allows scheduling (or rescheduling) k.
func (x *applying) meetingAllowed(k MeetingKind) error {
	c := x.c
	// A session held without the 48 hours' notice (D) requires may be held again.
	started := func(m Meeting) bool { return m.Scheduled() && !m.Start.After(x.at) && x.e.noticeMet(HearingMeeting, m) }
	switch k {
	case SufficiencyMeeting:
		if err := x.needState("(C)(1)", "schedule the sufficiency meeting", StateReceived, StateNoticesSent); err != nil {
			return err
		}
	case HearingMeeting:
		if err := x.needState("(C)(2)", "schedule the hearing: it follows a ruling of probable cause", StateHearingPending, StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (c.Reconvened.Scheduled() || started(c.Hearing)) {
			return conflict("(E)", "the hearing has begun; schedule a recessed_hearing to reconvene it")
		}
	case RecessedHearing:
		if err := x.needState("(E)", "schedule a recessed hearing: the hearing must first be recessed", StateHearingRecessed, StateHearingSet); err != nil {
			return err
		}
		if c.State == StateHearingSet && (!c.Reconvened.Scheduled() || started(c.Reconvened)) {
			return conflict("(E)", "no recessed hearing is waiting to reconvene; record a recess first")
		}
	case PublicHearing:
		return x.needState("(F)", "schedule the public hearing: it follows a demand after a closed hearing", StateDemanded, StatePublicSet)
	case FrivolousMeeting:
		if err := x.needState("(H)", "schedule a meeting on a frivolous complaint: only a dismissed complaint can be found frivolous", StateDismissed); err != nil {
			return err
		}
		if c.Frivolous != nil {
			return conflict("(H)", fmt.Sprintf("the complaint was already found frivolous on %s", c.Frivolous.On.Long()))
		}
	}
	return nil
}

// checkKind refuses a meeting kind the ordinance does not have.
func checkKind(k MeetingKind) error {
	if _, ok := meetingRules[k]; !ok {
		return invalid("meeting", "", fmt.Sprintf("unknown meeting %q: use one of %s", k, join(MeetingKinds, ", ")))
	}
	return nil
}

// CancelMeeting cancels a scheduled meeting that has not started.
type CancelMeeting struct {
	Meeting MeetingKind `json:"meeting"`
	Reason  string      `json:"reason,omitempty"`
}

// Kind implements Action.
func (CancelMeeting) Kind() string { return "cancel_meeting" }

func (a CancelMeeting) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	if err := checkText("reason", a.Reason, false, MaxText); err != nil {
		return err
	}
	c := x.c
	m := c.meeting(a.Meeting)
	if !m.Scheduled() {
		return &Error{Code: ENOTFOUND, Message: fmt.Sprintf("case %s has no %s scheduled", c.Number, a.Meeting.Name())}
	}
	if !m.Start.After(x.at) {
		return conflict(meetingRules[a.Meeting].rule, fmt.Sprintf("the %s began at %s and can no longer be cancelled", a.Meeting.Name(), x.e.shortTime(m.Start)))
	}
	if a.Meeting == SufficiencyMeeting && c.Ruling != "" || a.Meeting == HearingMeeting && c.Reconvened.Scheduled() || a.Meeting == FrivolousMeeting && c.Frivolous != nil {
		return conflict(meetingRules[a.Meeting].rule, "the "+a.Meeting.Name()+" has already been held")
	}
	c.Withdrawn = append(c.Withdrawn, WithdrawnMeeting{Kind: a.Meeting, Meeting: *m, At: x.at, Reason: a.Reason})
	*m = Meeting{}
	c.Cancelled++
	switch a.Meeting {
	case HearingMeeting:
		c.State = StateHearingPending
	case RecessedHearing:
		c.State = StateHearingRecessed
	case PublicHearing:
		c.State = StateDemanded
	}
	return nil
}

// PostNotice records that a meeting's public notice was physically posted at the meeting
// place and the principal office.
type PostNotice struct {
	Meeting MeetingKind `json:"meeting"`
	Posted  time.Time   `json:"posted,omitzero"` // zero: when the action is taken
}

// Kind implements Action.
func (PostNotice) Kind() string { return "post_notice" }

func (a PostNotice) apply(x *applying) error {
	if err := checkKind(a.Meeting); err != nil {
		return err
	}
	mr := meetingRules[a.Meeting]
	m := x.c.meeting(a.Meeting)
	if !m.Scheduled() {
		return &Error{Code: ENOTFOUND, Message: fmt.Sprintf("case %s has no %s scheduled; schedule it first", x.c.Number, mr.name)}
	}
	posted := a.Posted
	if posted.IsZero() {
		posted = x.at
	}
	if err := x.checkPosting(a.Meeting, *m, posted); err != nil {
		return err
	}
	m.NoticePosted = posted.In(x.e.Cal.Location())
	if due := m.Start.Add(-time.Duration(x.e.Ord.Period(mr.notice).Amount) * time.Hour); posted.After(due) {
		x.warn(mr.rule, "the notice was posted at %s, less than %s before the %s", x.e.shortTime(posted), x.e.Ord.Period(mr.notice).describe(), mr.name)
	}
	return nil
}

// RecordMailing records a paper sent by certified mail, return receipt requested.
type RecordMailing struct {
	Paper     Paper  `json:"paper,omitempty"` // empty in records from before papers were named: see legacyPaper
	Recipient Party  `json:"recipient,omitempty"`
	Article   string `json:"article"`
	Mailed    Date   `json:"mailed,omitzero"` // zero: today
	// Letter is the PDF that went out, kept in the record as sent (issue 20 §4); nil in
	// records from before letters were kept, and where letters are not set up.
	Letter *SentLetter `json:"letter,omitempty"`
}

// SentLetter is the PDF of a paper as it went out: its bytes are stored by the store in
// the same transaction as the mailing or delivery, under SHA256, which the event carries,
// so the hash chain covers them; Dated is the date the letter bears.
type SentLetter struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Dated  Date   `json:"dated"`
}

// check refuses a SentLetter that is not one.
func (l *SentLetter) check() error {
	if l == nil {
		return nil
	}
	if b, err := hex.DecodeString(l.SHA256); err != nil || len(b) != 32 || hex.EncodeToString(b) != l.SHA256 {
		return invalid("letter", "", fmt.Sprintf("%q is not a SHA-256 in lower-case hex", l.SHA256))
	}
	if l.Size <= 0 || l.Dated.IsZero() {
		return invalid("letter", "", "a letter as sent has bytes and a date")
	}
	return nil
}

// Kind implements Action.
func (RecordMailing) Kind() string { return "mail" }

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
		return invalid("recipient", info.Rule, fmt.Sprintf("the %s goes to the %s, not the %s", info.Name, info.To, a.Recipient))
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
		return "", invalid("paper", "", fmt.Sprintf("%q is not a paper: name one, such as respondent, ruling_complainant or referral", to))
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
	return "", invalid("paper", "", fmt.Sprintf("name the paper mailed, such as ruling_%s; %q alone is the (B) notice, which case %s is past", to, to, x.c.Number))
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

func (a RecordDelivery) apply(x *applying) error {
	info, err := checkPaper(a.Paper)
	if err != nil {
		return err
	}
	// A paper the ordinance sends by certified mail may be delivered otherwise once its
	// certified mailing came back and the commission's next step is a delivery (MailPolicy).
	if info.Certified && !x.c.waitsForNextStep(info.Paper) {
		return invalid("paper", info.Rule, fmt.Sprintf("the %s goes by certified mail, return receipt requested; record its mailing with its article number (mail %s %s <article no.>)", info.Name, x.number(), a.Paper))
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
	m := Mailing{Paper: info.Paper, Recipient: info.To, Article: article, Mailed: on, Satisfies: info.Rule, Letter: letter}
	switch info.To {
	case Respondent:
		m.Address = c.Respondent.Address
	case Complainant:
		m.Address = c.Complainant.Address
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
	case ReferralTransmittal:
		first(&c.ReferralTransmitted)
	case RecommendationToResp:
		first(&c.RecommendationToResp)
	case RecommendationToOfficer:
		first(&c.RecommendationToOff)
	case FinalToRespondent:
		first(&c.FinalToResp)
	case FinalToOfficer:
		first(&c.FinalToOff)
	case DecisionDismissalToResp:
		first(&c.DismissalToResp)
	case DecisionDismissalToComp:
		first(&c.DismissalToComp)
	case FrivolousNotice:
		// (H): the notice gives the meeting's date, time and place, as (B)'s do.
		m.MeetingStart, m.MeetingPlace = c.FrivolousHearing.Start, c.FrivolousHearing.Place
		first(&c.FrivolousNoticeMailed)
	default:
		// A paper of a step that its row schedules: each sending meets the next deadline.
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

// Needs returns nil if case c needs paper p now, or an error naming the rule that says
// why not: the paper does not apply to the case, or what it must say has not been decided.
// Letters and the record of mailings ask the same question here.
func (c *Case) Needs(p Paper) error {
	info, err := checkPaper(p)
	if err != nil {
		return err
	}
	needs := func(ok bool, why string) error {
		if ok {
			return nil
		}
		return conflict(info.Rule, fmt.Sprintf("case %s does not need the %s: %s", c.Number, info.Name, why))
	}
	switch info.Paper {
	case RespondentNoticePaper, ComplainantConfirmPaper:
		// (B): the notices must give the date, time and place of the sufficiency meeting.
		if !c.Sufficiency.Scheduled() {
			return conflict("(B)", "the notice must give the date, time and place of the sufficiency meeting; schedule that meeting first")
		}
		return nil
	case RulingToRespondent, RulingToComplainant:
		if err := needs(c.Ruling != "", "the commission has not ruled"); err != nil {
			return err
		}
		if c.dismissedAtC() {
			return conflict("(C)(2)", fmt.Sprintf("the ruling dismissed the complaint, or a part of it, so its notice is the notice of dismissal, sent by certified mail: %s", strings.Replace(string(info.Paper), "ruling_", "dismissal_", 1)))
		}
		// (C)(2): a notice of probable cause includes the hearing date.
		if c.Ruling == ProbableCause && !c.Hearing.Scheduled() {
			return conflict("(C)(2)", "the notice of a ruling of probable cause must include the hearing date; schedule the hearing first")
		}
		return nil
	case DismissalToRespondent, DismissalToComplainant:
		return needs(c.dismissedAtC(), "the (C) ruling did not dismiss it")
	case AdjudicationRequest:
		return needs(c.Ruling == JudicialReferral, "the ruling was not judicial_referral")
	case ReferralTransmittal:
		return needs(c.Ruling == AttorneyReferral || c.ReferralRuling == AttorneyReferral, "no part of it was ruled attorney_referral")
	case RecommendationToResp, RecommendationToOfficer:
		return needs(c.Decision != nil && !c.Decision.Dismissed, "no recommendation for discipline or fine has been issued under (E)(2)")
	case FinalToRespondent, FinalToOfficer:
		return needs(c.Final != nil, "no final recommendation has been issued under (F)")
	case DecisionDismissalToResp, DecisionDismissalToComp:
		return needs(c.Decision != nil && c.Decision.Dismissed, "the (E) decision has not dismissed the complaint")
	case RecessedToRespondent, RecessedToComplainant, PublicHearingToResp, PublicHearingToComp:
		// (D), (F): the notice gives the meeting's date, time and place.
		return needs(c.Meeting(info.Meeting).Scheduled(), fmt.Sprintf("no %s is scheduled; schedule it first", info.Meeting.Name()))
	case DemandAcknowledgement:
		return needs(!c.DemandReceived.IsZero(), "no demand for a public hearing has been recorded")
	case FrivolousNotice:
		if c.Frivolous != nil {
			return needs(false, "the finding under (H) has been made")
		}
		return needs(c.FrivolousHearing.Scheduled(), "no meeting on whether the complaint was knowingly frivolous is scheduled; schedule it first")
	}
	// A paper of a step that its row schedules: needed once the row counts from a date.
	if _, err := c.rowNeeds(info); err != nil {
		return err
	}
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

// Rule is the commission's (C) ruling at the sufficiency meeting.
type Rule struct {
	Ruling Ruling `json:"ruling"`
	// ReferralRuling is the ruling on the §103.05 part of a complaint that alleges both
	// sections: (C)(2) and (C)(3) send the two parts different ways.
	ReferralRuling Ruling `json:"referral_ruling,omitempty"`
	On             Date   `json:"on,omitzero"` // zero: today
	Vote           *Vote  `json:"vote,omitempty"`
	// Ground is the ground of a dismissal other than the ruling's own: time_barred, for a
	// complaint filed more than a year after the alleged violation (I).
	Ground Ground `json:"ground,omitempty"`

	// Override is why the ruling is recorded without the notices (C)(1) and (B) require,
	// or, for a time-barred complaint (I), other than as a dismissal.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (Rule) Kind() string { return "rule" }

func (a Rule) apply(x *applying) error {
	what := "ruling: " + strings.ReplaceAll(string(a.Ruling), "_", " ")
	if a.ReferralRuling != "" {
		what = fmt.Sprintf("ruling: §%s part %s, §%s part %s", x.e.Ord.HearingSection, strings.ReplaceAll(string(a.Ruling), "_", " "),
			x.e.Ord.ReferralSection, strings.ReplaceAll(string(a.ReferralRuling), "_", " "))
	}
	return x.voted(a.Vote, a.Kind(), what, "(C)", func() error { return a.rule(x) })
}

// rule records the ruling, once the commission has adopted it.
func (a Rule) rule(x *applying) error {
	c := x.c
	if err := x.checkOverride("(C)(1)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(C)(1)", "rule on sufficiency", StateReceived, StateNoticesSent); err != nil {
		return err
	}
	if !c.Sufficiency.Scheduled() || c.Sufficiency.Start.After(x.at) {
		return conflict("(C)(1)", "the commission rules at its sufficiency meeting; schedule it, and record the ruling once it has met")
	}
	on, err := x.stepDate("on", "(C)(1)", a.On, x.e.Cal.DateOf(c.Sufficiency.Start), "the sufficiency meeting")
	if err != nil {
		return err
	}
	c.Ruling, c.ReferralRuling, c.RulingDate = a.Ruling, a.ReferralRuling, on
	if a.ReferralRuling != "" {
		c.ReferralSection = x.e.Ord.ReferralSection
	}
	if err := validateRuling(&c.Facts, x.e.Ord); err != nil {
		return err
	}
	o := x.e.Ord
	if both := slices.Contains(c.Sections, o.HearingSection) && slices.Contains(c.Sections, o.ReferralSection); both && a.ReferralRuling == "" && !x.replay {
		return invalid("referral_ruling", "(C)(3)", fmt.Sprintf("the complaint alleges both §%s and §%s, which (C)(2) and (C)(3) send different ways: give the ruling on the §%s part as ruling, and on the §%s part as referral_ruling (insufficient, no_probable_cause or attorney_referral)",
			o.HearingSection, o.ReferralSection, o.HearingSection, o.ReferralSection))
	}
	barred, err := x.timeBar(a)
	if err != nil {
		return err
	}
	c.Ground = a.Ground
	// (C)(1): the meeting needs 48 hours' public notice; (B): both parties told of it;
	// (I): a time-barred complaint is dismissed.
	if err := x.override("ruling", a.Override, append(append(x.noticeGap(SufficiencyMeeting, c.Sufficiency), x.mailingGaps()...), barred...)); err != nil {
		return err
	}
	switch a.Ruling {
	case Insufficient, NoProbableCause:
		c.State = StateDismissed
	case ProbableCause:
		c.State = StateHearingPending
	case JudicialReferral, AttorneyReferral:
		c.State = StateReferred
	}
	if c.disposedAtC() {
		// (G): a ruling that disposes of the complaint is the commission's decision.
		x.checkElectionLate("ruling", on)
	}
	return nil
}

// RecessHearing records that the hearing recessed, to reconvene at a later session.
type RecessHearing struct {
	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (RecessHearing) Kind() string { return "recess_hearing" }

func (a RecessHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "recess the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	if err := x.override("recess", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State = StateHearingRecessed
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	c.Recesses++
	return nil
}

// sessionKind is the kind of the hearing session now scheduled.
func (c *Case) sessionKind() MeetingKind {
	if c.Reconvened.Scheduled() {
		return RecessedHearing
	}
	return HearingMeeting
}

// currentSession is the hearing session now scheduled: the reconvened one if any.
func (c *Case) currentSession() Meeting {
	if c.Reconvened.Scheduled() {
		return c.Reconvened
	}
	return c.Hearing
}

// ConcludeHearing records that the hearing, or a recessed hearing, concluded.
type ConcludeHearing struct {
	On Date `json:"on,omitzero"` // zero: today

	// Override is why it is recorded without the session's notice (D) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (ConcludeHearing) Kind() string { return "conclude_hearing" }

func (a ConcludeHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(D)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(E)", "conclude the hearing", StateHearingSet); err != nil {
		return err
	}
	s := c.currentSession()
	if s.Start.After(x.at) {
		return conflict("(E)", fmt.Sprintf("the hearing session at %s has not begun", x.e.shortTime(s.Start)))
	}
	on, err := x.stepDate("on", "(E)", a.On, x.e.Cal.DateOf(s.Start), "the hearing session")
	if err != nil {
		return err
	}
	if err := x.override("hearing's conclusion", a.Override, x.noticeGap(c.sessionKind(), s)); err != nil {
		return err
	}
	c.State, c.HearingConcluded = StateHearingDone, on
	c.HearingClosed = c.HearingClosed || s.Closed // (F): any closed session counts
	return nil
}

// Decide is the (E) decision: dismissal, or a recommendation for discipline and/or a fine.
type Decide struct {
	Dismiss        bool   `json:"dismiss,omitempty"`
	Findings       string `json:"findings,omitempty"`
	Recommendation string `json:"recommendation,omitempty"`
	Fine           int    `json:"fine,omitempty"`
	// Intentional is the (H) finding that the violation was intentional, which a fine needs.
	Intentional bool  `json:"intentional,omitempty"`
	On          Date  `json:"on,omitzero"` // zero: today
	Vote        *Vote `json:"vote,omitempty"`
}

// Kind implements Action.
func (Decide) Kind() string { return "decide" }

func (a Decide) apply(x *applying) error {
	what := "decision: recommendation and/or fine (E)(2)"
	if a.Dismiss {
		what = "decision: dismiss (E)(1)"
	}
	return x.voted(a.Vote, a.Kind(), what, "(E)", func() error { return a.decide(x) })
}

// decide records the decision, once the commission has adopted it.
func (a Decide) decide(x *applying) error {
	c := x.c
	if err := x.needState("(E)", "decide: the decision follows the conclusion of the hearing", StateHearingDone); err != nil {
		return err
	}
	for _, check := range []error{
		checkText("findings", a.Findings, false, MaxText),
		checkText("recommendation", a.Recommendation, false, MaxText),
		x.checkFine(a.Fine),
	} {
		if check != nil {
			return check
		}
	}
	if a.Dismiss && (a.Recommendation != "" || a.Fine != 0) {
		return invalid("decision", "(E)", "a dismissal (E)(1) carries no recommendation or fine (E)(2)")
	}
	if !a.Dismiss && strings.TrimSpace(a.Recommendation) == "" && a.Fine == 0 {
		return invalid("decision", "(E)", "decide to dismiss (E)(1), or give a recommendation for discipline and/or a fine (E)(2)")
	}
	if err := x.checkIntent(a.Fine, a.Intentional); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(E)", a.On, c.HearingConcluded, "the conclusion of the hearing")
	if err != nil {
		return err
	}
	c.Decision = &Decision{Dismissed: a.Dismiss, Findings: a.Findings, Recommendation: a.Recommendation, Fine: a.Fine, Intentional: a.Intentional, On: on}
	c.DecisionIssued, c.DecisionDismissed = on, a.Dismiss
	// (E), (G): a late decision is recorded, since refusing it would block the commission,
	// and the case keeps how late it was.
	x.checkLate(x.e.after(DecisionDue, c.HearingConcluded), "decision", on)
	x.checkElectionLate("decision", on)
	if a.Dismiss {
		c.State = StateDismissed
		return nil
	}
	c.State, c.RecommendationIssued = StateDecided, on
	return nil
}

// DemandPublicHearing is the respondent's (F) written demand for a public hearing after a
// closed one. It stays enforcement of the recommendation or fine.
type DemandPublicHearing struct {
	Received Date `json:"received,omitzero"` // zero: today
}

// Kind implements Action.
func (DemandPublicHearing) Kind() string { return "demand_public_hearing" }

func (a DemandPublicHearing) apply(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "record a demand for a public hearing: it follows a recommendation or fine", StateDecided); err != nil {
		return err
	}
	if !c.HearingClosed {
		return conflict("(F)", "the hearing was open to the public, so there is no right to demand a public hearing")
	}
	on, err := x.stepDate("received", "(F)", a.Received, c.RecommendationIssued, "the recommendation or fine")
	if err != nil {
		return err
	}
	window := x.e.after(PublicHearingDemand, c.RecommendationIssued)
	if on > window.Due {
		return invalid("received", "(F)", fmt.Sprintf("the demand came on %s, after the window closed on %s (%s)", on.Long(), window.Due.Long(), window.Basis()))
	}
	c.State, c.DemandReceived = StateDemanded, on
	return nil
}

// HoldPublicHearing records that the (F) public hearing was held.
type HoldPublicHearing struct {
	On Date `json:"on,omitzero"` // zero: today

	// Override is why it is recorded without the hearing's notice (F) requires.
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (HoldPublicHearing) Kind() string { return "public_hearing_held" }

func (a HoldPublicHearing) apply(x *applying) error {
	c := x.c
	if err := x.checkOverride("(F)", a.Override); err != nil {
		return err
	}
	if err := x.needState("(F)", "record the public hearing as held", StatePublicSet); err != nil {
		return err
	}
	if c.PublicHearing.Start.After(x.at) {
		return conflict("(F)", fmt.Sprintf("the public hearing at %s has not begun", x.e.shortTime(c.PublicHearing.Start)))
	}
	on, err := x.stepDate("on", "(F)", a.On, x.e.Cal.DateOf(c.PublicHearing.Start), "the public hearing")
	if err != nil {
		return err
	}
	if err := x.override("public hearing", a.Override, x.noticeGap(PublicHearing, c.PublicHearing)); err != nil {
		return err
	}
	c.State, c.PublicHearingHeld = StatePublicHeld, on
	return nil
}

// IssueFinal is the (F) final recommendation, issued publicly after the public hearing.
type IssueFinal struct {
	Text string `json:"text"`
	Fine int    `json:"fine,omitempty"`
	// Intentional is the (H) finding that the violation was intentional, which a fine needs.
	Intentional bool  `json:"intentional,omitempty"`
	On          Date  `json:"on,omitzero"` // zero: today
	Vote        *Vote `json:"vote,omitempty"`
}

// Kind implements Action.
func (IssueFinal) Kind() string { return "final_recommendation" }

func (a IssueFinal) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "final recommendation", "(F)", func() error { return a.issue(x) })
}

// issue records the final recommendation, once the commission has adopted it.
func (a IssueFinal) issue(x *applying) error {
	c := x.c
	if err := x.needState("(F)", "issue the final recommendation: it follows the public hearing", StatePublicHeld); err != nil {
		return err
	}
	if err := checkText("text", a.Text, true, MaxText); err != nil {
		return err
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	if err := x.checkIntent(a.Fine, a.Intentional); err != nil {
		return err
	}
	on, err := x.stepDate("on", "(F)", a.On, c.PublicHearingHeld, "the public hearing")
	if err != nil {
		return err
	}
	c.Final = &Finding{Text: a.Text, Fine: a.Fine, Intentional: a.Intentional, On: on}
	c.State, c.FinalRecommendation = StateFinal, on
	x.checkLate(x.e.after(FinalRecommendationDue, c.PublicHearingHeld), "final recommendation", on)
	return nil
}

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

func (a FindFrivolous) apply(x *applying) error {
	return x.voted(a.Vote, a.Kind(), "finding that the complaint was knowingly frivolous", "(H)", func() error { return a.find(x) })
}

// find records the (H) finding, once the commission has adopted it.
func (a FindFrivolous) find(x *applying) error {
	c := x.c
	if err := x.needState("(H)", "find the complaint frivolous: only a dismissed complaint can be", StateDismissed); err != nil {
		return err
	}
	if c.Frivolous != nil {
		return conflict("(H)", fmt.Sprintf("the complaint was already found frivolous on %s", c.Frivolous.On.Long()))
	}
	if err := checkText("findings", a.Findings, true, MaxText); err != nil {
		return err
	}
	if a.Fine == 0 {
		return invalid("fine", "(H)", fmt.Sprintf("required: from $%s to $%s", Dollars(x.e.Ord.FineMin), Dollars(x.e.Ord.FineMax)))
	}
	if err := x.checkFine(a.Fine); err != nil {
		return err
	}
	if !a.Knowingly && !x.replay {
		return invalid("knowingly", "(H)", "the commission may fine only a person who knowingly files a frivolous complaint: record that finding with knowingly=yes, or make no finding")
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

func (a RecordEnforcement) apply(x *applying) error {
	c := x.c
	if err := x.checkLine("what", "(E)(2)", a.What, true, MaxName); err != nil {
		return err
	}
	if err := x.needState("(E)(2)", "record enforcement: there is a recommendation or fine to enforce only once it has issued", StateDecided, StateFinal, StateDemanded, StatePublicSet, StatePublicHeld); err != nil {
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
		return Stay{Stayed: true, Why: fmt.Sprintf("the respondent demanded a public hearing on %s, which stays enforcement until the final recommendation (F)", c.DemandReceived.Long())}
	}
	window := e.after(PublicHearingDemand, c.RecommendationIssued)
	if today <= window.Due {
		return Stay{Stayed: true, Until: window.Due, Why: fmt.Sprintf("the respondent may demand a public hearing until %s (F); enforcement waits until that window closes with no demand", window.Due.Long())}
	}
	return Stay{Why: fmt.Sprintf("the window to demand a public hearing closed on %s with no demand (F)", window.Due.Long())}
}

// AddCandidacy records an election at which the respondent is a candidate. A complaint
// received in the (G) period before it is expedited.
type AddCandidacy struct {
	Election Date `json:"election"`
}

// Kind implements Action.
func (AddCandidacy) Kind() string { return "candidacy" }

func (a AddCandidacy) apply(x *applying) error {
	c := x.c
	if a.Election.IsZero() {
		return invalid("election", "(G)", "required: the date of the election")
	}
	if c.State.Closed() || c.Decision != nil {
		return conflict("(G)", fmt.Sprintf("case %s is %s; (G) concerns the decision, which has been made", c.Number, describeState(c.State)))
	}
	if slices.Contains(c.Elections, a.Election) {
		return conflict("(G)", fmt.Sprintf("the election on %s is already recorded", a.Election.Long()))
	}
	wasExpedited := x.e.Schedule(&c.Facts, time.Time{}).Expedited
	c.Elections = append(c.Elections, a.Election)
	if s := x.e.Schedule(&c.Facts, time.Time{}); s.Expedited && !wasExpedited {
		d, _ := s.Find(ElectionDecision)
		x.warn("(G)", "EXPEDITED: the complaint was received within %d days before the election on %s; the decision is due by %s", x.e.Ord.Period(ElectionPeriod).Amount, s.Election.Long(), d.Due.Long())
	} else if !s.Expedited {
		x.whyNotExpedited([]Date{a.Election})
	}
	return nil
}

// actionDecoders reads each Kind of action back from the event log.
var actionDecoders = map[string]func([]byte) (Action, error){
	File{}.Kind():                decodeAs[File],
	ScheduleMeeting{}.Kind():     decodeAs[ScheduleMeeting],
	CancelMeeting{}.Kind():       decodeAs[CancelMeeting],
	PostNotice{}.Kind():          decodeAs[PostNotice],
	RecordMailing{}.Kind():       decodeAs[RecordMailing],
	RecordReturnReceipt{}.Kind(): decodeAs[RecordReturnReceipt],
	RecordUndelivered{}.Kind():   decodeAs[RecordUndelivered],
	Rule{}.Kind():                decodeAs[Rule],
	RecessHearing{}.Kind():       decodeAs[RecessHearing],
	ConcludeHearing{}.Kind():     decodeAs[ConcludeHearing],
	Decide{}.Kind():              decodeAs[Decide],
	DemandPublicHearing{}.Kind(): decodeAs[DemandPublicHearing],
	HoldPublicHearing{}.Kind():   decodeAs[HoldPublicHearing],
	IssueFinal{}.Kind():          decodeAs[IssueFinal],
	FindFrivolous{}.Kind():       decodeAs[FindFrivolous],
	AddCandidacy{}.Kind():        decodeAs[AddCandidacy],
	RecordDelivery{}.Kind():      decodeAs[RecordDelivery],
	RecordEnforcement{}.Kind():   decodeAs[RecordEnforcement],
	Recuse{}.Kind():              decodeAs[Recuse],
	Correct{}.Kind():             decodeAs[Correct],
	Void{}.Kind():                decodeAs[Void],
	SetParty{}.Kind():            decodeAs[SetParty],
	AddDocument{}.Kind():         decodeAs[AddDocument],
}

func decodeAs[T Action](payload []byte) (Action, error) {
	var a T
	err := json.Unmarshal(payload, &a)
	return a, err
}

// DecodeAction reads an action back from its kind and JSON payload, as the event log
// stores them.
func DecodeAction(kind string, payload []byte) (Action, error) {
	decode, ok := actionDecoders[kind]
	if !ok {
		return nil, invalid("kind", "", fmt.Sprintf("unknown action %q", kind))
	}
	a, err := decode(payload)
	if err != nil {
		return nil, invalid("payload", "", fmt.Sprintf("cannot read a %s action: %v", kind, err))
	}
	return a, nil
}
