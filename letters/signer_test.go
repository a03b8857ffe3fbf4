package letters_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// TestSigners: a letter is signed by the chair or the clerk as the configuration names
// them: by default the chair signs a ruling, a decision or a
// recommendation, the clerk the (B) notices and the (C)(3) transmittal; letters.signers
// moves a paper to the other; without names, the letter is signed for the commission.
func TestSigners(t *testing.T) {
	named := config
	named.Chair = letters.Addressee{Name: "Ann Alder", Title: "Chair"}
	named.Clerk = letters.Addressee{Name: "Dana Dale", Title: "Clerk"}
	const chair, clerk, plain = "Ann Alder Chair, for the Ethics Commission of Springfield", "Dana Dale Clerk, for the " +
		"Ethics Commission of Springfield", "For the Ethics Commission of Springfield"
	for _, tc := range []struct {
		name string
		cfg  letters.Config
		c    *docket.Case
		kind letters.Kind
		want string
	}{
		{"RespondentNoticeByClerk", named, received(), "respondent", clerk},
		{"RulingByChair", named, ruled(docket.ProbableCause), "ruling_respondent", chair},
		{"RecommendationByChair", named, decided(), "recommendation_officer", chair},
		{"ReferralByClerk", named, ruled(docket.AttorneyReferral), "referral", clerk},
		{"Unnamed", config, ruled(docket.ProbableCause), "ruling_respondent", plain},
		{"Overridden", func() letters.Config {
			c := named
			c.Signers = map[docket.Paper]docket.Signer{docket.RulingToRespondent: docket.ClerkSigns}
			return c
		}(), ruled(docket.ProbableCause), "ruling_respondent", clerk},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := mustMaker(t, tc.cfg).Make(tc.c, tc.kind, today)
			if err != nil {
				t.Fatal(err)
			}
			text := Text(t, d.Data)
			if !Contains(text, tc.want) {
				t.Fatalf("want the signature %q:\n%s", tc.want, text)
			}
			for _, other := range []string{"Ann Alder", "Dana Dale"} {
				if !strings.Contains(tc.want, other) && strings.Contains(text, other) {
					t.Errorf("signed by %s too:\n%s", other, text)
				}
			}
		})
	}
}
