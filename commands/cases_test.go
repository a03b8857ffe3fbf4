package commands_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// listed is the case numbers a list reply shows, in order.
func listed(reply string) []string {
	out := []string{}
	for _, m := range regexp.MustCompile(`(?m)^• \*(\d{4}-\d{3})\*`).FindAllStringSubmatch(reply, -1) {
		out = append(out, m[1])
	}
	return out
}

// threeCases: 2026-001 (Jane Roe, §103.10) dismissed with both notices sent, so closed;
// 2026-002 (Robert Roberts, §103.05) whose respondent is commissioner U_COMM2, so U_COMM2
// is recused; 2026-003 (Sam Jones, §103.10), sharing the words "city" and "email" with
// 2026-001. The clock is at Mon 7 Dec 18:00 CST.
func threeCases(t *testing.T) *commands.Service {
	t.Helper()
	s, _ := atSufficiency(t, fileLine)
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")
	mustDo(t, s, clerk, "mail 2026-001 dismissal_respondent 9407 1118 9876 5432 1098 76", "recorded")
	mustDo(t, s, clerk, "mail 2026-001 dismissal_complainant 9407 1118 9876 5432 1097 77", "recorded")
	mustDo(t, s, clerk,
		`file respondent="Robert Roberts" respondent_user=U_COMM2 complainant="Ann Smith" section=103.05 received=2026-12-07T09:00 summary="Took gifts from a vendor."`, "2026-002")
	mustDo(t, s, clerk,
		`file respondent="Sam Jones" complainant="Pat Lee" section=103.10 received=2026-12-07T10:00 summary="Sent campaign mail from the city email account."`, "2026-003")
	return s
}

// listCase is a command that lists cases, the cases it must list and a line it must say.
type listCase struct {
	user, text string
	want       []string
	says       string
}

// checkLists runs each command and checks its list. A recused member (U_COMM2, the
// respondent of 2026-002) must not see hidden in it, whatever it lists.
func checkLists(t *testing.T, s *commands.Service, hidden string, cases []listCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.text+" as "+tc.user, func(t *testing.T) {
			got := replyText(do(s, tc.user, tc.text))
			if !slices.Equal(listed(got), tc.want) || !strings.Contains(got, tc.says) {
				t.Errorf("/ethics %s as %s:\n%s\nwant %v and %q", tc.text, tc.user, got, tc.want, tc.says)
			}
			if tc.user == "U_COMM2" && strings.Contains(got, hidden) {
				t.Errorf("a recused member was shown %q:\n%s", hidden, got)
			}
		})
	}
}

func TestCases(t *testing.T) {
	s := threeCases(t)
	checkLists(t, s, "Roberts", []listCase{
		{clerk, "cases", []string{"2026-003", "2026-002", "2026-001"}, "Cases (all): 3, newest first:"},
		{attorney, "cases all", []string{"2026-003", "2026-002", "2026-001"},
			"• *2026-001* · dismissed, closed · §103.10 · received Fri 2026-12-04 · respondent Jane Roe"},
		{comm, "cases closed", []string{"2026-001"}, "Cases (closed): 1"},
		{comm, "cases open", []string{"2026-003", "2026-002"},
			"• *2026-002* · received · §103.05 · received Mon 2026-12-07 · respondent Robert Roberts"},
		{clerk, "cases status=dismissed", []string{"2026-001"}, "Cases (all status=dismissed): 1"},
		{clerk, "cases section=103.05", []string{"2026-002"}, "section=103.05"},
		{clerk, "cases open section=§103.10 year=2026", []string{"2026-003"}, "Cases (open year=2026 section=103.10): 1"},
		{clerk, "cases year=2025", []string{}, "No cases match: all year=2025."},
		// A recused member sees the case's number, and nothing else of it.
		{"U_COMM2", "cases", []string{"2026-003", "2026-002", "2026-001"}, "• *2026-002* · you are recused\n"},
		// ... and is not told what a complaint alleges by a section filter.
		{"U_COMM2", "cases section=103.05", []string{}, "No cases match: all section=103.05."},
	})
	t.Run("BadFilters", func(t *testing.T) {
		for _, tc := range []struct{ text, want string }{
			{"cases status=closed",
				`Not done: status: "closed" is not one of received, notices_sent, dismissed, referred, hearing_pending, hearing_scheduled, hearing_recessed, hearing_concluded, decided, public_hearing_demanded, public_hearing_scheduled, public_hearing_held, final.`},
			{"cases section=103.99",
				`Not done: section: "103.99" is not a section the ordinance deals with: 103.10 or 103.05 (rule (C)(2), (C)(3))`},
			{"cases year=26", `Not done: year: "26" is not a year of receipt, such as 2026`},
			{"cases page=0", `Not done: page: "0" is not a page number, such as 2`},
			{"cases page=2", "Not done: page: there is no page 2: the 3 cases fill 1"},
			{"cases pending", `"pending" is not one of open, closed, all`},
		} {
			mustDo(t, s, clerk, tc.text, tc.want)
		}
	})
	t.Run("Roles", func(t *testing.T) {
		mustDo(t, s, stranger, "cases", "Sorry, `/ethics` is for the ethics commission's members, clerk and attorney.")
		mustDo(t, s, stranger, "search Roe", "Sorry, `/ethics` is for the ethics commission's members, clerk and attorney.")
	})
}

func TestSearchCommand(t *testing.T) {
	s := threeCases(t)
	checkLists(t, s, "2026-002", []listCase{
		{clerk, "search city email", []string{"2026-003", "2026-001"}, `Cases matching "city email": 2, newest first:`},
		{attorney, "search roe", []string{"2026-001"}, "dismissed, closed"},
		{comm, `search "Jane Roe"`, []string{"2026-001"}, ""},
		{clerk, "search 9407 1118 9876 5432 1097 77", []string{"2026-001"}, ""},
		{clerk, "search 9407111898765432109876", []string{"2026-001"}, ""},
		{clerk, "search 9407 1118 9876 5432 1016 34", []string{"2026-001"}, ""}, // a (B) notice
		{clerk, "search vendor", []string{"2026-002"}, ""},
		{comm, "search Roberts", []string{"2026-002"}, ""},
		// The recused member learns nothing: not even that the words are in some case.
		{"U_COMM2", "search Roberts", []string{}, `No case matches "Roberts".`},
		{"U_COMM2", "search vendor", []string{}, `No case matches "vendor".`},
		{"U_COMM2", "search Ann", []string{}, `No case matches "Ann".`},
		{clerk, "search zebra", []string{}, `No case matches "zebra".`},
	})
	t.Run("Corrections", func(t *testing.T) {
		mustDo(t, s, clerk, `correct 2026-003 respondent="Sam Jonas" reason="misspelt"`, "corrected")
		if got := listed(replyText(do(s, clerk, "search jonas"))); !slices.Equal(got, []string{"2026-003"}) {
			t.Errorf("the corrected name finds %v", got)
		}
		if got := listed(replyText(do(s, clerk, "search jones"))); len(got) != 0 {
			t.Errorf("the name as it was still finds %v", got)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		mustDo(t, s, clerk, "search", "Not done: words: is missing")
	})
}

// TestSearchHostile: whatever is typed after /ethics search, the reply is a list, "no case
// matches" or a refusal that says what to type; never an internal error, and never every
// case for a query that names none.
func TestSearchHostile(t *testing.T) {
	s := threeCases(t)
	for _, q := range []string{
		`"`, `""`, `*`, `-`, `)`, `(`, `NEAR`, `OR`, `AND NOT`, `" OR "`, `Roe OR Jones`, `Roe NEAR Jones`,
		`NEAR/2`, `-Roe`, `Roe*`, `*Roe`, `"Roe`, `Roe"`, `(Roe`, `summary:Roe`, `' OR 1=1 --`, `'; DROP TABLE cases; --`,
		`%`, `_`, `\`, "`Roe`", `<!channel>`, `&amp;`, `“Roe`, `^Roe`, `Roe AND Jones`, "\u0301", strings.Repeat("a ", 40),
	} {
		t.Run(q, func(t *testing.T) {
			got := replyText(do(s, clerk, "search "+q))
			if strings.Contains(got, "Internal error") || strings.Contains(strings.ToLower(got), "sql") ||
				strings.Contains(got, "fts") {
				t.Fatalf("/ethics search %s:\n%s", q, got)
			}
			if n := len(listed(got)); n > 1 {
				t.Errorf("/ethics search %s matched %d cases:\n%s", q, n, got)
			}
			if !strings.HasPrefix(got, "Cases matching") && !strings.HasPrefix(got, "No case matches") &&
				!strings.HasPrefix(got, "Not done: words:") {
				t.Errorf("/ethics search %s:\n%s", q, got)
			}
			if strings.Contains(got, "<!channel>") {
				t.Errorf("the search words were echoed as markup:\n%s", got)
			}
		})
	}
}

// TestCasesPages: a list longer than a page says so, and how to see the next.
func TestCasesPages(t *testing.T) {
	s, _, _ := MustService(t)
	n := commands.CasesPage + 2
	for i := 0; i < n; i++ {
		mustDo(t, s, clerk,
			fmt.Sprintf(`file respondent="Person %d" complainant="C" section=103.10 received=2026-12-01T%02d:%02d summary="Same words."`, i, 8+i/60, i%60), "Filed")
	}
	first := replyText(do(s, clerk, "cases year=2026"))
	if got := listed(first); len(got) != commands.CasesPage || got[0] != fmt.Sprintf("2026-%03d", n) {
		t.Errorf("page 1 lists %d cases from %v", len(got), got[:1])
	}
	for _, want := range []string{fmt.Sprintf("Cases (all year=2026): %d, newest first, page 1 of 2 (cases 1 to %d):", n,
		commands.CasesPage), "Next page: `/ethics cases all year=2026 page=2`."} {
		if !strings.Contains(first, want) {
			t.Errorf("page 1 lacks %q:\n%s", want, first)
		}
	}
	second := replyText(do(s, clerk, "cases all year=2026 page=2"))
	if got := listed(second); !slices.Equal(got, []string{"2026-002", "2026-001"}) ||
		strings.Contains(second, "Next page") {
		t.Errorf("page 2:\n%s", second)
	}
	found := replyText(do(s, clerk, "search same words"))
	if !strings.Contains(found, "Next page: `/ethics search same words page=2`.") ||
		len(listed(found)) != commands.CasesPage {
		t.Errorf("search, page 1:\n%.300s", found)
	}
	if got := listed(replyText(do(s, clerk, "search same words page=2"))); len(got) != 2 {
		t.Errorf("search, page 2 lists %v", got)
	}
}

// TestForgivingInput: case numbers and times typed as people write them are understood,
// and the reply says how.
func TestForgivingInput(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received="2026-12-04 10:00" summary="x"`,
		"_Read 2026-12-04 10:00 as Fri 4 Dec 2026 10:00 CST._\nFiled as case *2026-001*, received Fri 4 Dec 2026 10:00 CST.")
	for _, tc := range []struct{ text, want string }{
		{"case 2026-1", "_Read 2026-1 as case 2026-001._\nCase 2026-001: received"},
		{"case 2026-01", "_Read 2026-01 as case 2026-001._\nCase 2026-001"},
		{"case 2026-0001", "_Read 2026-0001 as case 2026-001._\nCase 2026-001"},
		{"case 2026-9", "_Read 2026-9 as case 2026-009._\nNot done: there is no case 2026-009"},
		{"case 26-1",
			`Not done: number: "26-1" is not a case number: a case number is the year of receipt and the case's number in that year, e.g. 2026-014 (or 2026-14).`},
		{"case 2026-0",
			`Not done: number: "2026-0" is not a case number: the cases of a year are numbered from 1, e.g. 2026-001.`},
		{"case 2026-001-2", "is not a case number"},
		{`schedule 2026-1 sufficiency 2026-12-08 17:00 place="City Hall"`,
			"_Read 2026-1 as case 2026-001; 2026-12-08 17:00 as Tue 8 Dec 2026 17:00 CST._\nCase 2026-001: sufficiency " +
				"meeting scheduled"},
		{`schedule 2026-001 sufficiency "2026-12-09 17:30" place="City Hall"`,
			"_Read 2026-12-09 17:30 as Wed 9 Dec 2026 17:30 CST._\nCase 2026-001: sufficiency meeting rescheduled"},
		{`posted 2026-001 sufficiency at=2026-12-04 10:30`,
			"_Read 2026-12-04 10:30 as Fri 4 Dec 2026 10:30 CST._\nCase 2026-001: "},
		{`schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`,
			"Case 2026-001: sufficiency meeting rescheduled"},
		{`schedule 2026-001 sufficiency 2026-12-10 25:00 place="City Hall"`,
			`"2026-12-10 25:00" is not a date and time like 2026-12-10T17:00 or 2026-12-10 17:00`},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := replyText(do(s, clerk, tc.text))
			if !strings.Contains(got, tc.want) {
				t.Errorf("/ethics %s:\n%s\nwant %q", tc.text, got, tc.want)
			}
			if read := strings.HasPrefix(tc.want, "_Read"); read != strings.HasPrefix(got, "_Read") {
				t.Errorf("/ethics %s: the reply says what it read: %v, want %v:\n%s", tc.text, !read, read, got)
			}
		})
	}
	t.Run("CardBlocks", func(t *testing.T) {
		r := do(s, clerk, "case 2026-1")
		blocks := r.Messages[0].Blocks
		ctxBlock, ok := blocks[0].(*slack.ContextBlock)
		if !ok {
			t.Fatalf("first block is %T, want the context block saying what was read", blocks[0])
		}
		if txt := ctxBlock.ContextElements.Elements[0].(*slack.TextBlockObject).Text; txt != "_Read 2026-1 as case 2026-001._" {
			t.Errorf("context block %q", txt)
		}
		if _, ok := blocks[1].(*slack.HeaderBlock); !ok {
			t.Errorf("the card's header follows it: %T", blocks[1])
		}
	})
	t.Run("FullMessage", func(t *testing.T) {
		full := make([]slack.Block, commands.MaxMessageBlocks)
		for i := range full {
			full[i] = slack.NewDividerBlock()
		}
		r := commands.WithReadingForTest(commands.Response{Messages: []commands.Message{{Text: "card", Blocks: full}}},
			[]string{"2026-1 as case 2026-001"})
		if len(r.Messages) != 2 || r.Messages[0].Text != "_Read 2026-1 as case 2026-001._" ||
			len(r.Messages[1].Blocks) != commands.MaxMessageBlocks {
			t.Errorf("a message with no room for a block: %+v", r.Messages)
		}
	})
	t.Run("Parse", func(t *testing.T) {
		a, err := commands.ParseForTest(`schedule 2026-12 hearing 2026-12-10 9:05 place="Room 1"`)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(a["number"], " ", a["start"]), "2026-012 2026-12-10 09:05:00 +0000 UTC"; got != want {
			t.Errorf("bound %s, want %s", got, want)
		}
		// A time alone after a date that is not an instant's is not joined to it.
		if _, err := commands.ParseForTest(`candidate 2026-001 2027-02-23 10:00`); err == nil ||
			!strings.Contains(err.Error(), `unexpected "10:00"`) {
			t.Errorf("candidate with a time: %v", err)
		}
	})
}

// TestUnclosedQuoteIsRefused: a key="value whose quote is never closed would take the rest
// of the line into one value (a place ending in a quote mark on a public notice, or a field
// swallowed unseen): it is refused and changes nothing. A phone's curly quote closed by a
// typed one is closed.
func TestUnclosedQuoteIsRefused(t *testing.T) {
	for _, text := range []string{
		`file respondent="Jane complainant=John section=103.10 summary=x`,
		`file respondent=Jane complainant=John section=103.10 summary="unterminated`,
	} {
		words, open := commands.ScanForTest(text)
		if open < 0 {
			t.Errorf("%s: no unclosed quote found in %v", text, words)
		}
	}
	if words, open := commands.ScanForTest(`schedule 2026-004 sufficiency 2026-12-08T17:00 place=“Hall"`); open >= 0 ||
		words[len(words)-1] != "place=Hall" {
		t.Errorf("a curly quote closed by a straight one: %v, open at %d", words, open)
	}
}
