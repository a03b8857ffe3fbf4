package docket_test

import (
	"errors"
	"fmt"
	"testing"

	"ethicsbot/docket"
)

// TestErrorConstructors: each constructor gives its own code, and ErrorCode and
// ErrorMessage read an *Error through wrapping, anything else as internal.
func TestErrorConstructors(t *testing.T) {
	for _, tc := range []struct {
		err       error
		code, msg string
	}{
		{docket.Invalid("(C)(1)", "start", "too early"), docket.EINVALID, "start: too early (rule (C)(1))"},
		{docket.NotFound("", "event", "case 2026-001 has no event 9"), docket.ENOTFOUND,
			"event: case 2026-001 has no event 9"},
		{docket.Conflict("(B)", "", "not yet"), docket.ECONFLICT, "not yet (rule (B))"},
		{docket.Unauthorized("", "", "you are recused"), docket.EUNAUTHORIZED, "you are recused"},
		{docket.Unavailable("the disk is full"), docket.EUNAVAILABLE, "the disk is full"},
		{docket.Internal("a bug"), docket.EINTERNAL, "a bug"},
		{fmt.Errorf("applying: %w", docket.Invalid("", "year", "not a year")), docket.EINVALID, "year: not a year"},
		{errors.New("sql: database is closed"), docket.EINTERNAL, "Internal error"},
		{nil, "", ""},
	} {
		t.Run(tc.code+" "+tc.msg, func(t *testing.T) {
			if got := docket.ErrorCode(tc.err); got != tc.code {
				t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, got, tc.code)
			}
			if got := docket.ErrorMessage(tc.err); got != tc.msg {
				t.Errorf("ErrorMessage(%v) = %q, want %q", tc.err, got, tc.msg)
			}
		})
	}
}

// TestErrorCodesDistinct: every code is listed once, so that a transport's table keyed by
// code has a row for each.
func TestErrorCodesDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range docket.Codes {
		if c == "" || seen[c] {
			t.Errorf("code %q is empty or listed twice", c)
		}
		seen[c] = true
	}
	if len(seen) != 6 {
		t.Errorf("%d codes, want the six of error.go", len(seen))
	}
}
