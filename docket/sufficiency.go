package docket

import (
	"fmt"
	"slices"
	"strings"
)

// (C): the commission's ruling on the complaint's sufficiency.

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

// Roll implements Voted.
func (a Rule) Roll() *Vote { return a.Vote }

// Did implements Action: "ruling recorded: probable cause"; of each part of a complaint
// that alleges both sections, "ruling recorded: §103.10 part insufficient; §103.05 part
// attorney referral".
func (a Rule) Did(w Wording) Words {
	if a.ReferralRuling != "" {
		return said("ruling recorded: §%s part %s; §%s part %s", w.Ord.HearingSection, a.Ruling.spoken(),
			w.Ord.ReferralSection, a.ReferralRuling.spoken())
	}
	return said("ruling recorded: %s", a.Ruling.spoken())
}

// Notice implements Noticed: (C)(2) the notice of dismissal is made public, of the
// complaint or of one part of it.
func (a Rule) Notice(w Wording) (Notice, bool) {
	r, ok := publicRecord(w.After, "dismissal", w.Loc)
	if !ok {
		return Notice{}, false
	}
	ground := DismissalWords(Ruling(r.Ruling), Ground(r.Ground))
	if r.Section != "" {
		return Notice{Text: fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission has dismissed the §%s part of case %s, "+
			"the %s: %s.%s", r.Rule, r.Section, r.Case, parties(r), ground, byVote(r))}, true
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission has dismissed case %s, the %s: %s.%s",
		r.Rule, r.Case, parties(r), ground, byVote(r))}, true
}

// Motion implements Voted: "that the complaint sufficiently alleges a violation, and
// there is probable cause to proceed (C)(2); hearing set for Thu 10 Dec 2026 at 10:00 CST
// at Council Chambers"; "that the complaint be dismissed as time-barred under (I)". A
// ruling on a complaint that alleges both sections moves each part.
func (a Rule) Motion(w Wording) Words {
	if a.ReferralRuling == "" {
		return said("that %s%s", a.Ruling.moved(a.Ground, "the complaint"), a.hearingSet(w))
	}
	hearing, referral := w.Ord.HearingSection, w.Ord.ReferralSection
	if c := w.After; c != nil && c.ReferralSection != "" {
		hearing, referral = c.hearingSection(), c.ReferralSection
	}
	return said("that, on the §%s part, %s; and on the §%s part, %s%s", hearing, a.Ruling.moved(a.Ground, "this part"),
		referral, a.ReferralRuling.moved(a.Ground, "this part"), a.hearingSet(w))
}

// moved is the ruling as a motion moves it: the finding in the words of the notice of the
// ruling (Words), and the dismissal of what (the complaint, or one part of it) it
// dismisses. A time-barred complaint is dismissed for that (I).
func (r Ruling) moved(g Ground, what string) string {
	switch {
	case isDismissal(r) && g == GroundTimeBarred:
		return what + " be dismissed as time-barred under (I)"
	case isDismissal(r):
		return fmt.Sprintf("%s, and that %s be dismissed (C)(2)", r.Words(), what)
	case r == AttorneyReferral:
		return r.Words() + " (C)(3)"
	}
	return r.Words() + " (C)(2)"
}

// hearingSet is the hearing a ruling of probable cause set in the same motion (C)(2), as
// recorded with it: "; hearing set for Thu 10 Dec 2026 at 10:00 CST at Council Chambers".
func (a Rule) hearingSet(w Wording) string {
	if a.Ruling != ProbableCause {
		return ""
	}
	for _, act := range w.With {
		if s, ok := act.(ScheduleMeeting); ok && s.Meeting == HearingMeeting {
			text := fmt.Sprintf("; hearing set for %s at %s", s.Start.In(w.Loc).Format(noticeAt), s.Place)
			if s.Closed {
				text += ", " + Access(s.Closed, s.Authority)
			}
			return text
		}
	}
	return ""
}

// Words is the ruling as the notices of it and the minutes say it: "the complaint
// sufficiently alleges a violation, and there is probable cause to proceed".
func (r Ruling) Words() string {
	switch r {
	case Insufficient:
		return "the complaint does not sufficiently allege a violation"
	case NoProbableCause:
		return "there is no probable cause to proceed"
	case ProbableCause:
		return "the complaint sufficiently alleges a violation, and there is probable cause to proceed"
	case JudicialReferral:
		return "the complaint sufficiently alleges a violation, and the commission elects to ask the attorney designated " +
			"by the corporate authorities to have it adjudicated judicially"
	case AttorneyReferral:
		return "the complaint sufficiently alleges a violation of §103.05, and it is referred to the attorney designated " +
			"by the corporate authorities"
	}
	return ""
}

// spoken is the ruling as people say it: "probable cause".
func (r Ruling) spoken() string { return strings.ReplaceAll(string(r), "_", " ") }

func (a Rule) apply(x *applying) error {
	what := "ruling: " + a.Ruling.spoken()
	if a.ReferralRuling != "" {
		what = fmt.Sprintf("ruling: §%s part %s, §%s part %s", x.e.Ord.HearingSection, a.Ruling.spoken(),
			x.e.Ord.ReferralSection, a.ReferralRuling.spoken())
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
		return conflict("(C)(1)",
			"the commission rules at its sufficiency meeting; schedule it, and record the ruling once it has met")
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
	if both := slices.Contains(c.Sections, o.HearingSection) && slices.Contains(c.Sections, o.ReferralSection); both &&
		a.ReferralRuling == "" && !x.replay {
		return Invalid("(C)(3)", "referral_ruling",
			fmt.Sprintf("the complaint alleges both §%s and §%s, which (C)(2) and (C)(3) send different ways: give the "+
				"ruling on the §%s part as ruling, and on the §%s part as referral_ruling (insufficient, no_probable_cause or "+
				"attorney_referral)",
				o.HearingSection, o.ReferralSection, o.HearingSection, o.ReferralSection))
	}
	barred, err := x.timeBar(a)
	if err != nil {
		return err
	}
	c.Ground = a.Ground
	// (C)(1): the meeting needs 48 hours' public notice; (B): both parties told of it;
	// (I): a time-barred complaint is dismissed.
	if err := x.override("ruling", a.Override,
		append(append(x.noticeGap(SufficiencyMeeting, c.Sufficiency), x.mailingGaps()...), barred...)); err != nil {
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
