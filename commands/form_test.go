package commands_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// modalSubs are the subcommands that open a form when typed alone.
var modalSubs = []string{"file", "schedule", "cancel", "posted", "mail", "delivered", "receipt", "rule", "recess",
	"concluded",
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
			if label == in.BlockID || strings.ContainsRune(label, '_') || !unicode.IsUpper([]rune(label)[0]) ||
				len(label) > commands.MaxLabel {
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
			if e, ok := in.Element.(*slack.PlainTextInputBlockElement); ok && e.Placeholder != nil &&
				len(e.Placeholder.Text) > commands.MaxPlaceholder {
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
	for k, want := range map[string]string{"mail mailed": "Date mailed", "rule yes": "Voted yes",
		"rule on": "Date of the ruling", "mail article": "USPS article number"} {
		if labels[k] != want {
			t.Errorf("%s is labelled %q, want %q", k, labels[k], want)
		}
	}
	// A hint longer than 150 characters is shown whole.
	if h := hints["mail paper"]; len(h) <= 150 || !strings.HasSuffix(h, "go to the attorney.") {
		t.Errorf("the paper's hint is cut: %q", h)
	}
}

// caseOptions are the values and texts of the case list in form m, or nil if the case is
// asked as text.
func caseOptions(t *testing.T, m *slack.ModalViewRequest) (values, texts []string) {
	t.Helper()
	for _, b := range m.Blocks.BlockSet {
		in, ok := b.(*slack.InputBlock)
		if !ok || in.BlockID != "number" {
			continue
		}
		sel, ok := in.Element.(*slack.SelectBlockElement)
		if !ok {
			return nil, nil
		}
		if sel.Type != slack.OptTypeStatic {
			t.Fatalf("the case input is a %s", sel.Type)
		}
		for _, o := range sel.Options {
			values = append(values, o.Value)
			texts = append(texts, o.Text.Text)
		}
	}
	return values, texts
}

// TestCaseChosenFromAList: a form typed alone asks for its case from a list of the cases
// its user may act on: the open cases they are not recused from, and for a correction the
// closed ones too; chosen, the case is the one acted on.
func TestCaseChosenFromAList(t *testing.T) {
	s := threeCases(t) // 2026-001 dismissed and closed; 2026-002 with U_COMM2 its respondent; 2026-003 open
	for _, tc := range []struct {
		user, form string
		want       []string
	}{
		{clerk, "schedule", []string{"2026-002", "2026-003"}},
		{"U_COMM2", "schedule", []string{"2026-003"}},
		{clerk, "correct", []string{"2026-002", "2026-003", "2026-001"}},
		{"U_COMM2", "correct", []string{"2026-003", "2026-001"}},
	} {
		got, texts := caseOptions(t, form(t, s, tc.user, tc.form))
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s as %s lists %v, want %v", tc.form, tc.user, got, tc.want)
		}
		for _, text := range texts {
			if len(text) > commands.MaxOptionText || !strings.Contains(text, " v. ") {
				t.Errorf("%s: option %q", tc.form, text)
			}
		}
	}
	sub := submit(s, clerk, form(t, s, clerk, "schedule"), values{
		"number":  {SelectedOption: slack.OptionBlockObject{Value: "2026-003"}},
		"meeting": {SelectedOption: slack.OptionBlockObject{Value: "sufficiency"}},
		"start":   {SelectedDateTime: time.Date(2026, 12, 14, 23, 0, 0, 0, time.UTC).Unix()},
		"place":   {Value: "City Hall"},
	})
	if len(sub.Errors) > 0 || !strings.Contains(shownText(sub), "Case 2026-003: sufficiency meeting scheduled") {
		t.Errorf("the form chosen from the list: %v %q", sub.Errors, shownText(sub))
	}
}

// shownText is what a submission shows its user: the form updated in its place, and any
// reply.
func shownText(sub commands.Submission) string {
	var out []string
	if sub.View != nil {
		for _, b := range sub.View.Blocks.BlockSet {
			if sec, ok := b.(*slack.SectionBlock); ok && sec.Text != nil {
				out = append(out, sec.Text.Text)
			}
		}
	}
	return strings.Join(append(out, replyText(sub.Response)), "\n")
}

// TestDoneShowsWhatWasDone: a form that did what it asked shows the reply in its place,
// with only a Done button, and sends the reply's other messages; a reply too large for a
// modal's answer (Socket Mode drops one of 20 KB) closes it and goes as a message instead.
func TestDoneShowsWhatWasDone(t *testing.T) {
	form := slack.View{CallbackID: "ethics:mail",
		Title: slack.NewTextBlockObject(slack.PlainTextType, "mail 2026-001", false, false)}
	short := commands.Response{Messages: []commands.Message{{Text: "Case 2026-001: mailed."}, {Text: "and one more"}}}
	sub := commands.DoneForTest(form, short)
	if sub.View == nil || sub.View.Submit != nil || sub.View.Close.Text != "Done" ||
		sub.View.Title.Text != "mail 2026-001" ||
		!strings.Contains(shownText(sub), "Case 2026-001: mailed.") || len(sub.Response.Messages) != 1 {
		t.Errorf("short reply: %+v", sub)
	}
	long := commands.Response{Messages: []commands.Message{{Text: outbox.Markup(strings.Repeat("a long line of the reply\n", 1000))}}}
	sub = commands.DoneForTest(form, long)
	if sub.View != nil || len(sub.Response.Messages) != 1 {
		t.Errorf("a reply of %d bytes was put in the modal's answer", len(long.Messages[0].Text))
	}
}

// openCasesCounted is the store, counting how often every open case is read.
type openCasesCounted struct {
	*store.Store
	reads *int
}

func (r openCasesCounted) OpenCases(ctx context.Context) ([]*docket.Case, error) {
	*r.reads++
	return r.Store.OpenCases(ctx)
}

// TestCaseAskedAsTextPastASelect: with more open cases than a select holds (100), a form
// asks for the case as text, and its store counts them without every open case being
// read; with as many as it holds, they are listed.
func TestCaseAskedAsTextPastASelect(t *testing.T) {
	s, c, db := MustService(t)
	reads := 0
	counted := &commands.Service{Record: openCasesCounted{db, &reads}, Engine: s.Engine, Now: c.Now}
	counted.Configure(*s.Settings())
	for i := range commands.MaxOptions + 1 {
		fileNth(t, db, i, c.now.Add(-time.Duration(i)*time.Hour))
		if i == commands.MaxOptions-1 {
			if got, _ := caseOptions(t, form(t, counted, clerk, "schedule")); len(got) != commands.MaxOptions ||
				reads != 1 {
				t.Fatalf("with %d open cases the form lists %d, reading every open case %d times; want all, once",
					commands.MaxOptions, len(got), reads)
			}
		}
	}
	reads = 0
	if got, _ := caseOptions(t, form(t, counted, clerk, "schedule")); got != nil || reads != 0 {
		t.Fatalf("with %d open cases the form lists %d, reading every open case %d times; want the number asked "+
			"as text, none read", commands.MaxOptions+1, len(got), reads)
	}
}

// closedCasesCounted is the store, counting the closed cases it decodes for a form; a form
// that reads every case instead fails the test.
type closedCasesCounted struct {
	*store.Store
	t       *testing.T
	decoded *int
}

func (r closedCasesCounted) ClosedCases(ctx context.Context, fn func(*docket.Case) bool) error {
	return r.Store.ClosedCases(ctx, func(c *docket.Case) bool {
		*r.decoded++
		return fn(c)
	})
}

func (r closedCasesCounted) AllCases(ctx context.Context) ([]docket.Case, error) {
	r.t.Error("a form read every case")
	return r.Store.AllCases(ctx)
}

// everyCaseRead is a record that can only give every case at once, as a record without
// ClosedCases does.
type everyCaseRead struct{ commands.Record }

// closeNth files the i-th complaint, received on day, and dismisses it at its sufficiency
// meeting three days on (C)(2), its notices of the dismissal mailed: closed.
func closeNth(t *testing.T, db *store.Store, cal *docket.Calendar, i int, received time.Time) {
	t.Helper()
	n := fileNth(t, db, i, received).Number
	meeting := received.AddDate(0, 0, 3)
	for cal.StatutoryHoliday(cal.DateOf(meeting)) != "" {
		meeting = meeting.AddDate(0, 0, 1) // no meeting on a legal holiday (5 ILCS 120/2.01)
	}
	if _, err := db.Apply(ctx, docket.Act{By: clerk, At: received}, n,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"},
		docket.PostNotice{Meeting: docket.SufficiencyMeeting},
		docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: article(fmt.Sprintf("9407%017d", i))},
		docket.RecordMailing{Paper: docket.ComplainantConfirmPaper, Article: article(fmt.Sprintf("9408%017d", i))},
	); err != nil {
		t.Fatal(err)
	}
	ruled := meeting.Add(time.Hour)
	if _, err := db.Apply(ctx, docket.Act{By: comm, At: ruled}, n, docket.Rule{Ruling: docket.Insufficient}); err != nil {
		t.Fatal(err)
	}
	res, err := db.Apply(ctx, docket.Act{By: clerk, At: ruled}, n,
		docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: article(fmt.Sprintf("9409%017d", i))},
		docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: article(fmt.Sprintf("9410%017d", i))})
	if err != nil || !res.Case.Closed() {
		t.Fatalf("case %s not dismissed: %v, %s, owed %v, frivolous %v", n, err, res.Case.State, res.Case.PapersOwed(), res.Case.FrivolousPending)
	}
}

// TestClosedCasesListedUpToASelect: a form that acts on closed cases too (correct) lists the
// open cases, then the closed ones the latest received first, as it did from every case
// sorted; with more than a select holds (100), it asks for the number as text, having
// decoded the closed cases up to the first it could not list, not every case.
func TestClosedCasesListedUpToASelect(t *testing.T) {
	s, c, db := MustService(t)
	decoded := 0
	counted := &commands.Service{Record: closedCasesCounted{db, t, &decoded}, Engine: s.Engine, Now: c.Now}
	counted.Configure(*s.Settings())
	every := &commands.Service{Record: everyCaseRead{db}, Engine: s.Engine, Now: c.Now}
	every.Configure(*s.Settings())
	day := c.now.AddDate(0, 0, -200)
	fileNth(t, db, 0, c.now.Add(-time.Hour)) // open
	for i := 1; i <= 3; i++ {
		closeNth(t, db, s.Engine.Cal, i, day.Add(time.Duration(i%2)*time.Hour)) // two received at once
	}
	got, texts := caseOptions(t, form(t, counted, clerk, "correct"))
	want, _ := caseOptions(t, form(t, every, clerk, "correct"))
	if len(got) != 4 || strings.Join(got, " ") != strings.Join(want, " ") || decoded != 3 {
		t.Fatalf("the form lists %v (%q) after decoding %d closed cases; from every case it listed %v", got, texts, decoded,
			want)
	}
	for i := 4; i <= commands.MaxOptions+5; i++ {
		closeNth(t, db, s.Engine.Cal, i, day.AddDate(0, 0, i/8).Add(time.Duration(i%8)*time.Minute))
	}
	decoded = 0
	if got, _ := caseOptions(t, form(t, counted, clerk, "correct")); got != nil || decoded != commands.MaxOptions {
		t.Fatalf("with 1 open and %d closed cases the form lists %d after decoding %d closed cases; want the number "+
			"asked as text after %d", commands.MaxOptions+5, len(got), decoded, commands.MaxOptions)
	}
	if got, _ := caseOptions(t, form(t, every, clerk, "correct")); got != nil {
		t.Fatalf("from every case, the form lists %d", len(got))
	}
}
