package letters_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// words are the first page's words with their positions, in inches from the page's top
// left corner.
type word struct {
	s    string
	x, y float64
}

func firstPage(t *testing.T, data []byte) []word {
	t.Helper()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []word
	for _, tx := range r.Page(1).Content().Text {
		out = append(out, word{tx.S, tx.X / 72, 11 - tx.Y/72})
	}
	return out
}

// where is the position of the first character of the first occurrence of s on the
// page, found by joining the characters in order.
func where(t *testing.T, ws []word, s string) word {
	t.Helper()
	var b strings.Builder
	var starts []int
	for i, w := range ws {
		for range w.s {
			starts = append(starts, i)
		}
		b.WriteString(w.s)
	}
	i := strings.Index(b.String(), s)
	if i < 0 {
		t.Fatalf("%q is not on the first page", s)
	}
	return ws[starts[len([]rune(b.String()[:i]))]]
}

// TestWindowEnvelope: the recipient's name and address print inside the window of a No.
// 10 envelope (1 1/8 by 4 1/2 in., 7/8 in. from the left and 1/2 in. from the bottom),
// with 1/8 in. clear on every side; the return address above it, and the endorsement
// between, on every letter, whoever it goes to.
func TestWindowEnvelope(t *testing.T) { windowEnvelope(t, mustMaker(t, config)) }

// windowEnvelope checks the places of the window envelope in the letters of m.
func windowEnvelope(t *testing.T, m *letters.Maker) {
	for _, tc := range []struct {
		name string
		c    *docket.Case
		kind letters.Kind
		to   []string
	}{
		{"Respondent", received(), "respondent", []string{"Jane Roe", "34 Oak Avenue", "Springfield, IL 62703"}},
		{"Attorney", ruled(docket.AttorneyReferral), "referral",
			[]string{"Lionel Hutz", "Corporation Counsel", "Law Department"}},
		{"Officer", decided(), "recommendation_officer", []string{"Pat Quimby", "Office of the Mayor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := m.Make(tc.c, tc.kind, today)
			if err != nil {
				t.Fatal(err)
			}
			ws := firstPage(t, d.Data)
			for _, s := range tc.to {
				w := where(t, ws, s)
				// The baseline is within the window's clear area; the line's top is
				// at most a type size above it.
				if w.x < 0.875+0.125 || w.x > 4.375 || w.y-0.14 < 2.042+0.1 || w.y > 3.167-0.1 {
					t.Errorf("%q prints at %.2f in. from the left, %.2f in. from the top: outside the window", s, w.x, w.y)
				}
			}
			if w := where(t, ws, "Ethics Commission of Springfield"); w.y > 1 || w.x > 1.1 {
				t.Errorf("the return address prints at %.2f, %.2f in.: not at the top left", w.x, w.y)
			}
			if w := where(t, ws, "Re:"); w.y < 3.17 {
				t.Errorf("the letter's text starts %.2f in. from the top, inside the window", w.y)
			}
		})
	}
}

// TestEndorsementOnEveryCertifiedPaper: a paper the ordinance sends certified carries the
// endorsement, and so does one the clerk recorded as sent certified, with its number.
func TestEndorsementOnEveryCertifiedPaper(t *testing.T) {
	m := mustMaker(t, config)
	c := ruled(docket.ProbableCause)
	d, err := m.Make(c, "ruling_respondent", today)
	if err != nil {
		t.Fatal(err)
	}
	if text := Text(t, d.Data); Contains(text, "CERTIFIED MAIL") {
		t.Fatalf("a ruling not yet mailed certified is endorsed:\n%s", text)
	}
	c.Mailings = append(c.Mailings,
		docket.Mailing{Paper: docket.RulingToRespondent, Recipient: docket.Respondent, Article: "9407111898765432101641",
			Mailed: docket.NewDate(2026, 12, 8), Satisfies: "(C)(1)"})
	d, err = m.Make(c, "ruling_respondent", today)
	if err != nil {
		t.Fatal(err)
	}
	text := Text(t, d.Data)
	for _, w := range []string{"CERTIFIED MAIL, RETURN RECEIPT REQUESTED", "9407 1118 9876 5432 1016 41"} {
		if !Contains(text, w) {
			t.Errorf("the ruling mailed certified lacks %q:\n%s", w, text)
		}
	}
}

// TestAddressTooLongForTheWindow: an address that cannot show in the window is refused,
// naming the rule and the reason, rather than printed where the envelope hides it.
func TestAddressTooLongForTheWindow(t *testing.T) {
	c := received()
	c.Respondent.Address = strings.Repeat("Line\n", 12) + "Springfield"
	_, err := mustMaker(t, config).Make(c, "respondent", today)
	if err == nil || !strings.Contains(err.Error(), "window of a No. 10 envelope") ||
		!strings.Contains(err.Error(), "(B)") {
		t.Fatalf("got %v", err)
	}
}
