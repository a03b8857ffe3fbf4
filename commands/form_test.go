package commands_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// modalSubs are the subcommands that open a form when typed alone.
var modalSubs = []string{"file", "schedule", "cancel", "posted", "mail", "delivered", "receipt", "rule", "recess", "concluded",
	"decide", "demand", "held", "final", "frivolous", "enforced", "recuse", "correct", "void", "candidate"}

// typedSyntax is what a hint says of a typed command: a key=, a date or time as typed, a
// member id, an @mention, a value_with_underscores.
var typedSyntax = regexp.MustCompile(`[a-z]=|\d{4}-\d{2}-\d{2}|U_COMM|U024|@mention|[a-z]_[a-z]`)

// TestFormsSpeakInWords: every input of every form has a label in words, not its
// parameter's name; a hint under a picker or a list shows no typed syntax; and every text
// is within Slack's own limits, whole, not cut at an arbitrary length.
func TestFormsSpeakInWords(t *testing.T) {
	s, _, _ := MustService(t)
	for _, name := range modalSubs {
		m := form(t, s, comm, name)
		if n := len(m.Title.Text); n > 24 {
			t.Errorf("%s: title %q is %d characters; Slack takes 24", name, m.Title.Text, n)
		}
		for _, b := range m.Blocks.BlockSet {
			in, ok := b.(*slack.InputBlock)
			if !ok {
				continue
			}
			label := in.Label.Text
			if label == in.BlockID || strings.ContainsRune(label, '_') || !unicode.IsUpper([]rune(label)[0]) || len(label) > commands.MaxLabel {
				t.Errorf("%s: the %s input's label is %q, not words", name, in.BlockID, label)
			}
			hint := ""
			if in.Hint != nil {
				hint = in.Hint.Text
			}
			if len(hint) > commands.MaxHint {
				t.Errorf("%s: the %s input's hint is %d characters", name, in.BlockID, len(hint))
			}
			if _, text := in.Element.(*slack.PlainTextInputBlockElement); !text && typedSyntax.MatchString(hint) {
				t.Errorf("%s: the %s input (%s) has a hint in typed syntax: %q", name, in.BlockID, in.Element.ElementType(), hint)
			}
			if e, ok := in.Element.(*slack.PlainTextInputBlockElement); ok && e.Placeholder != nil && len(e.Placeholder.Text) > commands.MaxPlaceholder {
				t.Errorf("%s: the %s input's placeholder is %d characters", name, in.BlockID, len(e.Placeholder.Text))
			}
		}
	}
	labels := map[string]string{}
	hints := map[string]string{}
	for _, name := range []string{"mail", "rule"} {
		for _, b := range form(t, s, comm, name).Blocks.BlockSet {
			if in, ok := b.(*slack.InputBlock); ok {
				labels[name+" "+in.BlockID] = in.Label.Text
				if in.Hint != nil {
					hints[name+" "+in.BlockID] = in.Hint.Text
				}
			}
		}
	}
	for k, want := range map[string]string{"mail mailed": "Date mailed", "rule yes": "Voted yes", "rule on": "Date of the ruling", "mail article": "USPS article number"} {
		if labels[k] != want {
			t.Errorf("%s is labelled %q, want %q", k, labels[k], want)
		}
	}
	// A hint longer than 150 characters is shown whole.
	if h := hints["mail paper"]; len(h) <= 150 || !strings.HasSuffix(h, "go to the attorney.") {
		t.Errorf("the paper's hint is cut: %q", h)
	}
}
