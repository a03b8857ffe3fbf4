package store_test

import (
	"database/sql"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/store"
)

func TestCalendarToken(t *testing.T) {
	s := MustOpen(t)
	at := T(t, "2026-12-04T16:30:00Z")

	if _, ok, err := s.CalendarIssued(ctx, "U_COMM1"); ok || err != nil {
		t.Fatalf("CalendarIssued before any: %v %v", ok, err)
	}
	token, err := s.IssueCalendarToken(ctx, "U_COMM1", at)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(b) != 32 {
		t.Fatalf("token %q: %d bytes, %v; want 32 random bytes, base64url", token, len(b), err)
	}
	if got, ok, err := s.CalendarIssued(ctx, "U_COMM1"); !ok || err != nil || !got.Equal(at) {
		t.Errorf("CalendarIssued = %v %v %v, want %v", got, ok, err, at)
	}
	if user, ok, err := s.CalendarUser(ctx, token); !ok || err != nil || user != "U_COMM1" {
		t.Errorf("CalendarUser(token) = %q %v %v", user, ok, err)
	}
	for _, bad := range []string{"", "x", strings.ToUpper(token)} {
		if user, ok, err := s.CalendarUser(ctx, bad); ok || err != nil {
			t.Errorf("CalendarUser(%q) = %q %v %v, want not found", bad, user, ok, err)
		}
	}

	t.Run("ResetInvalidatesOld", func(t *testing.T) {
		next, err := s.IssueCalendarToken(ctx, "U_COMM1", at.Add(1))
		if err != nil {
			t.Fatal(err)
		}
		if next == token {
			t.Fatal("a reset gave the same token")
		}
		if _, ok, _ := s.CalendarUser(ctx, token); ok {
			t.Error("the old token still works after a reset")
		}
		if user, ok, _ := s.CalendarUser(ctx, next); !ok || user != "U_COMM1" {
			t.Errorf("new token: %q %v", user, ok)
		}
	})

	t.Run("ErrNoUser", func(t *testing.T) {
		if _, err := s.IssueCalendarToken(ctx, "", at); err == nil {
			t.Error("a token was issued to no user")
		}
	})
}

// TestCalendarTokenStoredHashed: the database never holds the token itself, only its
// SHA-256, so a copy of the file does not give away anyone's feed.
func TestCalendarTokenStoredHashed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	s := MustOpenPath(t, path)
	token, err := s.IssueCalendarToken(ctx, "U_CLERK", T(t, "2026-12-04T16:30:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var user, hash, created string
	if err := db.QueryRow(`SELECT user, token_sha256, created_at FROM calendar_tokens`).Scan(&user, &hash,
		&created); err != nil {
		t.Fatal(err)
	}
	if user != "U_CLERK" || len(hash) != 64 || strings.Contains(hash, token) || hash == token {
		t.Errorf("row (%q, %q): want the user and a hex SHA-256, not the token %q", user, hash, token)
	}
}

// TestCalendarMigration: a database from before calendar feeds (schema 6) opens, and
// takes cases and tokens.
func TestCalendarMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	old, err := store.OpenAtVersion(path, MustEngine(t), 6)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	s := MustOpenPath(t, path)
	mustFile(t, s, "2026-12-04T16:00:00Z", "Jane Roe")
	if cases, err := s.AllCases(ctx); err != nil || len(cases) != 1 {
		t.Fatalf("cases after migrating: %d %v", len(cases), err)
	}
	token, err := s.IssueCalendarToken(ctx, "U_CLERK", T(t, "2026-12-05T16:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if user, ok, err := s.CalendarUser(ctx, token); !ok || err != nil || user != "U_CLERK" {
		t.Errorf("CalendarUser after migrating: %q %v %v", user, ok, err)
	}
}
