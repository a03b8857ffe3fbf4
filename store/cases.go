package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Event is one entry of the append-only log: who did what to which case, and when.
type Event struct {
	ID       int64           `json:"id"`
	Case     string          `json:"case"`
	Seq      int             `json:"seq"`
	At       time.Time       `json:"at"`
	By       string          `json:"by"` // Slack user id
	Kind     string          `json:"kind"`
	Payload  json.RawMessage `json:"payload"`
	Request  string          `json:"request,omitempty"`
	DocHash  string          `json:"doc_hash"`
	PrevHash string          `json:"prev_hash"`
	Hash     string          `json:"hash"`
}

// genesis is the prev_hash of the first event.
var genesis = strings.Repeat("0", 64)

// File records a new complaint (A) and assigns its number, YYYY-NNN by year of receipt.
// act.By is the Slack user id of who filed it, and act.Request, if not "", an idempotency
// key: a retry with the same key files nothing new.
//
// What the filing causes ethicsbot to say (the Sayer wired with SayWith) is derived inside
// the transaction that records it, and its posts are committed with the event, or not at
// all.
func (s *Store) File(ctx context.Context, act docket.Act, f docket.File) (docket.Result, error) {
	by, request, at, say := act.By, act.Request, act.At, s.stepSayer(ctx)
	var res docket.Result
	err := s.write(ctx, func(tx *sql.Tx) error {
		if done, err := s.replay(ctx, tx, request, &res); done || err != nil {
			return err
		}
		// After a restore, numbers announced after the backup are not known until Slack
		// has been read (Reconcile): none is given meanwhile, so none is given twice.
		if s.version >= 3 { // the schema has meta
			if mark, err := restoredMark(ctx, tx); err != nil || mark != nil {
				if err == nil {
					err = errUnreconciled
				}
				return err
			}
		}
		c, warnings, err := s.engine.Apply(docket.Case{}, f, at)
		if err != nil {
			return err
		}
		year, _, _ := s.engine.Cal.DateOf(c.Received).Parts()
		var n int
		if err := tx.QueryRowContext(ctx, `INSERT INTO case_numbers (year, last) VALUES (?, 1)
			ON CONFLICT (year) DO UPDATE SET last = last + 1 RETURNING last`, year).Scan(&n); err != nil {
			return err
		}
		c.Number = fmt.Sprintf("%04d-%03d", year, n)
		step := docket.Step{By: by, At: at, Action: f, Before: &docket.Case{}, After: &c, Warnings: warnings}
		if err := s.record(ctx, tx, &step, 0, request, say); err != nil {
			return err
		}
		res = docket.Result{Case: c, Warnings: warnings, Steps: []docket.Step{step}}
		return nil
	})
	return res, err
}

// Apply performs actions on case number, in order, and records each as an event, all in
// one transaction: if any is refused, none is recorded. A refusal is a *docket.Error that
// names the rule. The sayer's posts for each action go to the outbox with its event.
//
// A mailing or delivery (a docket.Sending) whose letter as sent carries its bytes (PDF)
// has them kept in the same transaction: the letter is in the record with the event that
// says it was sent, or neither is.
func (s *Store) Apply(ctx context.Context, act docket.Act, number string,
	actions ...docket.Action) (docket.Result, error) {
	by, request, at, say := act.By, act.Request, act.At, s.stepSayer(ctx)
	if len(actions) == 0 {
		return docket.Result{}, docket.Invalid("", "", "no action given")
	}
	for _, a := range actions {
		if _, ok := a.(docket.File); ok {
			return docket.Result{}, docket.Invalid("", "", "a filing opens a new case; use File")
		}
	}
	letters, err := s.lettersSent(number, actions)
	if err != nil {
		return docket.Result{}, err
	}
	var res docket.Result
	err = s.write(ctx, func(tx *sql.Tx) error {
		for _, l := range letters {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO documents (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
				l.SHA256, len(l.PDF), l.PDF); err != nil {
				return err
			}
		}
		return s.applyIn(ctx, tx, number, by, request, at, say, actions, &res, "")
	})
	return res, err
}

// applyIn is Apply in the caller's transaction tx.
//
// moving names the meeting whose own correction (docket.CorrectMeeting) carries its case
// steps with it, in the same transaction; "" for none (keepsHeldMeetings).
func (s *Store) applyIn(ctx context.Context, tx *sql.Tx, number, by, request string, at time.Time,
	say func(docket.Step) []outbox.Post, actions []docket.Action, out *docket.Result, moving string) error {
	var res docket.Result
	defer func() { *out = res }()
	if done, err := s.replay(ctx, tx, request, &res); done || err != nil {
		return err
	}
	c, seq, err := loadCase(ctx, tx, number)
	if err != nil {
		return err
	}
	res = docket.Result{Before: c}
	for i, a := range actions {
		var next docket.Case
		var warnings []docket.Warning
		if _, ok := a.(docket.Amending); ok {
			// An amendment rebuilds the case from its record, as amended.
			entries, err := loadEntries(ctx, tx, number)
			if err != nil {
				return err
			}
			next, err = s.engine.Amend(c, entries, a, by, at)
			if err != nil {
				return err
			}
			if err := s.keepsHeldMeetings(ctx, tx, &c, &next, entries, moving); err != nil {
				return err
			}
		} else {
			next, warnings, err = s.engine.ApplyBy(c, a, by, at)
			if err != nil {
				return err
			}
		}
		// The docket checked this case's papers; the store checks the other cases'.
		if err := s.articlesUnique(ctx, tx, &c, &next); err != nil {
			return err
		}
		key := request
		if i > 0 {
			key = "" // the request key marks the first event of the request
		}
		before := c
		step := docket.Step{By: by, At: at, Action: a, Before: &before, After: &next, Warnings: warnings}
		if err := s.record(ctx, tx, &step, seq+i, key, say); err != nil {
			return err
		}
		c = next
		res.Steps = append(res.Steps, step)
		res.Warnings = append(res.Warnings, warnings...)
	}
	res.Case = c
	return nil
}

// CaseRecord returns case number and its record, each event's action as recorded: what a
// meeting's minutes read of each case it heard (docket.CommissionMeeting.Record).
func (s *Store) CaseRecord(ctx context.Context, number string) (docket.Case, []docket.Entry, error) {
	c, err := s.Case(ctx, number)
	if err != nil {
		return c, nil, err
	}
	entries, err := s.Entries(ctx, number)
	return c, entries, err
}

// Entries returns case number's record: each event's action as recorded, in order.
func (s *Store) Entries(ctx context.Context, number string) ([]docket.Entry, error) {
	if _, _, err := loadCase(ctx, s.r, number); err != nil {
		return nil, err
	}
	return loadEntries(ctx, s.r, number)
}

// loadEntries reads a case's events as docket entries.
func loadEntries(ctx context.Context, q querier, number string) ([]docket.Entry, error) {
	events, err := scanEvents(q.QueryContext(ctx, eventColumns+` WHERE case_number = ? ORDER BY seq`, number))
	if err != nil {
		return nil, err
	}
	out := make([]docket.Entry, len(events))
	for i, e := range events {
		a, err := docket.DecodeAction(e.Kind, e.Payload)
		if err != nil {
			return nil, fmt.Errorf("event %d of case %s cannot be read: %w", e.Seq, number, err)
		}
		out[i] = docket.Entry{ID: e.ID, Seq: e.Seq, By: e.By, At: e.At, Action: a}
	}
	return out, nil
}

// replay answers a retried request from the record: done is true if request was already
// recorded.
func (s *Store) replay(ctx context.Context, tx *sql.Tx, request string, res *docket.Result) (done bool, err error) {
	if request == "" {
		return false, nil
	}
	var number string
	err = tx.QueryRowContext(ctx, `SELECT case_number FROM events WHERE request = ?`, request).Scan(&number)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	c, _, err := loadCase(ctx, tx, number)
	*res = docket.Result{Case: c, Replayed: true}
	return true, err
}

// querier is what reads need: a transaction or a pool.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// loadCase reads a case and the number of events that built it.
func loadCase(ctx context.Context, q querier, number string) (docket.Case, int, error) {
	return loadDoc[docket.Case](ctx, q, `SELECT doc, events FROM cases WHERE number = ?`, number,
		docket.NotFound("", "", fmt.Sprintf("there is no case %s; case numbers look like 2026-014", number)), "case "+number)
}

// loadDoc reads the materialised document keyed key by query (its doc and events
// columns) and the number of events that built it; notFound when there is none.
func loadDoc[T any](ctx context.Context, q querier, query, key string, notFound error, what string) (T, int, error) {
	var zero, v T
	var doc string
	var events int
	err := q.QueryRowContext(ctx, query, key).Scan(&doc, &events)
	if errors.Is(err, sql.ErrNoRows) {
		return zero, 0, notFound
	}
	if err != nil {
		return zero, 0, err
	}
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return zero, 0, fmt.Errorf("%s: stored record cannot be read: %w", what, err)
	}
	return v, events, nil
}

// record appends the event for step, whose action turned the case into step.After,
// writes the materialised case, and puts what say derives from the step in the outbox:
// all in the caller's transaction. It sets step.Event.
func (s *Store) record(ctx context.Context, tx *sql.Tx, step *docket.Step, prevSeq int, request string,
	say func(docket.Step) []outbox.Post) error {
	c, by, at := step.After, step.By, step.At
	if strings.TrimSpace(by) == "" {
		return docket.Invalid("", "by", "every event names who acted")
	}
	payload, err := json.Marshal(step.Action)
	if err != nil {
		return err
	}
	doc, err := json.Marshal(c)
	if err != nil {
		return err
	}
	e := Event{Case: c.Number, Seq: prevSeq + 1, At: at.UTC(), By: by, Kind: step.Action.Kind(), Payload: payload,
		Request: request, DocHash: sum(doc)}
	err = tx.QueryRowContext(ctx, `SELECT id, hash FROM events ORDER BY id DESC LIMIT 1`).Scan(&e.ID, &e.PrevHash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		e.ID, e.PrevHash = 0, genesis
	case err != nil:
		return err
	}
	e.ID++
	e.Hash = e.chainHash()

	now := stamp(at)
	if prevSeq == 0 {
		_, err = tx.ExecContext(ctx, `INSERT INTO cases (number, state, open, received, complainant, complainant_user,
			respondent, respondent_user, sections, violation_date, summary, doc, events, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.Number, c.State, !c.Closed(), stamp(c.Received), c.Complainant.Name, c.Complainant.SlackID,
			c.Respondent.Name, c.Respondent.SlackID, strings.Join(c.Sections, ","), c.ViolationDate.String(), c.Summary,
			string(doc), e.Seq, now)
	} else {
		// Every column follows the record: a correction may change the parties or the receipt.
		_, err = tx.ExecContext(ctx,
			`UPDATE cases SET state = ?, open = ?, received = ?, complainant = ?, complainant_user = ?,
			respondent = ?, respondent_user = ?, sections = ?, violation_date = ?, summary = ?, doc = ?, events = ?, updated = ? WHERE number = ?`,
			c.State, !c.Closed(), stamp(c.Received), c.Complainant.Name, c.Complainant.SlackID, c.Respondent.Name,
			c.Respondent.SlackID,
			strings.Join(c.Sections, ","), c.ViolationDate.String(), c.Summary, string(doc), e.Seq, now, c.Number)
	}
	if err != nil {
		return err
	}
	if err := s.writeDue(ctx, tx, c, at); err != nil {
		return err
	}
	if err := s.writeSteps(ctx, tx, c); err != nil {
		return err
	}
	// The search index follows the case in the same transaction, so it never disagrees
	// with the record: a correction of a name or an article number is found at once.
	if err := s.indexStep(ctx, tx, step); err != nil {
		return err
	}
	var req any
	if request != "" {
		req = request
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO events (id, case_number, seq, at, by, kind, payload, request, doc_hash, prev_hash, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Case, e.Seq, stamp(e.At), e.By, e.Kind, string(e.Payload), req, e.DocHash, e.PrevHash, e.Hash); err != nil {
		return err
	}
	step.Event = e.ID
	if s.public {
		if err := s.post(ctx, tx, c, at, e.ID); err != nil {
			return err
		}
	}
	if say == nil {
		return nil
	}
	return enqueue(ctx, tx, e.ID, say(*step))
}

// chainHash is SHA-256 over the previous event's hash and this event's canonical content.
func (e *Event) chainHash() string {
	content, _ := json.Marshal([]any{e.ID, e.Case, e.Seq, e.At.UTC().Format(time.RFC3339Nano), e.By, e.Kind,
		string(e.Payload), e.Request, e.DocHash})
	return linkHash(e.PrevHash, content)
}

// linkHash is SHA-256 over the previous link's hash, a newline and this link's content.
func linkHash(prev string, content []byte) string {
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte{'\n'})
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Case returns the case with number.
func (s *Store) Case(ctx context.Context, number string) (docket.Case, error) {
	c, _, err := loadCase(ctx, s.r, number)
	return c, err
}

// OpenCases returns every case that still needs something from the commission, oldest
// first. Readers call it often, so it decodes only the cases that changed since they were
// last decoded: a case's event count rises with every change, whoever made it, so a cached
// case with the same count is the stored one. The returned cases are that cache's and must
// not be modified.
func (s *Store) OpenCases(ctx context.Context) ([]*docket.Case, error) {
	return s.cachedCases(ctx, &s.cache, `SELECT number, events FROM cases WHERE open = 1 ORDER BY received, number`)
}

// DueCases calls fn with the open cases whose next due instant is at or before until, or
// not yet derived, oldest first (see DueBy), duePage of them at a time: what the reminder
// sweep reads every minute, through the index of the instants, instead of every open case.
// The list of the cases due is read in one snapshot, and each page is decoded just before
// fn is called with it, so that memory holds a page of decoded cases, not all of them:
// after a long outage, or on a record where thousands of cases are overdue, every open
// case may be due. It keeps its own cache, of the first dueCacheMax cases it last gave, so
// that a steady sweep decodes only the cases that changed, and takes decoded cases from
// OpenCases' too. The cases given are the caches' and must not be modified.
func (s *Store) DueCases(ctx context.Context, until time.Time, fn func(page []*docket.Case) error) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	list, err := caseRefs(ctx, tx, 0, nil, s.dueQuery(`SELECT number, events`), stamp(until))
	tx.Rollback()
	if err != nil {
		return err
	}
	fresh := make(map[string]cachedCase, min(len(list), dueCacheMax))
	for len(list) > 0 {
		page := list[:min(len(list), duePage)]
		list = list[len(page):]
		cases, err := s.decodePage(ctx, page, fresh)
		if err != nil {
			return err
		}
		if err := fn(cases); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.dueCache = fresh
	s.mu.Unlock()
	return nil
}

// duePage is how many decoded cases DueCases hands over at a time: about 2 KB each, so a
// page is half a megabyte whatever the number of cases due. A variable for the tests.
var duePage = 256

// dueCacheMax is how many of the cases due DueCases keeps decoded between two sweeps: a
// page. A steady sweep of a record with no more cases due than this (a commission's docket
// has tens) decodes only the cases that changed; beyond it, the rest are decoded again at
// every sweep (about 27 µs each: 0.27 s a minute when 10,000 are overdue, against 0.05 s
// with all of them kept, BenchmarkDueCases10k), which costs less than holding every
// overdue case decoded for good (2 KB each: 20 MB at 10,000). A variable for the tests.
var dueCacheMax = 256

// decodePage decodes the cases of page, in one snapshot, taking those cached at their event
// count from the caches, and keeps the first of them in fresh until it holds dueCacheMax.
func (s *Store) decodePage(ctx context.Context, page []caseRef, fresh map[string]cachedCase) ([]*docket.Case, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*docket.Case, 0, len(page))
	for _, e := range page {
		cc, err := s.cached(ctx, tx, e)
		if err != nil {
			return nil, err
		}
		if len(fresh) < dueCacheMax {
			fresh[e.number] = cc
		}
		out = append(out, cc.c)
	}
	return out, nil
}

// cachedCases returns the cases query selects (number, events), in one snapshot, decoding
// only those not cached at their event count. cache is then the cases returned, so that it
// holds no case the query no longer selects (one closed, or no longer due).
func (s *Store) cachedCases(ctx context.Context, cache *map[string]cachedCase, query string,
	args ...any) ([]*docket.Case, error) {
	tx, err := s.r.BeginTx(ctx, nil) // the list and the documents from one snapshot
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	list, err := caseRefs(ctx, tx, 0, nil, query, args...)
	if err != nil {
		return nil, err
	}
	return s.decodeCached(ctx, tx, cache, list)
}

// caseRef is a case by its number and event count.
type caseRef struct {
	number string
	events int
}

// caseRefs reads the cases query selects (number, events), leaving out those skip holds,
// and stops after limit of them if limit is not 0.
func caseRefs(ctx context.Context, tx *sql.Tx, limit int, skip map[string]bool, query string,
	args ...any) ([]caseRef, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []caseRef
	for rows.Next() && (limit == 0 || len(list) < limit) {
		var e caseRef
		if err := rows.Scan(&e.number, &e.events); err != nil {
			return nil, err
		}
		if !skip[e.number] {
			list = append(list, e)
		}
	}
	return list, rows.Err()
}

// decodeCached returns the cases of list, decoding only those in no cache at their event
// count, and makes cache those cases.
func (s *Store) decodeCached(ctx context.Context, tx *sql.Tx, cache *map[string]cachedCase,
	list []caseRef) ([]*docket.Case, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := make(map[string]cachedCase, len(list))
	out := make([]*docket.Case, 0, len(list))
	for _, e := range list {
		cc, err := s.cached(ctx, tx, e)
		if err != nil {
			return nil, err
		}
		fresh[e.number] = cc
		out = append(out, cc.c)
	}
	*cache = fresh
	return out, nil
}

// cached returns the case e, from a cache if one holds it at its event count, else decoded
// from tx. s.mu must be held.
func (s *Store) cached(ctx context.Context, tx *sql.Tx, e caseRef) (cachedCase, error) {
	for _, m := range []map[string]cachedCase{s.cache, s.dueCache, s.docketCache} {
		if cc, ok := m[e.number]; ok && cc.events == e.events {
			return cc, nil
		}
	}
	c, events, err := loadCase(ctx, tx, e.number)
	if err != nil {
		return cachedCase{}, err
	}
	return cachedCase{events: events, c: &c}, nil
}

// cachedCase is a decoded open case and the event count it was decoded at.
type cachedCase struct {
	events int
	c      *docket.Case
}

// ClosedCases calls fn with each closed case, the latest received first (by number among
// those received at once), until fn returns false: a form that lists the closed cases
// after the open ones stops once it holds more than a select can, instead of decoding
// every case the record has closed over the years. The order is read in one snapshot from
// the cases' columns alone, and each case is decoded only when fn is to be called with it;
// fn must copy what it keeps.
func (s *Store) ClosedCases(ctx context.Context, fn func(*docket.Case) bool) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	numbers, err := column(ctx, tx, `SELECT number FROM cases WHERE open = 0 ORDER BY received DESC, number`)
	if err != nil {
		return err
	}
	for _, n := range numbers {
		var c *docket.Case
		rows, err := tx.QueryContext(ctx, `SELECT doc FROM cases WHERE number = ?`, n)
		if err := eachCaseDoc(rows, err, func(d *docket.Case) { c = d }); err != nil {
			return err
		}
		if c != nil && !fn(c) {
			return nil
		}
	}
	return nil
}

// AllCases returns every case, oldest first.
func (s *Store) AllCases(ctx context.Context) ([]docket.Case, error) {
	return s.cases(ctx, `SELECT doc FROM cases ORDER BY received, number`)
}

func (s *Store) cases(ctx context.Context, query string) ([]docket.Case, error) {
	return scanCases(s.r.QueryContext(ctx, query))
}

func scanCases(rows *sql.Rows, err error) ([]docket.Case, error) {
	var out []docket.Case
	err = eachCaseDoc(rows, err, func(c *docket.Case) { out = append(out, *c) })
	return out, err
}

// eachCaseDoc decodes the stored case of each row, a case document alone, and hands it to
// fn, one at a time: fn must copy what it keeps.
func eachCaseDoc(rows *sql.Rows, err error, fn func(*docket.Case)) error {
	return eachDoc(rows, err, "case", fn)
}

// eachDoc decodes the JSON document of each row, a stored what alone, and hands it to fn,
// one at a time: fn must copy what it keeps.
func eachDoc[T any](rows *sql.Rows, err error, what string, fn func(*T)) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	var doc sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		var v T
		if err := json.Unmarshal(doc, &v); err != nil {
			return fmt.Errorf("a stored %s cannot be read: %w", what, err)
		}
		fn(&v)
	}
	return rows.Err()
}

// CaseRecord is a case with its events, in order.
type CaseRecord struct {
	docket.Case
	Events []Event `json:"events"`
}

// EachCase calls fn with every case (only the open ones if open) and its events, in
// case-number order, from one snapshot. It walks the cases and the events side by side, so
// it holds one case's events at a time however large the record is.
func (s *Store) EachCase(ctx context.Context, open bool, fn func(CaseRecord) error) error {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	caseWhere, eventWhere := "", ""
	if open {
		caseWhere, eventWhere = " WHERE open = 1", " WHERE case_number IN (SELECT number FROM cases WHERE open = 1)"
	}
	crows, err := tx.QueryContext(ctx, `SELECT doc FROM cases`+caseWhere+` ORDER BY number`)
	if err != nil {
		return err
	}
	defer crows.Close()
	erows, err := tx.QueryContext(ctx, eventColumns+eventWhere+` ORDER BY case_number, seq`)
	if err != nil {
		return err
	}
	defer erows.Close()
	var next *Event // the first event not yet handed out
	advance := func() error {
		next = nil
		if !erows.Next() {
			return erows.Err()
		}
		e, err := scanEvent(erows)
		next = &e
		return err
	}
	if err := advance(); err != nil {
		return err
	}
	var doc []byte
	for crows.Next() {
		if err := crows.Scan(&doc); err != nil {
			return err
		}
		var r CaseRecord
		if err := json.Unmarshal(doc, &r.Case); err != nil {
			return fmt.Errorf("a stored case cannot be read: %w", err)
		}
		for next != nil && next.Case <= r.Number {
			if next.Case == r.Number {
				r.Events = append(r.Events, *next)
			}
			if err := advance(); err != nil {
				return err
			}
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return crows.Err()
}

// Events returns case number's events in order.
func (s *Store) Events(ctx context.Context, number string) ([]Event, error) {
	return scanEvents(s.r.QueryContext(ctx, eventColumns+` WHERE case_number = ? ORDER BY seq`, number))
}

const eventColumns = `SELECT id, case_number, seq, at, by, kind, payload, COALESCE(request, ''), doc_hash, prev_hash, hash FROM events`

func scanEvents(rows *sql.Rows, err error) ([]Event, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func scanEvent(rows *sql.Rows) (Event, error) {
	var e Event
	var at, payload string
	if err := rows.Scan(&e.ID, &e.Case, &e.Seq, &at, &e.By, &e.Kind, &payload, &e.Request, &e.DocHash, &e.PrevHash,
		&e.Hash); err != nil {
		return e, err
	}
	e.Payload = json.RawMessage(payload)
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return e, fmt.Errorf("event %d: time %q cannot be read: %w", e.ID, at, err)
	}
	e.At = t
	return e, nil
}
