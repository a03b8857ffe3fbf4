package app

import (
	"errors"

	"ethicsbot/store"
)

// Exit statuses. exitStatuses below says what each means; docs/setup.md ("Exit statuses")
// lists them, and the unit's RestartPreventExitStatus= names those of a refused start
// (TestExitStatusesDocumented).
const (
	ExitOK      = 0
	ExitFailure = 1 // anything else; starting again may mend it
	ExitUsage   = 2 // bad input or arguments
	// A start refused for what starting again cannot mend has a status of its own, taken
	// from BSD's sysexits.h, whose names systemd shows beside it ("status=78/CONFIG").
	ExitConfig = 78 // EX_CONFIG: the configuration or the environment
	ExitSchema = 65 // EX_DATAERR: the record's schema, a migration pending that the start cannot make
	ExitInUse  = 75 // EX_TEMPFAIL: another ethicsbot holds the record
)

// exitStatus is a row of the table of exit statuses.
type exitStatus struct {
	code    int
	name    string // as systemd shows it after the number
	meaning string // as docs/setup.md says it
	refused bool   // a refused start, which the unit does not start again
}

// exitStatuses is the table of ethicsbot's exit statuses.
var exitStatuses = []exitStatus{
	{ExitOK, "SUCCESS", "done; the bot stopped on SIGTERM or SIGINT", false},
	{ExitFailure, "FAILURE", "failed for another reason (the disk, the network, a listen address taken); the log " +
		"says why, and starting again may mend it", false},
	{ExitUsage, "INVALIDARGUMENT", "a subcommand given bad arguments or input", false},
	{ExitSchema, "DATAERR", "start refused for the record's schema: a migration is pending that cannot be made now " +
		"(another program, Litestream say, has the file open; the backup before it failed; the record does not verify), " +
		"or the record was written by a newer ethicsbot", true},
	{ExitInUse, "TEMPFAIL", "start refused: another ethicsbot (a bot, migrate, restore or attach) holds the record, " +
		"under this name or another", true},
	{ExitConfig, "CONFIG", "start refused for the configuration or the environment: the file, a setting, a secret's " +
		"file, the mode's tokens", true},
}

// refusal is a start refused for what starting again cannot mend, with its exit status.
type refusal struct {
	status int
	err    error
}

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// ExitStatusOf is the exit status of a start that failed with err.
func ExitStatusOf(err error) int {
	var r *refusal
	switch {
	case errors.As(err, &r):
		return r.status
	case store.InUse(err):
		return ExitInUse
	case store.SchemaRefused(err):
		return ExitSchema
	}
	return ExitFailure
}
