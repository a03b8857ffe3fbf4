package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestPartyDetails: a postal address is a few one-line fields; an e-mail address is a
// bare address; what is typed with | is read as lines.
func TestPartyDetails(t *testing.T) {
	if got := docket.AddressLines(" 34 Oak Avenue |Springfield, IL " +
		"62703 \n\n| "); got != "34 Oak Avenue\nSpringfield, IL 62703" {
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
		{"jane@example.org, john@example.org", false}, {"jane@example.org\nBcc: x@example.org", false},
		{"not an address", false},
	} {
		if err := docket.CheckEmail("email", "(B)", tc.email); (err == nil) != tc.ok {
			t.Errorf("CheckEmail(%q) = %v", tc.email, err)
		}
	}
}

// TestMailingKeepsTheAddressItWentTo: a piece keeps the party's address as it stood when it
// was mailed, so the mailing book (PS Form 3877) proves what was sent, after a move.
func TestMailingKeepsTheAddressItWentTo(t *testing.T) {
	e := MustEngine(t)
	received := mustTime("2026-12-04T10:00:00-06:00")
	c, _, err := e.Apply(docket.Case{}, docket.File{Complainant: docket.Person{Name: "John Doe"},
		Respondent: docket.Person{Name: "Jane Roe", Address: "34 Oak Avenue\nSpringfield, IL 62703"},
		Sections:   []string{"103.10"}, Received: received, Summary: "x"}, received)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		at string
		a  docket.Action
	}{
		{"2026-12-07T10:00:00-06:00",
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: mustTime("2026-12-14T17:00:00-06:00"),
				Place: "Library"}},
		{"2026-12-08T09:00:00-06:00", docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321620"}},
		{"2026-12-09T09:00:00-06:00",
			docket.SetParty{Party: docket.Respondent, Address: "99 Moved Street\nChicago, IL 60601"}},
	} {
		if c, _, err = e.Apply(c, step.a, mustTime(step.at)); err != nil {
			t.Fatalf("%s: %v", step.a.Kind(), err)
		}
	}
	if got := c.Mailings[0].Address; got != "34 Oak Avenue\nSpringfield, IL 62703" {
		t.Errorf("the mailing's address is %q, want where it went", got)
	}
	if c.Respondent.Address != "99 Moved Street\nChicago, IL 60601" {
		t.Errorf("the respondent's address is %q", c.Respondent.Address)
	}
}
