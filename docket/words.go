package docket

import (
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

// What an act says. Each action says what it did in its own file (Action.Did), and the
// public notice it calls for (Noticed); every reader (the docket channel's line, a case's
// history, the notices channel) prints those words, so that they cannot drift apart and a
// new action is one file here, not a case in each reader. The words are plain text: user
// text inside them is data, escaped by whoever builds the message, and a member they name
// is kept apart (Word.Member) for the renderer to mention or name.

// Wording is what an act's words need that the act alone lacks: the commission's time
// zone, the ordinance's section numbers, when the act was taken, and the case just before
// and just after it, where known (a case's history says each entry alone, without them).
// The minutes word a motion with the case as it now stands (After), and the acts recorded
// with it (With): a hearing set in the same motion as the ruling.
type Wording struct {
	Loc    *time.Location
	Ord    Ordinance
	At     time.Time
	Before *Case
	After  *Case
	With   []Action
}

// Wording returns what the words of step st need: the engine's zone and ordinance, and
// the step's time and cases. A Step with only At set words an entry of a case's history.
func (e *Engine) Wording(st Step) Wording {
	return Wording{Loc: e.Cal.Location(), Ord: e.Ord, At: st.At, Before: st.Before, After: st.After}
}

// When says an instant in the commission's zone: "Thu 10 Dec 2026 17:00 CST".
func (w Wording) When(t time.Time) string { return t.In(w.Loc).Format("Mon 2 Jan 2006 15:04 MST") }

// orAt is t, or the act's own time when t is zero (a date the act left to "now").
func (w Wording) orAt(t time.Time) time.Time { return orNow(t, w.At) }

// moves reports whether the act, scheduling meeting k, moved a meeting of that kind that
// was still to come. Scheduling a session after one that was held (a recessed hearing
// reconvened again) is a new meeting, not a move.
func (w Wording) moves(k MeetingKind) bool {
	if w.Before == nil {
		return false
	}
	b := w.Before.Meeting(k)
	return b.Scheduled() && b.Start.After(w.At)
}

// Words are what an act did, in plain words, with the members they name kept apart by
// their Slack ids: a renderer escapes the text and mentions (or names) each member.
type Words []Word

// Word is a run of an act's words: plain text, a member of the commission it names, or
// the officer with authority to discipline it names.
type Word struct {
	Text   string `json:"text,omitempty"`   // plain words; user text within is data
	Member string `json:"member,omitempty"` // a member named, by Slack id
	// Officer is the officer with authority to discipline named, by the key the
	// configuration lists them under (Case.OfficerKey); Text then says them as the
	// ordinance does, for a renderer that does not know the configured officers.
	Officer string `json:"officer,omitempty"`
}

// said is words of plain text, formatted as fmt.Sprintf does.
func said(format string, args ...any) Words { return Words{{Text: fmt.Sprintf(format, args...)}} }

// String is the words as plain text, each member by their id.
func (ws Words) String() string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Text)
		b.WriteString(w.Member)
	}
	return b.String()
}

// Voted is an act the commission takes by a motion and its roll call: the (C) ruling, the
// (E) decision, the (F) final recommendation and the (H) finding.
type Voted interface {
	Action
	// Motion is what was moved, as the minutes record it before the roll call: the act in
	// the words of its own notice, in the subjunctive of a motion, with the facts the vote
	// adopted (the amount of a fine, the findings, the hearing set with a ruling), so that
	// the minutes can be approved as printed. It reads the case as it now stands
	// (Wording.After) for the parties' names, and names them only once the ordinance has
	// made the case public.
	Motion(w Wording) Words
	// Roll is the roll call recorded with the act; nil where the town records its votes
	// elsewhere.
	Roll() *Vote
}

// officer names the officer with authority to discipline of case c, as a fact of the
// words, for the renderer to name from the configuration.
func officer(c *Case) Word {
	key := DefaultOfficer
	if c != nil {
		key = c.OfficerKey()
	}
	return Word{Text: "the officer with authority to discipline", Officer: key}
}

// party names a party of case c in a motion: by name once the ordinance has made the case
// public, as "the respondent" or "the complainant" before.
func party(c *Case, p Party) string {
	if c == nil || !c.Public() {
		return "the " + string(p)
	}
	if p == Complainant {
		return c.Complainant.Name
	}
	return c.Respondent.Name
}

// folded is a text the commission wrote, quoted in full on one line of a motion: its
// lines and spaces folded.
func folded(v string) string { return `"` + strings.Join(strings.Fields(v), " ") + `"` }

// findings is the findings a motion adopts, after it: `; findings: "..."`; "" for none.
func findings(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "; findings: " + folded(text)
}

// fined is the fine a motion imposes on who, with the (H) finding of intent it needs.
func fined(fine int, who string, intentional bool) string {
	s := fmt.Sprintf("a fine of $%s be imposed on %s", Dollars(fine), who)
	if intentional {
		s += " for an intentional violation (H)"
	}
	return s
}

// Noticed is an act the public is told of, as the ordinance and the Open Meetings Act
// require: a meeting scheduled, moved or cancelled ((C)(1), (D), (F)), a (C)(2) dismissal,
// the (E) decision, the (F) final recommendation, and a correction or a void of what the
// public was told.
type Noticed interface {
	Action
	// Notice is the public notice the act calls for, as the case stands after it
	// (Wording.After), or false when it calls for none.
	Notice(w Wording) (Notice, bool)
}

// Notice is a public notice an act calls for: a line of plain words, then the texts the
// commission wrote, each quoted under its label on lines of its own so that none of it can
// pass for a line of the notice, and the fine imposed, if any.
type Notice struct {
	Text   string
	Quoted []Labelled
	Fine   int
}

// Labelled is a text the commission wrote, under its label: "Findings".
type Labelled struct {
	Label string
	Text  string
}

// Amending is an act that amends the record rather than the case: a correction or a void
// of an earlier event. The case is rebuilt from its record as amended (Engine.Amend).
type Amending interface {
	Action
	// Amends is the number, within its case, of the event amended.
	Amends() int
}

// Sending is an act that records a paper sent with the letter that went out (a certified
// mailing, a delivery), which the store keeps as sent.
type Sending interface {
	Action
	// Sent is the letter as sent, or nil for a record without it.
	Sent() *SentLetter
}

// MeetingAct is an act on one of a case's meetings that a correction may name by its
// meeting: its scheduling, or its notice posted.
type MeetingAct interface {
	Action
	// MeetingOf is the meeting the act is about.
	MeetingOf() MeetingKind
}

// PartyAct is an act that records a party's details: the filing, and SetParty.
type PartyAct interface {
	Action
	// PartyDetails are the details of party p as the act records them; false when it
	// records none of p's.
	PartyDetails(p Party) (Person, bool)
	// WithPartyDetails is the act recording d as p's details instead, as a correction
	// makes it; the act as it is when it records none of p's.
	WithPartyDetails(p Party, d Person) Action
}

// MaxQuoted is the longest value of the record that words quote in full (Quoted).
const MaxQuoted = 200

// Quoted shows a value of the record in quotes: "City Hall". A long one (a summary) is
// named by its length instead, so that a line about a correction stays a line; the whole
// value is in the record, and in export.
func Quoted(v string) string {
	if n := utf8.RuneCountInString(v); n > MaxQuoted {
		return fmt.Sprintf("a text of %d characters", n)
	}
	return `"` + v + `"`
}

// KindWords says an action kind as people do: "schedule meeting".
func KindWords(kind string) string { return strings.ReplaceAll(kind, "_", " ") }

// publicRecord finds c's public record of kind: what the ordinance makes public of it.
func publicRecord(c *Case, kind string, loc *time.Location) (PublicRecord, bool) {
	if c == nil {
		return PublicRecord{}, false
	}
	for _, r := range PublicRecords(c, loc) {
		if r.Record == kind {
			return r, true
		}
	}
	return PublicRecord{}, false
}

// publicChanged reports whether an act changed what the public is told of the case.
func (w Wording) publicChanged() bool {
	return !reflect.DeepEqual(PublicRecords(w.Before, w.Loc), PublicRecords(w.After, w.Loc))
}

// byVote says how the commission voted on a public action: " By roll call: adopted 3–0."
// ("" without a roll call).
func byVote(r PublicRecord) string {
	if r.Tally == "" {
		return ""
	}
	return fmt.Sprintf(" By roll call: %s.", r.Tally)
}

// parties names the complaint of a public record: "complaint of John Doe against Jane Roe".
func parties(r PublicRecord) string {
	return fmt.Sprintf("complaint of %s against %s", r.Complainant, r.Respondent)
}

// noticeAt formats a meeting's start as a public notice gives it.
const noticeAt = "Mon 2 Jan 2006 at 15:04 MST"
