package store_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/store"
)

// TestOutboxQueriesUseTheirIndexes: the outbox's queries made at each request (/ethics
// case lists the failing posts; each card's update reads the latest) and at each sweep
// (the posts due since its window began) read through an index, not every post the outbox
// has ever kept: under a backlog, or after years of posts, a scan made every request slow.
func TestOutboxQueriesUseTheirIndexes(t *testing.T) {
	db := MustOpen(t)
	for _, q := range []struct {
		name, query, index string
		args               []any
	}{
		{"Stuck", store.StuckQuery, "outbox_failing", nil},
		{"LatestEdit", store.LatestEditQuery, "outbox_thread", []any{"card|x"}},
		{"Planned", store.PlannedQuery, "outbox_due", []any{time.Now().UTC().Format(time.RFC3339Nano)}},
	} {
		plan, err := store.QueryPlan(db, q.query, q.args...)
		if err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		// "SCAN outbox USING INDEX outbox_failing" walks the partial index, which holds only
		// the failing posts; a bare "SCAN outbox" reads them all.
		joined := strings.Join(plan, "; ")
		if !strings.Contains(joined, "INDEX "+q.index) || slices.Contains(plan, "SCAN outbox") {
			t.Errorf("%s reads %q, want it through %s", q.name, joined, q.index)
		}
	}
}
