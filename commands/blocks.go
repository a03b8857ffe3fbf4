package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"ethicsbot/outbox"
)

// Slack's Block Kit limits. Every payload ethicsbot builds keeps within them by spreading
// long content over more blocks, never by cutting it silently.
const (
	// MaxMessageBlocks is how many blocks a message may hold.
	MaxMessageBlocks = 50
	// MaxViewBlocks is how many blocks a modal or the App Home tab may hold.
	MaxViewBlocks = 100
	// MaxSectionText is how many characters a section block's text may hold.
	MaxSectionText = 3000
	// MaxMessageText is how many characters of a message's text Slack keeps.
	MaxMessageText = 40000
)

// textLen is s's length as Slack may count it: in UTF-16 code units, so a character
// outside the Basic Multilingual Plane (most emoji) counts two. Text within a limit
// counted this way is within it counted in characters too.
func textLen(s string) int {
	n := 0
	for _, r := range s {
		if l := utf16.RuneLen(r); l > 0 {
			n += l
		} else {
			n++ // invalid UTF-8 becomes U+FFFD
		}
	}
	return n
}

// sections lays text out as mrkdwn section blocks of at most MaxSectionText characters,
// as few as hold it: lines are kept whole where they fit, and a longer line is broken
// at a space, or between characters where it has none. At most limit blocks are made; if
// the lines do not all fit, the last block says how many were left out and what shows
// them: more(n).
func sections(text outbox.Markup, limit int, more func(n int) outbox.Markup) []slack.Block {
	return sectionsOf(text, 0, limit, more)
}

// sectionsOf is sections of text and hidden lines more, not given: the first lines of a
// list too long to build whole, which take more than limit blocks, and how many follow.
func sectionsOf(text outbox.Markup, hidden, limit int, more func(n int) outbox.Markup) []slack.Block {
	if limit < 1 {
		return nil
	}
	lines := strings.Split(string(text), "\n")
	texts, n := pack(lines, limit)
	if n < len(lines) || hidden > 0 {
		texts, n = pack(lines, limit-1)
		texts = append(texts, string(more(nonBlank(lines[n:])+hidden)))
	}
	out := make([]slack.Block, len(texts))
	for i, t := range texts {
		// Pieces of markup whose user text was escaped before it was split; a cut never
		// falls inside an entity, a mention or a link.
		out[i] = slack.NewSectionBlock(mrkdwn(outbox.Markup(t)), nil, nil)
	}
	return out
}

// pack fills at most limit section texts with lines, in order, and says how many lines it
// took. A blank line that would open a section is dropped: Slack refuses an empty one,
// and between two sections it shows nothing anyway.
func pack(lines []string, limit int) (texts []string, n int) {
	lastLen := 0 // textLen of the last text, kept as it grows rather than counted again per line
	for i, line := range lines {
		last := len(texts) - 1
		switch pieces, l := splitLine(line, MaxSectionText), textLen(line); {
		case last >= 0 && len(pieces) == 1 && lastLen+1+l <= MaxSectionText:
			texts[last] += "\n" + line
			lastLen += 1 + l
		case strings.TrimSpace(line) == "":
		case len(texts)+len(pieces) > limit:
			return texts, i
		default:
			texts = append(texts, pieces...)
			lastLen = textLen(texts[len(texts)-1])
		}
	}
	return texts, len(lines)
}

func nonBlank(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// splitLine breaks line into pieces of at most limit characters that join back into line.
// A piece ends after a space where there is one in its second half, otherwise between
// characters; never inside a Slack entity (&amp;), a mention or link (<...>), or before a
// combining mark.
func splitLine(line string, limit int) []string {
	// A quoted line (user text, see outbox.Quote) stays quoted in every piece: a piece
	// that lost its "> " could pass for a line of ethicsbot's own.
	quote := ""
	if strings.HasPrefix(line, "> ") {
		quote = "> "
	}
	var out []string
	for textLen(line) > limit {
		cut := prefix(line, limit)
		if i := strings.LastIndexFunc(line[:cut], unicode.IsSpace); i > 0 && textLen(line[:i]) >= limit/2 {
			_, size := utf8.DecodeRuneInString(line[i:])
			cut = i + size
		}
		cut = safeCut(line, cut)
		if cut <= len(quote) {
			cut = safeCut(line, prefix(line, limit)) // never a piece of the quote mark alone
		}
		out = append(out, line[:cut])
		line = quote + line[cut:]
	}
	return append(out, line)
}

// prefix is the byte length of the longest prefix of s at most limit characters long.
func prefix(s string, limit int) int {
	n := 0
	for i, r := range s {
		l := max(utf16.RuneLen(r), 1)
		if n+l > limit {
			return i
		}
		n += l
	}
	return len(s)
}

// safeCut moves a cut at byte cut of s back so that it splits no entity, mention, link
// or combined character, as long as something is left before it.
func safeCut(s string, cut int) int {
	head := s[:cut]
	if i := strings.LastIndexByte(head, '<'); i > 0 && !strings.Contains(head[i:], ">") {
		cut = i
	} else if i := strings.LastIndexByte(head, '&'); i > 0 && cut-i <= 8 && !strings.Contains(head[i:], ";") {
		cut = i
	}
	for c := cut; c > 0; {
		r, _ := utf8.DecodeRuneInString(s[c:])
		prev, size := utf8.DecodeLastRuneInString(s[:c])
		if !unicode.In(r, unicode.Mn, unicode.Me) && r != '\u200d' && prev != '\u200d' &&
			!unicode.Is(unicode.Variation_Selector, r) {
			return c
		}
		c -= size
	}
	return cut // all of it is one combined character: any cut will do
}

// capText keeps text within limit characters, cutting between lines and ending with
// more(n), n the lines left out.
func capText(markup outbox.Markup, limit int, more func(n int) outbox.Markup) outbox.Markup {
	text := string(markup)
	if textLen(text) <= limit {
		return markup
	}
	lines := strings.Split(text, "\n")
	room := limit - textLen(string(more(len(lines)))) - 1
	var b strings.Builder
	used := 0
	for i, line := range lines {
		if used+textLen(line)+1 > room {
			if i == 0 { // one line longer than the whole message
				b.WriteString(line[:safeCut(line, prefix(line, room))] + "\n")
			}
			return outbox.Markup(b.String()) + more(nonBlank(lines[i:]))
		}
		b.WriteString(line + "\n")
		used += textLen(line) + 1
	}
	return outbox.Markup(b.String())
}

// cardMore says what a case card leaves out when it would pass Slack's limits.
func cardMore(n int) outbox.Markup {
	return outbox.Format("…and %d more lines, past what one Slack message holds; `ethicsbot export --format json` on "+
		"the server writes the whole record.", n)
}

// homeUndelivered lists, above the docket, the messages Slack has not yet taken, each
// marked as on its case's card, leaving out the cases user is recused from.
func (s *Service) homeUndelivered(ctx context.Context, user string) outbox.Markup {
	stuck, err := s.Record.Stuck(ctx)
	if err != nil {
		s.logger().Error("home: undelivered messages", "err", err)
		return "Whether every message was delivered could not be read just now.\n\n"
	}
	var shown []outbox.Row
	recused := make(map[string]bool)
	for _, r := range stuck {
		if r.Key.Case != "" {
			if _, seen := recused[r.Key.Case]; !seen {
				c, err := s.Record.Case(ctx, r.Key.Case)
				_, no := c.Recused(user)
				recused[r.Key.Case] = err != nil || no
			}
			if recused[r.Key.Case] {
				continue
			}
		}
		shown = append(shown, r)
	}
	if len(shown) == 0 {
		return ""
	}
	lines := s.undelivered(shown)
	for i, r := range shown {
		lines[i] = outbox.Format("%s: ", r.Key.About()) + lines[i]
	}
	return outbox.Format("*Not delivered yet (%d)*; each goes once Slack takes it:\n", len(shown)) + outbox.Join(lines,
		"\n") + "\n\n"
}

// MaxButtons is how many elements an actions block holds; MaxButtonText is how many
// characters a button's text takes (Block Kit reference, actions block and button).
const (
	MaxButtons    = 25
	MaxButtonText = 75
)

// StepActionPrefix starts the action_id of a button that a post from the outbox offers
// (a reminder's, the digest's): the value is the form's command line, as a card's. The
// menu of steps on a case's card in the docket channel is StepActionPrefix+"menu".
const StepActionPrefix = ActionPrefix + "step:"

// OpenCasePrefix starts the action_id of a button that shows a case (outbox.Action.Case):
// the value is the case's number, and the click answers as /ethics case does
// (Service.OpenCase).
const OpenCasePrefix = ActionPrefix + "open:"

// PostBlocks lays out a post of the outbox that offers steps (a reminder, the digest, a
// case's card in the docket channel) as Block Kit: its text in sections, with the
// sentences that tell how to type a step left out (the buttons stand for them; the
// message's text, which notifications show, keeps them), then a button per step, which
// opens its form filled in (Service.Action), or shows the case (Service.OpenCase), and
// the steps offered as a menu (outbox.Action.Menu) in one overflow menu, as on the App
// Home tab's row of the case (StepMenu). Within a message's 50 blocks: elements past what
// four actions blocks hold are left out, and their steps are still in the text.
func PostBlocks(text outbox.Markup, actions []outbox.Action) []slack.Block {
	shown := string(text)
	var elements []slack.BlockElement
	var menu []outbox.Action
	for i, a := range actions {
		if a.Says != "" {
			shown = strings.Replace(shown, " "+string(a.Says), "", 1)
		}
		label := slack.NewTextBlockObject(slack.PlainTextType, truncate(a.Label, MaxButtonText), false, false)
		// Each action_id unique in the message, as Slack requires.
		switch {
		case a.Menu:
			menu = append(menu, a)
		case a.Case != "":
			elements = append(elements, slack.NewButtonBlockElement(fmt.Sprintf("%s%d", OpenCasePrefix, i), a.Case, label))
		default:
			elements = append(elements, slack.NewButtonBlockElement(fmt.Sprintf("%s%d", StepActionPrefix, i), a.Form, label))
		}
	}
	if m := StepMenu(StepActionPrefix+"menu", menu); m != nil {
		elements = append(elements, m)
	}
	elements = elements[:min(len(elements), 4*MaxButtons)]
	rows := (len(elements) + MaxButtons - 1) / MaxButtons
	blocks := sections(outbox.Markup(strings.TrimSpace(shown)), MaxMessageBlocks-rows, func(n int) outbox.Markup {
		return outbox.Format("…and %d more lines.", n)
	})
	for i := 0; i < len(elements); i += MaxButtons {
		blocks = append(blocks, slack.NewActionBlock("", elements[i:min(i+MaxButtons, len(elements))]...))
	}
	return blocks
}
