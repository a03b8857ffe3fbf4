package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The news media's annual requests for the commission's meeting notices (5 ILCS
// 120/2.02(b), migration 014). Each request is a stream of events on the meetings' chain,
// named mediaStream(id), materialised in news_media; a public notice that asks for copies
// (outbox.Post.Media) gets them in the transaction that writes it (mediaCopies).

// mediaPrefix begins the name of a request's stream in meeting_events. A meeting is named
// by its date, so no meeting's stream begins so.
const mediaPrefix = "media-"

// mediaStream is the name of request id's stream.
func mediaStream(id int64) string { return mediaPrefix + strconv.FormatInt(id, 10) }

var errNoMedia = docket.Unavailable("the record predates the news media's requests (migration 014); run ethicsbot " +
	"migrate")

// AddMediaRequest records a news medium's annual request, filed as r says, and numbers it.
// by is who recorded it; today is the commission's date at now. If the medium gave an
// e-mail address, the schedule of regular meetings in force (its latest public notice,
// outbox.ScheduleSeries) is e-mailed to it in the same transaction: a request filed after
// the year's schedule was given gets the schedule, once. It returns the request numbered,
// and that copy if it queued one.
func (s *Store) AddMediaRequest(ctx context.Context, by string, now time.Time, today docket.Date,
	r docket.MediaRequest) (docket.MediaRequest, []outbox.Post, error) {
	if !s.media {
		return r, nil, errNoMedia
	}
	if err := docket.CheckMediaRequest(r, today); err != nil {
		return r, nil, err
	}
	var queued []outbox.Post
	err := s.write(ctx, func(tx *sql.Tx) error {
		queued = nil
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM news_media`).Scan(&r.ID); err != nil {
			return err
		}
		if err := recordMedia(ctx, tx, r, docket.MediaRequested{Request: r}, by, now, 0); err != nil {
			return err
		}
		if r.Email == "" {
			return nil
		}
		var k outbox.Key
		var dest, text, due string
		err := tx.QueryRowContext(ctx, `SELECT case_number, series, step, dest, text, due FROM outbox WHERE series = ?
			ORDER BY due DESC, rowid DESC LIMIT 1`, outbox.ScheduleSeries).Scan(&k.Case, &k.Series, &k.Step, &dest, &text, &due)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if k.To, err = outbox.ParseDest(dest); err != nil {
			return err
		}
		queued = []outbox.Post{mediaCopy(outbox.Post{Key: k, Text: outbox.Markup(text), Due: now}, r)}
		return enqueue(ctx, tx, 0, queued)
	})
	return r, queued, err
}

// WithdrawMediaRequest records that request w.ID was withdrawn: no copy goes to it after.
func (s *Store) WithdrawMediaRequest(ctx context.Context, by string, now time.Time, today docket.Date,
	w docket.MediaWithdrawn) (docket.MediaRequest, error) {
	if !s.media {
		return docket.MediaRequest{}, errNoMedia
	}
	var r docket.MediaRequest
	err := s.write(ctx, func(tx *sql.Tx) error {
		old, n, err := loadDoc[docket.MediaRequest](ctx, tx, `SELECT doc, events FROM news_media WHERE id = ?`,
			strconv.FormatInt(w.ID, 10),
			docket.NotFound(docket.OMAMedia, "id", fmt.Sprintf("there is no request %d: /ethics media list shows them", w.ID)),
			"request "+strconv.FormatInt(w.ID, 10))
		if err != nil {
			return err
		}
		if r, err = old.Withdraw(w, today); err != nil {
			return err
		}
		return recordMedia(ctx, tx, r, w, by, now, n)
	})
	return r, err
}

// recordMedia appends the event of action a, which made the request r, and writes r, in
// the caller's transaction; prevSeq is the number of the request's events before it.
func recordMedia(ctx context.Context, tx *sql.Tx, r docket.MediaRequest, a interface{ Kind() string }, by string,
	at time.Time, prevSeq int) error {
	if strings.TrimSpace(by) == "" {
		return docket.Invalid("", "by", "every event names who acted")
	}
	payload, err := json.Marshal(a)
	if err != nil {
		return err
	}
	doc, err := json.Marshal(r)
	if err != nil {
		return err
	}
	e := Event{Case: mediaStream(r.ID), Seq: prevSeq + 1, At: at.UTC(), By: by, Kind: a.Kind(), Payload: payload,
		DocHash: sum(doc)}
	if prevSeq == 0 {
		_, err = tx.ExecContext(ctx, `INSERT INTO news_media (id, year, doc, events, updated) VALUES (?, ?, ?, ?, ?)`,
			r.ID, r.Year, string(doc), e.Seq, stamp(at))
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE news_media SET year = ?, doc = ?, events = ?, updated = ? WHERE id = ?`,
			r.Year, string(doc), e.Seq, stamp(at), r.ID)
	}
	if err != nil {
		return err
	}
	return appendMeetingEvent(ctx, tx, &e)
}

// MediaRequests returns every request on record, standing or withdrawn, in the order
// recorded.
func (s *Store) MediaRequests(ctx context.Context) ([]docket.MediaRequest, error) {
	if !s.media {
		return nil, nil
	}
	out, err := mediaRequests(ctx, s.r, `SELECT doc FROM news_media ORDER BY id`)
	return out, s.wrap(err)
}

// MediaEvents returns the events of request id, in order; each names the request's stream
// as its Case.
func (s *Store) MediaEvents(ctx context.Context, id int64) ([]Event, error) {
	if !s.media {
		return nil, nil
	}
	return scanEvents(s.r.QueryContext(ctx, meetingEventColumns+` WHERE meeting = ? ORDER BY seq`, mediaStream(id)))
}

func mediaRequests(ctx context.Context, q querier, query string, args ...any) ([]docket.MediaRequest, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []docket.MediaRequest
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		var r docket.MediaRequest
		if err := json.Unmarshal([]byte(doc), &r); err != nil {
			return nil, fmt.Errorf("a stored request of the news media cannot be read: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// mediaCopies returns the copies that posts ask for (outbox.Post.Media): for each request
// on record, standing and covering one of a post's years, the post e-mailed to the medium,
// or, for a medium that gave no e-mail address, a note asking the clerk to post it a copy.
// They are read in tx, so that a notice gets a copy for every request recorded before it
// and for none recorded after.
func mediaCopies(ctx context.Context, tx *sql.Tx, posts []outbox.Post) ([]outbox.Post, error) {
	var years []any
	for _, p := range posts {
		if p.Media != nil {
			for _, y := range p.Media.Years {
				years = append(years, y)
			}
		}
	}
	if len(years) == 0 {
		return nil, nil
	}
	var has bool
	if err := tx.QueryRowContext(ctx, `SELECT count(*) > 0 FROM sqlite_master WHERE name = 'news_media'`).
		Scan(&has); err != nil || !has {
		return nil, err // a record that predates the requests has none
	}
	reqs, err := mediaRequests(ctx, tx,
		`SELECT doc FROM news_media WHERE year IN (?`+strings.Repeat(`, ?`, len(years)-1)+`) ORDER BY id`, years...)
	if err != nil {
		return nil, err
	}
	var out []outbox.Post
	for _, p := range posts {
		if p.Media == nil {
			continue
		}
		for _, r := range reqs {
			switch {
			case !r.Covers(p.Media.Years):
			case r.Email != "":
				out = append(out, mediaCopy(p, r))
			case p.Media.Postal != (outbox.Dest{}):
				out = append(out, outbox.Post{Key: outbox.MediaPostKey(p.Key, r.ID, p.Media.Postal), Due: p.Due,
					Text: outbox.Format("*To post by mail* (%s): a copy of this public notice to %s, %s, whose request for "+
						"the notices of %d (filed %s, request %d) gives no e-mail address.\n",
						docket.OMAMedia, r.Name, strings.ReplaceAll(r.Postal, "\n", ", "), r.Year, r.Filed, r.ID) + p.Text})
			}
		}
	}
	return out, nil
}

// mediaCopy is the notice p e-mailed to the medium of request r: the notice as posted,
// then why the medium gets it.
func mediaCopy(p outbox.Post, r docket.MediaRequest) outbox.Post {
	to := outbox.Dest{Mail: r.Email}
	return outbox.Post{Key: outbox.MediaCopyKey(p.Key, to), Due: p.Due,
		Text: p.Text + outbox.Format("\n\n%s", r.CopyNote())}
}

// verifyMedia checks that every request's row is the document its stream's last event
// produced, given the tails of the streams verifyMeetings walked; it removes the streams
// it checked from tails and returns the first problem, or "".
func verifyMedia(ctx context.Context, tx *sql.Tx, tails map[string]streamTail) (string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, doc, events FROM news_media ORDER BY id`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var doc string
		var events int
		if err := rows.Scan(&id, &doc, &events); err != nil {
			return "", err
		}
		name := mediaStream(id)
		if problem := checkTail(tails, name, "the news media's request "+strconv.FormatInt(id, 10), doc,
			events); problem != "" {
			return problem, nil
		}
	}
	return "", rows.Err()
}
