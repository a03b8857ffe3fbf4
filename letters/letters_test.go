package letters_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

var chicago, _ = time.LoadLocation("America/Chicago")

// config is a commission with every address set.
var config = letters.Config{
	Commission: letters.Addressee{Name: "Ethics Commission of Springfield",
		Address: "City Hall, Room 201\n100 Main Street\nSpringfield, IL 62701"},
	Officer: letters.Addressee{Name: "Pat Quimby", Title: "Mayor", Address: "Office of the Mayor\n100 Main Street"},
	Attorney: letters.Addressee{Name: "Lionel Hutz", Title: "Corporation Counsel",
		Address: "Law Department\n100 Main Street"},
	Payment: letters.Payment{Payee: "City of Springfield", Address: "City Clerk, Room 100\n100 Main Street",
		Methods: []string{"by check or money order payable to the City of Springfield, mailed to the address below",
			"in person at the City Clerk's office"}},
}

func mustMaker(t *testing.T, cfg letters.Config) *letters.Maker {
	t.Helper()
	m, err := letters.New(cfg, chicago)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Text extracts a PDF's text, each page's rows joined by newlines.
func Text(t *testing.T, data []byte) string {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("the PDF does not read back: %v", err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		// The rows from the top of the page down, each from the left: the extractor's own
		// rows come bottom up from a PDF whose text matrix flips the page, as Chromium's do.
		rows := map[int][]pdf.Text{}
		for _, tx := range r.Page(i).Content().Text {
			y := int(math.Round(tx.Y))
			rows[y] = append(rows[y], tx)
		}
		for _, y := range slices.Backward(slices.Sorted(maps.Keys(rows))) {
			row := rows[y]
			slices.SortStableFunc(row, func(a, b pdf.Text) int { return cmp.Compare(a.X, b.X) })
			for _, w := range row {
				b.WriteString(w.S)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Contains reports whether text holds want, whatever the spacing: the extractor joins a
// line wrapped at the margin to the next without a space.
func Contains(text, want string) bool {
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	return strings.Contains(squash(text), squash(want))
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// received is a case just after its (B) notices: sufficiency meeting scheduled, the
// respondent's notice mailed.
func received() *docket.Case {
	return &docket.Case{
		Number: "2026-001", State: docket.StateReceived,
		Complainant: docket.Person{Name: "John Doe", Address: "12 Elm Street\nSpringfield, IL 62702"},
		Respondent: docket.Person{Name: "Jane Roe", Address: "34 Oak Avenue\nSpringfield, IL 62703",
			Representative: docket.Representative{Name: "Saul Goodman", Address: "9800 Montgomery Blvd\nAlbuquerque, NM 87111"}},
		Summary: "Used city email to campaign.",
		Facts: docket.Facts{Received: at("2026-12-04T10:00:00-06:00"), Sections: []string{"103.10"},
			Sufficiency: docket.Meeting{Start: at("2026-12-07T17:00:00-06:00"), Place: "City Hall, Room 201"}},
		Mailings: []docket.Mailing{{Paper: docket.RespondentNoticePaper, Recipient: docket.Respondent,
			Article: "9407111898765432101634", Mailed: docket.NewDate(2026, 12, 4), Satisfies: "(B)"}},
	}
}

func ruled(r docket.Ruling) *docket.Case {
	c := received()
	c.State = docket.StateHearingSet
	c.Ruling, c.RulingDate = r, docket.NewDate(2026, 12, 7)
	switch r {
	case docket.ProbableCause:
		c.Hearing = docket.Meeting{Start: at("2026-12-10T10:00:00-06:00"), Place: "Council Chambers", Closed: true,
			Authority: "5 ILCS 120/2(c)(4)"}
	case docket.Insufficient, docket.NoProbableCause:
		c.State = docket.StateDismissed
	case docket.AttorneyReferral:
		c.State, c.Sections = docket.StateReferred, []string{"103.05"}
	default:
		c.State = docket.StateReferred
	}
	return c
}

// bothParts is a complaint alleging both sections whose §103.10 part goes to hearing and
// whose §103.05 part was dismissed: (C)(2) and (C)(3) send the parts different ways.
func bothParts() *docket.Case {
	c := ruled(docket.ProbableCause)
	c.Sections, c.ReferralRuling, c.ReferralSection = []string{"103.10", "103.05"}, docket.Insufficient, "103.05"
	return c
}

// timeBarred is a complaint dismissed as time-barred under (I): the ground is named.
func timeBarred() *docket.Case {
	c := ruled(docket.Insufficient)
	c.Ground = docket.GroundTimeBarred
	return c
}

func decided() *docket.Case {
	c := ruled(docket.ProbableCause)
	c.State, c.HearingClosed = docket.StateDecided, true
	c.Decision = &docket.Decision{Findings: "Violated 103.10.", Recommendation: "Written reprimand", Fine: 2500,
		On: docket.NewDate(2026, 12, 10)}
	c.DecisionIssued, c.RecommendationIssued = c.Decision.On, c.Decision.On
	return c
}

// decidedOpen is decided() after a hearing open to the public: (F) gives no demand.
func decidedOpen() *docket.Case {
	c := decided()
	c.HearingClosed, c.Hearing.Closed, c.Hearing.Authority = false, false, ""
	return c
}

// frivolous is a complaint dismissed and then found knowingly frivolous (H), with a fine
// on the complainant.
func frivolous() *docket.Case {
	c := ruled(docket.Insufficient)
	c.FrivolousHearing = docket.Meeting{Start: at("2026-12-21T17:00:00-06:00"), Place: "City Hall, Room 201"}
	c.Frivolous = &docket.Finding{Text: "Knew the allegation false.", Fine: 1500, Knowingly: true,
		On: docket.NewDate(2026, 12, 21)}
	c.FrivolousFound = c.Frivolous.On
	return c
}

// dismissedAfterHearing is an (E)(1) dismissal: both parties get its notice.
func dismissedAfterHearing() *docket.Case {
	c := ruled(docket.ProbableCause)
	c.State, c.DecisionDismissed = docket.StateDismissed, true
	c.Decision = &docket.Decision{Dismissed: true, Findings: "No violation shown.", On: docket.NewDate(2026, 12, 10)}
	c.DecisionIssued = c.Decision.On
	return c
}

// recessed is a hearing recessed to a second session (D): each party is told of it.
func recessed() *docket.Case {
	c := ruled(docket.ProbableCause)
	c.State = docket.StateHearingSet
	c.Reconvened = docket.Meeting{Start: at("2026-12-11T09:00:00-06:00"), Place: "City Hall, Room 3"}
	return c
}

func final() *docket.Case {
	c := decided()
	c.State = docket.StateFinal
	c.DemandReceived = docket.NewDate(2026, 12, 11)
	c.PublicHearing = docket.Meeting{Start: at("2026-12-14T18:00:00-06:00"), Place: "Council Chambers"}
	c.Final = &docket.Finding{Text: "Reprimand and fine affirmed.", Fine: 2500, On: docket.NewDate(2026, 12, 14)}
	return c
}

var today = docket.NewDate(2026, 12, 4)

func TestLettersCarryTheirFacts(t *testing.T) {
	m := mustMaker(t, config)
	common := []string{"Case 2026-001", "Ethics Commission of Springfield", "City Hall, Room 201", "100 Main Street",
		"Springfield, IL 62701", "Friday 4 December 2026"}
	for _, tc := range []struct {
		name string
		c    *docket.Case
		kind letters.Kind
		want []string
		not  []string
	}{
		{"RespondentNotice", received(), "respondent",
			[]string{"(B)", "34 Oak Avenue", "cc: Saul Goodman", "9800 Montgomery Blvd", "Jane Roe", "John Doe",
				"Notice of Complaint", "Monday 7 December 2026", "17:00 CST", "City Hall, Room 201", "Used city email to campaign.",
				"CERTIFIED MAIL", "9407 1118 9876 5432 1016 34"}, nil},
		{"ComplainantConfirmation", received(), "complainant",
			[]string{"(B)", "John Doe", "12 Elm Street", "Jane Roe", "Monday 7 December 2026", "17:00 CST", "CERTIFIED MAIL",
				"Article number: ____"}, []string{"Used city email", "9407", "34 Oak Avenue", "Saul Goodman"}},
		{"ProbableCause", ruled(docket.ProbableCause), "ruling_respondent",
			[]string{"(C)(1)", "Jane Roe", "probable cause", "Thursday 10 December 2026", "10:00 CST", "Council Chambers",
				"5 ILCS 120/2(c)(4)"}, []string{"Used city email"}},
		{"Dismissal", ruled(docket.Insufficient), "dismissal_complainant",
			[]string{"(C)(2)", "Notice of Dismissal", "John Doe", "does not sufficiently allege", "CERTIFIED MAIL"}, nil},
		{"DismissalTimeBarredI", timeBarred(), "dismissal_respondent",
			[]string{"(C)(2)", "Notice of Dismissal", "time-barred under (I)", "more than one year after the alleged violation"},
			[]string{"does not sufficiently allege"}},
		{"BothSectionsDismissalOfOnePart", bothParts(), "dismissal_respondent",
			[]string{"(C)(2)", "Notice of Dismissal",
				"§103.10: the complaint sufficiently alleges a violation, and there is probable cause to proceed",
				"§103.05: the complaint does not sufficiently allege a violation", "Thursday 10 December 2026",
				"Council Chambers"}, []string{"Used city email"}},
		{"Adjudication", ruled(docket.JudicialReferral), "adjudication_request",
			[]string{"(C)(2)", "Lionel Hutz", "Corporation Counsel", "Law Department", "adjudicated judicially"}, nil},
		{"Referral", ruled(docket.AttorneyReferral), "referral",
			[]string{"(C)(3)", "Lionel Hutz", "§103.05", "Used city email to campaign.", "9407 1118 9876 5432 1016 34"}, nil},
		{"RecommendationOfficer", decided(), "recommendation_officer",
			[]string{"(E)(2)", "Pat Quimby", "Mayor", "Office of the Mayor", "Written reprimand", "$2,500", "Violated 103.10."},
			[]string{"Used city email"}},
		{"RecommendationRespondent", decided(), "recommendation_respondent",
			[]string{"(E)(2)", "Jane Roe", "Written reprimand", "demand for a public hearing",
				// (F): 7 business days after Thursday 10 December 2026.
				"The hearing was closed to the public", "It must reach the commission by Monday 21 December 2026",
				"demand a public hearing in case 2026-001",
				// 30 days (payment.due_days) after the window closes.
				"The fine of $2,500 is due by Wednesday 20 January 2027, unless a written demand",
				"Pay it to City of Springfield", "by check or money order payable to the City of Springfield",
				"in person at the City Clerk's office", "City Clerk, Room 100"},
			[]string{"If the hearing was closed"}},
		{"RecommendationRespondentOpenHearing", decidedOpen(), "recommendation_respondent",
			[]string{"(E)(2)", "The hearing was open to the public.",
				// 30 days after Thursday 10 December 2026 is Saturday 9 January: rolled (5 ILCS 70/1.11).
				"The fine of $2,500 is due by Monday 11 January 2027.", "Pay it to City of Springfield"},
			[]string{"demand", "closed"}},
		{"RecommendationOfficerClosed", decided(), "recommendation_officer",
			[]string{"The hearing was closed to the public: the respondent may demand a public hearing until Monday 21 " +
				"December 2026 (F)"}, []string{"Pay it to", "City Clerk, Room 100"}},
		{"FinalRespondentConfirmsTheFine", final(), "final_respondent",
			[]string{"(F)", "Reprimand and fine affirmed.", "The fine of $2,500 is due by Wednesday 13 January 2027.",
				"Pay it to City of Springfield"}, []string{"unless a written demand"}},
		{"FrivolousFindingH", frivolous(), "frivolous_finding",
			[]string{"(H)", "Finding of a Frivolous Complaint and Fine", "John Doe", "12 Elm Street", "CERTIFIED MAIL",
				"On Monday 21 December 2026 the Ethics Commission of Springfield found that you knowingly filed a frivolous " +
					"complaint, and imposed on you a fine of $1,500",
				"not less than $1,001 and not more than $5,000", "Knew the allegation false.",
				"The fine of $1,500 is due by Wednesday 20 January 2027.", "Pay it to City of Springfield",
				"Write the case number, 2026-001, on your payment"}, []string{"34 Oak Avenue", "Used city email"}},
		{"DismissalAfterHearingE1Respondent", dismissedAfterHearing(), "decision_dismissal_respondent",
			[]string{"(E)(1)", "Notice of Dismissal after Hearing", "Jane Roe", "Thursday 10 December 2026",
				"No violation shown."}, []string{"Used city email", "fine"}},
		{"DismissalAfterHearingE1Complainant", dismissedAfterHearing(), "decision_dismissal_complainant",
			[]string{"(E)(1)", "John Doe", "No violation shown."}, nil},
		{"FinalOfficer", final(), "final_officer", []string{"(F)", "Pat Quimby", "Reprimand and fine affirmed."}, nil},
		{"RecessedHearingD", recessed(), "recessed_hearing_respondent",
			[]string{"(D)", "Notice of Recessed Hearing", "Jane Roe", "34 Oak Avenue", "Friday 11 December 2026", "09:00 CST",
				"Room 3", "present testimony and evidence"}, []string{"Used city email"}},
		{"RecessedHearingComplainantD", recessed(), "recessed_hearing_complainant",
			[]string{"(D)", "John Doe", "12 Elm Street", "Friday 11 December 2026", "your complaint"}, nil},
		{"DemandAcknowledgementF", final(), "demand_acknowledgement",
			[]string{"(F)", "Acknowledgement of Demand for a Public Hearing", "Jane Roe", "Friday 11 December 2026",
				"stays the enforcement", "Within 14 days"}, []string{"Used city email"}},
		{"PublicHearingRespondentF", final(), "public_hearing_respondent",
			[]string{"(F)", "Notice of Public Hearing", "Jane Roe",
				"On Friday 11 December 2026 the respondent filed a written demand", "Monday 14 December 2026", "18:00 CST",
				"Council Chambers"}, nil},
		{"PublicHearingComplainantF", final(), "public_hearing_complainant",
			[]string{"(F)", "John Doe", "12 Elm Street", "Monday 14 December 2026"}, nil},
		{"NoticeSufficiency", received(), "notice_sufficiency",
			[]string{"(C)(1)", "PUBLIC NOTICE", "sufficiency meeting", "Agenda",
				"determination of whether there is probable cause", "Monday 7 December 2026", "17:00 CST", "open to the public"},
			[]string{"Jane Roe", "John Doe", "Used city email"}},
		{"NoticeHearingClosed", decided(), "notice_hearing",
			[]string{"(D)", "PUBLIC NOTICE", "hearing", "Council Chambers", "closed to the public under 5 ILCS 120/2(c)(4)"},
			[]string{"Jane Roe", "John Doe", "Used city email", "reprimand"}},
		{"NoticePublicHearing", final(), "notice_public_hearing",
			[]string{"(F)", "public hearing", "Monday 14 December 2026", "18:00 CST"},
			[]string{"Jane Roe", "John Doe", "Used city email"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := m.Make(tc.c, tc.kind, today)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := d.Name, "2026-001-"+string(tc.kind)+".pdf"; got != want {
				t.Errorf("file name %q, want %q", got, want)
			}
			if !bytes.HasPrefix(d.Data, []byte("%PDF-")) {
				t.Fatalf("not a PDF")
			}
			text := Text(t, d.Data)
			for _, w := range append(append([]string{}, common...), tc.want...) {
				if !Contains(text, w) {
					t.Errorf("%s lacks %q:\n%s", tc.kind, w, text)
				}
			}
			for _, w := range tc.not {
				if Contains(text, w) {
					t.Errorf("%s holds %q, which it must not:\n%s", tc.kind, w, text)
				}
			}
		})
	}
}

func TestDue(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *docket.Case
		want string
	}{
		{"Filed", func() *docket.Case {
			c := received()
			c.Sufficiency, c.Mailings = docket.Meeting{}, nil
			return c
		}(), ""},
		{"Scheduled", received(), "respondent complainant notice_sufficiency"},
		{"ProbableCause", ruled(docket.ProbableCause),
			"respondent complainant ruling_respondent ruling_complainant notice_sufficiency notice_hearing"},
		{"ProbableCauseNoHearingYet",
			func() *docket.Case { c := ruled(docket.ProbableCause); c.Hearing = docket.Meeting{}; return c }(),
			"respondent complainant notice_sufficiency"},
		{"Insufficient", ruled(docket.Insufficient),
			"respondent complainant dismissal_respondent dismissal_complainant notice_sufficiency"},
		{"JudicialReferral", ruled(docket.JudicialReferral),
			"respondent complainant ruling_respondent ruling_complainant adjudication_request notice_sufficiency"},
		{"AttorneyReferral", ruled(docket.AttorneyReferral),
			"respondent complainant ruling_respondent ruling_complainant referral notice_sufficiency"},
		{"Decided", decided(),
			"respondent complainant ruling_respondent ruling_complainant recommendation_respondent recommendation_officer " +
				"notice_sufficiency notice_hearing"},
		{"Final", final(),
			"respondent complainant ruling_respondent ruling_complainant recommendation_respondent recommendation_officer " +
				"demand_acknowledgement public_hearing_respondent public_hearing_complainant final_respondent final_officer " +
				"notice_sufficiency notice_hearing notice_public_hearing"},
		// The (H) notice went out before the finding: it stays listed, as sent, after it.
		{"FrivolousFound", func() *docket.Case {
			c := ruled(docket.Insufficient)
			c.FrivolousHearing = c.Sufficiency
			c.Mailings = append(c.Mailings, docket.Mailing{Paper: docket.FrivolousNotice, Recipient: docket.Complainant,
				Article: "9407111898765432101634", Mailed: today})
			c.Frivolous = &docket.Finding{}
			return c
		}(), "respondent complainant dismissal_respondent dismissal_complainant frivolous_notice notice_sufficiency " +
			"notice_frivolous_meeting"},
		{"Recessed", recessed(),
			"respondent complainant ruling_respondent ruling_complainant recessed_hearing_respondent " +
				"recessed_hearing_complainant notice_sufficiency notice_hearing notice_recessed_hearing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, k := range letters.Due(tc.c) {
				got = append(got, string(k))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Fatalf("Due = %q, want %q", g, tc.want)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	m := mustMaker(t, config)
	for _, tc := range []struct {
		name string
		c    *docket.Case
		kind letters.Kind
		cfg  *letters.Config
		want string
	}{
		{"RulingBeforeRuling", received(), "ruling_respondent", nil, "has not ruled (rule (C)(1))"},
		{"DismissalAfterProbableCause", ruled(docket.ProbableCause), "dismissal_respondent", nil, "(rule (C)(2))"},
		{"RecommendationBeforeDecision", ruled(docket.ProbableCause), "recommendation_officer", nil, "(rule (E)(2))"},
		{"FinalBeforeIt", decided(), "final_respondent", nil, "(rule (F))"},
		{"UnknownKind", received(), "summons", nil, `there is no document "summons"`},
		{"NoticeOfNoMeeting", received(), "notice_public_hearing", nil, "no public hearing is scheduled"},
		{"NoCommissionAddress", received(), "respondent", &letters.Config{}, "letters.commission.address: is not set"},
		{"NoOfficerAddress", decided(), "recommendation_officer",
			&letters.Config{Commission: config.Commission, Officer: letters.Addressee{Name: "Pat Quimby"}},
			"letters.officer.address: is not set"},
		{"NoRespondentAddress", func() *docket.Case { c := received(); c.Respondent.Address = ""; return c }(),
			"respondent", nil,
			`the respondent's postal address is not recorded: the notice of the complaint to the respondent needs it; record it with /ethics party 2026-001 respondent address=`},
		{"NoComplainantAddress",
			func() *docket.Case { c := ruled(docket.Insufficient); c.Complainant.Address = ""; return c }(),
			"dismissal_complainant", nil, "the complainant's postal address is not recorded"},
		{"NoAttorney", ruled(docket.JudicialReferral), "adjudication_request", &letters.Config{Commission: config.Commission},
			"letters.attorney.name: is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mk := m
			if tc.cfg != nil {
				mk = mustMaker(t, *tc.cfg)
			}
			docs, err := mk.MakeDue(context.Background(), tc.c, tc.kind, today, nil)
			var de *docket.Error
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *docket.Error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %q, want it to say %q", err, tc.want)
			}
			if docs != nil {
				t.Fatalf("produced %d documents with an error", len(docs))
			}
		})
	}
}

// TestHostileText puts text that looks like Slack markup, layout directives, characters
// the font lacks and text many pages long into a case, and checks that each comes out as
// text: no directive is obeyed, nothing crashes, nothing is dropped without a trace.
func TestHostileText(t *testing.T) {
	m := mustMaker(t, config)
	long := strings.Repeat("The respondent used the city's email system to solicit campaign contributions. ", 400)
	for _, tc := range []struct {
		name, respondent, summary string
		want                      []string
		not                       []string
	}{
		{"SlackMarkup", "<!channel> Jane & <Roe>", "*bold* <@U123>",
			[]string{"<!channel> Jane & <Roe>", "*bold* <@U123>"}, nil},
		{"DirectiveInSummary", "Jane Roe", "First line.\n@page\n@title FORGED TITLE\n\\n@heading X",
			[]string{"@page", "@title FORGED TITLE", `\n@heading X`}, nil},
		{"DirectiveInName", "@title Forged", "x", []string{"@title Forged"}, nil},
		{"BackslashEscapes", `Jane \& Roe \\`, `a\nb`, []string{`Jane \& Roe \\`, `a\nb`}, nil},
		{"Emoji", "Jane Roe 😀", "Smile 🙂 please", []string{"Jane Roe [U+1F600]", "Smile [U+1F642] please"}, nil},
		{"Accents", "José Núñez-Müller", "Æsop's façade", []string{"José Núñez-Müller", "Æsop's façade"}, nil},
		{"DirectionOverride", "Jane Roe", "abc\u202edcba", []string{"abc[U+202E]dcba"}, nil},
		{"Long", "Jane Roe", long, []string{"solicit campaign contributions"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := received()
			c.Respondent.Name, c.Summary = tc.respondent, tc.summary
			d, err := m.Make(c, "respondent", today)
			if err != nil {
				t.Fatal(err)
			}
			text := Text(t, d.Data)
			for _, w := range tc.want {
				if !Contains(text, w) {
					t.Errorf("lacks %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, "FORGED") && strings.Count(text, "Notice of Complaint") != 1 {
				t.Errorf("a forged title changed the document:\n%s", text)
			}
			if tc.name == "Long" {
				r, _ := pdf.NewReader(bytes.NewReader(d.Data), int64(len(d.Data)))
				if r.NumPage() < 4 {
					t.Errorf("a summary of %d characters fills %d pages; it should run on", len(long), r.NumPage())
				}
			}
		})
	}
}

// TestDirectivesCannotBeForged checks the layout itself: a summary line that reads as a
// directive is printed, not obeyed. A forged @page would add a page.
func TestDirectivesCannotBeForged(t *testing.T) {
	m := mustMaker(t, config)
	pages := func(summary string) int {
		c := received()
		c.Summary = summary
		d, err := m.Make(c, "respondent", today)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := pdf.NewReader(bytes.NewReader(d.Data), int64(len(d.Data)))
		return r.NumPage()
	}
	if plain, forged := pages("short"), pages("short\n@page\n@page\n@page"); plain != forged {
		t.Fatalf("a summary holding @page lines has %d pages, a plain one %d", forged, plain)
	}
}

// TestOverrideTemplates checks that a file in the templates directory replaces the
// built-in wording, and that a misnamed one is refused.
func TestOverrideTemplates(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "complainant.tmpl"),
		[]byte("{{template \"letterhead\" .}}\n@title Acknowledgement\nDear {{.To.Name}}, we have your complaint "+
			"({{.Rule}}).\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "_signature.tmpl"), []byte(`{{define "signature"}}Yours, the Board{{end}}`), 0o644)
	cfg := config
	cfg.Templates = dir
	m := mustMaker(t, cfg)
	d, err := m.Make(received(), "complainant", today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); !strings.Contains(text, "Acknowledgement") ||
		!strings.Contains(text, "Dear John Doe, we have your complaint ((B)).") ||
		strings.Contains(text, "Confirmation of Receipt") {
		t.Fatalf("the override did not change the wording:\n%s", text)
	}
	d, err = m.Make(received(), "respondent", today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); !strings.Contains(text, "Yours, the Board") ||
		!strings.Contains(text, "Notice of Complaint") {
		t.Fatalf("the shared signature was not overridden, or the default letter was lost:\n%s", text)
	}

	os.WriteFile(filepath.Join(dir, "respondnet.tmpl"), []byte("x"), 0o644)
	if _, err := letters.New(cfg, chicago); err == nil ||
		!strings.Contains(err.Error(), "respondnet.tmpl is not the name of a template") {
		t.Fatalf("a misnamed override: err = %v", err)
	}
	os.Remove(filepath.Join(dir, "respondnet.tmpl"))
	os.WriteFile(filepath.Join(dir, "referral.tmpl"), []byte("@headline x\n"), 0o644)
	m = mustMaker(t, cfg)
	if _, err := m.Make(ruled(docket.AttorneyReferral), "referral", today); err == nil ||
		!strings.Contains(err.Error(), "unknown directive @headline") {
		t.Fatalf("a mistyped directive: err = %v", err)
	}
	if _, err := letters.New(letters.Config{Templates: filepath.Join(dir, "absent")}, chicago); err == nil ||
		!strings.Contains(err.Error(), "letters.templates") {
		t.Fatalf("a missing directory: err = %v", err)
	}
}

// TestNoticeTemplateCannotLeak checks that a notice template cannot reach the complaint:
// its data has no such field, so a template that asks for one fails.
func TestNoticeTemplateCannotLeak(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notice_sufficiency.tmpl"), []byte("{{.Summary}}\n"), 0o644)
	cfg := config
	cfg.Templates = dir
	m := mustMaker(t, cfg)
	if _, err := m.Make(received(), "notice_sufficiency", today); err == nil || !strings.Contains(err.Error(), "Summary") {
		t.Fatalf("err = %v, want the template refused for asking for the summary", err)
	}
}

// TestFineLettersNeedPayment: a letter that imposes a fine on its recipient is refused
// without the payment settings, naming the one missing; one that imposes none, or goes
// to the officer, is not.
func TestFineLettersNeedPayment(t *testing.T) {
	cfg := config
	cfg.Payment = letters.Payment{}
	m := mustMaker(t, cfg)
	for _, k := range []letters.Kind{"recommendation_respondent", "frivolous_finding"} {
		c := decided()
		if k == "frivolous_finding" {
			c = frivolous()
		}
		if _, err := m.Make(c, k, today); err == nil || !strings.Contains(err.Error(), "payment.payee: is not set") {
			t.Errorf("%s without payment.payee: %v", k, err)
		}
	}
	if _, err := m.Make(decided(), "recommendation_officer", today); err != nil {
		t.Errorf("the officer's letter gives no way to pay: %v", err)
	}
	c := decided()
	c.Decision.Fine = 0
	if _, err := m.Make(c, "recommendation_respondent", today); err != nil {
		t.Errorf("a recommendation without a fine: %v", err)
	}
}

// TestFrivolousNoticeStatesTheRange: the (H) notice of the meeting quotes the range the
// ordinance sets, and a town's own range (ordinance.fines) where it has one.
func TestFrivolousNoticeStatesTheRange(t *testing.T) {
	c := ruled(docket.Insufficient)
	c.FrivolousHearing = docket.Meeting{Start: at("2026-12-21T17:00:00-06:00"), Place: "City Hall, Room 201"}
	d, err := mustMaker(t, config).Make(c, "frivolous_notice", today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); !Contains(text, "in an amount of not less than $1,001 and not more than $5,000") {
		t.Errorf("the (H) notice lacks the range:\n%s", text)
	}
	ord := docket.DefaultOrdinance()
	if err := ord.SetFines(500, 2000); err != nil {
		t.Fatal(err)
	}
	cfg := config
	cfg.Engine = &docket.Engine{Cal: mustCalendar(t), Ord: ord}
	d, err = mustMaker(t, cfg).Make(c, "frivolous_notice", today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); !Contains(text, "not less than $500 and not more than $2,000") {
		t.Errorf("the (H) notice lacks the town's range:\n%s", text)
	}
}

func mustCalendar(t *testing.T) *docket.Calendar {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return cal
}
