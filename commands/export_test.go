package commands

import (
	"strings"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// ParseForTest tokenizes text and binds it to its subcommand, as Handle does.
func ParseForTest(text string) (args, error) { return parse(text, false) }

// ParseEscapedForTest is ParseForTest for text as Slack sends it with should_escape.
func ParseEscapedForTest(text string) (args, error) { return parse(text, true) }

func parse(text string, escaped bool) (args, error) {
	words := tokenize(text, escaped)
	if len(words) == 0 {
		return nil, nil
	}
	sub, ok := lookup(strings.ToLower(words[0].text))
	if !ok {
		return nil, nil
	}
	a, _, err := sub.bind(words[1:], time.UTC, docket.Roster{})
	return a, err
}

// SectionsForTest lays text out as the card and the Home tab do, in at most limit blocks.
func SectionsForTest(text string, limit int) []slack.Block {
	return sections(outbox.Markup(text), limit, func(n int) outbox.Markup { return outbox.Format("…and %d more", n) })
}

// WithReadingForTest puts a note of what was read at the head of resp, as Handle does.
func WithReadingForTest(resp Response, read []string) Response { return withReading(resp, read) }

// RefusalForTest is what a user is told of err, and whether err is logged, as respond
// does.
func RefusalForTest(err error) (string, bool) {
	text, logged := refusal(err)
	return string(text), logged
}

// DoneForTest is the answer to form when it did what resp says, as Submit gives it.
func DoneForTest(form slack.View, resp Response) Submission { return done(form, resp, "C1") }

// ScanForTest is scan's words, as key=text, and where an unclosed quote opens.
func ScanForTest(text string) ([]string, int) {
	words, open := scan(text, false)
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = w.text
		if w.key != "" {
			out[i] = w.key + "=" + w.text
		}
	}
	return out, open
}

// SubcommandForTest is one row of the /ethics table as the authorisation test reads it:
// its name, its example, who the table lets use it, and whether it is a vote.
type SubcommandForTest struct {
	Name, Example string
	Roles         []Role
	Vote          bool
}

// SubcommandsForTest lists the rows of the /ethics table, in order.
func SubcommandsForTest() []SubcommandForTest {
	out := make([]SubcommandForTest, len(table))
	for i, sub := range table {
		out[i] = SubcommandForTest{Name: sub.name, Example: sub.example, Roles: sub.roles, Vote: sub.vote}
	}
	return out
}
