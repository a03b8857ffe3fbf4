package docket

import (
	"errors"
	"strings"
)

// Error codes. A transport maps each to its own kind of reply (commands' replies, web's
// HTTP statuses), each in one table; whatever is not an *Error reaches a user as
// "Internal error" and is logged in full.
const (
	EINVALID      = "invalid"      // the input breaks a rule or is malformed
	ENOTFOUND     = "not_found"    // no such case, meeting or mailing
	ECONFLICT     = "conflict"     // the case's state does not allow this now
	EUNAUTHORIZED = "unauthorized" // the user's role does not allow this
	EUNAVAILABLE  = "unavailable"  // the record cannot be written: a full disk, a file removed, replaced or locked
	EINTERNAL     = "internal"     // a bug
)

// Codes lists every error code, for a transport to check that its table covers them all.
var Codes = []string{EINVALID, ENOTFOUND, ECONFLICT, EUNAUTHORIZED, EUNAVAILABLE, EINTERNAL}

// Error is an error a clerk or commissioner can read: what is wrong, what to do, and the
// ordinance rule involved. Build one with its code's constructor (Invalid, NotFound,
// Conflict, Unauthorized, Unavailable, Internal); read one with ErrorCode and ErrorMessage.
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

// Invalid is input that breaks rule (an ordinance subsection such as "(C)(1)", or "") or
// is malformed, in the input field named field (or ""). message says what is wrong and
// what to do next.
func Invalid(rule, field, message string) *Error {
	return &Error{Code: EINVALID, Rule: rule, Field: field, Message: message}
}

// NotFound is a case, meeting, event or mailing that does not exist, as Invalid names it.
func NotFound(rule, field, message string) *Error {
	return &Error{Code: ENOTFOUND, Rule: rule, Field: field, Message: message}
}

// Conflict is an action that the case's state, or the record's, does not allow now, as
// Invalid names it.
func Conflict(rule, field, message string) *Error {
	return &Error{Code: ECONFLICT, Rule: rule, Field: field, Message: message}
}

// Unauthorized is an action that the user's role, or a recusal, does not allow, as Invalid
// names it.
func Unauthorized(rule, field, message string) *Error {
	return &Error{Code: EUNAUTHORIZED, Rule: rule, Field: field, Message: message}
}

// Unavailable is a record that cannot be written just now, whatever the action: a full
// disk, a database opened read-only or locked by another program, or a file removed,
// replaced, written or migrated under ethicsbot. message says what the operator should do;
// it may name paths, so a transport logs it and tells the user only that nothing was
// recorded.
func Unavailable(message string) *Error {
	return &Error{Code: EUNAVAILABLE, Message: message}
}

// Internal is a bug: a state the code should never reach. A transport logs it and tells
// the user only "Internal error".
func Internal(message string) *Error {
	return &Error{Code: EINTERNAL, Message: message}
}

// conflict is the package's own shorthand for a Conflict that names no field.
func conflict(rule, message string) *Error { return Conflict(rule, "", message) }

// ErrorCode returns the code of an *Error in err's chain, EINTERNAL for any other error,
// and "" for nil.
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

// ErrorMessage returns what a user may read of err: the text of an *Error in its chain
// ("field: message (rule (C)(1))"), "Internal error" for any other error, and "" for nil.
// The text of an EUNAVAILABLE or EINTERNAL *Error is for the operator's log; a transport
// shows the user its own words for those codes.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Error()
	}
	if err == nil {
		return ""
	}
	return "Internal error"
}
