package commands

import (
	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// refusalReply is how a user is told of an error of one code.
type refusalReply struct {
	// prefix goes before the error's own words (docket.ErrorMessage), for an error the
	// user can act on: a rule broken, a case not found, a state that does not allow it.
	prefix outbox.Markup
	// fixed replaces the error's own words, which are for the city's IT staff: they may
	// name paths, or be a bug. The error is logged in full.
	fixed outbox.Markup
}

// refusals maps each docket error code to its reply: the one table from codes to what a
// user is told. A code not in it is answered as EINTERNAL.
var refusals = map[string]refusalReply{
	docket.EINVALID:      {prefix: "Not done: "},
	docket.ENOTFOUND:     {prefix: "Not done: "},
	docket.ECONFLICT:     {prefix: "Not done: "},
	docket.EUNAUTHORIZED: {prefix: "Not done: "},
	// The record cannot be written (a full disk, a removed file): the user is told so, and
	// the city's IT staff get the details, paths included, in the log.
	docket.EUNAVAILABLE: {fixed: "Not done: the commission's record cannot be written just now; nothing was recorded. " +
		"The problem has been logged for the city's IT staff."},
	docket.EINTERNAL: {fixed: "Internal error: nothing was changed. The problem has been logged for the city's IT staff."},
}

// refusal is what the user is told of err, by its code; logged reports that err's own
// words are for the log, not the user.
func refusal(err error) (text outbox.Markup, logged bool) {
	r, ok := refusals[docket.ErrorCode(err)]
	if !ok {
		r = refusals[docket.EINTERNAL]
	}
	if r.fixed != "" {
		return r.fixed, true
	}
	return r.prefix + outbox.Escape(docket.ErrorMessage(err)), false
}
