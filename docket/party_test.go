package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestPartyDetails: a postal address is a few one-line fields; an e-mail address is a
// bare address; what is typed with | is read as lines.
func TestPartyDetails(t *testing.T) {
	if got := docket.AddressLines(" 34 Oak Avenue |Springfield, IL 62703 \n\n| "); got != "34 Oak Avenue\nSpringfield, IL 62703" {
		t.Errorf("AddressLines = %q", got)
	}
	for _, tc := range []struct {
		address, want string
	}{
		{"34 Oak Avenue\nSpringfield, IL 62703", ""},
		{"a\nb\nc\nd\ne\nf\ng", "has 7 lines; a postal address has at most 6"},
		{"34 Oak Avenue\n\nSpringfield", "line 2 is blank"},
		{"34 Oak\tAvenue", "must be one line: it holds a tab"},
		{strings.Repeat("x", 101), "is 101 characters; the limit is 100"},
		{"34 Oak Avenue\u200b", "invisible"},
	} {
		err := docket.CheckAddress("address", "(B)", tc.address, true)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckAddress(%q) = %v, want %q", tc.address, err, tc.want)
		}
	}
	for _, tc := range []struct {
		email string
		ok    bool
	}{
		{"jane@example.org", true}, {"", true}, {"Jane Roe <jane@example.org>", false}, {"jane@localhost", false},
		{"jane@example.org, john@example.org", false}, {"jane@example.org\nBcc: x@example.org", false}, {"not an address", false},
	} {
		if err := docket.CheckEmail("email", "(B)", tc.email); (err == nil) != tc.ok {
			t.Errorf("CheckEmail(%q) = %v", tc.email, err)
		}
	}
}
