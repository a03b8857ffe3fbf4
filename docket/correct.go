package docket

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
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

// Did implements Action: `event 3 corrected: place "City Hall" → "Council Chambers" (typo)`.
func (a Correct) Did(Wording) Words {
	return said("event %d corrected: %s %s → %s (%s)", a.Seq, a.Field, Quoted(a.From), Quoted(a.To), a.Reason)
}

// Amends implements Amending.
func (a Correct) Amends() int { return a.Seq }

// Notice implements Noticed: when what the public was told changed, the public is told of
// the correction, quoting it.
func (a Correct) Notice(w Wording) (Notice, bool) {
	if w.Before == nil || w.After == nil || !w.publicChanged() {
		return Notice{}, false
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE, CORRECTION. Ethics Commission, case %s: the %s recorded as %s is "+
		"corrected to %s.", w.After.Number, a.what(), Quoted(a.From), Quoted(a.To))}, true
}

// what names the corrected fact for the public: "place of the sufficiency meeting".
func (a Correct) what() string {
	field := strings.ReplaceAll(a.Field, "_", " ")
	if act, err := DecodeAction(a.Of, a.Action); err == nil {
		if m, ok := act.(MeetingAct); ok {
			return field + " of the " + m.MeetingOf().Name()
		}
	}
	return field
}

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

// Did implements Action.
func (a Void) Did(Wording) Words {
	return said("event %d (%s) voided (%s)", a.Seq, KindWords(a.Of), a.Reason)
}

// Amends implements Amending.
func (a Void) Amends() int { return a.Seq }

// Notice implements Noticed: when what the public was told changed, the public is told
// which record is withdrawn, quoting it from what was public before, and which notice
// stands again.
func (a Void) Notice(w Wording) (Notice, bool) {
	if w.Before == nil || w.After == nil || !w.publicChanged() {
		return Notice{}, false
	}
	before, after := PublicRecords(w.Before, w.Loc), PublicRecords(w.After, w.Loc)
	gone, back := standingOnly(before, after), standingOnly(after, before)
	var text string
	switch {
	case len(gone) > 0:
		text = fmt.Sprintf("%s %s recorded in error and %s withdrawn", publicWords(gone), pluralOf(gone, "was", "were"),
			pluralOf(gone, "is", "are"))
		if len(back) > 0 {
			text += fmt.Sprintf("; %s %s", publicWords(back), pluralOf(back, "stands", "stand"))
		}
	case len(back) > 0:
		text = fmt.Sprintf("%s %s after all: %s withdrawal was recorded in error", publicWords(back),
			pluralOf(back, "stands", "stand"), pluralOf(back, "its", "their"))
	default:
		text = fmt.Sprintf("the %s recorded earlier was recorded in error and is withdrawn", KindWords(a.Of))
	}
	return Notice{Text: fmt.Sprintf("PUBLIC NOTICE, CORRECTION. Ethics Commission, case %s: %s.", w.After.Number,
		text)}, true
}

// standingOnly lists the records of rs that stand (a meeting notice not withdrawn, or an
// outcome) and are not in others. Party names are left out of the comparison: they are in
// every record while the case is public, and a void that unmakes its outcome removes them.
func standingOnly(rs, others []PublicRecord) []PublicRecord {
	bare := func(r PublicRecord) PublicRecord {
		r.Complainant, r.Respondent = "", ""
		return r
	}
	var out []PublicRecord
	for _, r := range rs {
		if r.Withdrawn == "" &&
			!slices.ContainsFunc(others, func(o PublicRecord) bool { return reflect.DeepEqual(bare(o), bare(r)) }) {
			out = append(out, r)
		}
	}
	return out
}

// publicWords names public records as a citizen reads them, quoting what they said, from
// the records alone: "the dismissal of case 2026-001 announced on Mon 7 Dec 2026 (complaint
// insufficient, (C)(2))". Long or multi-line texts are folded onto the line, or named by
// their length, so a notice stays one line.
func publicWords(rs []PublicRecord) string {
	words := make([]string, len(rs))
	for i, r := range rs {
		on := r.On.In(time.UTC).Format("Mon 2 Jan 2006")
		inline := func(v string) string { return Quoted(strings.Join(strings.Fields(v), " ")) }
		switch r.Record {
		case "meeting_notice":
			// (C)(1), (D), (F): the notice as it was given.
			words[i] = fmt.Sprintf("the notice of the %s,", r.Text)
		case "dismissal":
			// (C)(2): the notice of dismissal, of the case or of one part of it.
			what := fmt.Sprintf("case %s", r.Case)
			if r.Section != "" {
				what = fmt.Sprintf("the §%s part of case %s", r.Section, r.Case)
			}
			ground := map[string]string{string(Insufficient): "complaint insufficient",
				string(NoProbableCause): "no probable cause"}[r.Ruling]
			if r.Ground == string(GroundTimeBarred) {
				ground = "time-barred under (I)"
			}
			words[i] = fmt.Sprintf("the dismissal of %s announced on %s (%s, %s)", what, on, ground, r.Rule)
		case "decision":
			// (E): the decision, with its findings, recommendation and fine.
			detail := r.Text
			if strings.TrimSpace(r.Findings) != "" {
				detail += fmt.Sprintf("; findings %s", inline(r.Findings))
			}
			if strings.TrimSpace(r.Recommendation) != "" {
				detail += fmt.Sprintf("; recommendation %s", inline(r.Recommendation))
			}
			if r.Fine > 0 {
				detail += fmt.Sprintf("; fine $%s", Dollars(r.Fine))
			}
			words[i] = fmt.Sprintf("the decision in case %s announced on %s (%s)", r.Case, on, detail)
		case "final_recommendation":
			// (F): the final recommendation, and its fine.
			detail := fmt.Sprintf("%s: %s", r.Rule, inline(r.Text))
			if r.Fine > 0 {
				detail += fmt.Sprintf("; fine $%s", Dollars(r.Fine))
			}
			words[i] = fmt.Sprintf("the final recommendation in case %s announced on %s (%s)", r.Case, on, detail)
		default:
			words[i] = fmt.Sprintf("the %s in case %s of %s", KindWords(r.Record), r.Case, on)
		}
	}
	return strings.Join(words, " and ")
}

// pluralOf picks the word for one record or for more.
func pluralOf(rs []PublicRecord, one, more string) string {
	if len(rs) == 1 {
		return one
	}
	return more
}

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
			return c, Invalid("", "event",
				fmt.Sprintf("event %d of case %s is a %s, not a %s", a.Seq, c.Number, target.Action.Kind(), a.Of))
		}
	case Void:
		target, reason = find(entries, a.Seq), a.Reason
		if _, isFiling := target.Action.(File); isFiling {
			return c, conflict("(A)",
				fmt.Sprintf("event 1 of case %s is the filing itself and cannot be voided; correct its facts instead", c.Number))
		}
	default:
		return c, Invalid("", "action", "only a correction or a void amends the record")
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
	if am, ok := a.(Amending); ok {
		return am.Amends()
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
		return Invalid(mr.rule, "start",
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
