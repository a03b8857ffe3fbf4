package store_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestArticleNumberOnOneCaseOnly: the same article number on papers of two cases is
// refused, whether mailed or brought in by a correction, and nothing is recorded; a number
// freed by a correction may be used again. On a schema before the search index too.
func TestArticleNumberOnOneCaseOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) *store.Store
	}{
		{"Indexed", func(t *testing.T) *store.Store { return MustOpen(t) }},
		{"BeforeTheIndex", func(t *testing.T) *store.Store {
			s, err := store.OpenAtVersion(filepath.Join(t.TempDir(), "ethicsbot.db"), MustEngine(t), 7)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.open(t)
			a := mustFile(t, s, "2026-12-04T10:00:00-06:00", "Jane Roe")
			b := mustFile(t, s, "2026-12-04T10:30:00-06:00", "Richard Roe")
			for _, n := range []string{a.Number, b.Number} {
				mustApply(t, s, n, "2026-12-04T11:00:00-06:00",
					docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
						Place: "City Hall"})
			}
			first, second := articleFor(a.Number, 1), articleFor(b.Number, 1)
			mustApply(t, s, a.Number, "2026-12-07T09:00:00-06:00",
				docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: first})
			events := len(mustEvents(t, s, b.Number))
			_, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-07T09:05:00-06:00")}, b.Number,
				docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: first})
			if docket.ErrorCode(err) != docket.ECONFLICT ||
				!strings.Contains(err.Error(), "already recorded on a paper of case "+a.Number) {
				t.Fatalf("the same article number on a second case: %v", err)
			}
			if got := len(mustEvents(t, s, b.Number)); got != events {
				t.Errorf("a refused mailing recorded %d events", got-events)
			}
			// Mailed on b under its own number, then corrected to a's: refused.
			mustApply(t, s, b.Number, "2026-12-07T09:10:00-06:00",
				docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: second})
			seq := len(mustEvents(t, s, b.Number))
			correct := func(number string, seq int, from, to string) error {
				payload, _ := json.Marshal(docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: to})
				_, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: T(t, "2026-12-07T10:00:00-06:00")}, number,
					docket.Correct{Seq: seq, Of: "mail", Field: "article", From: from, To: to, Reason: "typo", Action: payload})
				return err
			}
			if err := correct(b.Number, seq, second, first); docket.ErrorCode(err) != docket.ECONFLICT ||
				!strings.Contains(err.Error(), "case "+a.Number) {
				t.Errorf("a correction to another case's article number: %v", err)
			}
			// a's number corrected to another frees the first for b.
			if err := correct(a.Number, len(mustEvents(t, s, a.Number)), first, articleFor(a.Number, 9)); err != nil {
				t.Fatal(err)
			}
			if err := correct(b.Number, seq, second, first); err != nil {
				t.Errorf("a number no longer on any other paper: %v", err)
			}
			mustVerify(t, s)
		})
	}
}

func mustEvents(tb testing.TB, s *store.Store, number string) []store.Event {
	tb.Helper()
	events, err := s.Events(ctx, number)
	if err != nil {
		tb.Fatal(err)
	}
	return events
}
