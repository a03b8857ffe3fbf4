package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
)

// The commission's meetings: each meeting's own record is a stream of events in
// meeting_events (migration 011), hash-chained like the case events but on a chain of its
// own, and materialised in commission_meetings. The case steps a meeting holds stay in
// their cases; docket.Engine.Fold puts the two together when the meetings are read.

// A meeting's event is an Event whose Case is the meeting's name.

// meetingHash is SHA-256 over the previous meeting event's hash and this event's content,
// as for the case events (Event.chainHash), with a label so that a meeting event can
// never pass for a case event.
func meetingHash(e *Event) string {
	content, _ := json.Marshal([]any{"meeting", e.ID, e.Case, e.Seq, e.At.UTC().Format(time.RFC3339Nano), e.By, e.Kind,
		string(e.Payload), e.Request, e.DocHash})
	return linkHash(e.PrevHash, content)
}

// ErrNoMeetings is returned by a record whose schema has no meetings yet.
var errNoMeetings = docket.Unavailable("the record predates the commission's meetings (migration 011); run " +
	"ethicsbot migrate")

// ChangeMeeting records ch in one transaction. act.By is who acts; act.Request, if not "",
// an idempotency key: a retry with the same key records nothing new. The Sayer wired with
// SayWith derives what each case action causes ethicsbot to say, as for Apply, and what
// the meeting, as it stands after the change, causes it to say. Their posts are committed
// with the events.
func (s *Store) ChangeMeeting(ctx context.Context, act docket.Act, ch docket.MeetingChange) (docket.MeetingResult,
	error) {
	by, request, at, say, sayMeeting := act.By, act.Request, act.At, s.stepSayer(ctx), s.meetingSayer(ctx)
	var res docket.MeetingResult
	if !s.meetings {
		return res, errNoMeetings
	}
	if ch.Create == nil && ch.Meeting == "" {
		return res, docket.Invalid("", "meeting", "name the meeting, e.g. 2027-01-12")
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res = docket.MeetingResult{}
		if request != "" {
			var name string
			err := tx.QueryRowContext(ctx, `SELECT meeting FROM meeting_events WHERE request = ?`, request).Scan(&name)
			if err == nil {
				m, _, err := loadMeeting(ctx, tx, name)
				res = docket.MeetingResult{Meeting: m, Replayed: true}
				return err
			} else if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			var dummy docket.Result
			if done, err := s.replay(ctx, tx, request, &dummy); done || err != nil {
				res.Replayed = done
				return err
			}
		}
		name := ch.Meeting
		var m docket.CommissionMeeting
		seq := 0
		first := request // the request key marks the first event of the request
		if ch.Create != nil {
			create := *ch.Create
			if create.Name == "" {
				folded, err := s.foldIn(ctx, tx)
				if err != nil {
					return err
				}
				var taken []string
				for _, f := range folded {
					taken = append(taken, f.Name)
				}
				create.Name = s.engine.NameMeeting(create.Start, taken)
			} else if _, _, err := loadMeeting(ctx, tx, create.Name); err == nil {
				return docket.Conflict("", "meeting", "meeting "+create.Name+" already exists")
			} else if docket.ErrorCode(err) != docket.ENOTFOUND {
				return err
			}
			name = create.Name
			next, err := s.engine.ApplyMeeting(m, create, at)
			if err != nil {
				return err
			}
			if err := s.recordMeeting(ctx, tx, next, create, by, at, seq, first); err != nil {
				return err
			}
			m, seq, first = next, 1, ""
		} else if len(ch.Actions) > 0 {
			// A change of the cases alone (the steps of a meeting folded from its cases,
			// posted after it began) needs no record of the meeting.
			var err error
			if m, seq, err = loadMeeting(ctx, tx, name); err != nil {
				return err
			}
		}
		// A held meeting's own correction carries its case steps with it (keepsHeldMeetings).
		moving := ""
		for _, a := range ch.Actions {
			if _, ok := a.(docket.CorrectMeeting); ok {
				moving = name
			}
		}
		for _, ca := range ch.Cases {
			var r docket.Result
			if err := s.applyIn(ctx, tx, ca.Number, by, first, at, say, ca.Actions, &r, moving); err != nil {
				return err
			}
			first = ""
			res.Cases = append(res.Cases, r)
		}
		if len(ch.Actions) > 0 {
			// The meeting's actions see its whole agenda: the case steps it holds, as the
			// cases now stand, before its other business (an item's number counts both).
			folded, err := s.foldIn(ctx, tx)
			if err != nil {
				return err
			}
			if f, err := docket.FindMeeting(folded, name); err == nil {
				m.Cases = f.Cases
			}
		}
		for _, a := range ch.Actions {
			next, err := s.engine.ApplyMeeting(m, a, at)
			if err != nil {
				return err
			}
			if err := s.recordMeeting(ctx, tx, next, a, by, at, seq, first); err != nil {
				return err
			}
			first = ""
			m = next
			seq++
		}
		if ch.Left != "" && ch.Left != name {
			left, n, err := loadMeeting(ctx, tx, ch.Left)
			if err != nil {
				return err
			}
			a := docket.AgendaChanged{What: "an item left for meeting " + name}
			if left, err = s.engine.ApplyMeeting(left, a, at); err != nil {
				return err
			}
			if err := s.recordMeeting(ctx, tx, left, a, by, at, n, first); err != nil {
				return err
			}
			first = ""
		}
		folded, err := s.foldIn(ctx, tx)
		if err != nil {
			return err
		}
		// No change may leave the meeting at the start and place of another (a move onto
		// it): its items would change hands (docket.Engine.CheckCollisions).
		if err := s.engine.CheckCollisions(folded, name); err != nil {
			return err
		}
		f, err := docket.FindMeeting(folded, name)
		if err != nil {
			return err
		}
		res.Meeting = *f
		if sayMeeting != nil {
			return enqueue(ctx, tx, 0, sayMeeting(*f, folded))
		}
		return nil
	})
	return res, err
}

// recordMeeting appends the event of action a, which turned the meeting into m, and writes
// the materialised meeting, in the caller's transaction.
func (s *Store) recordMeeting(ctx context.Context, tx *sql.Tx, m docket.CommissionMeeting, a docket.MeetingAction,
	by string, at time.Time, prevSeq int, request string) error {
	if strings.TrimSpace(by) == "" {
		return docket.Invalid("", "by", "every event names who acted")
	}
	payload, err := json.Marshal(a)
	if err != nil {
		return err
	}
	doc, err := json.Marshal(m)
	if err != nil {
		return err
	}
	e := Event{Case: m.Name, Seq: prevSeq + 1, At: at.UTC(), By: by, Kind: a.Kind(), Payload: payload, Request: request,
		DocHash: sum(doc)}
	if prevSeq == 0 {
		_, err = tx.ExecContext(ctx,
			`INSERT INTO commission_meetings (name, start, place, doc, events, updated) VALUES (?, ?, ?, ?, ?, ?)`,
			m.Name, stamp(m.Start), m.Place, string(doc), e.Seq, stamp(at))
	} else {
		_, err = tx.ExecContext(ctx,
			`UPDATE commission_meetings SET start = ?, place = ?, doc = ?, events = ?, updated = ? WHERE name = ?`,
			stamp(m.Start), m.Place, string(doc), e.Seq, stamp(at), m.Name)
	}
	if err != nil {
		return err
	}
	return appendMeetingEvent(ctx, tx, &e)
}

// appendMeetingEvent numbers e, links it to the last event of the meetings' chain, hashes
// it and appends it, in the caller's transaction. e.Case names its stream: a meeting, or a
// news medium's request (media.go).
func appendMeetingEvent(ctx context.Context, tx *sql.Tx, e *Event) error {
	err := tx.QueryRowContext(ctx, `SELECT id, hash FROM meeting_events ORDER BY id DESC LIMIT 1`).Scan(&e.ID, &e.PrevHash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		e.ID, e.PrevHash = 0, genesis
	case err != nil:
		return err
	}
	e.ID++
	e.Hash = meetingHash(e)
	var req any
	if e.Request != "" {
		req = e.Request
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO meeting_events (id, meeting, seq, at, by, kind, payload, request, doc_hash, prev_hash, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Case, e.Seq, stamp(e.At), e.By, e.Kind, string(e.Payload), req, e.DocHash, e.PrevHash, e.Hash)
	return err
}

// keepsHeldMeetings refuses an amendment of a case (before, after; entries, its record
// before it) that takes one of its steps out of a meeting held, or puts one in
// (docket.Engine.CheckHeldItem): a meeting held keeps the items its minutes record. The
// meeting named moving is exempt: its own correction carries its steps with it.
func (s *Store) keepsHeldMeetings(ctx context.Context, tx *sql.Tx, before, after *docket.Case, entries []docket.Entry,
	moving string) error {
	if !s.meetings {
		return nil
	}
	for _, k := range docket.MeetingKinds {
		b, a := before.Meeting(k), after.Meeting(k)
		if b.Scheduled() == a.Scheduled() && b.Start.Equal(a.Start) && b.Place == a.Place {
			continue
		}
		for _, side := range []struct {
			m     docket.Meeting
			joins bool
		}{{b, false}, {a, true}} {
			if !side.m.Scheduled() {
				continue
			}
			held, err := heldMeetingAt(ctx, tx, side.m.Start, side.m.Place)
			if err != nil {
				return err
			}
			if held == nil || held.Name == moving {
				continue
			}
			if err := s.engine.CheckHeldItem(held, after.Number, entries, k, side.joins); err != nil {
				return err
			}
		}
	}
	return nil
}

// verifyHeldItems names the first meeting whose case steps differ from those it held when
// its minutes were approved (docket.Engine.CheckApprovedItems): those steps are rebuilt
// from each case's record as it stood at the approval (docket.Engine.StepsAt), so a record
// written before ethicsbot refused such a change is checked too. nil when every meeting
// with approved minutes holds what they record.
//
// folded are the meetings as Fold gives them.
func (s *Store) verifyHeldItems(ctx context.Context, tx *sql.Tx, folded []docket.CommissionMeeting) (*Break, error) {
	approvedAt := map[string]time.Time{}
	rows, err := tx.QueryContext(ctx, `SELECT meeting, at FROM meeting_events WHERE kind = ? ORDER BY id`,
		docket.ApproveMinutes{}.Kind())
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var name, at string
		if err := rows.Scan(&name, &at); err != nil {
			rows.Close()
			return nil, err
		}
		approvedAt[name] = unstamp(at) // the last roll call is the one that approved them
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if len(approvedAt) == 0 {
		return nil, nil
	}
	type slot struct {
		start int64
		place string
	}
	approved := map[string][]docket.HeldStep{}   // by meeting: the steps it held when approved
	at := map[slot][]*docket.CommissionMeeting{} // the approved meetings by where they were then
	for i := range folded {
		m := &folded[i]
		t, ok := approvedAt[m.Name]
		if !ok || m.Folded || m.Minutes.Approved.IsZero() {
			continue
		}
		start, place := m.SlotAt(t)
		at[slot{start.UnixNano(), place}] = append(at[slot{start.UnixNano(), place}], m)
		approved[m.Name] = nil
	}
	// Only the cases an event of which scheduled a step where an approved meeting was, as
	// recorded or as corrected, are rebuilt, each for those meetings alone.
	candidates, err := schedulingCases(ctx, tx, func(sm docket.ScheduleMeeting) []*docket.CommissionMeeting {
		return at[slot{sm.Start.UnixNano(), sm.Place}]
	})
	if err != nil {
		return nil, err
	}
	for _, c := range candidates {
		entries, err := loadEntries(ctx, tx, c.number)
		if err != nil {
			return nil, err
		}
		for _, m := range c.meetings {
			start, place := m.SlotAt(approvedAt[m.Name])
			steps, err := s.engine.StepsAt(c.number, entries, approvedAt[m.Name], start, place)
			if err != nil {
				return &Break{Case: c.number, Problem: "its record as it stood when the minutes of meeting " + m.Name +
					" were approved cannot be rebuilt: " + docket.ErrorMessage(err)}, nil
			}
			for _, k := range steps {
				approved[m.Name] = append(approved[m.Name], docket.HeldStep{Case: c.number, Step: k})
			}
		}
	}
	for i := range folded {
		m := &folded[i]
		steps, ok := approved[m.Name]
		if !ok {
			continue
		}
		if err := s.engine.CheckApprovedItems(m, steps, approvedAt[m.Name]); err != nil {
			return &Break{Problem: docket.ErrorMessage(err)}, nil
		}
	}
	return nil, nil
}

// scheduledBy is the meeting an event's action schedules a step at, as recorded or as a
// correction of one records it. A switch on the action's type, because the store reads
// stored events, a correction holding its corrected act encoded, to find the cases a
// meeting holds without folding every case; docket keeps what each act means.
func scheduledBy(a docket.Action) (docket.ScheduleMeeting, bool) {
	switch a := a.(type) {
	case docket.ScheduleMeeting:
		return a, true
	case docket.Correct:
		if act, err := docket.DecodeAction(a.Of, a.Action); err == nil {
			sm, ok := act.(docket.ScheduleMeeting)
			return sm, ok
		}
	}
	return docket.ScheduleMeeting{}, false
}

// schedulingCase is a case and the meetings (of those it is asked about) at which an event
// of it scheduled a step.
type schedulingCase struct {
	number   string
	meetings []*docket.CommissionMeeting
}

// schedulingCases reads, from the events that schedule a step or correct one (decoding
// those alone), the cases and meetings where any of them put a step, in case order:
// meetingsAt says which meetings a scheduling's start and place concerns.
func schedulingCases(ctx context.Context, q querier,
	meetingsAt func(docket.ScheduleMeeting) []*docket.CommissionMeeting) ([]schedulingCase, error) {
	rows, err := q.QueryContext(ctx,
		`SELECT case_number, kind, payload FROM events WHERE kind IN (?, ?) ORDER BY case_number, seq`,
		docket.ScheduleMeeting{}.Kind(), docket.Correct{}.Kind())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []schedulingCase
	for rows.Next() {
		var number, kind, payload string
		if err := rows.Scan(&number, &kind, &payload); err != nil {
			return nil, err
		}
		a, err := docket.DecodeAction(kind, []byte(payload))
		if err != nil {
			return nil, fmt.Errorf("an event of case %s cannot be read: %w", number, err)
		}
		sm, ok := scheduledBy(a)
		if !ok {
			continue
		}
		for _, m := range meetingsAt(sm) {
			if len(out) == 0 || out[len(out)-1].number != number {
				out = append(out, schedulingCase{number: number})
			}
			if c := &out[len(out)-1]; !slices.Contains(c.meetings, m) {
				c.meetings = append(c.meetings, m)
			}
		}
	}
	return out, rows.Err()
}

// heldMeetingAt is the recorded meeting, not cancelled and held, at start and place; nil if
// there is none.
func heldMeetingAt(ctx context.Context, q querier, start time.Time, place string) (*docket.CommissionMeeting, error) {
	ms, err := readMeetings(ctx, q, `SELECT doc FROM commission_meetings WHERE start = ? AND place = ?`, stamp(start),
		place)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		if ms[i].Cancelled.IsZero() && ms[i].WasHeld() {
			return &ms[i], nil
		}
	}
	return nil, nil
}

// loadMeeting reads a recorded meeting and the number of events that built it.
func loadMeeting(ctx context.Context, q querier, name string) (docket.CommissionMeeting, int, error) {
	return loadDoc[docket.CommissionMeeting](ctx, q, `SELECT doc, events FROM commission_meetings WHERE name = ?`, name,
		docket.NotFound("", "meeting", fmt.Sprintf("there is no meeting %s", name)), "meeting "+name)
}

// storedMeetings reads every recorded meeting, in order of start.
func storedMeetings(ctx context.Context, q querier) ([]docket.CommissionMeeting, error) {
	return readMeetings(ctx, q, `SELECT doc FROM commission_meetings ORDER BY start, name`)
}

// readMeetings reads the recorded meetings whose documents query selects, in its order.
func readMeetings(ctx context.Context, q querier, query string, args ...any) ([]docket.CommissionMeeting, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []docket.CommissionMeeting
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		var m docket.CommissionMeeting
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			return nil, fmt.Errorf("a stored meeting cannot be read: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// foldIn reads the commission's meetings, folded with the cases' steps, in tx.
func (s *Store) foldIn(ctx context.Context, q querier) ([]docket.CommissionMeeting, error) {
	return s.foldDays(ctx, q, time.Time{}, time.Time{})
}

// foldDays is foldIn of the case steps whose meeting starts at from or later and before
// until, each the start of a day in the commission's zone: of every step when from is
// zero, with no end when until is zero. A meeting's folded name depends only on the names
// recorded and on the case steps of its own day (docket.Folding.Meetings names each day's
// meetings in order of start), so the meetings of those days are named, and hold the same
// case steps, as the whole fold gives them; the recorded meetings of other days are given
// without their case steps. A record that keeps the steps' starts (019) reads those days'
// steps alone, through their index; an older one reads every step and drops the others.
func (s *Store) foldDays(ctx context.Context, q querier, from, until time.Time) ([]docket.CommissionMeeting, error) {
	var stored []docket.CommissionMeeting
	if s.meetings {
		var err error
		if stored, err = storedMeetings(ctx, q); err != nil {
			return nil, err
		}
	}
	f := s.engine.NewFolding(stored)
	add := f.AddStep
	if !from.IsZero() {
		add = func(st docket.ScheduledStep) {
			if !st.Start.Before(from) && (until.IsZero() || st.Start.Before(until)) {
				f.AddStep(st)
			}
		}
	}
	if s.steps { // the steps scheduled, kept with the cases: no case is decoded
		lo, hi := "", ""
		if s.attend && !from.IsZero() {
			lo, hi = stamp(from), "~" // "~" sorts after every stored instant
			if !until.IsZero() {
				hi = stamp(until)
			}
		}
		if err := foldSteps(ctx, q, add, lo, hi); err != nil {
			return nil, err
		}
	} else {
		// One case decoded at a time: the fold keeps the steps scheduled, not the cases, so a
		// read of the meetings does not hold the whole record at once.
		if err := eachCaseStep(ctx, q, add, `SELECT doc FROM cases ORDER BY number`); err != nil {
			return nil, err
		}
	}
	return f.Meetings(), nil
}

// verifyCollisions names two meetings recorded at one start and place, whose case steps
// cannot be told apart (docket.Engine.CheckCollisions), among folded, the meetings as Fold
// gives them; nil when there are none.
func (s *Store) verifyCollisions(folded []docket.CommissionMeeting) *Break {
	if err := s.engine.CheckCollisions(folded, ""); err != nil {
		return &Break{Problem: docket.ErrorMessage(err)}
	}
	return nil
}

// Meetings returns the commission's meetings, past and coming, in order of start: those
// recorded, with the case steps at each one's start and place, and the case steps at a
// start and place no record holds folded into meetings of their own (docket.Engine.Fold).
// It reads one snapshot and writes nothing.
func (s *Store) Meetings(ctx context.Context) ([]docket.CommissionMeeting, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return s.foldIn(ctx, tx)
}

// ComingMeetings returns the commission's meetings as Meetings does, but of the case steps
// only those scheduled from the day of now through the day of the first one after now:
// enough for the next meeting, which is among them as Meetings gives it, with every case
// step it holds and by the same name (see foldDays). The recorded meetings outside those
// days lack their case steps. It reads through the index of the steps' starts, so that the
// next meeting is found without folding every meeting ever scheduled.
func (s *Store) ComingMeetings(ctx context.Context, now time.Time) ([]docket.CommissionMeeting, error) {
	if !s.attend { // the steps' starts are not kept
		return s.Meetings(ctx)
	}
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var first sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT min(start) FROM case_steps WHERE start > ?`, stamp(now)).Scan(
		&first); err != nil {
		return nil, err
	}
	cal := s.engine.Cal
	var until time.Time // no end: no step is scheduled after now
	if first.Valid {
		until = cal.DateOf(unstamp(first.String)).AddDays(1).In(cal.Location())
	}
	return s.foldDays(ctx, tx, cal.DateOf(now).In(cal.Location()), until)
}

// MeetingsOn returns the meetings Meetings returns that start on a day from first to last,
// in the commission's zone, named as Meetings names them and with the same case steps. The
// reminder sweep reads these: it needs only the meetings about to be prepared, noticed or
// listed in the digest, and on a record of 10,000 cases each with a meeting of its own the
// fold of every meeting held 14 MB. It reads one snapshot and writes nothing.
func (s *Store) MeetingsOn(ctx context.Context, first, last docket.Date) ([]docket.CommissionMeeting, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	loc := s.engine.Cal.Location()
	from, until := first.In(loc), last.AddDays(1).In(loc)
	ms, err := s.foldDays(ctx, tx, from, until)
	return slices.DeleteFunc(ms, func(m docket.CommissionMeeting) bool {
		return m.Start.Before(from) || !m.Start.Before(until)
	}), err
}

// RecordedMeetings returns the meetings recorded as such, in order of start, without the
// case steps each holds: what the minutes' clocks need, read without decoding every case.
// It writes nothing.
func (s *Store) RecordedMeetings(ctx context.Context) ([]docket.CommissionMeeting, error) {
	if !s.meetings {
		return nil, nil
	}
	ms, err := storedMeetings(ctx, s.r)
	if err != nil {
		return nil, s.wrap(err)
	}
	return ms, nil
}

// MeetingEvents returns a meeting's events, in order; each names the meeting as its Case.
func (s *Store) MeetingEvents(ctx context.Context, name string) ([]Event, error) {
	if !s.meetings {
		return nil, nil
	}
	return scanEvents(s.r.QueryContext(ctx, meetingEventColumns+` WHERE meeting = ? ORDER BY seq`, name))
}

// meetingEventColumns reads meeting_events as eventColumns reads events: scanEvent reads both.
const meetingEventColumns = `SELECT id, meeting, seq, at, by, kind, payload, COALESCE(request, ''), doc_hash, prev_hash, hash FROM meeting_events`

// verifyMeetings walks the meetings' chain from its first event to its last, then checks
// that every meeting row is the document its last event produced. It returns the first
// problem, or "".
func verifyMeetings(ctx context.Context, tx *sql.Tx, media bool) (string, error) {
	rows, err := tx.QueryContext(ctx, meetingEventColumns+` ORDER BY id`)
	if err != nil {
		return "", err
	}
	meetings := map[string]streamTail{}
	prev := Event{Hash: genesis}
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			rows.Close()
			return fmt.Sprintf("meeting event %d cannot be read (%v): it was changed outside ethicsbot", prev.ID+1, err), nil
		}
		t := meetings[e.Case]
		problem := ""
		switch {
		case e.ID != prev.ID+1:
			problem = fmt.Sprintf("comes after meeting event %d: meeting events %d to %d are missing", prev.ID,
				prev.ID+1, e.ID-1)
		case e.PrevHash != prev.Hash:
			problem = fmt.Sprintf("does not link to meeting event %d: the chain was broken there", prev.ID)
		case meetingHash(&e) != e.Hash:
			problem = fmt.Sprintf("its content no longer matches its hash: the %s event of %s was changed after it was recorded",
				e.Kind, e.At.Format(time.RFC3339))
		case e.Seq != t.seq+1:
			problem = fmt.Sprintf("is number %d of its meeting, but follows number %d", e.Seq, t.seq)
		}
		if problem != "" {
			rows.Close()
			return fmt.Sprintf("meeting event %d (meeting %s): %s", e.ID, e.Case, problem), nil
		}
		meetings[e.Case] = streamTail{e.Seq, e.DocHash}
		prev = e
	}
	if err := rows.Close(); err != nil {
		return "", err
	}
	mrows, err := tx.QueryContext(ctx, `SELECT name, doc, events FROM commission_meetings ORDER BY name`)
	if err != nil {
		return "", err
	}
	defer mrows.Close()
	for mrows.Next() {
		var name, doc string
		var events int
		if err := mrows.Scan(&name, &doc, &events); err != nil {
			return "", err
		}
		if problem := checkTail(meetings, name, "meeting "+name, doc, events); problem != "" {
			return problem, nil
		}
	}
	if err := mrows.Err(); err != nil {
		return "", err
	}
	guards := meetingGuards
	if media {
		// The news media's requests, on the same chain (migration 014).
		if problem, err := verifyMedia(ctx, tx, meetings); problem != "" || err != nil {
			return problem, err
		}
		guards = append(guards[:len(guards):len(guards)], "news_media_no_delete")
	}
	for name := range meetings {
		if id, ok := strings.CutPrefix(name, mediaPrefix); ok && media {
			return "the news media's request " + id + " has events but no row: it was deleted", nil
		}
		return "meeting " + name + " has events but no row: it was deleted", nil
	}
	// Last, as for the cases: the guards a rewrite drops.
	return checkTriggers(ctx, tx, guards, "the meetings' record")
}

// streamTail is where a stream of the meetings' chain ends: its last event's number in the
// stream and the hash of the document that event produced.
type streamTail struct {
	seq     int
	docHash string
}

// checkTail checks that doc, the row of stream name that claims events events, is what the
// stream's last event produced, and removes the stream from tails; what names it in a
// problem.
func checkTail(tails map[string]streamTail, name, what, doc string, events int) string {
	t, ok := tails[name]
	switch {
	case !ok:
		return what + " has no events: it was not made by ethicsbot"
	case sum([]byte(doc)) != t.docHash:
		return what + ": its record differs from what its last event produced: it was changed outside ethicsbot"
	case events != t.seq:
		return fmt.Sprintf("%s claims %d events but has %d", what, events, t.seq)
	}
	delete(tails, name)
	return ""
}

// meetingGuards are the triggers that keep the meetings' record append-only.
var meetingGuards = []string{"meeting_events_no_update", "meeting_events_no_delete", "commission_meetings_no_delete"}
