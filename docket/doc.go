// Package docket is the ordinance as code: the complaint procedure of the commission's
// ordinance, subsections (A) to (I), and nothing of how it is stored, said or shown.
//
// It holds a case and its facts (Case, Facts), the states a case passes through and the
// actions that move it (Action, Engine.Apply), the commission's meetings and roll calls,
// the two calendars that count the ordinance's periods (business days, when the office is
// open, and days whose last falls on a weekend or a statutory holiday rolled to the next
// day, as 5 ILCS 70/1.11 requires),
// the table of steps (rules.go): one row per step of the procedure, with its rule, its
// period and what it counts from, the papers that meet it, the command that records it
// and the words its reminders and docket lines say, which every consumer reads
// (steps.go), and the schedule derived from it (Engine.Schedule), the papers each step
// owes (papers.go), the records the ordinance makes public
// (PublicRecords), and the errors a user can read (Error, with its codes and
// constructors).
//
// The package is pure: time and the calendar are inputs (a now, an Engine's Cal), it opens
// no file or connection, and it imports only the standard library and github.com/rickar/cal. Every other
// package of ethicsbot depends on it, and it on none of them; layout_test.go at the
// repository's root keeps it so.
package docket
