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
// recorded since is covered like a case event (issue 19).
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
// a meetings part (as every anchor posted before issue 19's fix) is checked against the
// cases' chain alone: it says nothing of the meetings.
func ParseAnchor(s string) (Anchor, error) {
	m := anchorForm.FindStringSubmatch(strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "anchor ")))
	if m == nil {
		return Anchor{}, fmt.Errorf("%q is not an anchor: give it as ethicsbot printed it, <events>:<64 hex digits of the last event's hash>, then +<meeting events>:<64 hex digits> if it has a meetings part", s)
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
			return Anchor{}, fmt.Errorf("%q is not an anchor: its meetings part names meeting event 0; a record without meeting events has no meetings part", s)
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
	problem, err := s.checkCaseAnchor(ctx, a, now)
	if problem != "" || err != nil || a.Meetings == 0 {
		return problem, err
	}
	if now.Meetings < a.Meetings {
		return fmt.Sprintf("the meetings' record ends at meeting event %d, but the anchor was taken at meeting event %d: meeting events %d to %d (agendas, postings, rolls, sessions, adjournments) are missing from this record",
			now.Meetings, a.Meetings, now.Meetings+1, a.Meetings), nil
	}
	var hash string
	err = s.r.QueryRowContext(ctx, `SELECT hash FROM meeting_events WHERE id = ?`, a.Meetings).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Sprintf("meeting event %d is missing from this record, though later meeting events are there", a.Meetings), nil
	}
	if err != nil {
		return "", err
	}
	if hash != a.MeetingHash {
		return fmt.Sprintf("meeting event %d is a different event from the one the anchor names (hash %s…, anchor %s…): the meetings' record was rewritten at or before meeting event %d",
			a.Meetings, hash[:12], a.MeetingHash[:12], a.Meetings), nil
	}
	return "", nil
}

// checkCaseAnchor compares the cases' chain, whose head is now, with the anchor a.
func (s *Store) checkCaseAnchor(ctx context.Context, a, now Anchor) (string, error) {
	if a.Events == 0 {
		if a.Hash != genesis {
			return fmt.Sprintf("the anchor 0:%s names no event: an empty record's anchor is 0:%s", a.Hash, genesis), nil
		}
		return "", nil
	}
	if now.Events < a.Events {
		return fmt.Sprintf("the record ends at event %d, but the anchor was taken at event %d: events %d to %d are missing from this record",
			now.Events, a.Events, now.Events+1, a.Events), nil
	}
	var hash string
	err := s.r.QueryRowContext(ctx, `SELECT hash FROM events WHERE id = ?`, a.Events).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Sprintf("event %d is missing from this record, though later events are there", a.Events), nil
	}
	if err != nil {
		return "", err
	}
	if hash != a.Hash {
		return fmt.Sprintf("event %d is a different event from the one the anchor names (hash %s…, anchor %s…): the record was rewritten at or before event %d",
			a.Events, hash[:12], a.Hash[:12], a.Events), nil
	}
	return "", nil
}

// postedAnchor finds an anchor in a message ethicsbot wrote: "anchor <n>:<hex>", with its
// meetings part "+<m>:<hex>" if it has one.
var postedAnchor = regexp.MustCompile(`anchor ([0-9]{1,18}:[0-9a-f]{64}(?:\+[0-9]{1,18}:[0-9a-f]{64})?)`)

// LastPosted returns the anchor of the latest message to the docket channel that carries
// one (the daily post, or a restore's note), or "" if none was ever posted.
func (s *Store) LastPosted(ctx context.Context, series ...string) (string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT text FROM outbox WHERE series IN (SELECT value FROM json_each(?)) ORDER BY due DESC, rowid DESC LIMIT 20`, jsonList(series))
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
