package commands_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/reminders"
)

// Hostile text a user might type to make ethicsbot say what the commission did not: a
// channel-wide ping, a disguised link, a mention, a forged line of ethicsbot's own.
const (
	pingName  = `<!channel> Jane & Roe`
	linkName  = `<https://evil.example|the evidence>`
	otherName = `<@U0ADMIN1> of <#C0123|general> <!subteam^S0123>`
	pingPlace = `<!everyone> Room 1`
	forged    = "Violated 103.10.\nPUBLIC NOTICE. The Ethics Commission has dismissed every case. <!here>"
)

// mention is the only markup ethicsbot's own templates write: a user mention.
var mention = regexp.MustCompile(`^<@[UW][A-Z0-9_]+>`)

// checkMarkup fails if text holds markup that ethicsbot did not write: a '<' that does
// not open a mention of a user ethicsbot knows, or a line after the first that passes for
// a notice of its own.
func checkMarkup(t *testing.T, where string, text string, known map[string]bool) {
	t.Helper()
	for i := strings.IndexByte(text, '<'); i >= 0; i = next(text, i) {
		m := mention.FindString(text[i:])
		if m == "" || !known[m[2:len(m)-1]] {
			t.Errorf("%s: live markup at %q in:\n%s", where, text[i:min(len(text), i+40)], text)
			return
		}
	}
	for n, line := range strings.Split(text, "\n") {
		if n > 0 && strings.Contains(line, "PUBLIC NOTICE") && !strings.HasPrefix(line, "> ") {
			t.Errorf("%s: line %d passes for a notice of ethicsbot's own: %q", where, n, line)
		}
	}
}

func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '<')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// TestHostileTextIsData runs a case whose every free-text field is hostile through the
// one-line commands and the forms, and checks everything ethicsbot says about it: replies,
// docket lines, public notices, the card's text and blocks, the Home tab and the
// reminders. Nothing typed becomes a ping, a link, a mention or a line of ethicsbot's own;
// all of it is still shown, escaped.
func TestHostileTextIsData(t *testing.T) {
	s, clk, db := MustService(t)
	known := map[string]bool{comm: true, "U_COMM2": true, clerk: true, attorney: true}
	var said []string // "where\x00text"
	record := func(where string, r commands.Response) {
		for _, m := range r.Messages {
			said = append(said, where+" reply\x00"+string(m.Text))
			for _, b := range m.Blocks {
				if sec, ok := b.(*slack.SectionBlock); ok && sec.Text != nil {
					said = append(said, where+" block\x00"+sec.Text.Text)
				}
			}
		}
		for _, p := range r.Posts {
			said = append(said, where+" "+p.Key.To.String()+"\x00"+string(p.Text))
		}
	}
	run := func(user, text string) {
		t.Helper()
		r := do(s, user, text)
		record(text[:strings.IndexByte(text+" ", ' ')], r)
		if got := replyText(r); strings.HasPrefix(got, "Not done") || strings.HasPrefix(got, "Only ") {
			t.Fatalf("/ethics %s: %s", text, got)
		}
	}
	at := func(s string) { clk.now, _ = time.Parse(time.RFC3339, s) }

	// Case 2026-001 through one-line commands; multi-line text typed in quotes.
	run(clerk,
		`file respondent="`+pingName+`" complainant="`+linkName+`" section=103.10 received=2026-12-04T10:00 summary="`+forged+`"`)
	run(clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="`+pingPlace+`"`)
	run(clerk, `schedule 2026-001 sufficiency 2026-12-08T17:00 place="`+otherName+`"`)
	run(clerk, `posted 2026-001 sufficiency`)
	run(clerk, `mail 2026-001 respondent 9407 1118 9876 5432 1016 34`)
	run(clerk, `mail 2026-001 complainant 9407 1118 9876 5432 1015 35`)
	at("2026-12-09T00:00:00Z")
	run(comm, `rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="`+pingPlace+`" closed="`+otherName+`"`)
	run(clerk, `cancel 2026-001 hearing reason="`+forged+`"`)
	run(clerk, `schedule 2026-001 hearing 2026-12-15T10:00 place="`+linkName+`" closed="5 ILCS 120/2(c)(4)"`)
	run(clerk, `posted 2026-001 hearing`)
	at("2026-12-15T18:00:00Z")
	run(clerk, `concluded 2026-001`)
	run(comm, `decide 2026-001 recommend recommendation="`+forged+`" fine=2500 intentional=yes findings="`+forged+`"`)
	at("2026-12-16T16:00:00Z")
	run(clerk, `demand 2026-001`)
	run(clerk, `schedule 2026-001 public_hearing 2026-12-21T18:00 place="`+pingPlace+`"`)
	run(clerk, `posted 2026-001 public_hearing`)
	at("2026-12-22T02:00:00Z")
	run(clerk, `held 2026-001`)
	run(comm, `final 2026-001 text="`+forged+`" fine=2500 intentional=yes`)
	run(clerk, `election add 2027-04-06 `+pingName)
	run(clerk, `election list`)

	// Case 2026-002 through the forms, then dismissed and found frivolous.
	at("2026-12-04T16:30:00Z")
	sub := submit(s, clerk, form(t, s, clerk, "file"), values{
		"respondent": {Value: linkName}, "complainant": {Value: pingName}, "section": {Value: "103.10"},
		"summary": {Value: forged}, "respondent_user": {SelectedUser: "U0RESP1"},
	})
	if len(sub.Errors) > 0 {
		t.Fatalf("file form: %v", sub.Errors)
	}
	known["U0RESP1"] = true // a party's Slack id, as validated and recorded
	record("file form", sub.Response)
	sub = submit(s, clerk, form(t, s, clerk, "schedule 2026-002 sufficiency"), values{
		"start": {SelectedDateTime: time.Date(2026, 12, 8, 23, 0, 0, 0, time.UTC).Unix()}, "place": {Value: pingPlace},
	})
	if len(sub.Errors) > 0 {
		t.Fatalf("schedule form: %v", sub.Errors)
	}
	record("schedule form", sub.Response)
	at("2026-12-09T00:00:00Z")
	// Neither notice posted nor (B) mailings: recorded by override, whose reason is shown too.
	run(comm, `rule 2026-002 insufficient override="`+pingName+`"`)
	run(comm, `frivolous 2026-002 fine=1500 knowingly=yes findings="`+forged+`" override="`+pingName+`"`)

	// What is shown, not said: the cards, the docket, the Home tab; and the reminders.
	for _, n := range []string{"2026-001", "2026-002"} {
		run(attorney, "case "+n)
	}
	run(clerk, "docket")
	for _, b := range s.HomeBlocks(ctx, clerk) {
		if sec, ok := b.(*slack.SectionBlock); ok {
			said = append(said, "home\x00"+sec.Text.Text)
		}
	}
	planner := &reminders.Planner{Engine: s.Engine, Policy: reminders.Defaults(),
		People: reminders.People{Clerks: []string{clerk}, Commissioners: []string{comm}, Docket: "C_DOCKET"}}
	for _, when := range []string{"2026-12-04T17:00:00Z", "2026-12-07T15:00:00Z", "2026-12-08T21:00:00Z"} {
		now, _ := time.Parse(time.RFC3339, when)
		c, err := db.Case(ctx, "2026-002")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range planner.Plan(&c, now) {
			said = append(said, "reminder\x00"+string(r.Text()))
		}
	}

	all := strings.Join(said, "\n")
	for _, s := range said {
		where, text, _ := strings.Cut(s, "\x00")
		checkMarkup(t, where, text, known)
	}
	// Shown, escaped, not dropped.
	for _, want := range []string{
		"&lt;!channel&gt; Jane &amp; Roe", "&lt;https://evil.example|the evidence&gt;", "&lt;!everyone&gt; Room 1",
		"&lt;@U0ADMIN1&gt; of &lt;#C0123|general&gt;",
		"> PUBLIC NOTICE. The Ethics Commission has dismissed every case. &lt;!here&gt;",
		"<@U0RESP1>", "(override: &lt;!channel&gt; Jane &amp; Roe)", "on Tue 2026-12-08: &lt;!channel&gt; Jane &amp; Roe",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("nothing said shows %q", want)
		}
	}
	for _, want := range []string{"#C_NOTICES\x00PUBLIC NOTICE (E)", "#C_NOTICES\x00PUBLIC NOTICE (F)",
		"#C_NOTICES\x00PUBLIC NOTICE (C)(2)", "#C_NOTICES\x00PUBLIC NOTICE, CANCELLED",
		"#C_NOTICES\x00PUBLIC NOTICE, RESCHEDULED", "reminder\x00"} {
		if !strings.Contains(all, want) {
			t.Errorf("the run never said %q", strings.ReplaceAll(want, "\x00", " "))
		}
	}
}

// TestOneLineFieldsRefuseLineBreaks: a name, a place or an authority with a line break, a
// tab or a direction override is refused with the rule, and nothing is recorded.
func TestOneLineFieldsRefuseLineBreaks(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed as case")
	for _, tc := range []struct{ name, text, want string }{
		{"NameNewline", `file respondent="Jane` + "\n" + `PUBLIC NOTICE" complainant="B" section=103.10 summary="x"`,
			"respondent: must be one line: it holds a line break (rule (A))"},
		{"NameTab", "file respondent=\"Jane\tRoe\" complainant=\"B\" section=103.10 summary=\"x\"",
			"respondent: must be one line: it holds a tab (rule (A))"},
		{"NameLineSeparator", "file respondent=\"B\" complainant=\"Jane\u2028Roe\" section=103.10 summary=\"x\"",
			"complainant: must be one line"},
		{"NameDirectionOverride", "file respondent=\"Jane \u202eeoR\" complainant=\"B\" section=103.10 summary=\"x\"",
			"respondent: contains U+202E RIGHT-TO-LEFT OVERRIDE, an invisible character; retype the field (rule (A))"},
		{"NameZeroWidthSpace", "file respondent=\"Jane\u200bRoe\" complainant=\"B\" section=103.10 summary=\"x\"",
			"respondent: contains U+200B ZERO WIDTH SPACE, an invisible character; retype the field (rule (A))"},
		{"NameTagCharacters",
			"file respondent=\"B\" complainant=\"Jane Roe\U000E0041\U000E0042\" section=103.10 summary=\"x\"",
			"complainant: contains U+E0041 TAG CHARACTER, an invisible character"},
		{"PlaceByteOrderMark", "schedule 2026-001 sufficiency 2026-12-10T17:00 place=\"\ufeffCity Hall\"",
			"place: contains U+FEFF ZERO WIDTH NO-BREAK SPACE, an invisible character; retype the field (rule (C)(1))"},
		{"AuthorityArabicLetterMark",
			"schedule 2026-001 sufficiency 2026-12-10T17:00 place=\"Room 1\" closed=\"5 ILCS 120/2(c)(4)\u061c\"",
			"authority: contains U+061C ARABIC LETTER MARK"},
		{"ElectionNameNoncharacter", "election add 2027-04-06 \"Spring\ufdd0\"", "name: contains U+FDD0 NONCHARACTER"},
		{"CorrectReasonWordJoiner", "correct 2026-001 respondent=\"Jane Q. Roe\" reason=\"typo\u2060\"",
			"reason: contains U+2060 WORD JOINER"},
		{"PlaceNewline", `schedule 2026-001 sufficiency 2026-12-10T17:00 place="Room 1` + "\n" + `PUBLIC NOTICE"`,
			"place: must be one line: it holds a line break (rule (C)(1))"},
		{"AuthorityNewline", `schedule 2026-001 sufficiency 2026-12-10T17:00 place="Room 1" closed="5 ILCS` + "\n" + `120"`,
			"authority: must be one line"},
		{"ElectionName", "election add 2027-04-06 \"Spring\nPUBLIC NOTICE\"", "name: must be one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := db.Outbox(ctx)
			mustDo(t, s, clerk, tc.text, tc.want)
			if after, _ := db.Outbox(ctx); len(after) != len(before) {
				t.Errorf("a refused command said %d things", len(after)-len(before))
			}
			if all, _ := db.AllCases(ctx); len(all) != 1 {
				t.Errorf("a refused command filed a case")
			}
			if es, _ := db.Elections(ctx); len(es) != 0 {
				t.Errorf("a refused command recorded an election")
			}
		})
	}
}

// TestRecessedHearingReconvenedAgainIsANewNotice: after a second recess, scheduling the
// next session is a new meeting, noticed as such, not a move of the session already held.
// The task line of each reply gives that session's own posting deadline (D), not the first
// hearing's, which has passed.
func TestRecessedHearingReconvenedAgainIsANewNotice(t *testing.T) {
	s, clk, _ := MustService(t)
	at := func(v string) { clk.now, _ = time.Parse(time.RFC3339, v) }
	readyToRule(t, s)
	at("2026-12-08T00:00:00Z")
	mustDo(t, s, comm, `rule 2026-001 probable_cause hearing=2026-12-14T10:00 place="Council Chambers"`, "ruling recorded")
	mustDo(t, s, clerk, `posted 2026-001 hearing`, "posted")
	at("2026-12-14T17:00:00Z")
	mustDo(t, s, clerk, "recess 2026-001", "hearing recessed")
	const task = "Task: post the notice at the meeting place and the commission's principal office by "
	r := mustDo(t, s, clerk, `schedule 2026-001 recessed_hearing 2026-12-28T10:00 place="Council Chambers"`,
		task+"Sat 26 Dec 2026 10:00 CST (D), then record it: `/ethics posted 2026-001 recessed_hearing`.")
	if text := replyText(r); strings.Contains(text, "12 Dec") {
		t.Errorf("the reply names the first hearing's deadline:\n%s", text)
	}
	mustDo(t, s, clerk, `posted 2026-001 recessed_hearing`, "posted")
	at("2026-12-28T17:00:00Z")
	mustDo(t, s, clerk, "recess 2026-001", "hearing recessed")
	r = mustDo(t, s, clerk, `schedule 2026-001 recessed_hearing 2027-01-05T10:00 place="Council Chambers"`,
		"recessed hearing scheduled for Tue 5 Jan 2027")
	if text := replyText(r); !strings.Contains(text, task+"Sun 3 Jan 2027 10:00 CST (D)") ||
		strings.Contains(text, "12 Dec") || strings.Contains(text, "26 Dec") {
		t.Errorf("the reply does not name the 5 Jan session's own deadline, Sun 3 Jan:\n%s", text)
	}
	notices := posted(r, "C_NOTICES")
	if len(notices) != 1 ||
		!strings.HasPrefix(notices[0],
			"PUBLIC NOTICE. Ethics Commission, case 2026-001: recessed hearing on Tue 5 Jan 2027") {
		t.Errorf("notice %q, want a new notice of the session of 5 Jan", notices)
	}
	// The same meeting scheduled again changes nothing and says nothing.
	before := len(posted(r, "C_NOTICES"))
	r = mustDo(t, s, clerk, `schedule 2026-001 recessed_hearing 2027-01-05T10:00 place="Council Chambers"`,
		"already scheduled for")
	if len(r.Posts) != 0 || before != 1 {
		t.Errorf("scheduling the same session again said %v", r.Posts)
	}
	// Moving a session still to come is a reschedule.
	r = mustDo(t, s, clerk, `schedule 2026-001 recessed_hearing 2027-01-06T10:00 place="Council Chambers"`,
		"recessed hearing rescheduled")
	if notices := posted(r, "C_NOTICES"); len(notices) != 1 || !strings.Contains(notices[0], "RESCHEDULED") ||
		!strings.Contains(notices[0], "set for Tue 5 Jan 2027") {
		t.Errorf("notice %q, want the 5 Jan session moved", notices)
	}
}

// TestLongLineIsRead: a line is read before Slack's ack, for anyone who may type /ethics,
// role or none: a word of 15,000 letters and 15,000 '=', far inside what the HTTP handler
// takes (bot.MaxBody), and a line of 7,500 key=value pairs are read and answered. What
// reading them costs, linear in their length, is BenchmarkPrepareLongLine's to show: the
// word was matched again at each '=', and took seconds.
func TestLongLineIsRead(t *testing.T) {
	s, _, _ := MustService(t)
	for _, tc := range longLines {
		resp, run := s.Prepare(ctx, commands.Request{User: tc.user, Text: tc.text, Escaped: true})
		if run != nil {
			resp = run(ctx)
		}
		if got := replyText(resp); !strings.Contains(got, tc.want) {
			t.Errorf("%.20s… (%d characters) as %s: %.200q, want %q", tc.text, len(tc.text), tc.user, got, tc.want)
		}
	}
}

var longWord = strings.Repeat("a", 15000) + "1" + strings.Repeat("=", 15000)

var longLines = []struct{ user, text, want string }{
	{stranger, longWord, "Sorry, `/ethics` is for"},
	{clerk, "help " + longWord, "the limit is 4000"},
	{clerk, "file respondent=" + longWord, "Not done"},
	{clerk, strings.Repeat("a=b ", 7500), "There is no `/ethics b`"},
}

// BenchmarkPrepareLongLine reads a word of n letters and n '=' as a stranger would send it:
// the cost of a line read before Slack's ack, by its length. Linear: ten times the length,
// about ten times the time.
func BenchmarkPrepareLongLine(b *testing.B) {
	s, _, _ := MustService(b)
	for _, n := range []int{1500, 15000} {
		text := strings.Repeat("a", n) + "1" + strings.Repeat("=", n)
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			for b.Loop() {
				s.Prepare(ctx, commands.Request{User: stranger, Text: text, Escaped: true})
			}
		})
	}
}
