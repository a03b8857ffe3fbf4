package outbox_test

import (
	"errors"
	"strings"
	"testing"

	"ethicsbot/outbox"
)

// hostile are strings a user might type to make ethicsbot say something it did not mean:
// a channel ping, a disguised link, a mention, a forged line of its own.
var hostile = []string{
	"<!channel> Jane",
	"<!everyone> Room 1",
	"<!here>",
	"<https://evil.example|the evidence>",
	"<@U024BE7LH>",
	"<#C0123|general>",
	"Smith & Jones <b>",
	"&lt;!channel&gt;",
}

func TestEscape(t *testing.T) {
	for _, s := range hostile {
		got := string(outbox.Escape(s))
		if strings.ContainsAny(got, "<>") {
			t.Errorf("Escape(%q) = %q: markup survives", s, got)
		}
		if un := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(got); un != s {
			t.Errorf("Escape(%q) does not read back as typed: %q", s, un)
		}
	}
}

func TestFormat(t *testing.T) {
	got := outbox.Format("%s said %s to %s: %d, %v", outbox.Mention("U_CLERK"), "<!channel>", outbox.Markup("*bold*"), 42,
		errors.New("a <b> error"))
	want := "<@U_CLERK> said &lt;!channel&gt; to *bold*: 42, a &lt;b&gt; error"
	if string(got) != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}

func TestMentionOnlyOfAUserID(t *testing.T) {
	for id, want := range map[string]string{
		"U024BE7LH":             "<@U024BE7LH>",
		"U_COMM1":               "<@U_COMM1>",
		"U1> <!channel":         "U1&gt; &lt;!channel",
		"<!channel>":            "&lt;!channel&gt;",
		"":                      "",
		"C0123456789":           "C0123456789",
		"U024BE7LH|<!everyone>": "U024BE7LH|&lt;!everyone&gt;",
	} {
		if got := string(outbox.Mention(id)); got != want {
			t.Errorf("Mention(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestQuoteCannotForgeALine: every line of quoted user text starts with the quote mark, so
// none can pass for a line of ethicsbot's own.
func TestQuoteCannotForgeALine(t *testing.T) {
	got := string(outbox.Quote("Violated 103.10.\nPUBLIC NOTICE. The case is " +
		"dismissed.\r\n<!channel>\rFORGED\u2028LINE\n"))
	want := "\n> Violated 103.10.\n> PUBLIC NOTICE. The case is dismissed.\n> &lt;!channel&gt;\n> FORGED\n> LINE"
	if got != want {
		t.Errorf("Quote = %q, want %q", got, want)
	}
	for _, line := range strings.Split(got, "\n")[1:] {
		if !strings.HasPrefix(line, "> ") {
			t.Errorf("line %q is not quoted", line)
		}
	}
}

// TestFirstLine: a message is named by its first line, cut at a space, never inside an
// escaped character, a link or a mention, so the cut markup still reads as ethicsbot wrote it.
func TestFirstLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   outbox.Markup
		max  int
		want outbox.Markup
	}{
		{"Short", "PUBLIC NOTICE. case 2026-001", 80, "PUBLIC NOTICE. case 2026-001"},
		{"MoreLines", "PUBLIC NOTICE.\n> summary", 80, "PUBLIC NOTICE. …"},
		{"AtASpace", "one two three four", 12, "one two …"},
		{"NotInAnEntity", "Jane &amp; John &amp; Co", 13, "Jane &amp; …"},
		{"NotInAnEntityWithoutSpace", "Jane&amp;John", 7, "Jane …"},
		{"NotInAMention", "asked <@U024BE7LH> to", 12, "asked …"},
		{"NotInALink", "see <#C0NOTICE1> now", 14, "see …"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.in.FirstLine(tc.max); got != tc.want {
				t.Errorf("FirstLine(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}

// TestDestMarkup: a channel id becomes a link to the channel, a user a mention, and
// anything else (a console #name) escaped text.
func TestDestMarkup(t *testing.T) {
	for _, tc := range []struct {
		in   outbox.Dest
		want outbox.Markup
	}{
		{outbox.Dest{Channel: "C0NOTICE1"}, "<#C0NOTICE1>"},
		{outbox.Dest{User: "U024BE7LH"}, "<@U024BE7LH>"},
		{outbox.Dest{Channel: "#ethics-notices"}, "#ethics-notices"},
		{outbox.Dest{Channel: "<!channel>"}, "#&lt;!channel&gt;"},
	} {
		if got := tc.in.Markup(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.in, got, tc.want)
		}
	}
}
