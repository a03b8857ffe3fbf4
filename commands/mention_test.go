package commands_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// slash runs text as Slack sends a slash command's text with should_escape: true.
func slash(s *commands.Service, user, text string) commands.Response {
	return s.Handle(ctx,
		commands.Request{User: user, Text: text, RequestID: user + ":" + text + time.Now().String(), Escaped: true})
}

// TestUserFieldsTakeMentions: every user field, one person or several, takes a mention as
// Slack escapes it (with and without the name), a member id, or @ and the id; a name that
// is not a mention is refused, saying to @mention.
func TestUserFieldsTakeMentions(t *testing.T) {
	for _, tc := range []struct{ text, field string }{
		{`rule 2026-001 insufficient yes=<@U_COMM1|ann>,<@U_COMM2> no=U_COMM3 abstain=@U_COMM4 absent=<@U_COMM5|eve>;<@U_COMM6|fay>`, ""},
		{`file respondent=Roe complainant=Doe section=103.10 summary=x respondent_user=<@U0RESP1|jane.roe> complainant_user=<@U0COMP1>`, ""},
		{`recuse 2026-001 commissioner=<@U_COMM2|ben>`, ""},
		{`correct 2026-001 reason=x respondent_user=<@W0RESP2|roe>`, ""},
	} {
		a, err := commands.ParseEscapedForTest(tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		want := map[string]any{
			"yes": []string{"U_COMM1", "U_COMM2"}, "no": []string{"U_COMM3"}, "abstain": []string{"U_COMM4"},
			"absent":          []string{"U_COMM5", "U_COMM6"},
			"respondent_user": "U0RESP1", "complainant_user": "U0COMP1", "commissioner": "U_COMM2",
		}
		if strings.HasPrefix(tc.text, "correct") {
			want["respondent_user"] = "W0RESP2"
		}
		for k, v := range a {
			if w, ok := want[k]; ok && !reflect.DeepEqual(v, w) {
				t.Errorf("%s: %s = %#v, want %#v", tc.text, k, v, w)
			}
		}
	}
	for _, text := range []string{`rule 2026-001 insufficient yes=@ann`, `recuse 2026-001 commissioner=ann`,
		`file respondent_user=@jane`} {
		if _, err := commands.ParseEscapedForTest(text); err == nil || !strings.Contains(err.Error(), "@mention them") {
			t.Errorf("%s: %v, want a refusal saying to @mention", text, err)
		}
	}
	if _, err := commands.ParseEscapedForTest(`recuse 2026-001 commissioner=<@U_COMM1|ann>,<@U_COMM2|ben>`); err == nil ||
		!strings.Contains(err.Error(), "names 2 people; @mention one") {
		t.Errorf("two people in a one-person field: %v", err)
	}
}

// TestEscapedTextIsAsTyped: a command's free text comes back as the user typed it, from
// what Slack sends with should_escape: channels, links, special mentions and & < > are the
// user's text again, and stay data.
func TestEscapedTextIsAsTyped(t *testing.T) {
	a, err := commands.ParseEscapedForTest(`schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall &amp; Annex, see <https://city.example.gov/rooms|city.example.gov/rooms> or <#C0123|general> &lt;b&gt;" closed="<!here> <@U0ADMIN1|admin> <!subteam^S0123|@clerks> <mailto:a@b.gov|a@b.gov> <http://x.gov>"`)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"place":  "City Hall & Annex, see city.example.gov/rooms or #general <b>",
		"closed": "@here @admin @clerks a@b.gov http://x.gov",
	} {
		if got := a[k]; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	// The console's text is as typed: nothing in it is Slack's.
	a, err = commands.ParseForTest(`schedule 2026-001 sufficiency 2026-12-10T17:00 place="A &amp; <b>"`)
	if err != nil || a["place"] != "A &amp; <b>" {
		t.Errorf("console place = %q (%v)", a["place"], err)
	}
}

// TestMentionsRunTheCommission: a roll call and a recusal by mention, through Handle with
// the text as Slack sends it, and a place with a link and an ampersand recorded as typed.
func TestMentionsRunTheCommission(t *testing.T) {
	s, clk := voting(t)
	mustSlash := func(user, text, want string) commands.Response {
		t.Helper()
		r := slash(s, user, text)
		if got := replyText(r); !strings.Contains(got, want) {
			t.Fatalf("/ethics %s:\n%s\nwant %q", text, got, want)
		}
		return r
	}
	mustSlash(clerk,
		`recuse 2026-001 commissioner=<@U_COMM3|cal> reason="knows the complainant &amp; the respondent"`, "recused")
	mustSlash(comm,
		`rule 2026-001 probable_cause yes=<@U_COMM1|ann>,<@U_COMM2|ben> hearing=2026-12-28T10:00 place="City Hall &amp; Annex &lt;Room 2&gt;"`, "ruling recorded")
	_ = clk
	c, err := s.Record.Case(ctx, "2026-001")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Meeting(docket.HearingMeeting).Place; got != "City Hall & Annex <Room 2>" {
		t.Errorf("place recorded as %q", got)
	}
	if _, ok := c.Recused("U_COMM3"); !ok {
		t.Error("the recusal by mention was not recorded")
	}
}

// TestHintsSayMention: help and the forms' hints ask for an @mention, never for member ids.
func TestHintsSayMention(t *testing.T) {
	s, _, _ := MustService(t)
	for _, sub := range []string{"rule", "decide", "final", "frivolous", "recuse", "file", "correct"} {
		got := replyText(do(s, comm, "help "+sub))
		if !strings.Contains(got, "@mention") || strings.Contains(got, "e.g. U_COMM1") ||
			strings.Contains(got, "such as U024BE7LH") {
			t.Errorf("help %s:\n%s", sub, got)
		}
	}
}
