package docket

import (
	"encoding/json"
	"fmt"
	"time"
)

// Entry is one recorded action: what an event of the log holds.
type Entry struct {
	ID     int64 // the event's id in the log
	Seq    int   // its number within its case: 1 is the filing
	By     string
	At     time.Time
	Action Action
}

// Correct corrects a fact recorded by an earlier event of the case: a mistyped receipt
// date, name, article number, meeting place. The event itself is never changed (the log
// is append-only and hash-chained); this event records the correction, with its reason,
// and the case is rebuilt from its record as corrected.
type Correct struct {
	Seq    int             `json:"seq"`  // the event corrected, by its number in the case
	Of     string          `json:"kind"` // that event's action kind
	Field  string          `json:"field"`
	From   string          `json:"from"` // as it was recorded, for the record
	To     string          `json:"to"`
	Reason string          `json:"reason"`
	Action json.RawMessage `json:"action"` // the corrected action, as it now stands
}

// Kind implements Action.
func (Correct) Kind() string { return "correct" }

func (Correct) apply(x *applying) error { return errAmendment }

// Void withdraws a mistaken entry, such as a ruling recorded on the wrong case. The event
// stays in the log; the case is rebuilt without it.
type Void struct {
	Seq    int    `json:"seq"`
	Of     string `json:"kind"` // the voided event's action kind
	Reason string `json:"reason"`
}

// Kind implements Action.
func (Void) Kind() string { return "void" }

func (Void) apply(x *applying) error { return errAmendment }

// errAmendment refuses a correction or a void applied as an ordinary action: it needs the
// case's record (Engine.Amend).
var errAmendment = Internal("a correction or a void is recorded by rebuilding the case from its record")

// Amendment is a correction or a void as the case shows it.
type Amendment struct {
	Seq    int    `json:"seq"`   // the amending event
	Event  int    `json:"event"` // the event amended
	Kind   string `json:"kind"`  // the amended event's action kind
	Void   bool   `json:"void,omitempty"`
	Field  string `json:"field,omitempty"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Reason string `json:"reason"`
	By     string `json:"by"`
	On     Date   `json:"on"`
}

// Amend records a correction or a void (a) of case c, whose record so far is entries, by
// by at at. The case is rebuilt from its record, with every correction applied and every
// voided event left out; if an event no longer holds as amended (a later step that
// depended on a voided ruling, a receipt date after the filing), the amendment is refused
// and says which. It returns the rebuilt case.
func (e *Engine) Amend(c Case, entries []Entry, a Action, by string, at time.Time) (Case, error) {
	if err := (&applying{e: e, c: &c, by: by, at: at}).actorMayAct(a); err != nil {
		return c, err
	}
	var target Entry
	var reason string
	switch a := a.(type) {
	case Correct:
		target, reason = find(entries, a.Seq), a.Reason
		if target.Action != nil && target.Action.Kind() != a.Of {
			return c, invalid("event", "",
				fmt.Sprintf("event %d of case %s is a %s, not a %s", a.Seq, c.Number, target.Action.Kind(), a.Of))
		}
	case Void:
		target, reason = find(entries, a.Seq), a.Reason
		if _, isFiling := target.Action.(File); isFiling {
			return c, conflict("(A)",
				fmt.Sprintf("event 1 of case %s is the filing itself and cannot be voided; correct its facts instead", c.Number))
		}
	default:
		return c, invalid("action", "", "only a correction or a void amends the record")
	}
	switch target.Action.(type) {
	case nil:
		return c, &Error{Code: ENOTFOUND, Field: "event",
			Message: fmt.Sprintf("case %s has no event %d; /ethics history %s lists them", c.Number, seqOf(a), c.Number)}
	case Correct, Void:
		return c, conflict("",
			fmt.Sprintf("event %d of case %s is itself a correction or a void; amend the event it amended", seqOf(a), c.Number))
	}
	for _, en := range entries {
		if v, ok := en.Action.(Void); ok && v.Seq == seqOf(a) {
			return c, conflict("", fmt.Sprintf("event %d of case %s was voided by event %d", v.Seq, c.Number, en.Seq))
		}
	}
	if err := CheckLine("reason", "", reason, true, MaxName); err != nil {
		return c, err
	}
	if cor, ok := a.(Correct); ok {
		if err := e.noticeOfCorrectedStart(entries, cor, at); err != nil {
			return c, err
		}
		if err := correctedArticle(entries, cor); err != nil {
			return c, err
		}
	}
	all := append(append([]Entry(nil), entries...), Entry{Seq: len(entries) + 1, By: by, At: at, Action: a})
	return e.Rebuild(c.Number, all)
}

func seqOf(a Action) int {
	switch a := a.(type) {
	case Correct:
		return a.Seq
	case Void:
		return a.Seq
	}
	return 0
}

func find(entries []Entry, seq int) Entry {
	for _, en := range entries {
		if en.Seq == seq {
			return en
		}
	}
	return Entry{}
}

// Effective is the action that entry stands for now: its latest correction, if any.
func Effective(entries []Entry, seq int) (Action, error) {
	en := find(entries, seq)
	act := en.Action
	for _, other := range entries {
		if cor, ok := other.Action.(Correct); ok && cor.Seq == seq {
			corrected, err := DecodeAction(cor.Of, cor.Action)
			if err != nil {
				return nil, err
			}
			act = corrected
		}
	}
	return act, nil
}

// Rebuild folds a case's record into the case as it now stands: each event's action, as
// last corrected, applied at the time it was recorded; voided events left out; every
// amendment listed. Warnings are not repeated.
func (e *Engine) Rebuild(number string, entries []Entry) (Case, error) {
	voided := map[int]bool{}
	for _, en := range entries {
		if v, ok := en.Action.(Void); ok {
			voided[v.Seq] = true
		}
	}
	var c Case
	var amendments []Amendment
	renamed := articleRenames(entries)
	for _, en := range entries {
		switch a := en.Action.(type) {
		case Correct:
			amendments = append(amendments,
				Amendment{Seq: en.Seq, Event: a.Seq, Kind: a.Of, Field: a.Field, From: a.From, To: a.To, Reason: a.Reason,
					By: en.By, On: e.Cal.DateOf(en.At)})
			continue
		case Void:
			amendments = append(amendments,
				Amendment{Seq: en.Seq, Event: a.Seq, Kind: a.Of, Void: true, Reason: a.Reason, By: en.By, On: e.Cal.DateOf(en.At)})
			continue
		}
		if voided[en.Seq] {
			continue
		}
		act, err := Effective(entries, en.Seq)
		if err != nil {
			return Case{}, err
		}
		if r, ok := act.(RecordReturnReceipt); ok {
			// A receipt recorded under an article number since corrected follows its
			// mailing to the corrected number.
			r.Article = renamed(r.Article, en.Seq)
			act = r
		}
		next, _, err := e.applyAs(c, act, "", en.At, true)
		if err != nil {
			return Case{}, conflict("",
				fmt.Sprintf("event %d (%s, recorded %s) would no longer hold: %v", en.Seq, act.Kind(), e.shortTime(en.At), err))
		}
		next.Number = number
		c = next
	}
	c.Amendments = amendments
	return c, nil
}

// noticeOfCorrectedStart refuses a correction that moves a meeting still to come to a time
// the public has not had its notice for: the notice posted gave the old time, so the new
// one has its notice from now on, as a rescheduling would ((C)(1), (D), (F)). A meeting
// already held may have its recorded start corrected.
func (e *Engine) noticeOfCorrectedStart(entries []Entry, cor Correct, at time.Time) error {
	if cor.Of != (ScheduleMeeting{}).Kind() {
		return nil
	}
	act, was, err := corrected(entries, cor)
	if err != nil {
		return err
	}
	to, from := act.(ScheduleMeeting), was.(ScheduleMeeting)
	if to.Start.Equal(from.Start) || !to.Start.After(at) {
		return nil
	}
	mr := meetingRules[to.Meeting]
	if earliest := e.EarliestMeeting(mr.notice, at); to.Start.Before(earliest) {
		return invalid("start", mr.rule,
			fmt.Sprintf("the notice posted gave the %s's old time; a %s at the corrected time needs %s' public notice from "+
				"now, so the earliest lawful start is %s: schedule it again with /ethics schedule instead",
				mr.name, mr.name, e.Ord.Period(mr.notice).describe(), e.shortTime(earliest)))
	}
	return nil
}

// correctedArticle refuses a correction of a mailing's article number to one that is not
// a USPS article number (NormalizeArticle): the rebuild reads every number as it was
// recorded, so the number a correction brings in is checked here, as a mailing's would be.
func correctedArticle(entries []Entry, cor Correct) error {
	if cor.Of != (RecordMailing{}).Kind() {
		return nil
	}
	act, was, err := corrected(entries, cor)
	if err != nil {
		return err
	}
	to, from := act.(RecordMailing), was.(RecordMailing)
	if to.Article == from.Article {
		return nil
	}
	_, err = NormalizeArticle(to.Article)
	return err
}

// articleRenames returns what an article number typed on a return receipt recorded as
// event seq stands for now: the number a later correction of the mailing's article number
// gave it, if any. The clerk corrects the mailing; its receipt, which named it by the
// number then recorded, is not corrected separately.
func articleRenames(entries []Entry) func(article string, seq int) string {
	type rename struct {
		from, to string
		seq      int
	}
	var renames []rename
	for _, en := range entries {
		cor, ok := en.Action.(Correct)
		if !ok || cor.Of != (RecordMailing{}).Kind() || cor.Field != "article" {
			continue
		}
		from, err1 := articleAsRecorded(cor.From)
		to, err2 := articleAsRecorded(cor.To)
		if err1 == nil && err2 == nil && from != to {
			renames = append(renames, rename{from, to, en.Seq})
		}
	}
	return func(article string, seq int) string {
		n, err := articleAsRecorded(article)
		if err != nil {
			return article
		}
		for _, r := range renames {
			// A correction made after the receipt was recorded renames the number it typed.
			if r.seq > seq && r.from == n {
				n = r.to
			}
		}
		return n
	}
}

// corrected returns the action correction cor makes of its event, and the action the event
// stood for until then.
func corrected(entries []Entry, cor Correct) (to, from Action, err error) {
	if to, err = DecodeAction(cor.Of, cor.Action); err != nil {
		return nil, nil, err
	}
	from, err = Effective(entries, cor.Seq)
	return to, from, err
}
