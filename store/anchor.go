package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Anchor names the head of the record's hash chain: how many events it holds and the hash
// of the last one. Every event's hash covers all before it, so a copy of the anchor kept
// outside the file (in the docket channel, in the backup log) shows whether the record
// still holds every event up to it, unchanged: deleting the newest events, or rewriting
// any earlier one and rehashing the chain after it, cannot reproduce an anchor taken
// before.
//
// The commission's meetings keep their own chain (meeting_events, migration 012): the
// anchor names its head too, so that an agenda, a posting, a roll or an adjournment
// recorded since is covered like a case event.
type Anchor struct {
	Events int64  // the number of the last event; events are numbered 1, 2, ... without gaps
	Hash   string // its hash, 64 hex digits
	// Meetings is the number of the last meeting event, and MeetingHash its hash; 0 and ""
	// for a record without meeting events, or an anchor posted before anchors named them.
	Meetings    int64
	MeetingHash string
	At          time.Time
}

// String writes the anchor as ethicsbot prints and posts it: "<n>:<hex>", followed by
// "+<m>:<hex>" for the meetings' chain when it holds events. A record without meeting
// events keeps the form anchors had before they covered meetings.
func (a Anchor) String() string {
	s := strconv.FormatInt(a.Events, 10) + ":" + a.Hash
	if a.Meetings > 0 {
		s += "+" + strconv.FormatInt(a.Meetings, 10) + ":" + a.MeetingHash
	}
	return s
}

var anchorForm = regexp.MustCompile(`^([0-9]{1,18}):([0-9a-f]{64})(?:\s*\+\s*([0-9]{1,18}):([0-9a-f]{64}))?$`)

// ParseAnchor reads an anchor written by String, as printed or posted: a leading "anchor "
// and capital hex digits are taken as they come from a copy and paste. An anchor without
// a meetings part (as every anchor posted before meetings were chained) is checked against the
// cases' chain alone: it says nothing of the meetings.
func ParseAnchor(s string) (Anchor, error) {
	m := anchorForm.FindStringSubmatch(strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "anchor ")))
	if m == nil {
		return Anchor{}, fmt.Errorf("%q is not an anchor: give it as ethicsbot printed it, <events>:<64 hex digits of the "+
			"last event's hash>, then +<meeting events>:<64 hex digits> if it has a meetings part", s)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return Anchor{}, fmt.Errorf("%q is not an anchor: %v", s, err)
	}
	a := Anchor{Events: n, Hash: m[2]}
	if m[3] != "" {
		if a.Meetings, err = strconv.ParseInt(m[3], 10, 64); err != nil {
			return Anchor{}, fmt.Errorf("%q is not an anchor: %v", s, err)
		}
		a.MeetingHash = m[4]
		if a.Meetings == 0 {
			return Anchor{}, fmt.Errorf("%q is not an anchor: its meetings part names meeting event 0; a record without "+
				"meeting events has no meetings part", s)
		}
	}
	return a, nil
}

// Head returns the record's anchor now: its last event, or 0 and the genesis hash for a
// record without events.
func (s *Store) Head(ctx context.Context) (Anchor, error) {
	a, err := head(ctx, s.r)
	if err == nil && s.meetings {
		a.Meetings, a.MeetingHash, err = meetingHead(ctx, s.r)
	}
	return a, err
}

// LastEventAt returns the time of the record's last event, the later of the last case
// event's and the last meeting event's, or the zero time for a record without events.
// Events are recorded in order of time as well as of number: a clock that starts a run
// (the demo console's) starts no earlier than this.
func (s *Store) LastEventAt(ctx context.Context) (time.Time, error) {
	a, err := head(ctx, s.r)
	if err != nil || !s.meetings {
		return a.At, err
	}
	var at string
	err = s.r.QueryRowContext(ctx, `SELECT at FROM meeting_events ORDER BY id DESC LIMIT 1`).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return a.At, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	if m := unstamp(at); m.After(a.At) {
		return m, nil
	}
	return a.At, nil
}

// meetingHead returns the last meeting event's number and hash, or 0 and "" if there is
// none.
func meetingHead(ctx context.Context, q querier) (int64, string, error) {
	var n int64
	var h string
	err := q.QueryRowContext(ctx, `SELECT id, hash FROM meeting_events ORDER BY id DESC LIMIT 1`).Scan(&n, &h)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return n, h, err
}

func head(ctx context.Context, q querier) (Anchor, error) {
	var a Anchor
	var at string
	err := q.QueryRowContext(ctx, `SELECT id, hash, at FROM events ORDER BY id DESC LIMIT 1`).Scan(&a.Events, &a.Hash, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Anchor{Hash: genesis}, nil
	}
	if err != nil {
		return Anchor{}, err
	}
	a.At = unstamp(at)
	return a, nil
}

// CheckAnchor compares the record with an anchor taken earlier. It returns "" if event
// a.Events is in the record with a.Hash (later events may follow it), and meeting event
// a.Meetings with a.MeetingHash if the anchor names one, or what differs: events missing
// after a point, or a different event at the anchor.
func (s *Store) CheckAnchor(ctx context.Context, a Anchor) (string, error) {
	now, err := s.Head(ctx)
	if err != nil {
		return "", err
	}
	if a.Events == 0 {
		if a.Hash != genesis {
			return fmt.Sprintf("the anchor 0:%s names no event: an empty record's anchor is 0:%s", a.Hash, genesis), nil
		}
	} else if problem, err := s.checkChain(ctx, casesChain, a.Events, a.Hash, now.Events); problem != "" || err != nil {
		return problem, err
	}
	if a.Meetings == 0 {
		return "", nil
	}
	return s.checkChain(ctx, meetingsChain, a.Meetings, a.MeetingHash, now.Meetings)
}

// chain names one of the record's hash chains in CheckAnchor's words.
type chain struct {
	table, record, event, what string
}

var (
	casesChain    = chain{table: "events", record: "the record", event: "event"}
	meetingsChain = chain{table: "meeting_events", record: "the meetings' record", event: "meeting event",
		what: " (agendas, postings, rolls, sessions, adjournments)"}
)

// checkChain says how chain c, whose last event is number have, differs from an anchor
// that names its event n with hash: events missing after a point, or a different event
// at the anchor; "" if it holds it.
func (s *Store) checkChain(ctx context.Context, c chain, n int64, hash string, have int64) (string, error) {
	if have < n {
		return fmt.Sprintf("%s ends at %s %d, but the anchor was taken at %s %d: %ss %d to %d%s are missing from this record",
			c.record, c.event, have, c.event, n, c.event, have+1, n, c.what), nil
	}
	var got string
	err := s.r.QueryRowContext(ctx, `SELECT hash FROM `+c.table+` WHERE id = ?`, n).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Sprintf("%s %d is missing from this record, though later %ss are there", c.event, n, c.event), nil
	}
	if err != nil {
		return "", err
	}
	if got != hash {
		return fmt.Sprintf("%s %d is a different event from the one the anchor names (hash %s…, anchor %s…): %s was "+
			"rewritten at or before %s %d",
			c.event, n, got[:12], hash[:12], c.record, c.event, n), nil
	}
	return "", nil
}

// postedAnchor finds an anchor in a message ethicsbot wrote: "anchor <n>:<hex>", with its
// meetings part "+<m>:<hex>" if it has one.
var postedAnchor = regexp.MustCompile(`anchor ([0-9]{1,18}:[0-9a-f]{64}(?:\+[0-9]{1,18}:[0-9a-f]{64})?)`)

// LastPosted returns the anchor of the latest message to the docket channel that carries
// one (the daily post, or a restore's note), or "" if none was ever posted.
func (s *Store) LastPosted(ctx context.Context, series ...string) (string, error) {
	rows, err := s.r.QueryContext(ctx,
		`SELECT text FROM outbox WHERE series IN (SELECT value FROM json_each(?)) ORDER BY due DESC, rowid DESC LIMIT 20`,
		jsonList(series))
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return "", err
		}
		if m := postedAnchor.FindStringSubmatch(text); m != nil {
			return m[1], nil
		}
	}
	return "", rows.Err()
}

func jsonList(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}
