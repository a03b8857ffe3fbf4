package web

import (
	"regexp"
	"slices"
	"strings"
)

// A meeting's approved open minutes, as the clerk published them (5 ILCS 120/2.06(b)), are
// Markdown that letters writes (letters.MinutesMarkdown): the letterhead, a rule, the title,
// a heading per item, paragraphs, bold lines, the roll and each roll call as lines "Present:
// Ann Alder, Chair; Ben Birch.", and every character of text that Markdown could read as
// markup escaped. The board shows them as a page: minutesBlocks reads that Markdown into
// blocks, which the template lays out (html/template escapes every text), with the roll at
// the call to order and each roll call as a table.

// minutesBlock is one block of the minutes as the board lays them out.
type minutesBlock struct {
	Kind  string   // "letterhead", "title", "heading", "bold", "text", "list" or "roll"
	Lines []string // a paragraph's lines, a list's items
	// A roll's table: its caption, the heading of its second column ("Attendance", "Vote"),
	// and a row per member.
	Caption string
	Column  string
	Rows    []rollRow
}

// rollRow is one member of a roll: "Ann Alder, Chair", "Present".
type rollRow struct {
	Member, Entry string
}

// rollLine is a line of a roll: its label, and the members, "; " between them.
var rollLine = regexp.MustCompile(`^(Present|Present by video or audio conference|Absent|Yes|No|Abstaining|Recused): ` +
	`(.+)\.$`)

// mdEscaped is a character letters' Markdown escapes with a backslash (letters.mdEscape), and
// the characters of a line's start it escapes too.
var mdEscaped = regexp.MustCompile(`\\([\\` + "`" + `*_\[\]<>|~&!{}#+\-=.)])`)

// minutesBlocks reads published minutes md into blocks. Text the reader does not know is
// kept as paragraphs: nothing of the minutes is dropped but the rules between parts and the
// marks of the Markdown itself.
func minutesBlocks(md string) []minutesBlock {
	md = strings.ReplaceAll(md, "\r\n", "\n")
	var out []minutesBlock
	titled := false
	for _, para := range strings.Split(md, "\n\n") {
		para = strings.Trim(para, "\n")
		if strings.TrimSpace(para) == "" {
			continue
		}
		lines := strings.Split(para, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSuffix(l, "  ") // a hard line break
		}
		first := lines[0]
		switch {
		case para == "---":
			// The rule under the letterhead, or between parts: the page's own layout
			// separates them.
			if !titled {
				for i := range out {
					out[i].Kind = "letterhead"
				}
			}
		case strings.HasPrefix(first, "# "):
			titled = true
			out = append(out, minutesBlock{Kind: "title", Lines: unescapeAll(trimmed(lines, "# "))})
		case strings.HasPrefix(first, "## "):
			out = append(out, minutesBlock{Kind: "heading", Lines: unescapeAll(trimmed(lines, "## "))})
		case len(lines) == 1 && strings.HasPrefix(first, "**") && strings.HasSuffix(first, "**") && len(first) > 4:
			out = append(out, minutesBlock{Kind: "bold", Lines: []string{unescape(first[2 : len(first)-2])}})
		case strings.HasPrefix(first, "- "):
			out = append(out, minutesBlock{Kind: "list", Lines: unescapeAll(trimmed(lines, "- "))})
		default:
			text := unescapeAll(lines)
			if len(text) == 1 && out != nil && addToRoll(&out, text[0]) {
				continue
			}
			out = append(out, minutesBlock{Kind: "text", Lines: text})
		}
	}
	return out
}

// addToRoll adds line to the roll that the last block is, or makes the last block a roll
// that starts with it, if line is a line of a roll; it reports whether it did. A roll
// follows its paragraph "Roll call:", whose words become its caption, or the heading "Roll
// call", the attendance at the call to order.
func addToRoll(out *[]minutesBlock, line string) bool {
	m := rollLine.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	last := &(*out)[len(*out)-1]
	switch {
	case last.Kind == "roll":
	case last.Kind == "text" && len(last.Lines) == 1 && last.Lines[0] == "Roll call:":
		*last = minutesBlock{Kind: "roll", Caption: "Roll call", Column: "Vote"}
	case last.Kind == "heading" && len(last.Lines) == 1 && last.Lines[0] == "Roll call":
		*out = append(*out, minutesBlock{Kind: "roll", Caption: "Members at the call to order", Column: "Attendance"})
		last = &(*out)[len(*out)-1]
	default:
		return false
	}
	label, members := m[1], m[2]
	if members == "none" {
		return true
	}
	for _, who := range strings.Split(members, "; ") {
		if label == "Present by video or audio conference" {
			// The members present by conference are among those present: their row says how.
			if i := slices.IndexFunc(last.Rows, func(r rollRow) bool { return r.Member == who }); i >= 0 {
				last.Rows[i].Entry = label
				continue
			}
		}
		last.Rows = append(last.Rows, rollRow{Member: who, Entry: label})
	}
	return true
}

// trimmed is lines with prefix cut from each.
func trimmed(lines []string, prefix string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, prefix)
	}
	return out
}

// unescape undoes letters' Markdown escapes in a line.
func unescape(s string) string { return mdEscaped.ReplaceAllString(s, "$1") }

func unescapeAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = unescape(l)
	}
	return out
}
