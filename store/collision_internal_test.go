package store

import (
	"context"
	"database/sql"
	"time"

	"ethicsbot/docket"
)

// RecordMeetingUnchecked records the creation of a meeting without the checks of
// ChangeMeeting, as a record kept before they existed may hold it: for tests of verify.
func RecordMeetingUnchecked(s *Store, create docket.CreateMeeting, at time.Time) error {
	ctx := context.Background()
	return s.write(ctx, func(tx *sql.Tx) error {
		m, err := s.engine.ApplyMeeting(docket.CommissionMeeting{}, create, at)
		if err != nil {
			return err
		}
		return s.recordMeeting(ctx, tx, m, create, "U_CLERK", at, 0, "")
	})
}
