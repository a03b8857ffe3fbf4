package docket_test

import (
	"encoding/json"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestArticleCheckDigit: USPS Publication 199's MOD 10 check digit, weights 3, 1, 3, …
// from the rightmost digit before it, worked by hand.
func TestArticleCheckDigit(t *testing.T) {
	for _, tc := range []struct {
		body string
		want int
	}{
		// 9×3 + 9×1 … over 19 nines: ten weighted 3, nine weighted 1: 270 + 81 = 351 → 9.
		{"9999999999999999999", 9},
		// 9407 1118 9876 5432 1016 3: from the right 3×3 + 6×1 + 1×3 + 0×1 + 1×3 + 2×1 + 3×3
		// + 4×1 + 5×3 + 6×1 + 7×3 + 8×1 + 9×3 + 8×1 + 1×3 + 1×1 + 1×3 + 7×1 + 0×3 + 4×1 +
		// 9×3 = 176 → 4.
		{"940711189876543210163", 4},
		{"0000000000000000000", 0},
	} {
		if got := docket.ArticleCheckDigit(tc.body); got != tc.want {
			t.Errorf("check digit of %s = %d, want %d", tc.body, got, tc.want)
		}
	}
}

// TestNormalizeArticle: 20 or 22 digits whose check digit holds are accepted, spaced as
// USPS prints them or not; a mistyped digit, two digits swapped, or a 21-digit number is
// refused, saying why.
func TestNormalizeArticle(t *testing.T) {
	for _, ok := range []string{"9407 1118 9876 5432 1016 34", "9407111898765432101634", "94071118987654321712",
		"99999999999999999999"} {
		if _, err := docket.NormalizeArticle(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"9407 1118 9876 5432 1016 33", "the check digit should be 4, not 3: a digit is mistyped"},
		{"9407 1118 9876 5432 0116 34", "the check digit should be"}, // 1 and 0 swapped
		{"9407 1118 9876 5432 1016 3", "21 digits"},
		{"94071118987654321", "20 or 22 digits"},
		{"9407 1118\n9876 5432 1016 34", "one line"},
		{"0000 0000 0000 0000 0000 00", "every digit is zero"},
	} {
		_, err := docket.NormalizeArticle(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "(B)") {
			t.Errorf("%q: %v, want an error under (B) saying %q", tc.in, err, tc.want)
		}
	}
}

// TestOldArticleNumbersStillRebuild: a mailing recorded before check digits were checked,
// with a number that fails its check digit, and the receipt recorded for it, still rebuild
// (a correction of the case replays them); the same mailing recorded now is refused; and a
// correction of its number must bring a number that passes, which its receipt follows.
func TestOldArticleNumbersStillRebuild(t *testing.T) {
	e := MustEngine(t)
	const old = "94071118987654321012" // check digit 9, not 2
	steps := closedHearingCase()[:6]
	steps[3].action = docket.RecordMailing{Recipient: docket.Respondent, Article: old}
	steps[5].action = docket.RecordReturnReceipt{Article: old}
	entries := recorded(t, steps)
	c, err := e.Rebuild("2026-001", entries)
	if err != nil {
		t.Fatalf("a record with an article number recorded before check digits no longer rebuilds: %v", err)
	}
	if c.Mailings[0].Article != old || c.Mailings[0].Returned.IsZero() {
		t.Fatalf("rebuilt mailing %+v", c.Mailings[0])
	}
	// Recorded now, it is refused.
	before := apply(t, e, steps[:3])
	if _, _, err := e.Apply(before, steps[3].action, T(t, steps[3].at)); err == nil ||
		!strings.Contains(err.Error(), "check digit should be 9, not 2") {
		t.Errorf("a mailing with a mistyped article number: %v", err)
	}
	// A correction to another mistyped number is refused; to a good one, the receipt follows.
	correct := func(to string) error {
		m := steps[3].action.(docket.RecordMailing)
		m.Article = to
		payload, _ := json.Marshal(m)
		_, err := e.Amend(c, entries,
			docket.Correct{Seq: 4, Of: "mail", Field: "article", From: old, To: to, Reason: "typo", Action: payload}, "U_CLERK",
			T(t, "2026-12-09T10:00:00-06:00"))
		return err
	}
	if err := correct("94071118987654321013"); err == nil || !strings.Contains(err.Error(), "check digit") {
		t.Errorf("a correction to a number that fails its check digit: %v", err)
	}
	if err := correct("94071118987654321712"); err != nil {
		t.Errorf("a correction to a good number, with a receipt recorded under the old one: %v", err)
	}
}

// recorded is steps as a case's record holds them: each an event of U_CLERK's, numbered
// from 1, at its time.
func recorded(t *testing.T, steps []step) []docket.Entry {
	t.Helper()
	entries := make([]docket.Entry, len(steps))
	for i, s := range steps {
		entries[i] = docket.Entry{ID: int64(i + 1), Seq: i + 1, By: "U_CLERK", At: T(t, s.at), Action: s.action}
	}
	return entries
}
