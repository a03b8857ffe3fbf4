package docket_test

import (
	"slices"
	"testing"

	"ethicsbot/docket"
)

// Every agenda shows the parts of every meeting around its business, unless the clerk made
// them items of their own, where they stay as the clerk put them and are not said twice.
func TestFrame(t *testing.T) {
	for _, tc := range []struct {
		name             string
		items            []docket.AgendaItem
		opening, closing []string
	}{
		{"no items", nil, []string{"Call to order and roll call."}, []string{"Public comment.", "Adjournment."}},
		{"business only", []docket.AgendaItem{{Kind: docket.BusinessItem, Text: "The budget"}},
			[]string{"Call to order and roll call."}, []string{"Public comment.", "Adjournment."}},
		{"the clerk's own", []docket.AgendaItem{{Kind: docket.CallToOrder}, {Kind: docket.PublicComment},
			{Kind: docket.BusinessItem, Text: "The budget"}, {Kind: docket.Adjournment}}, nil, nil},
		{"a roll call of its own", []docket.AgendaItem{{Kind: docket.RollCallItem}},
			nil, []string{"Public comment.", "Adjournment."}},
	} {
		opening, closing := docket.Frame(tc.items)
		if !slices.Equal(opening, tc.opening) || !slices.Equal(closing, tc.closing) {
			t.Errorf("%s: %q, %q; want %q, %q", tc.name, opening, closing, tc.opening, tc.closing)
		}
	}
	// A case's own notice numbers the same parts around its one item.
	got := docket.CaseAgenda(docket.HearingMeeting, "2026-001")
	if len(got) != 4 || got[0] != "Call to order and roll call." || got[2] != "Public comment." ||
		got[3] != "Adjournment." {
		t.Errorf("CaseAgenda = %q", got)
	}
}
