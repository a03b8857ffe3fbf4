package store_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// attentionRead is what Store.Attention hands and counts: the numbers of the cases in
// order, at most limit of them, and the lines of all.
func attentionRead(t *testing.T, s *store.Store, viewer string, now time.Time, limit int) ([]string, int) {
	t.Helper()
	var numbers []string
	lines, err := s.Attention(ctx, viewer, now, func(c *docket.Case) bool {
		numbers = append(numbers, c.Number)
		return len(numbers) < limit
	})
	if err != nil {
		t.Fatal(err)
	}
	return numbers, lines
}

// TestAttentionOfEveryCase: on a record whose spans were counted under another calendar
// (read only, before the bot counts them again), what needs attention is counted from
// every open case, and is what the spans kept give: the same cases in the same order, the
// same lines, the viewer's recused cases left out of both.
func TestAttentionOfEveryCase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	for i, at := range []string{"2026-11-02T10:00:00-06:00", "2026-11-20T10:00:00-06:00", "2026-11-03T10:00:00-06:00",
		"2026-12-01T10:00:00-06:00", "2026-12-04T10:00:00-06:00"} {
		c := mustFile(t, s, at, "Roe")
		if i%2 == 0 {
			mustApply(t, s, c.Number, at, docket.Recuse{User: "U_COMM", Reason: "a relative"})
		}
	}
	// A closure years ahead: the deadlines are the same, their basis is not.
	cal, err := docket.NewCalendar(docket.CalendarConfig{Closures: []docket.Date{docket.NewDate(2031, 3, 3)}})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(path, &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, at := range []string{"2026-11-10T10:00:00-06:00", "2026-12-08T10:00:00-06:00", "2027-02-01T10:00:00-06:00"} {
		for _, viewer := range []string{"U_CLERK", "U_COMM"} {
			for _, limit := range []int{1, 100} {
				wantCases, wantLines := attentionRead(t, s, viewer, T(t, at), limit)
				gotCases, gotLines := attentionRead(t, ro, viewer, T(t, at), limit)
				if !slices.Equal(gotCases, wantCases) || gotLines != wantLines || wantLines == 0 {
					t.Errorf("at %s for %s, up to %d: every case gives %v and %d lines; the spans kept %v and %d",
						at, viewer, limit, gotCases, gotLines, wantCases, wantLines)
				}
			}
		}
	}
}
