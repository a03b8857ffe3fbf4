package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

var ctx = context.Background()

// Users by role.
const (
	comm     = "U_COMM1"
	clerk    = "U_CLERK"
	attorney = "U_ATTY"
	stranger = "U_STRANGER"
)

// clock is a settable time for tests.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// MustService returns a service on a new store, with the clock at 2026-12-04 10:30 CST.
func MustService(t testing.TB) (*commands.Service, *clock, *store.Store) {
	t.Helper()
	return MustServiceAt(t, filepath.Join(t.TempDir(), "ethicsbot.db"))
}

// MustServiceAt is MustService on a new store at path, for a test that opens the database
// itself.
func MustServiceAt(t testing.TB, path string) (*commands.Service, *clock, *store.Store) {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(path, e)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &clock{now: time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)}
	s := &commands.Service{Record: db, Engine: e, Now: c.Now}
	db.SayWith(s)
	s.Configure(commands.Settings{
		Roles:    commands.Roles{Commissioners: []string{comm, "U_COMM2"}, Clerks: []string{clerk}, Attorney: attorney},
		Channels: commands.Channels{Docket: "C_DOCKET", Notices: "C_NOTICES"},
	})
	return s, c, db
}

// do runs text as user and returns the response.
func do(s *commands.Service, user, text string) commands.Response {
	return s.Handle(ctx,
		commands.Request{User: user, Text: text, RequestID: fmt.Sprintf("%s:%s:%d", user, text, time.Now().UnixNano())})
}

// replyText is the text of the response's reply to the user.
func replyText(r commands.Response) string {
	if len(r.Messages) == 0 {
		return ""
	}
	return string(r.Messages[0].Text)
}

// posted is the text of everything the response put in the outbox for channel, but the
// case's card there (the thread's parent and its updates: see TestDocketThread).
func posted(r commands.Response, channel string) []string {
	var out []string
	for _, p := range r.Posts {
		if p.Key.To.Channel == channel && p.Key.Series != outbox.CardSeries {
			out = append(out, string(p.Text))
		}
	}
	return out
}

const fileLine = `file respondent="Jane Roe" complainant="John Doe" section=103.10 violation=2026-05-01 received=2026-12-04T10:00 candidate=2027-02-23 summary="Used the city's email to campaign."`

func mustDo(t *testing.T, s *commands.Service, user, text, want string) commands.Response {
	t.Helper()
	r := do(s, user, text)
	if got := replyText(r); !strings.Contains(got, want) {
		t.Fatalf("/ethics %s as %s:\n%s\nwant %q", text, user, got, want)
	}
	return r
}

func TestFileOneLine(t *testing.T) {
	s, _, db := MustService(t)
	r := mustDo(t, s, clerk, fileLine, "Filed as case *2026-001*, received Fri 4 Dec 2026 10:00 CST.")
	if p := posted(r, "C_DOCKET"); len(p) != 1 || !strings.Contains(p[0], "John Doe v. Jane Roe") {
		t.Errorf("docket channel: %q", p)
	}
	if p := posted(r, "C_NOTICES"); len(p) != 0 {
		t.Errorf("a filing posted to the public channel: %q", p)
	}
	c, err := db.Case(ctx, "2026-001")
	if err != nil {
		t.Fatal(err)
	}
	if c.Respondent.Name != "Jane Roe" || c.ViolationDate.String() != "2026-05-01" || len(c.Elections) != 1 ||
		c.Received.Format(time.RFC3339) != "2026-12-04T10:00:00-06:00" {
		t.Errorf("stored %+v", c)
	}
	t.Run("Warnings", func(t *testing.T) {
		mustDo(t, s, clerk,
			`file respondent="A" complainant="B" section=103.10 violation=2025-11-01 candidate=2027-01-20 summary="x"`,
			"time-barred")
		mustDo(t, s, clerk, `file respondent="A" complainant="B" section=103.10 candidate=2027-01-20 summary="x"`,
			"EXPEDITED")
	})
	t.Run("OneDigitHour", func(t *testing.T) {
		mustDo(t, s, clerk, `file respondent="A" complainant="B" section=103.10 received=2026-12-04T9:05 summary="x"`,
			"received Fri 4 Dec 2026 09:05 CST")
	})
	t.Run("ReceivedDefaultsToNow", func(t *testing.T) {
		mustDo(t, s, clerk, `file respondent="A" complainant="B" section=103.10 summary="x"`,
			"received Fri 4 Dec 2026 10:30 CST")
	})
	t.Run("RetryFilesOnce", func(t *testing.T) {
		req := commands.Request{User: clerk, Text: `file respondent="R" complainant="C" section=103.10 summary="x"`,
			RequestID: "trigger-42"}
		first := replyText(s.Handle(ctx, req))
		again := replyText(s.Handle(ctx, req))
		if !strings.Contains(first, "Filed as case") || !strings.Contains(again, "Already filed as case") {
			t.Errorf("first %q, retry %q", first, again)
		}
	})
}

func TestBadInputChangesNothing(t *testing.T) {
	s, _, db := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	for _, tc := range []struct{ user, text, want string }{
		{clerk, `file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-13-04T10:00 summary="x"`,
			"received:"},
		{clerk, `file respondent="Jane Roe" section=103.10 summary="x"`, "complainant: is missing"},
		{clerk, `file respondent="Jane Roe" complainant="X" section=103.99 summary="x"`, "unknown section"},
		{clerk, `file respondent="x" complainant="y" section=103.10 summary="` + strings.Repeat("s", 10000) + `"`, "limit"},
		{clerk, "file respondent=\"Jo\xffe\" complainant=\"y\" section=103.10 summary=\"x\"", "not valid UTF-8"},
		{clerk, `file respondent="x" complainant="y" section=103.10 summary="x" colour=blue`, `no option "colour"`},
		{clerk, `schedule 2026-001 sufficiency 2026-12-05T10:00 place="City Hall"`,
			"earliest lawful start is Sun 6 Dec 2026 10:30 CST"},
		{clerk, `schedule 2026-001 sufficiency 2027-03-14T02:30 place="City Hall"`, "does not exist"},
		{clerk, `schedule 2026-001 sufficiency tomorrow place="City Hall"`, "is not a date and time"},
		{clerk, `schedule 2026-001 lunch 2026-12-10T17:00 place="City Hall"`, "is not one of"},
		{clerk, `mail 2026-001 respondent 9407-1118`, "20 or 22 digits"},
		{clerk, `case 2099-001`, "there is no case 2099-001"},
		{clerk, `case 2025-001`, "there is no case 2025-001"},
		{clerk, `case 14`, "is not a case number"},
		{clerk, `case '; DROP TABLE cases;--`, "is not a case number"},
		{comm, `decide 2026-001 recommend recommendation="x"`, "follows the conclusion of the hearing"},
		{comm, `frivolous 2026-001 fine=50000 knowingly=yes findings="x"`, "only a dismissed complaint"},
		{clerk, `frobnicate`, "There is no `/ethics frobnicate`"},
	} {
		before, _ := db.Events(ctx, "2026-001")
		r := do(s, tc.user, tc.text)
		if got := replyText(r); !strings.Contains(got, tc.want) {
			t.Errorf("%.60s: reply %q, want %q", tc.text, got, tc.want)
		}
		if len(r.Messages) != 1 {
			t.Errorf("%.60s: a refusal posted elsewhere: %+v", tc.text, r.Messages)
		}
		if after, _ := db.Events(ctx, "2026-001"); len(after) != len(before) {
			t.Errorf("%.60s: a refusal recorded an event", tc.text)
		}
		if all, _ := db.AllCases(ctx); len(all) != 1 {
			t.Fatalf("%.60s: a refused filing created a case", tc.text)
		}
	}
}

// TestRuleWithHearingIsAtomic: the ruling and the hearing are one request; if the hearing
// is refused, the ruling is not recorded either.
func TestRuleWithHearingIsAtomic(t *testing.T) {
	s, c, db := MustService(t)
	readyToRule(t, s)
	c.now = time.Date(2026, 12, 7, 23, 30, 0, 0, time.UTC) // 17:30 CST, after the meeting began
	mustDo(t, s, comm, `rule 2026-001 probable_cause hearing=2026-12-08T10:00 place="City Hall"`,
		"a hearing needs at least 48 hours' public notice; the earliest lawful start")
	if cs, _ := db.Case(ctx, "2026-001"); cs.Ruling != "" {
		t.Fatalf("the ruling was recorded without its hearing: %s", cs.Ruling)
	}
	r := mustDo(t, s, comm,
		`rule 2026-001 probable_cause hearing=2026-12-21T10:00 place="City Hall" closed="5 ILCS 120/2(c)(4)"`,
		"hearing scheduled for Mon 21 Dec 2026 10:00 CST")
	if p := posted(r, "C_NOTICES"); len(p) != 1 ||
		!strings.Contains(p[0], "closed to the public under 5 ILCS 120/2(c)(4)") {
		t.Errorf("public notice %q", p)
	}
}

// TestAuthorisationMatrix runs every subcommand of the /ethics table as every role, by its
// own example, with votes required and not: each role the row names may use it, and every
// other is refused, so a new subcommand's roles are tested as soon as it has a row. When
// votes are required, the clerk may record the commission's vote as well as a commissioner.
func TestAuthorisationMatrix(t *testing.T) {
	s, _, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	users := map[commands.Role]string{commands.Commissioner: comm, commands.Clerk: clerk, commands.Attorney: attorney,
		commands.Nobody: stranger}
	subs := commands.SubcommandsForTest()
	// The table is read, not assumed: the commission's own acts stay its own.
	only := map[string]bool{}
	for _, sub := range subs {
		only[sub.Name] = slices.Equal(sub.Roles, []commands.Role{commands.Commissioner})
	}
	for _, name := range []string{"rule", "decide", "final", "frivolous"} {
		if !only[name] {
			t.Errorf("the table lets others than commissioners use %s", name)
		}
	}
	for _, voting := range []bool{false, true} {
		reconfigure(s, func(st *commands.Settings) { st.Voting.Required = voting })
		for _, sub := range subs {
			text := sub.Example
			if text == "" {
				text = sub.Name
			}
			may := sub.Roles
			if sub.Vote && voting {
				may = []commands.Role{commands.Commissioner, commands.Clerk}
			}
			for role, user := range users {
				got := replyText(do(s, user, text))
				refused := strings.Contains(got, "Only ") && strings.Contains(got, "can use") ||
					strings.HasPrefix(got, "Sorry, `/ethics` is for")
				if want := slices.Contains(may, role); refused == want {
					t.Errorf("%s as %s (votes required: %v): refused %v, want allowed %v: %q", sub.Name, role, voting,
						refused, want, got)
				}
				if user == stranger && strings.Contains(got, "2026-001") {
					t.Errorf("%s as a stranger mentions the case: %q", sub.Name, got)
				}
			}
		}
	}
	t.Run("StrangerLearnsNothing", func(t *testing.T) {
		a, b := replyText(do(s, stranger, "case 2026-001")), replyText(do(s, stranger, "case 2099-999"))
		if a != b {
			t.Errorf("a stranger can tell which cases exist: %q vs %q", a, b)
		}
	})
}

func TestHelp(t *testing.T) {
	s, _, _ := MustService(t)
	all := replyText(do(s, comm, "help"))
	for _, sub := range []string{"file", "case", "docket", "schedule", "rule", "decide", "final", "frivolous",
		"election"} {
		if !strings.Contains(all, "`/ethics "+sub+"`") {
			t.Errorf("help lacks %s", sub)
		}
		one := replyText(do(s, comm, "help "+sub))
		if !strings.Contains(one, "Form: `/ethics "+sub) || !strings.Contains(one, "Example: `/ethics "+sub) {
			t.Errorf("help %s:\n%s", sub, one)
		}
	}
	if got := replyText(do(s, clerk, "help")); strings.Contains(got, "`/ethics decide`") {
		t.Error("the clerk's help lists a commissioner's command")
	}
	if got := replyText(do(s, stranger, "")); !strings.Contains(got, "Sorry") {
		t.Errorf("a stranger's help: %q", got)
	}
}

func TestCaseCardAndDocket(t *testing.T) {
	s, c, _ := MustService(t)
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk,
		`file respondent="Other" complainant="Someone" section=103.05 received=2026-12-01T09:00 summary="x"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`, "scheduled")
	c.now = time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC) // Mon 7 Dec 09:00 CST
	r := do(s, clerk, "case 2026-001")
	text := replyText(r)
	for _, want := range []string{
		"Case 2026-001: received", "Jane Roe", "John Doe", "Used the city's email to campaign.",
		"notice: sufficiency meeting on Thu 10 Dec 2026 at 17:00 CST at City Hall, open to the public",
		":hourglass: open respondent notice by certified mail (B): due Wed 2026-12-09, 2 business days left",
		":hourglass: open public notice of the sufficiency meeting (C)(1): by Tue 2026-12-08 17:00 CST, in 32 hours",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("card lacks %q:\n%s", want, text)
		}
	}
	var labels []string
	for _, b := range r.Messages[0].Blocks {
		if a, ok := b.(*slack.ActionBlock); ok {
			for _, e := range a.Elements.ElementSet {
				labels = append(labels, e.(*slack.ButtonBlockElement).Text.Text)
			}
		}
	}
	if got := strings.Join(labels, ","); got != "schedule sufficiency,posted sufficiency,mail,candidate" {
		t.Errorf("clerk's buttons %q", got)
	}
	b, err := json.Marshal(r.Messages[0].Blocks)
	if err != nil || !strings.Contains(string(b), `"type":"header"`) {
		t.Errorf("blocks do not marshal to Block Kit: %v", err)
	}
	d := replyText(do(s, attorney, "docket"))
	first, second := strings.Index(d, "2026-002"), strings.Index(d, "2026-001")
	if first < 0 || second < 0 || first > second {
		t.Errorf("docket not ordered by nearest deadline (2026-002's notice is due Fri 4 Dec):\n%s", d)
	}
}

func TestModals(t *testing.T) {
	s, _, db := MustService(t)
	r := do(s, clerk, "file")
	if r.Modal == nil || r.Modal.CallbackID != commands.ModalPrefix+"file" || len(r.Messages) != 0 {
		t.Fatalf("`file` alone should open the modal at once: %+v", r)
	}
	if r := do(s, stranger, "file"); r.Modal != nil {
		t.Fatal("a stranger got the filing form")
	}
	values := map[string]map[string]slack.BlockAction{
		"respondent":  {"respondent": {Value: "Jane Roe"}},
		"complainant": {"complainant": {Value: "John Doe"}},
		"section":     {"section": {Value: "103.10"}},
		"violation":   {"violation": {SelectedDate: "2026-05-01"}},
		"received":    {"received": {SelectedDateTime: time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC).Unix()}},
		"summary":     {"summary": {Value: "Used the city's email to campaign."}},
	}
	view := slack.View{CallbackID: r.Modal.CallbackID, PrivateMetadata: r.Modal.PrivateMetadata,
		State: &slack.ViewState{Values: values}}
	sub := s.Submit(ctx, clerk, "view-1", view)
	if len(sub.Errors) != 0 ||
		!strings.Contains(shownText(sub), "Filed as case *2026-001*, received Fri 4 Dec 2026 10:00 CST") {
		t.Fatalf("submission: %+v", sub)
	}
	t.Run("FieldErrorsStayInTheModal", func(t *testing.T) {
		values["section"] = map[string]slack.BlockAction{"section": {Value: "999"}}
		view.State = &slack.ViewState{Values: values}
		sub := s.Submit(ctx, clerk, "view-2", view)
		if sub.Errors["section"] == "" {
			t.Fatalf("want an error on the section field: %+v", sub)
		}
		if all, _ := db.AllCases(ctx); len(all) != 1 {
			t.Error("a refused modal filed a case")
		}
	})
	t.Run("CardButtonOpensPrefilledForm", func(t *testing.T) {
		r := s.Action(ctx, clerk, "schedule 2026-001 sufficiency", "C_HERE")
		if r.Modal == nil {
			t.Fatalf("no modal: %+v", r)
		}
		for _, b := range r.Modal.Blocks.BlockSet {
			if in, ok := b.(*slack.InputBlock); ok && (in.BlockID == "number" || in.BlockID == "meeting") {
				t.Errorf("prefilled field %s is asked again", in.BlockID)
			}
		}
		view := slack.View{CallbackID: r.Modal.CallbackID, PrivateMetadata: r.Modal.PrivateMetadata,
			State: &slack.ViewState{Values: map[string]map[string]slack.BlockAction{
				"start": {"start": {SelectedDateTime: time.Date(2026, 12, 10, 23, 0, 0, 0, time.UTC).Unix()}},
				"place": {"place": {Value: "City Hall"}},
			}}}
		sub := s.Submit(ctx, clerk, "view-3", view)
		if sub.Channel != "C_HERE" ||
			!strings.Contains(shownText(sub), "sufficiency meeting scheduled for Thu 10 Dec 2026 17:00 CST") {
			t.Fatalf("submission: %+v", sub)
		}
		if r := s.Action(ctx, clerk, "rule 2026-001", "C_HERE"); r.Modal != nil {
			t.Error("the clerk got the ruling form")
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		fileLine, "help", "case 2026-001", `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`,
		"mail 2026-001 respondent 9407 1118 9876 5432 1016 34",
		`rule 2026-001 probable_cause hearing=2026-12-28T10:00 place=“Room 2”`,
		`decide 2026-001 recommend fine=$2,500 recommendation='x'`, "election add 2027-02-23 Consolidated General Election",
		`file respondent="unterminated`, "=", "a=b=c", "&lt;&gt;&amp;", "\x00\xff",
		"case 2026-1", `schedule 2026-01 sufficiency 2026-12-10 17:00 place="City Hall"`,
		`posted 2026-001 sufficiency at="2026-12-04 10:30"`,
		"cases closed year=2026 section=103.10 status=dismissed page=2", `search Roe OR NEAR "x*`,
		`rule 2026-001 insufficient yes=<@U_COMM1|ann>,<@U_COMM2> place="<!here> &amp; <https://x.gov|x.gov" <#C1|`, "<<>><@|>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		commands.ParseForTest(text)        // must not panic
		commands.ParseEscapedForTest(text) // nor as Slack sends it
	})
}

// TestHelpBuiltOnce: help depends on no record, so its text is built once for each role and
// each setting of Voting.Required, and served again after that without being rebuilt; a
// change of the setting still changes who the help says may use a commission's action.
func TestHelpBuiltOnce(t *testing.T) {
	s, _, _ := MustService(t)
	first := replyText(do(s, comm, "help"))
	allocs := testing.AllocsPerRun(50, func() {
		if got := replyText(s.Handle(ctx, commands.Request{User: comm, Text: "help"})); got != first {
			t.Fatalf("help changed between requests:\n%s\n%s", first, got)
		}
	})
	// Scanning the request and the reply's slice: a handful. Rebuilding the list of ~50
	// commands costs hundreds.
	if allocs > 10 {
		t.Errorf("help made %.0f allocations a request: it is being rebuilt", allocs)
	}
	if got := replyText(do(s, clerk, "help rule")); !strings.Contains(got, "Who: commissioners.") {
		t.Fatalf("help rule without votes required:\n%s", got)
	}
	reconfigure(s, func(st *commands.Settings) { st.Voting.Required = true })
	if got := replyText(do(s, clerk, "help rule")); !strings.Contains(got, "Who: commissioners and clerks.") {
		t.Errorf("help rule with votes required still says who it said before:\n%s", got)
	}
	if got := replyText(do(s, clerk, "help")); !strings.Contains(got, "`/ethics rule`") {
		t.Errorf("with votes required, the clerk's help does not list rule:\n%s", got)
	}
}

// BenchmarkHelp is `/ethics help` as a commissioner asks it: the command asked most.
func BenchmarkHelp(b *testing.B) {
	s, _, _ := MustService(b)
	for b.Loop() {
		s.Handle(ctx, commands.Request{User: comm, Text: "help"})
	}
}

// TestPrepareAnswersWhatReadsNoRecord: Prepare answers help and each refusal made before a
// command runs without the record (here there is none to read), and leaves whatever reads
// or writes it, a form included, to run; what it answers is Handle's answer, and only a
// help text is marked fixed for a transport to keep.
func TestPrepareAnswersWhatReadsNoRecord(t *testing.T) {
	s, _, _ := MustService(t)
	bare := &commands.Service{Engine: s.Engine, Now: s.Now} // no record at all
	bare.Configure(*s.Settings())
	for _, tc := range []struct {
		user, text string
		now, fixed bool
	}{
		{clerk, "help", true, true},
		{stranger, "help", true, true},
		{clerk, "help file", true, true},
		{clerk, "help nosuch", true, false},
		{clerk, "nosuch 2026-001", true, false},
		{stranger, "docket", true, false},
		{attorney, "file", true, false},
		{clerk, `file respondent="A`, true, false},
		{clerk, "case", true, false},
		{clerk, "case 2026-001", false, false},
		{clerk, "docket", false, false},
		{clerk, "file", false, false}, // opens a form, which may list the cases
		{clerk, `file respondent="A" complainant="B" section=103.10 summary="x"`, false, false},
	} {
		resp, run := bare.Prepare(ctx, commands.Request{User: tc.user, Text: tc.text, RequestID: "k"})
		if (run == nil) != tc.now {
			t.Errorf("%s as %s: answered at once %v, want %v", tc.text, tc.user, run == nil, tc.now)
			continue
		}
		if run != nil {
			if len(resp.Messages) != 0 || resp.Modal != nil || len(resp.Posts) != 0 {
				t.Errorf("%s: an answer %+v beside what is left to run", tc.text, resp)
			}
			continue
		}
		if resp.Fixed != tc.fixed {
			t.Errorf("%s as %s: fixed %v, want %v", tc.text, tc.user, resp.Fixed, tc.fixed)
		}
		if got, want := replyText(resp), replyText(do(s, tc.user, tc.text)); got != want || got == "" {
			t.Errorf("%s as %s: Prepare says %q, Handle %q", tc.text, tc.user, got, want)
		}
	}
}
