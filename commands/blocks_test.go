package commands_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/outbox"
)

// prose is n characters of numbered words, "tag1 tag2 tag3 ...", so that a piece lost
// anywhere in it shows.
func prose(tag string, n int) string {
	var b strings.Builder
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%s%d ", tag, i)
	}
	s := strings.TrimSuffix(b.String()[:n-1], " ")
	return s + strings.Repeat("x", n-1-len(s)) + "."
}

// texts returns the text of each block, failing the test for a block over Slack's limits.
func texts(t *testing.T, blocks []slack.Block) []string {
	t.Helper()
	var out []string
	for i, b := range blocks {
		switch b := b.(type) {
		case *slack.SectionBlock:
			n := utf8.RuneCountInString(b.Text.Text)
			if n > commands.MaxSectionText || strings.TrimSpace(b.Text.Text) == "" {
				t.Errorf("block %d: a section of %d characters", i, n)
			}
			out = append(out, b.Text.Text)
		case *slack.HeaderBlock:
			if n := utf8.RuneCountInString(b.Text.Text); n > 150 {
				t.Errorf("block %d: a header of %d characters", i, n)
			}
			out = append(out, b.Text.Text)
		case *slack.ActionBlock:
			if n := len(b.Elements.ElementSet); n > 25 {
				t.Errorf("block %d: %d elements in an action block", i, n)
			}
		case *slack.ContextBlock:
			for _, e := range b.ContextElements.Elements {
				if tx, ok := e.(*slack.TextBlockObject); ok {
					out = append(out, tx.Text)
				}
			}
		case *slack.DividerBlock:
		default:
			t.Errorf("block %d: unexpected %T", i, b)
		}
	}
	if _, err := json.Marshal(blocks); err != nil {
		t.Errorf("blocks do not marshal: %v", err)
	}
	return out
}

func TestSections(t *testing.T) {
	t.Run("OneLineWithoutSpaces", func(t *testing.T) {
		line := strings.Repeat("市政道德委员会", 1000) // 7,000 characters, 21,000 bytes
		got := texts(t, commands.SectionsForTest(line, 10))
		if len(got) != 3 || strings.Join(got, "") != line {
			t.Errorf("%d sections that join to %d characters, want 3 joining to the line", len(got),
				utf8.RuneCountInString(strings.Join(got, "")))
		}
	})
	t.Run("BrokenAtSpaces", func(t *testing.T) {
		line := prose("word", 7000)
		got := texts(t, commands.SectionsForTest(line, 10))
		if strings.Join(got, "") != line {
			t.Fatal("the sections do not join back into the line")
		}
		for _, s := range got[:len(got)-1] {
			if !strings.HasSuffix(s, " ") {
				t.Errorf("a section ends mid-word: …%s", s[len(s)-20:])
			}
		}
	})
	t.Run("EmojiCountTwice", func(t *testing.T) {
		line := strings.Repeat("😀", 2000) // 2,000 characters, 4,000 UTF-16 units
		got := texts(t, commands.SectionsForTest(line, 10))
		if len(got) != 2 || strings.Join(got, "") != line {
			t.Errorf("%d sections, want 2 that join to the line", len(got))
		}
	})
	t.Run("EntitiesAndCombiningMarksKept", func(t *testing.T) {
		for _, unit := range []string{"&amp;", "e\u0301", "<@U024BE7LH>",
			"<https://x.gov|a " + strings.Repeat("m", 200) + "> "} {
			line := strings.Repeat(unit, 4000/utf8.RuneCountInString(unit)+1)
			got := texts(t, commands.SectionsForTest(line, 10))
			for _, s := range got {
				if !strings.HasPrefix(s, unit) || !strings.HasSuffix(s, unit) {
					t.Errorf("%q is broken between sections: %q…%q", unit, s[:8], s[len(s)-8:])
				}
			}
			if strings.Join(got, "") != line {
				t.Errorf("%q: the sections do not join back into the line", unit)
			}
		}
	})
	t.Run("LinesKeptWhole", func(t *testing.T) {
		var lines []string
		for i := range 100 {
			lines = append(lines, fmt.Sprintf("• line %03d %s", i, strings.Repeat("x", 80)))
		}
		got := texts(t, commands.SectionsForTest(strings.Join(lines, "\n"), 10))
		if len(got) != 4 || strings.Join(got, "\n") != strings.Join(lines, "\n") {
			t.Errorf("%d sections, want 4 that join to the lines", len(got))
		}
	})
	t.Run("OverTheBudgetCounted", func(t *testing.T) {
		var lines []string
		for i := range 200 {
			lines = append(lines, fmt.Sprintf("• line %03d %s", i, strings.Repeat("x", 80)))
		}
		got := texts(t, commands.SectionsForTest(strings.Join(lines, "\n"), 3))
		if len(got) != 3 {
			t.Fatalf("%d sections, want 3", len(got))
		}
		m := regexp.MustCompile(`^…and (\d+) more$`).FindStringSubmatch(got[2])
		if m == nil {
			t.Fatalf("the last section does not count the rest: %q", got[2])
		}
		shown := strings.Count(got[0]+"\n"+got[1], "• line ")
		if n, _ := strconv.Atoi(m[1]); shown+n != len(lines) {
			t.Errorf("%d lines shown and %d counted, want %d in all", shown, n, len(lines))
		}
	})
	t.Run("Empty", func(t *testing.T) {
		if got := commands.SectionsForTest("\n\n", 10); len(got) != 0 {
			t.Errorf("blank text made %d sections", len(got))
		}
	})
}

// TestCardHoldsALargeCase: a case whose summary, findings, recommendation and final
// recommendation are each near their limits shows all of them on its card.
func TestCardHoldsALargeCase(t *testing.T) {
	s, c, _ := MustService(t)
	summary := prose("allegation", 3000)
	if n := utf8.RuneCountInString(summary); n != 3000 {
		t.Fatalf("a summary of %d characters", n)
	}
	findings := prose("finding", 2900)
	recommendation := prose("discipline", 2900)
	final := prose("affirmed", 2900)
	at := func(rfc3339 string) {
		t.Helper()
		var err error
		if c.now, err = time.Parse(time.RFC3339, rfc3339); err != nil {
			t.Fatal(err)
		}
	}
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="`+summary+`"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall, Room 201"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 sufficiency`, "posted")
	mustDo(t, s, clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1016 34`, "recorded")
	mustDo(t, s, clerk, `mail 2026-001 complainant 9407 1118 9876 5432 1015 35`, "recorded")
	at("2026-12-07T18:00:00-06:00")
	mustDo(t, s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-10T10:00 place="Council Chambers" closed="5 ILCS 120/2(c)(4)"`,
		"hearing scheduled")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "posted")
	at("2026-12-10T15:00:00-06:00")
	mustDo(t, s, clerk, `concluded 2026-001`, "concluded")
	mustDo(t, s, comm,
		`decide 2026-001 recommend fine=2500 intentional=yes recommendation="`+recommendation+`" findings="`+findings+`"`,
		"decision recorded")
	at("2026-12-11T10:00:00-06:00")
	mustDo(t, s, clerk, `demand 2026-001`, "demand")
	mustDo(t, s, clerk, `schedule 2026-001 public_hearing 2026-12-14T18:00 place="Council Chambers"`, "scheduled")
	mustDo(t, s, clerk, `posted 2026-001 public_hearing`, "posted")
	at("2026-12-14T20:00:00-06:00")
	mustDo(t, s, clerk, `held 2026-001`, "held")
	mustDo(t, s, comm, `final 2026-001 text="`+final+`" fine=2500 intentional=yes`, "final recommendation issued")

	r := do(s, clerk, "case 2026-001")
	if len(r.Messages) != 1 {
		t.Fatalf("%d messages", len(r.Messages))
	}
	m := r.Messages[0]
	t.Logf("the card is %d blocks", len(m.Blocks))
	if n := len(m.Blocks); n > commands.MaxMessageBlocks {
		t.Errorf("%d blocks in a message", n)
	}
	// A quoted line split over blocks repeats its quote mark in each; read them back without.
	var pieces []string
	for _, b := range texts(t, m.Blocks) {
		pieces = append(pieces, strings.TrimPrefix(b, "> "))
	}
	all := strings.Join(pieces, "")
	for name, want := range map[string]string{"summary": summary, "findings": findings, "recommendation": recommendation,
		"final recommendation": final} {
		if !strings.Contains(all, want) {
			t.Errorf("the card's blocks lose part of the %s", name)
		}
		if !strings.Contains(string(m.Text), want) {
			t.Errorf("the card's text loses part of the %s", name)
		}
	}
	if n := utf8.RuneCountInString(string(m.Text)); n > commands.MaxMessageText {
		t.Errorf("the card's text is %d characters", n)
	}
}

// TestHomeListsEveryCase: the App Home tab with 120 open cases, more rows than a view's
// 100 blocks hold, lists the nearest, one row each, and counts the rest, and the help
// still follows.
func TestHomeListsEveryCase(t *testing.T) {
	s, _, _ := MustService(t)
	const open = 120
	for i := range open {
		mustDo(t, s, clerk,
			fmt.Sprintf(`file respondent="Respondent %d" complainant="Complainant %d" section=103.10 summary="x"`, i,
				i), "Filed")
	}
	blocks := s.HomeBlocks(ctx, clerk)
	if n := len(blocks); n > commands.MaxViewBlocks {
		t.Errorf("%d blocks in the Home tab", n)
	}
	all := strings.Join(texts(t, blocks), "\n")
	listed := 0
	for i := 1; i <= open; i++ {
		if strings.Contains(all, fmt.Sprintf("*2026-%03d*: Complainant", i)) {
			listed++
		}
	}
	more := 0
	if m := regexp.MustCompile(`…and (\d+) more`).FindStringSubmatch(all); m != nil {
		more, _ = strconv.Atoi(m[1])
	}
	if listed+more != open || listed < commands.DocketLimit || more == 0 {
		t.Errorf("%d cases listed and %d counted, want at least %d listed, the rest counted, of %d", listed, more,
			commands.DocketLimit, open)
	}
	for _, want := range []string{"Open cases (120)", "`/ethics file`", "Type `/ethics help &lt;command&gt;`"} {
		if !strings.Contains(all, want) {
			t.Errorf("the Home tab lacks %q", want)
		}
	}
	if strings.Contains(all, "`/ethics decide`") {
		t.Error("the clerk's Home tab lists a commissioner's command")
	}
	t.Run("Stranger", func(t *testing.T) {
		all := strings.Join(texts(t, s.HomeBlocks(ctx, stranger)), "\n")
		if !strings.Contains(all, "Sorry, `/ethics` is for") || strings.Contains(all, "2026-0") {
			t.Errorf("a stranger's Home tab: %q", all)
		}
	})
}

// TestSplitKeepsQuotes: a quoted line too long for one section is split into pieces that
// are each still quoted, so none can pass for a line of ethicsbot's own.
func TestSplitKeepsQuotes(t *testing.T) {
	text := "*Summary (confidential):*" + string(outbox.Quote(strings.Repeat("<",
		748)+" PUBLIC NOTICE. The Ethics Commission has dismissed case 2026-001."))
	blocks := commands.SectionsForTest(text, 10)
	if len(blocks) < 2 {
		t.Fatalf("%d blocks, want the quote split", len(blocks))
	}
	for i, b := range blocks[1:] {
		if got := b.(*slack.SectionBlock).Text.Text; !strings.HasPrefix(got, "> ") {
			t.Errorf("block %d lost its quote: %.60q", i+2, got)
		}
	}
}
