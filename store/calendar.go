package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"ethicsbot/docket"
)

// calendarTokenBytes is how much randomness a calendar feed's token carries: 256 bits, so
// that no one can guess a member's address.
const calendarTokenBytes = 32

// IssueCalendarToken makes a new secret token for user's private calendar feed and returns
// it, base64url-encoded for a URL. Only its SHA-256 is stored; a token issued before to
// user is replaced in the same write, so its address stops working at once.
func (s *Store) IssueCalendarToken(ctx context.Context, user string, at time.Time) (string, error) {
	if user == "" {
		return "", docket.Invalid("", "user", "a calendar feed belongs to a Slack user; none was given")
	}
	b := make([]byte, calendarTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("calendar token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO calendar_tokens (user, token_sha256, created_at) VALUES (?, ?, ?)
			ON CONFLICT (user) DO UPDATE SET token_sha256 = excluded.token_sha256, created_at = excluded.created_at`,
			user, sum([]byte(token)), stamp(at))
		return err
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// CalendarIssued reports whether user has a calendar feed, and when its token was issued.
// The token itself cannot be read back: only its hash is kept.
func (s *Store) CalendarIssued(ctx context.Context, user string) (time.Time, bool, error) {
	var at string
	err := s.r.QueryRowContext(ctx, `SELECT created_at FROM calendar_tokens WHERE user = ?`, user).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return unstamp(at), true, nil
}

// CalendarUser returns the user whose calendar feed token is token; ok is false for a
// token that was never issued or has been replaced.
func (s *Store) CalendarUser(ctx context.Context, token string) (user string, ok bool, err error) {
	if token == "" {
		return "", false, nil
	}
	err = s.r.QueryRowContext(ctx, `SELECT user FROM calendar_tokens WHERE token_sha256 = ?`,
		sum([]byte(token))).Scan(&user)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return user, true, nil
}
