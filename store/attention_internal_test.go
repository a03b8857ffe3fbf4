package store

import "time"

// AttentionQueryPlans are the plans of the App Home tab's reads of what needs attention:
// the count of the lines listed now, and the cases that list them.
func AttentionQueryPlans(s *Store) (count, cases []string, err error) {
	at := stamp(time.Now())
	if count, err = QueryPlan(s, attentionCount, at, `["2026-001"]`); err != nil {
		return nil, nil, err
	}
	cases, err = QueryPlan(s, attentionCases, at)
	return count, cases, err
}
