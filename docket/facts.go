package docket

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Validate checks that f describes a case the ordinance could produce: receipt known,
// sections and ruling that fit each other, and each step after the step it follows.
// The error names the field at fault and the rule.
func (e *Engine) Validate(f *Facts) error {
	o, c := e.Ord, e.Cal
	if f.Received.IsZero() {
		return Invalid("(A)", "received", "required: the instant the commission received the complaint")
	}
	received := c.DateOf(f.Received)
	for _, s := range f.Sections {
		if s != o.HearingSection && s != o.ReferralSection {
			return Invalid("(C)", "section",
				fmt.Sprintf("unknown section %q: this ordinance's sections are %s and %s", s, o.HearingSection, o.ReferralSection))
		}
	}
	if !f.ViolationDate.IsZero() && f.ViolationDate > received {
		return Invalid("(I)", "violation_date", fmt.Sprintf("%s is after the complaint was received", f.ViolationDate))
	}
	if err := validateRuling(f, o); err != nil {
		return err
	}
	// Sparse facts are fine: a later step implies the earlier ones happened, on dates not
	// given. Only facts that contradict each other are refused.
	if f.Ruling != "" && f.Ruling != ProbableCause {
		later := []struct {
			field string
			set   bool
		}{
			{"hearing", f.Hearing.Scheduled()},
			{"recessed_hearing", f.Reconvened.Scheduled() || len(f.Sessions) > 0},
			{"hearing_concluded", !f.HearingConcluded.IsZero()},
			{"hearing_closed", f.HearingClosed},
			{"recommendation_issued", !f.RecommendationIssued.IsZero()},
			{"demand_received", !f.DemandReceived.IsZero()},
			{"public_hearing", f.PublicHearing.Scheduled()},
			{"public_hearing_held", !f.PublicHearingHeld.IsZero()},
			{"final_recommendation", !f.FinalRecommendation.IsZero()},
		}
		for _, l := range later {
			if l.set {
				return Invalid("(C)(2)", l.field,
					fmt.Sprintf("contradicts the ruling %s: a hearing and what follows it come only after a ruling of "+
						"probable cause", f.Ruling))
			}
		}
	}
	if !f.AdjudicationRequested.IsZero() && f.Ruling != "" && f.Ruling != JudicialReferral {
		return Invalid("(C)(2)", "adjudication_requested",
			fmt.Sprintf("contradicts the ruling %s: the attorney is asked to adjudicate only after a ruling of "+
				"judicial_referral", f.Ruling))
	}
	if !f.ReferralTransmitted.IsZero() && (f.Ruling != "" || f.ReferralRuling != "") && f.Ruling != AttorneyReferral &&
		f.ReferralRuling != AttorneyReferral {
		return Invalid("(C)(3)", "referral_transmitted",
			"contradicts the ruling: the complaint is transmitted to the attorney only after a ruling of attorney_referral")
	}
	// Each step happens on or after the step before it; the nearest one given counts.
	type point struct {
		field string
		d     Date
	}
	var (
		recv        = point{"the complaint's receipt", received}
		meeting     = point{"sufficiency_meeting", e.dateOrZero(f.Sufficiency.Start)}
		ruled       = point{"ruling_date", f.RulingDate}
		hearing     = point{"hearing", e.dateOrZero(f.Hearing.Start)}
		reconvened  = point{"recessed_hearing", e.dateOrZero(f.Reconvened.Start)}
		concluded   = point{"hearing_concluded", f.HearingConcluded}
		recommended = point{"recommendation_issued", f.RecommendationIssued}
		demand      = point{"demand_received", f.DemandReceived}
		public      = point{"public_hearing", e.dateOrZero(f.PublicHearing.Start)}
		held        = point{"public_hearing_held", f.PublicHearingHeld}
		final       = point{"final_recommendation", f.FinalRecommendation}
	)
	order := []struct {
		p     point
		rule  string
		after []point // nearest first
	}{
		{point{"respondent_notice_mailed", f.RespondentNoticeMailed}, "(B)", nil},
		{point{"complainant_confirmation_mailed", f.ComplainantConfirmationMailed}, "(B)", nil},
		{meeting, "(C)(1)", nil},
		{ruled, "(C)(1)", []point{meeting}},
		{hearing, "(C)(2)", []point{ruled, meeting}},
		{reconvened, "(E)", []point{hearing}},
		{concluded, "(E)", []point{reconvened, hearing}},
		{recommended, "(E)", []point{concluded}},
		{point{"decision_issued", f.DecisionIssued}, "(E)", []point{concluded}},
		{demand, "(F)", []point{recommended}},
		{public, "(F)", []point{demand}},
		{held, "(F)", []point{public, demand}},
		{final, "(F)", []point{held}},
		{point{"ruling_notice_respondent", f.RulingNoticeRespondent}, "(C)(1)", []point{ruled, meeting}},
		{point{"ruling_notice_complainant", f.RulingNoticeComplainant}, "(C)(1)", []point{ruled, meeting}},
		{point{"adjudication_requested", f.AdjudicationRequested}, "(C)(2)", []point{ruled, meeting}},
		{point{"referral_transmitted", f.ReferralTransmitted}, "(C)(3)", []point{ruled, meeting}},
		{point{"recommendation_to_respondent", f.RecommendationToResp}, "(E)(2)", []point{recommended, concluded}},
		{point{"recommendation_to_officer", f.RecommendationToOff}, "(E)(2)", []point{recommended, concluded}},
		{point{"final_to_respondent", f.FinalToResp}, "(F)", []point{final, held}},
		{point{"final_to_officer", f.FinalToOff}, "(F)", []point{final, held}},
	}
	for _, o := range order {
		if o.p.d.IsZero() {
			continue
		}
		prev := recv
		for _, a := range o.after {
			if !a.d.IsZero() {
				prev = a
				break
			}
		}
		if o.p.d < prev.d {
			return Invalid(o.rule, o.p.field, fmt.Sprintf("%s is before %s on %s", o.p.d.Long(), prev.field, prev.d.Long()))
		}
	}
	return nil
}

func (e *Engine) dateOrZero(t time.Time) Date {
	if t.IsZero() {
		return 0
	}
	return e.Cal.DateOf(t)
}

// validateRuling checks that the ruling is one (C) allows and fits the sections alleged.
func validateRuling(f *Facts, o Ordinance) error {
	if f.ReferralRuling != "" {
		// (C)(2) and (C)(3) send the two parts of a complaint alleging both sections
		// different ways: the referral section's part has a ruling of its own.
		if !slices.Contains([]Ruling{Insufficient, NoProbableCause, AttorneyReferral}, f.ReferralRuling) {
			return Invalid("(C)(3)", "referral_ruling",
				fmt.Sprintf("%q is not a ruling on a §%s part: use insufficient, no_probable_cause or attorney_referral",
					f.ReferralRuling, o.ReferralSection))
		}
		if len(f.Sections) > 0 &&
			!(slices.Contains(f.Sections, o.HearingSection) && slices.Contains(f.Sections, o.ReferralSection)) {
			return Invalid("(C)(3)", "referral_ruling",
				fmt.Sprintf("a separate ruling on the §%s part applies only to a complaint that alleges both §%s and §%s; "+
					"give the ruling alone", o.ReferralSection, o.HearingSection, o.ReferralSection))
		}
		if f.Ruling == AttorneyReferral {
			return Invalid("(C)(2)", "ruling",
				fmt.Sprintf("with a separate ruling on the §%s part, the ruling is on the §%s part: insufficient, "+
					"no_probable_cause, probable_cause or judicial_referral", o.ReferralSection, o.HearingSection))
		}
	}
	if f.Ruling == "" {
		return nil
	}
	if !slices.Contains(Rulings, f.Ruling) {
		return Invalid("(C)", "ruling", fmt.Sprintf("unknown ruling %q: use one of %s", f.Ruling, join(Rulings, ", ")))
	}
	need := ""
	switch f.Ruling {
	case ProbableCause, JudicialReferral:
		need = o.HearingSection // (C)(2)
	case AttorneyReferral:
		need = o.ReferralSection // (C)(3)
	default:
		return nil
	}
	if !slices.Contains(f.Sections, need) {
		rule := "(C)(2)"
		if need == o.ReferralSection {
			rule = "(C)(3)"
		}
		alleged := "no section"
		if len(f.Sections) > 0 {
			alleged = "§" + strings.Join(f.Sections, ", §")
		}
		return Invalid(rule, "ruling",
			fmt.Sprintf("%s applies only to a complaint under §%s; this one alleges %s", f.Ruling, need, alleged))
	}
	return nil
}

// Input is what `ethicsbot deadlines` reads: the facts, plus the calendar closures and
// the clock to judge them by.
type Input struct {
	Facts         Facts
	ExtraHolidays []Date
	AsOf          time.Time // zero: the caller's clock
}

// factsJSON mirrors the JSON input; every field is a string so errors can name it.
type factsJSON struct {
	Received                       *string         `json:"received"`
	ViolationDate                  string          `json:"violation_date"`
	Section                        json.RawMessage `json:"section"`
	Elections                      []string        `json:"elections"`
	ExtraHolidays                  []string        `json:"extra_holidays"`
	SufficiencyMeeting             string          `json:"sufficiency_meeting"`
	SufficiencyMeetingNoticePosted string          `json:"sufficiency_meeting_notice_posted"`
	RespondentNoticeMailed         string          `json:"respondent_notice_mailed"`
	ComplainantConfirmationMailed  string          `json:"complainant_confirmation_mailed"`
	Ruling                         string          `json:"ruling"`
	ReferralRuling                 string          `json:"referral_ruling"`
	RulingDate                     string          `json:"ruling_date"`
	RulingNoticeRespondent         string          `json:"ruling_notice_respondent"`
	RulingNoticeComplainant        string          `json:"ruling_notice_complainant"`
	AdjudicationRequested          string          `json:"adjudication_requested"`
	ReferralTransmitted            string          `json:"referral_transmitted"`
	Hearing                        string          `json:"hearing"`
	HearingNoticePosted            string          `json:"hearing_notice_posted"`
	RecessedHearing                string          `json:"recessed_hearing"`
	RecessedHearingNoticePosted    string          `json:"recessed_hearing_notice_posted"`
	HearingConcluded               string          `json:"hearing_concluded"`
	HearingClosed                  *bool           `json:"hearing_closed"`
	DecisionIssued                 string          `json:"decision_issued"`
	RecommendationIssued           string          `json:"recommendation_issued"`
	RecommendationToRespondent     string          `json:"recommendation_to_respondent"`
	RecommendationToOfficer        string          `json:"recommendation_to_officer"`
	DemandReceived                 string          `json:"demand_received"`
	PublicHearing                  string          `json:"public_hearing"`
	PublicHearingNoticePosted      string          `json:"public_hearing_notice_posted"`
	PublicHearingHeld              string          `json:"public_hearing_held"`
	FinalRecommendation            string          `json:"final_recommendation"`
	FinalToRespondent              string          `json:"final_to_respondent"`
	FinalToOfficer                 string          `json:"final_to_officer"`
	AsOf                           string          `json:"as_of"`
}

// maxInput bounds what DecodeInput reads: facts about one case are a few hundred bytes.
const maxInput = 1 << 20

// DecodeInput reads one JSON object of facts. Dates are YYYY-MM-DD and instants RFC 3339
// with an offset. Unknown fields and impossible dates are errors naming the field; nothing
// is guessed. Whether the facts fit the ordinance is Engine.Validate's question.
func DecodeInput(r io.Reader) (Input, error) {
	body, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return Input{}, Invalid("", "input", "cannot read: "+err.Error())
	}
	if len(body) > maxInput {
		return Input{}, Invalid("", "input", fmt.Sprintf("larger than %d bytes; give the facts of one case", maxInput))
	}
	if err := checkKeys(body); err != nil {
		return Input{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var j factsJSON
	if err := dec.Decode(&j); err != nil {
		return Input{}, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Input{}, Invalid("", "input", "more than one JSON object; give exactly one")
	}
	p := parser{}
	var in Input
	f := &in.Facts
	if j.Received == nil {
		return Input{}, Invalid("(A)", "received",
			"required: the instant the commission received the complaint, e.g. 2026-12-04T10:00:00-06:00")
	}
	f.Received = p.instant("received", *j.Received)
	f.ViolationDate = p.date("violation_date", j.ViolationDate)
	f.Sections = p.sections(j.Section)
	f.Elections = p.dates("elections", j.Elections)
	in.ExtraHolidays = p.dates("extra_holidays", j.ExtraHolidays)
	f.Sufficiency = p.meeting("sufficiency_meeting", j.SufficiencyMeeting, j.SufficiencyMeetingNoticePosted)
	f.RespondentNoticeMailed = p.date("respondent_notice_mailed", j.RespondentNoticeMailed)
	f.ComplainantConfirmationMailed = p.date("complainant_confirmation_mailed", j.ComplainantConfirmationMailed)
	f.Ruling = Ruling(j.Ruling)
	f.ReferralRuling = Ruling(j.ReferralRuling)
	f.RulingDate = p.date("ruling_date", j.RulingDate)
	f.RulingNoticeRespondent = p.date("ruling_notice_respondent", j.RulingNoticeRespondent)
	f.RulingNoticeComplainant = p.date("ruling_notice_complainant", j.RulingNoticeComplainant)
	f.AdjudicationRequested = p.date("adjudication_requested", j.AdjudicationRequested)
	f.ReferralTransmitted = p.date("referral_transmitted", j.ReferralTransmitted)
	f.Hearing = p.meeting("hearing", j.Hearing, j.HearingNoticePosted)
	f.Reconvened = p.meeting("recessed_hearing", j.RecessedHearing, j.RecessedHearingNoticePosted)
	f.HearingConcluded = p.date("hearing_concluded", j.HearingConcluded)
	switch {
	case j.HearingClosed != nil:
		f.HearingClosed = *j.HearingClosed
		if !f.HearingClosed && j.DemandReceived != "" {
			p.fail("demand_received",
				"contradicts hearing_closed false: a public hearing may be demanded only after a closed hearing (F)")
		}
	case j.DemandReceived != "":
		f.HearingClosed = true // (F): a demand implies the hearing was closed
	}
	f.RecommendationIssued = p.date("recommendation_issued", j.RecommendationIssued)
	f.RecommendationToResp = p.date("recommendation_to_respondent", j.RecommendationToRespondent)
	f.RecommendationToOff = p.date("recommendation_to_officer", j.RecommendationToOfficer)
	f.DecisionIssued = p.date("decision_issued", j.DecisionIssued)
	if f.DecisionIssued.IsZero() {
		f.DecisionIssued = f.RecommendationIssued // a recommendation or fine is an (E) decision
	}
	f.DemandReceived = p.date("demand_received", j.DemandReceived)
	f.PublicHearing = p.meeting("public_hearing", j.PublicHearing, j.PublicHearingNoticePosted)
	f.PublicHearingHeld = p.date("public_hearing_held", j.PublicHearingHeld)
	f.FinalRecommendation = p.date("final_recommendation", j.FinalRecommendation)
	f.FinalToResp = p.date("final_to_respondent", j.FinalToRespondent)
	f.FinalToOff = p.date("final_to_officer", j.FinalToOfficer)
	if j.AsOf != "" {
		in.AsOf = p.instant("as_of", j.AsOf)
	}
	if p.err != nil {
		return Input{}, p.err
	}
	return in, nil
}

// inputFields are the JSON names factsJSON reads, spelled exactly.
var inputFields = func() map[string]bool {
	m := make(map[string]bool)
	t := reflect.TypeFor[factsJSON]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		m[name] = true
	}
	return m
}()

// checkKeys refuses keys encoding/json would otherwise forgive: a name in the wrong case
// ("Received"), and a name given twice, of which only the last would count.
func checkKeys(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return jsonError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Invalid("", "input",
			"not a JSON object; give one object of facts such as {\"received\": \"2026-12-04T10:00:00-06:00\"}")
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(err)
		}
		key, _ := tok.(string)
		switch {
		case !inputFields[key]:
			return Invalid("", key,
				"unknown field; see docs/reference.md, \"ethicsbot deadlines\" for the fields `deadlines` reads (names are "+
					"lower case)")
		case seen[key]:
			return Invalid("", key, "given twice; give each field once")
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return jsonError(err)
		}
	}
	return nil
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	msg := err.Error()
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return Invalid("", typeErr.Field,
			fmt.Sprintf("must be a JSON %s, not %s", jsonKind(typeErr.Type.String()), typeErr.Value))
	case errors.As(err, &syntaxErr):
		return Invalid("", "input",
			fmt.Sprintf("not valid JSON at byte %d: %s", syntaxErr.Offset, strings.TrimPrefix(msg, "json: ")))
	case strings.HasPrefix(msg, "json: unknown field "):
		return Invalid("", strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`),
			"unknown field; see docs/reference.md, \"ethicsbot deadlines\" for the fields `deadlines` reads")
	case err == io.EOF:
		return Invalid("", "input", "empty; give one JSON object of facts")
	}
	return Invalid("", "input", "not a JSON object of facts: "+strings.TrimPrefix(msg, "json: "))
}

func jsonKind(goType string) string {
	switch goType {
	case "bool", "*bool":
		return "true or false"
	case "[]string":
		return "array of strings"
	}
	return goType
}

// parser converts the strings of factsJSON, keeping the first error.
type parser struct{ err error }

func (p *parser) fail(field, msg string) {
	if p.err == nil {
		p.err = Invalid("", field, msg)
	}
}

func (p *parser) date(field, s string) Date {
	if s == "" {
		return 0
	}
	d, err := ParseDate(s)
	if err != nil {
		p.fail(field, err.Error())
	}
	return d
}

func (p *parser) dates(field string, ss []string) []Date {
	var out []Date
	for _, s := range ss {
		if s == "" {
			p.fail(field, "holds an empty date")
			continue
		}
		out = append(out, p.date(field, s))
	}
	return out
}

// instant reads RFC 3339 with an explicit offset ("Z" or ±hh:mm), the seconds optional
// (2027-11-07T01:30-06:00): the offset alone says which of November's two 01:30s is meant.
func (p *parser) instant(field, s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t, err = time.Parse("2006-01-02T15:04Z07:00", s)
	}
	if err != nil {
		p.fail(field, fmt.Sprintf("%q is not an instant written RFC 3339 with an offset, e.g. 2026-12-04T10:00:00-06:00", s))
		return time.Time{}
	}
	if y := t.Year(); y < MinYear || y > MaxYear {
		p.fail(field, fmt.Sprintf("%q is outside the years %d to %d", s, MinYear, MaxYear))
		return time.Time{}
	}
	return t
}

func (p *parser) meeting(field, start, posted string) Meeting {
	var m Meeting
	if start != "" {
		m.Start = p.instant(field, start)
	}
	if posted != "" {
		if start == "" {
			p.fail(field+"_notice_posted", "given without "+field)
		}
		m.NoticePosted = p.instant(field+"_notice_posted", posted)
	}
	return m
}

// sections accepts "103.10" or ["103.10", "103.05"].
func (p *parser) sections(raw json.RawMessage) []string {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil || len(many) == 0 {
		p.fail("section", `must be a section number such as "103.10", or a non-empty array of them`)
		return nil
	}
	return many
}
