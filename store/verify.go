package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
)

// Break is the first broken link found in the record.
type Break struct {
	EventID int64  // 0 when the break is in a case row, not an event
	Case    string // the case involved, if known
	Problem string
	Seq     int // the event's number within its case, as /ethics history shows it; 0 if unknown
}

// String says where the chain broke: "event 42 (case 2026-003): ...".
func (b *Break) String() string {
	if b.EventID == 0 && b.Case == "" {
		return "the record: " + b.Problem
	}
	if b.EventID == 0 {
		return fmt.Sprintf("case %s: %s", b.Case, b.Problem)
	}
	if b.Seq > 0 && int64(b.Seq) != b.EventID {
		return fmt.Sprintf("event %d (case %s): %s (event %d of the case in /ethics history)", b.EventID, b.Case,
			b.Problem, b.Seq)
	}
	return fmt.Sprintf("event %d (case %s): %s", b.EventID, b.Case, b.Problem)
}

// Report is what Verify found.
type Report struct {
	Events int
	Cases  int
	Broken *Break // nil when the whole record verifies
	// Differs names the first meeting whose case steps differ from those it held when its
	// minutes were approved (5 ILCS 120/2.06(a)), nil when none does. The chain is intact:
	// `ethicsbot verify` reports it as broken, but a backup, a restore and a migration
	// go on, since the step is put back with /ethics correct, which needs the record open
	// at this release's schema.
	Differs *Break
	// Notes say what verify left unchecked, and why, when that is not a fault of the
	// record: derived columns counted under another calendar, which the bot derives again
	// when it next starts.
	Notes []string
	// Anchor is the head of the chain as walked: the last event and its hash, and the
	// last meeting event and its hash.
	Anchor Anchor
}

// Verify walks the hash chain from the first event to the last, then checks that every
// case row is the document its last event produced. It reports the first broken link; an
// error means the walk itself could not be done.
func (s *Store) Verify(ctx context.Context) (r Report, err error) {
	tx, err := s.r.BeginTx(ctx, nil) // one snapshot for the whole walk
	if err != nil {
		return r, err
	}
	defer tx.Rollback()
	defer func() {
		// The record numbers events across cases; a case's history numbers its own: a
		// break names both, however it was found.
		if b := r.Broken; b != nil && b.EventID > 0 && b.Case != "" && err == nil {
			tx.QueryRowContext(ctx, `SELECT seq FROM events WHERE id = ?`, b.EventID).Scan(&b.Seq)
		}
	}()

	walk, err := walkChain(ctx, tx, &r)
	if err != nil || r.Broken != nil {
		return r, err
	}
	prev := walk.last
	r.Anchor = Anchor{Events: prev.ID, Hash: prev.Hash, At: prev.At}
	if s.meetings {
		// The anchor names the meetings' chain too; verifyMeetings below walks it.
		if r.Anchor.Meetings, r.Anchor.MeetingHash, err = meetingHead(ctx, tx); err != nil {
			return r, err
		}
	}
	// Last, the traces a rewrite leaves when the chain and the cases agree: it is reported
	// after any event or case it changed.
	defer func() {
		if r.Broken != nil || err != nil {
			return
		}
		problem, gerr := checkGuards(ctx, tx)
		if gerr == nil && problem == "" {
			problem, gerr = checkAfterHead(ctx, tx, r.Anchor.Events)
		}
		if problem != "" {
			r.Broken = &Break{Problem: problem}
		}
		err = gerr
	}()

	if err := s.verifyCases(ctx, tx, walk.cases, &r); err != nil || r.Broken != nil {
		return r, err
	}
	if s.docs {
		if r.Broken, err = checkDocuments(ctx, tx, walk.docs); r.Broken != nil || err != nil {
			return r, err
		}
	}
	if s.meetings {
		r.Broken, r.Differs, err = s.verifyMeetingRecord(ctx, tx)
	}
	return r, err
}

// caseTail is where a case's history ends as the chain is walked: its last event's number
// within the case and the hash of the document that event produced.
type caseTail struct {
	seq     int
	docHash string
	at      time.Time // when the last event was recorded
}

// chainWalk is what walking the event chain found: each case's tail, the documents the
// events added (by SHA-256) and the last event.
type chainWalk struct {
	cases map[string]caseTail
	docs  map[string]docRef
	last  Event
}

// walkChain walks the hash chain from the first event to the last, counting the events in
// r, and sets r.Broken at the first broken link.
func walkChain(ctx context.Context, tx *sql.Tx, r *Report) (chainWalk, error) {
	w := chainWalk{cases: make(map[string]caseTail), docs: make(map[string]docRef), last: Event{Hash: genesis}}
	rows, err := tx.QueryContext(ctx, eventColumns+` ORDER BY id`)
	if err != nil {
		return w, err
	}
	prev := w.last
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			rows.Close()
			r.Broken = &Break{EventID: prev.ID + 1, Case: "",
				Problem: "cannot be read (" + err.Error() + "): it was changed outside ethicsbot"}
			return w, nil
		}
		r.Events++
		t := w.cases[e.Case]
		switch {
		case e.ID != prev.ID+1:
			r.Broken = &Break{EventID: e.ID, Case: e.Case,
				Problem: fmt.Sprintf("comes after event %d: events %d to %d are missing", prev.ID, prev.ID+1, e.ID-1)}
		case e.PrevHash != prev.Hash:
			r.Broken = &Break{EventID: e.ID, Case: e.Case,
				Problem: fmt.Sprintf("does not link to event %d: the chain was broken there", prev.ID)}
		case e.chainHash() != e.Hash:
			r.Broken = &Break{EventID: e.ID, Case: e.Case,
				Problem: fmt.Sprintf("its content no longer matches its hash: the %s event of %s was changed after it was recorded",
					e.Kind, e.At.Format(time.RFC3339))}
		case e.Seq != t.seq+1:
			r.Broken = &Break{EventID: e.ID, Case: e.Case,
				Problem: fmt.Sprintf("is number %d of its case, but follows number %d", e.Seq, t.seq)}
		}
		if r.Broken != nil {
			rows.Close()
			return w, nil
		}
		w.cases[e.Case] = caseTail{e.Seq, e.DocHash, e.At}
		if sha, ref, ok := documentRef(e); ok {
			w.docs[sha] = ref
		}
		prev = e
	}
	w.last = prev
	return w, rows.Close()
}

// verifyCases checks that every case row is the document its last event produced (tails,
// which it empties), that its columns and its public records agree with that document, and
// that no case and no public record stands without the other. It counts the cases in r and
// sets r.Broken at the first that differs.
func (s *Store) verifyCases(ctx context.Context, tx *sql.Tx, cases map[string]caseTail, r *Report) error {
	// A record at a schema older than the board's has no public records to check.
	board := map[string]map[string]string{}
	sameForm := true
	if s.public {
		var err error
		if board, err = standingPublic(ctx, tx); err != nil {
			return err
		}
		if number, problem, err := checkPosted(ctx, tx); err != nil {
			return err
		} else if problem != "" {
			r.Broken = &Break{EventID: 0, Case: number, Problem: problem}
			return nil
		}
		// A record whose board was last worded by another ethicsbot (the bot rewords it
		// when it starts) is checked for which records stand, not for their words: a
		// read-only verify must not blame a change of wording on tampering.
		if sameForm, err = publicFormIs(ctx, tx, docket.PublicForm); err != nil {
			return err
		}
	}
	dueColumn := "NULL, NULL, NULL" // a record before 015 keeps no next due instant, before 016 no next step
	freshDue := false
	if s.due {
		dueColumn = "due, " + s.ifNext("next, recused", "NULL, NULL")
		if s.engine != nil {
			basis, err := dueBasis(ctx, tx)
			if err != nil {
				return err
			}
			if freshDue = basis == s.engine.DueBasis(); !freshDue {
				r.Notes = append(r.Notes, dueStale)
			}
		}
	}
	var steps map[string]map[int]stepRow // the steps scheduled, as case_steps keeps them (017)
	if s.steps {
		var err error
		if steps, err = s.storedSteps(ctx, tx); err != nil {
			return err
		}
	}
	var attention map[string][][2]string // what needs attention, as case_attention keeps it (019)
	if s.attend && freshDue {            // derived under this calendar, as the due instants
		var err error
		if attention, err = storedAttention(ctx, tx); err != nil {
			return err
		}
	}
	crows, err := tx.QueryContext(ctx,
		`SELECT number, state, open, complainant, respondent, summary, doc, events, `+dueColumn+
			` FROM cases ORDER BY number`)
	if err != nil {
		return err
	}
	defer crows.Close()
	for crows.Next() {
		var number, state, complainant, respondent, summary, doc string
		var open bool
		var events int
		var due, next, recused sql.NullString
		if err := crows.Scan(&number, &state, &open, &complainant, &respondent, &summary, &doc, &events,
			&due, &next, &recused); err != nil {
			return err
		}
		r.Cases++
		t, ok := cases[number]
		var c docket.Case
		decodeErr := json.Unmarshal([]byte(doc), &c)
		switch {
		case !ok:
			r.Broken = &Break{EventID: 0, Case: number, Problem: "has no events: it was not made by ethicsbot"}
		case sum([]byte(doc)) != t.docHash:
			r.Broken = &Break{EventID: 0, Case: number,
				Problem: "its record differs from what its last event produced: it was changed outside ethicsbot"}
		case events != t.seq:
			r.Broken = &Break{EventID: 0, Case: number, Problem: fmt.Sprintf("claims %d events but has %d", events, t.seq)}
		case decodeErr != nil:
			r.Broken = &Break{EventID: 0, Case: number, Problem: "its record cannot be read: " + decodeErr.Error()}
		case c.Number != number || string(c.State) != state || open == c.Closed() ||
			c.Complainant.Name != complainant || c.Respondent.Name != respondent || c.Summary != summary:
			r.Broken = &Break{EventID: 0, Case: number,
				Problem: "its columns differ from its record: they were changed outside ethicsbot"}
		case s.public && !samePublic(board[number], docket.PublicRecords(&c, s.engine.Cal.Location()), sameForm):
			r.Broken = &Break{EventID: 0, Case: number,
				Problem: "what the public notice board shows of it differs from its record: public_records was changed " +
					"outside ethicsbot"}
		default:
			problem := s.checkDue(&c, t.at, due, next, recused, freshDue)
			if problem == "" && s.steps {
				problem = s.checkSteps(&c, steps[number])
			}
			if problem == "" && attention != nil {
				problem = s.checkAttention(&c, attention[number])
			}
			if problem != "" {
				r.Broken = &Break{EventID: 0, Case: number, Problem: problem}
			}
		}
		if r.Broken != nil {
			return nil
		}
		delete(cases, number)
		delete(board, number)
		delete(steps, number)
		delete(attention, number)
	}
	if err := crows.Err(); err != nil {
		return err
	}
	for number := range cases {
		r.Broken = &Break{EventID: 0, Case: number, Problem: "has events but no case row: it was deleted"}
		return nil
	}
	for number := range board {
		r.Broken = &Break{EventID: 0, Case: number,
			Problem: "is on the public notice board but has no case row: public_records was changed outside ethicsbot"}
		return nil
	}
	// Rows kept beside a case that there is none of: the meetings would fold its steps, and
	// the App Home tab count its lines of what needs attention.
	for _, number := range slices.Sorted(maps.Keys(steps)) {
		r.Broken = &Break{EventID: 0, Case: number, Problem: fmt.Sprintf("case_steps keeps %d steps of it, but there "+
			"is no such case: case_steps was changed outside ethicsbot", len(steps[number]))}
		return nil
	}
	for _, number := range slices.Sorted(maps.Keys(attention)) {
		r.Broken = &Break{EventID: 0, Case: number, Problem: fmt.Sprintf("case_attention holds %d lines of what needs "+
			"attention on it, but there is no such case: case_attention was changed outside ethicsbot",
			len(attention[number]))}
		return nil
	}
	return nil
}

// verifyMeetingRecord checks the commission's meetings, on their own chain (migration
// 011): the chain, then the meetings as folded with the cases' steps, read once for both
// checks (no two at one start and place; each held meeting's items as its approved
// minutes have them).
func (s *Store) verifyMeetingRecord(ctx context.Context, tx *sql.Tx) (*Break, *Break, error) {
	problem, err := verifyMeetings(ctx, tx, s.media)
	if problem != "" {
		return &Break{Problem: problem}, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	folded, err := s.foldIn(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	if b := s.verifyCollisions(folded); b != nil {
		return b, nil, nil
	}
	differs, err := s.verifyHeldItems(ctx, tx, folded)
	return nil, differs, err
}

// guards are the triggers that keep the log append-only and the cases undeleted.
var guards = []string{"events_no_update", "events_no_delete", "cases_no_delete"}

// checkGuards says which trigger that keeps the record append-only is missing: a record
// whose guards were dropped may have been rewritten, whatever its chain says.
func checkGuards(ctx context.Context, tx *sql.Tx) (string, error) {
	return checkTriggers(ctx, tx, guards, "the record")
}

// checkTriggers says which of the triggers named, which keep what append-only, is missing
// or no longer refuses.
func checkTriggers(ctx context.Context, tx *sql.Tx, names []string, what string) (string, error) {
	for _, g := range names {
		var body string
		err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`, g).Scan(&body)
		if errors.Is(err, sql.ErrNoRows) || err == nil && !strings.Contains(body, "RAISE(ABORT") {
			return fmt.Sprintf("the trigger %s, which keeps %s append-only, was dropped or changed outside ethicsbot",
				g, what), nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", nil
}

// checkAfterHead finds traces of events after the head of the chain, whose last event is
// head: messages the outbox holds for later events, or a case number counter behind the
// cases.
func checkAfterHead(ctx context.Context, tx *sql.Tx, head int64) (string, error) {
	var later sql.NullInt64
	var hasEvents bool // the outbox names the event of each message since schema 5
	if err := tx.QueryRowContext(ctx,
		`SELECT count(*) > 0 FROM pragma_table_info('outbox') WHERE name = 'event_id'`).Scan(&hasEvents); err != nil {
		return "", err
	}
	if hasEvents {
		if err := tx.QueryRowContext(ctx, `SELECT max(event_id) FROM outbox`).Scan(&later); err != nil {
			return "", err
		}
	}
	if later.Valid && later.Int64 > head {
		return fmt.Sprintf("the outbox holds messages of event %d, but the record ends at event %d: events after it were "+
			"deleted outside ethicsbot", later.Int64, head), nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT n.year, n.last, max(CAST(substr(c.number, 6) AS INTEGER))
		FROM case_numbers n JOIN cases c ON substr(c.number, 1, 4) = CAST(n.year AS TEXT) GROUP BY n.year`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var year, last, most int
		if err := rows.Scan(&year, &last, &most); err != nil {
			return "", err
		}
		if last < most {
			return fmt.Sprintf("the case numbers of %d were counted to %d, but case %d-%03d exists: the counter was changed "+
				"outside ethicsbot, and a number would be given twice", year, last, year, most), nil
		}
	}
	return "", rows.Err()
}

// standingPublic reads the public records that stand, by case and key, as stored.
func standingPublic(ctx context.Context, tx *sql.Tx) (map[string]map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT case_number, key, record FROM public_records WHERE removed = ''`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]string{}
	for rows.Next() {
		var number, key, record string
		if err := rows.Scan(&number, &key, &record); err != nil {
			return nil, err
		}
		if out[number] == nil {
			out[number] = map[string]string{}
		}
		out[number][key] = record
	}
	return out, rows.Err()
}

// checkPosted checks that every time a public record was first posted on the board is
// the time of the event that made it public, or, for a record filled when the board began,
// the time that migration was applied. It returns the first case whose times disagree.
func checkPosted(ctx context.Context, tx *sql.Tx) (number, problem string, err error) {
	var began string
	err = tx.QueryRowContext(ctx, `SELECT applied FROM schema_migrations WHERE name LIKE ?`,
		"%"+publicMigration).Scan(&began)
	if err != nil {
		return "", "", fmt.Errorf("the public notice board's migration is not recorded: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT p.case_number, p.key, p.posted, p.posted_event, e.case_number, e.at
		FROM public_records p LEFT JOIN events e ON e.id = p.posted_event ORDER BY p.case_number`)
	if err != nil {
		return "", "", err
	}
	defer rows.Close()
	for rows.Next() {
		var number, key, posted string
		var event sql.NullInt64
		var eventCase, eventAt sql.NullString
		if err := rows.Scan(&number, &key, &posted, &event, &eventCase, &eventAt); err != nil {
			return "", "", err
		}
		switch {
		case !event.Valid && !unstamp(posted).Equal(unstamp(began)):
			return number, fmt.Sprintf("the public notice board says %s was first posted at %s, but it was not made public by "+
				"an event and the board began at %s: public_records was changed outside ethicsbot", key, posted, began), nil
		case event.Valid && (eventCase.String != number || eventAt.String != posted):
			return number, fmt.Sprintf("the public notice board says %s was first posted at %s, but event %d, which made it "+
				"public, was recorded at %s: public_records was changed outside ethicsbot", key, posted, event.Int64,
				eventAt.String), nil
		}
	}
	return "", "", rows.Err()
}

// samePublic reports whether the stored public records are exactly recs.
// With words false, only which records stand is compared.
func samePublic(stored map[string]string, recs []docket.PublicRecord, words bool) bool {
	if len(stored) != len(recs) {
		return false
	}
	for _, r := range recs {
		have, ok := stored[r.Key()]
		if !ok {
			return false
		}
		if !words {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil || have != string(b) {
			return false
		}
	}
	return true
}

// publicFormIs reports whether the board's records are worded in form.
func publicFormIs(ctx context.Context, q querier, form int) (bool, error) {
	var have string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'public_form'`).Scan(&have)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return have == strconv.Itoa(form), err
}
