package letters_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// TestOfficerPerCase: the (E)(2) and (F) recommendations go to the officer the case names
// from the configured list, the mayor (letters.officer) by default; an
// officer the configuration no longer lists is refused, naming the command.
func TestOfficerPerCase(t *testing.T) {
	cfg := config
	cfg.Officers = map[string]letters.Addressee{
		"public_works": {Name: "Dale Gribble", Title: "Director of Public Works",
			Address: "Public Works Department\n200 Elm Street"},
		"council": {Name: "City Council", Title: "", Address: "Office of the City Clerk\n100 Main Street"},
	}
	m := mustMaker(t, cfg)
	for _, tc := range []struct {
		officer, kind string
		c             *docket.Case
		want, not     string
	}{
		{"", "recommendation_officer", decided(), "Pat Quimby", "Dale Gribble"},
		{"mayor", "final_officer", final(), "Pat Quimby", "Dale Gribble"},
		{"public_works", "recommendation_officer", decided(), "Dale Gribble", "Pat Quimby"},
		{"council", "final_officer", final(), "Office of the City Clerk", "Pat Quimby"},
	} {
		c := tc.c
		c.Officer = tc.officer
		d, err := m.Make(c, letters.Kind(tc.kind), today)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.officer, tc.kind, err)
		}
		if text := Text(t, d.Data); !Contains(text, tc.want) || Contains(text, tc.not) {
			t.Errorf("%s %s: want %q, not %q:\n%s", tc.officer, tc.kind, tc.want, tc.not, text)
		}
	}
	c := decided()
	c.Officer = "police_chief"
	if _, err := m.Make(c, "recommendation_officer", today); err == nil ||
		!strings.Contains(err.Error(),
			`names the officer "police_chief", whom letters.officers in ethicsbot.yml does not list`) {
		t.Errorf("an unlisted officer: %v", err)
	}
	if _, err := m.Make(c, "recommendation_respondent", today); err != nil {
		t.Errorf("the letter to the respondent needs no officer: %v", err)
	}
	// letters.officers.mayor is the mayor, if given there.
	cfg.Officer, cfg.Officers["mayor"] = letters.Addressee{}, letters.Addressee{Name: "Mayor Quimby", Address: "City Hall"}
	d, err := mustMaker(t, cfg).Make(decided(), "recommendation_officer", today)
	if err != nil || !Contains(Text(t, d.Data), "Mayor Quimby") {
		t.Errorf("officers.mayor: %v", err)
	}
}

// TestOfficerAsSent: a paper to the officer printed again after its mailing goes to the
// officer it went to, though the case names another since.
func TestOfficerAsSent(t *testing.T) {
	cfg := config
	cfg.Officers = map[string]letters.Addressee{"public_works": {Name: "Dale Gribble", Address: "200 Elm Street"},
		"council": {Name: "City Council", Address: "City Hall"}}
	c := decided()
	c.Officer = "council"
	c.Mailings = append(c.Mailings,
		docket.Mailing{Paper: docket.RecommendationToOfficer, Recipient: docket.Officer, Mailed: docket.NewDate(2026, 12, 11),
			Satisfies: "(E)(2)", Officer: "public_works"})
	d, err := mustMaker(t, cfg).Make(c, letters.Kind(docket.RecommendationToOfficer), today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); !Contains(text, "Dale Gribble") || Contains(text, "City Council") {
		t.Errorf("the re-print does not go to whom the paper went:\n%s", text)
	}
}
