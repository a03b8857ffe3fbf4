package store

import (
	"context"
	"database/sql"
	"time"
)

// OutboxBacklog is the outbox as an operator watches it: how many posts are due at now and
// not yet sent, and when the oldest of them fell due (zero when none is). It is one read,
// made at each scrape of /metrics; this is the one place the backlog is counted.
func (s *Store) OutboxBacklog(ctx context.Context, now time.Time) (pending int, oldestDue time.Time, err error) {
	var oldest sql.NullString
	err = s.r.QueryRowContext(ctx, `SELECT count(*), min(due) FROM outbox WHERE sent = '' AND text != '' AND due <= ?`,
		stamp(now)).Scan(&pending, &oldest)
	if err != nil {
		return 0, time.Time{}, err
	}
	return pending, unstamp(oldest.String), nil
}
