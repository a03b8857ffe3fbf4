package docket

import (
	"errors"
	"strings"
)

// Error codes. A transport maps each to its own kind of reply; whatever is not an *Error
// reaches a user as "Internal error" and is logged in full.
const (
	EINVALID      = "invalid"      // the input breaks a rule or is malformed
	ENOTFOUND     = "not_found"    // no such case, meeting or mailing
	ECONFLICT     = "conflict"     // the case's state does not allow this now
	EUNAUTHORIZED = "unauthorized" // the user's role does not allow this
	EINTERNAL     = "internal"     // a bug or an outside failure
)

// Error is an error a clerk or commissioner can read: what is wrong, what to do, and the
// ordinance rule involved.
type Error struct {
	Code    string
	Field   string // the input field at fault, if any, e.g. "received"
	Rule    string // the ordinance subsection, e.g. "(C)(1)", if any
	Message string
}

// Error formats e as "field: message (rule (C)(1))".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Rule != "" {
		b.WriteString(" (rule ")
		b.WriteString(e.Rule)
		b.WriteString(")")
	}
	return b.String()
}

// invalid and conflict build *Errors. A message says what is wrong and what to do next.
func invalid(field, rule, message string) *Error {
	return &Error{Code: EINVALID, Field: field, Rule: rule, Message: message}
}

func conflict(rule, message string) *Error {
	return &Error{Code: ECONFLICT, Rule: rule, Message: message}
}

// ErrorCode returns the code of an *Error in err's chain, and EINTERNAL for anything else.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return EINTERNAL
}
