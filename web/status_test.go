package web_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/web"
)

// failingTokens is a record whose calendar tokens cannot be read.
type failingTokens struct{ err error }

func (f failingTokens) CalendarUser(context.Context, string) (string, bool, error) {
	return "", false, f.err
}

// TestCalendarFeedFailureStatus: a feed that cannot read the record answers with the status
// of the error's code, and never with the error's words, which name the database's path.
func TestCalendarFeedFailureStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"Unavailable", docket.Unavailable("the database /var/lib/ethicsbot/ethicsbot.db is locked by another program"),
			http.StatusServiceUnavailable, "Service Unavailable\n"},
		{"NotAnAppError", errors.New("sql: database /var/lib/ethicsbot/ethicsbot.db is closed"),
			http.StatusInternalServerError, "Internal error\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			feed := &web.CalendarFeed{Tokens: failingTokens{tc.err}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
			rec := httptest.NewRecorder()
			feed.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/calendar/abc.ics", nil))
			if rec.Code != tc.status || rec.Body.String() != tc.body || strings.Contains(rec.Body.String(), "ethicsbot.db") {
				t.Errorf("answered %d %q, want %d %q", rec.Code, rec.Body.String(), tc.status, tc.body)
			}
		})
	}
}

// TestStatusesCoverEveryCode: the table from codes to HTTP statuses has a row for every
// docket error code, and only the codes a user cannot act on are 5xx.
func TestStatusesCoverEveryCode(t *testing.T) {
	statuses := web.StatusesForTest()
	for _, code := range docket.Codes {
		status, ok := statuses[code]
		if !ok {
			t.Errorf("no HTTP status for code %q", code)
			continue
		}
		server := code == docket.EUNAVAILABLE || code == docket.EINTERNAL
		if got := status >= 500; got != server {
			t.Errorf("code %q is answered %d", code, status)
		}
	}
}
