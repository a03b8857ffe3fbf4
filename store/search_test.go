package store_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// numbers lists the cases' numbers, in order.
func numbers(cases []docket.Case) []string {
	out := []string{}
	for _, c := range cases {
		out = append(out, c.Number)
	}
	return out
}

func mustSearch(tb testing.TB, s *store.Store, query string) []string {
	tb.Helper()
	cases, _, err := s.Search(ctx, query, "", 0, 1000)
	if err != nil {
		tb.Fatalf("Search(%q): %v", query, err)
	}
	return numbers(cases)
}

// searchFixture files two cases that share words ("city", "email", "John Doe") and a
// third dismissed and closed, with their mailings.
func searchFixture(t *testing.T) *store.Store {
	t.Helper()
	s := MustOpen(t)
	mustFile(t, s, "2026-12-01T10:00:00-06:00", "Jane Roe")       // 2026-001
	mustFile(t, s, "2026-12-02T10:00:00-06:00", "Robert Müller")  // 2026-002
	c := mustFile(t, s, "2026-12-03T10:00:00-06:00", "Ann Smith") // 2026-003, dismissed below
	mustApply(t, s, c.Number, "2026-12-03T12:00:00-06:00",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
			Place: "City Hall"})
	mustApply(t, s, c.Number, "2026-12-03T12:30:00-06:00", docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	mustApply(t, s, c.Number, "2026-12-03T12:30:00-06:00",
		docket.RecordMailing{Recipient: docket.Respondent, Article: "9407111898765432109876"})
	mustApply(t, s, c.Number, "2026-12-03T12:30:00-06:00",
		docket.RecordMailing{Recipient: docket.Complainant, Article: "9407111898765432109777"})
	mustApply(t, s, c.Number, "2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient})
	mustApply(t, s, c.Number, "2026-12-11T10:00:00-06:00",
		docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: "9407111898765432100101"})
	mustApply(t, s, c.Number, "2026-12-11T10:00:00-06:00",
		docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: "9407111898765432100002"})
	if c, _ := s.Case(ctx, c.Number); !c.Closed() {
		t.Fatalf("fixture: case %s is %s and open; want it dismissed and closed", c.Number, c.State)
	}
	return s
}

func TestSearch(t *testing.T) {
	s := searchFixture(t)
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"Respondent", "Jane Roe", []string{"2026-001"}},
		{"Complainant", "John Doe", []string{"2026-003", "2026-002", "2026-001"}},
		{"SharedWordsNewestFirst", "city email", []string{"2026-003", "2026-002", "2026-001"}},
		{"EveryWordMustMatch", "Roe Smith", []string{}},
		{"Prefix", "rob", []string{"2026-002"}},
		{"StarIsAPrefixToo", "rob*", []string{"2026-002"}},
		{"CaseAndAccents", "MULLER", []string{"2026-002"}},
		{"Accented", "müller", []string{"2026-002"}},
		{"SummaryWords", "campaign for Ann", []string{"2026-003"}},
		{"ClosedCaseArticle", "9407111898765432109876", []string{"2026-003"}},
		{"ArticleAsPrinted", "9407 1118 9876 5432 1098 76", []string{"2026-003"}},
		{"ArticleOfALaterPaper", "9407 1118 9876 5432 1000 02", []string{"2026-003"}},
		{"ArticleStart", "9407 1118 9876", []string{"2026-003"}},
		{"NumbersInARowInTheText", "Room 201", []string{}},
		{"NoMatch", "zebra", []string{}},
		{"CaseNumberIsNotIndexed", "2026", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustSearch(t, s, tc.query); !slices.Equal(got, tc.want) {
				t.Errorf("Search(%q) = %v, want %v", tc.query, got, tc.want)
			}
		})
	}
}

// TestSearchHostile: whatever is typed, a search is an answer or an error that says what
// to type (never an error of SQL), and never matches every case.
func TestSearchHostile(t *testing.T) {
	s := searchFixture(t)
	for _, tc := range []struct {
		query string
		want  []string // nil: refused as giving no word
	}{
		{`"`, nil},
		{`*`, nil},
		{`-`, nil},
		{`)`, nil},
		{`(`, nil},
		{`""`, nil},
		{`" OR "`, []string{}},
		{`NEAR`, []string{}},
		{`OR`, []string{}},
		{`AND`, []string{}},
		{`NOT`, []string{}},
		{`Roe OR Smith`, []string{}},
		{`Roe NEAR Smith`, []string{}},
		{`Roe NEAR/3 Jane`, []string{}},
		{`Jane -Roe`, []string{"2026-001"}},
		{`"Jane Roe`, []string{"2026-001"}},
		{`Roe"`, []string{"2026-001"}},
		{`(Roe`, []string{"2026-001"}},
		{`Roe)`, []string{"2026-001"}},
		{`summary:Roe`, []string{}},
		{`parties:Roe`, []string{}},
		{`^Roe`, []string{"2026-001"}},
		{`Roe*`, []string{"2026-001"}},
		{`' OR 1=1 --`, []string{}},
		{`'; DROP TABLE cases; --`, []string{}},
		{`%`, nil},
		{`_`, nil},
		{"\u0301", nil},
		{"Roe\x00", []string{"2026-001"}},
		{`\"`, nil},
		{strings.Repeat("a ", store.MaxSearchWords+1), nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got, _, err := s.Search(ctx, tc.query, "", 0, 1000)
			if tc.want == nil {
				var de *docket.Error
				if !errors.As(err, &de) || de.Code != docket.EINVALID || de.Field != "words" {
					t.Fatalf("Search(%q) = %v, %v; want an EINVALID error on words", tc.query, numbers(got), err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Search(%q): %v", tc.query, err)
			}
			if !slices.Equal(numbers(got), tc.want) {
				t.Errorf("Search(%q) = %v, want %v", tc.query, numbers(got), tc.want)
			}
		})
	}
}

// TestSearchFollowsCorrections: a corrected name or article number is found at once, and
// the one it replaced no longer is.
func TestSearchFollowsCorrections(t *testing.T) {
	s := searchFixture(t)
	when := T(t, "2026-12-04T10:00:00-06:00")
	f := docket.File{Complainant: docket.Person{Name: "Pat Q. Public"}, Respondent: docket.Person{Name: "Zed Quill"},
		Sections: []string{"103.10"}, Received: when, Summary: "Nothing about names."}
	res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, f)
	if err != nil {
		t.Fatal(err)
	}
	number := res.Case.Number
	f.Respondent.Name = "Zed Quell"
	payload, _ := json.Marshal(f)
	mustApply(t, s, number, "2026-12-04T11:00:00-06:00",
		docket.Correct{Seq: 1, Of: "file", Field: "respondent", From: "Zed Quill", To: "Zed Quell", Reason: "misspelt",
			Action: payload})
	if got := mustSearch(t, s, "Quill"); len(got) != 0 {
		t.Errorf("the name as it was still finds %v", got)
	}
	if got := mustSearch(t, s, "zed quell"); !slices.Equal(got, []string{number}) {
		t.Errorf("the corrected name finds %v", got)
	}

	// The article number of the dismissal to the respondent (event 7 of 2026-003).
	entries, err := s.Entries(ctx, "2026-003")
	if err != nil {
		t.Fatal(err)
	}
	m := entries[6].Action.(docket.RecordMailing)
	if m.Article != "9407111898765432100101" {
		t.Fatalf("fixture: event 7 is %+v", m)
	}
	m.Article = "9407111898765432155255"
	payload, _ = json.Marshal(m)
	mustApply(t, s, "2026-003", "2026-12-11T11:00:00-06:00",
		docket.Correct{Seq: 7, Of: m.Kind(), Field: "article", From: "9407111898765432100101", To: m.Article, Reason: "typo",
			Action: payload})
	if got := mustSearch(t, s, "9407111898765432100101"); len(got) != 0 {
		t.Errorf("the article number as it was still finds %v", got)
	}
	if got := mustSearch(t, s, "9407 1118 9876 5432 1552 55"); !slices.Equal(got, []string{"2026-003"}) {
		t.Errorf("the corrected article number finds %v", got)
	}
	mustVerify(t, s)
}

// TestSearchBackfill: a database recorded before the index is searchable once opened,
// and the index is no part of what verify checks.
func TestSearchBackfill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	// As ethicsbot left it before the search index: filed, then the index and its
	// migration taken away (the later migrations create nothing that is not there).
	old := MustOpenPath(t, path)
	for _, r := range []struct{ at, name string }{{"2026-12-01T10:00:00-06:00", "Jane Roe"},
		{"2026-12-02T10:00:00-06:00", "Robert Müller"}} {
		when := T(t, r.at)
		if _, err := old.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, r.name)); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := raw.QueryRow(`SELECT version FROM schema_migrations WHERE name LIKE '%_search.sql'`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	// As an ethicsbot before the search index left it: nor had it the board, nor the
	// outbox's actions and threads, which came after.
	if _, err := raw.Exec(fmt.Sprintf(`DROP TABLE case_attention; DROP TABLE case_steps; DROP INDEX cases_open_by_next; DROP INDEX cases_open_recused; ALTER TABLE cases DROP COLUMN next; ALTER TABLE cases DROP COLUMN recused; DROP INDEX cases_open_by_due; ALTER TABLE cases DROP COLUMN due; ALTER TABLE outbox DROP COLUMN actions; DROP TABLE case_search; DROP TABLE public_records; DROP INDEX outbox_thread; ALTER TABLE outbox DROP COLUMN thread; ALTER TABLE outbox DROP COLUMN edit; DELETE FROM schema_migrations WHERE version >= %d; PRAGMA user_version = %d`, v, v-1)); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	s := MustOpenPath(t, path)
	if got := mustSearch(t, s, "muller"); !slices.Equal(got, []string{"2026-002"}) {
		t.Errorf("after migrating, muller finds %v", got)
	}
	if got := mustSearch(t, s, "john doe"); !slices.Equal(got, []string{"2026-002", "2026-001"}) {
		t.Errorf("after migrating, john doe finds %v", got)
	}
	mustVerify(t, s)
	s.Close()

	// A row of the index lost is made again at the next open; the record itself is never
	// touched.
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM case_search WHERE number = '2026-001'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = MustOpenPath(t, path)
	if got := mustSearch(t, s, "john doe"); !slices.Equal(got, []string{"2026-002", "2026-001"}) {
		t.Errorf("after reopening, john doe finds %v", got)
	}
	if r := mustVerify(t, s); r.Cases != 2 || r.Events != 2 {
		t.Errorf("verify: %+v", r)
	}
}

func TestMatchExpression(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"Jane Roe", `"jane*" "roe*"`},
		{`rob* OR "NEAR"`, `"rob*" "or*" "near*"`},
		{"9407 1118 9876 5432 1098 76", `("9407 1118 9876 5432 1098 76*" OR "9407111898765432109876*")`},
		{"Room 201, 2026", `"room*" "201*" "2026*"`},
		{"103.10", `"103*" "10*"`},
		{"§103.10 (NEAR)", `"103*" "10*" "near*"`},
	} {
		got, err := store.MatchExpression(tc.query)
		if err != nil || got != tc.want {
			t.Errorf("MatchExpression(%q) = %q, %v; want %q", tc.query, got, err, tc.want)
		}
	}
}

// FuzzSearch: no query is an error of SQL, and one without a word to look for is refused,
// never taken to match everything.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{"Jane Roe", `" OR "`, "NEAR/3", "9407 1118 9876", "rob*", "-x", "(a OR b)", "\u0301",
		"a:b", "\x00"} {
		f.Add(seed)
	}
	s := MustOpen(f)
	mustFile(f, s, "2026-12-01T10:00:00-06:00", "Jane Roe")
	f.Fuzz(func(t *testing.T, query string) {
		cases, _, err := s.Search(ctx, query, "", 0, 1000)
		var de *docket.Error
		if err != nil && !(errors.As(err, &de) && de.Code == docket.EINVALID) {
			t.Fatalf("Search(%q): %v", query, err)
		}
		if !strings.ContainsFunc(query, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) &&
			err == nil {
			t.Errorf("Search(%q) found %v, though it holds no word to look for", query, numbers(cases))
		}
	})
}

// TestSearchPage: a search returns the page asked for, newest first, with the count of all
// it found; the cases the viewer is recused from are in neither.
func TestSearchPage(t *testing.T) {
	s := MustOpen(t)
	for day := 1; day <= 5; day++ {
		mustFile(t, s, fmt.Sprintf("2026-12-0%dT10:00:00-06:00", day), fmt.Sprintf("John Doe %d", day))
	}
	mustApply(t, s, "2026-004", "2026-12-06T10:00:00-06:00", docket.Recuse{User: "U_COMM2", Reason: "a neighbour"})
	for _, tc := range []struct {
		viewer        string
		offset, limit int
		want          []string
		total         int
	}{
		{"U_COMM1", 0, 2, []string{"2026-005", "2026-004"}, 5},
		{"U_COMM1", 2, 2, []string{"2026-003", "2026-002"}, 5},
		{"U_COMM1", 4, 2, []string{"2026-001"}, 5},
		{"U_COMM1", 6, 2, []string{}, 5},
		{"U_COMM2", 0, 2, []string{"2026-005", "2026-003"}, 4},
		{"U_COMM2", 2, 2, []string{"2026-002", "2026-001"}, 4},
	} {
		got, total, err := s.Search(ctx, "doe", tc.viewer, tc.offset, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(numbers(got), tc.want) || total != tc.total {
			t.Errorf("Search(doe) for %s from %d, %d at most: %v of %d; want %v of %d", tc.viewer, tc.offset, tc.limit,
				numbers(got), total, tc.want, tc.total)
		}
	}
}
