package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"ethicsbot/docket"
)

// Attach adds documents to case number's file, all in one transaction with their events:
// each is sniffed by its content (docket.SniffDocument: a PDF, PNG or JPEG of at most limit
// bytes), its bytes stored under their SHA-256, and an event added that carries the hash,
// title, kind, media type, size and who added it, so the hash chain covers the bytes. If
// any is refused, nothing is recorded. act.By is who adds them; act.Request, if not "", an
// idempotency key as for Apply.
func (s *Store) Attach(ctx context.Context, act docket.Act, number string, limit int64,
	docs []docket.Upload) (docket.Result, error) {
	by, request, at, say := act.By, act.Request, act.At, s.stepSayer(ctx)
	if !s.docs {
		return docket.Result{}, docket.Unavailable(fmt.Sprintf("the database %s has no case file yet: run "+
			"ethicsbot migrate", s.path))
	}
	if len(docs) == 0 {
		return docket.Result{}, docket.Invalid("", "file", "no document given")
	}
	actions := make([]docket.Action, len(docs))
	for i, d := range docs {
		media, err := docket.SniffDocument(d.Name, d.Data, limit)
		if err != nil {
			return docket.Result{}, err
		}
		title := strings.TrimSpace(d.Title)
		if title == "" {
			title = filepath.Base(d.Name)
		}
		kind := d.Kind
		if kind == "" {
			kind = docket.ExhibitDocument
		}
		actions[i] = docket.AddDocument{SHA256: sum(d.Data), Title: title, Of: kind, MediaType: media,
			Size: int64(len(d.Data)), AddedBy: by, Name: filepath.Base(d.Name)}
	}
	var res docket.Result
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, d := range docs {
			// The same bytes kept for another case, or added before and voided, are one row.
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO documents (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
				sum(d.Data), len(d.Data), d.Data); err != nil {
				return err
			}
		}
		return s.applyIn(ctx, tx, number, by, request, at, say, actions, &res, "")
	})
	return res, err
}

// DocumentData returns the bytes of the document of case number whose SHA-256 is sha. Only
// a document the case lists is given: one withdrawn by a void is not.
func (s *Store) DocumentData(ctx context.Context, number, sha string) ([]byte, error) {
	c, _, err := loadCase(ctx, s.r, number)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(c.Documents, func(d docket.Document) bool { return d.SHA256 == sha }) {
		return nil, docket.NotFound("", "document", fmt.Sprintf("case %s has no document %s", number, sha))
	}
	return s.blob(ctx, number, sha)
}

// blob reads stored bytes by their SHA-256, checking them against it.
func (s *Store) blob(ctx context.Context, number, sha string) ([]byte, error) {
	if !s.docs {
		return nil, docket.Unavailable("the record has no case file")
	}
	var data []byte
	if err := s.r.QueryRowContext(ctx, `SELECT data FROM documents WHERE sha256 = ?`, sha).Scan(&data); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("case %s: the bytes of document %s are missing from the record: run ethicsbot verify",
				number, sha)
		}
		return nil, err
	}
	if sum(data) != sha {
		return nil, fmt.Errorf("case %s: document %s no longer matches its SHA-256: run ethicsbot verify", number, sha)
	}
	return data, nil
}

// docRef is a document an event added: where verify looks for its bytes.
type docRef struct {
	event int64
	case_ string
	title string
}

// documentRef reads the document an event of kind "document" added, or the letter as sent
// that a mailing or delivery kept.
func documentRef(e Event) (string, docRef, bool) {
	var letter struct {
		Paper  docket.Paper       `json:"paper"`
		Letter *docket.SentLetter `json:"letter"`
	}
	switch e.Kind {
	case (docket.AddDocument{}).Kind():
		var a docket.AddDocument
		if json.Unmarshal(e.Payload, &a) != nil {
			return "", docRef{}, false
		}
		return a.SHA256, docRef{e.ID, e.Case, a.Title}, true
	case (docket.RecordMailing{}).Kind(), (docket.RecordDelivery{}).Kind():
		if json.Unmarshal(e.Payload, &letter) != nil || letter.Letter == nil {
			return "", docRef{}, false
		}
		return letter.Letter.SHA256, docRef{e.ID, e.Case, fmt.Sprintf("%s letter as sent", letter.Paper)}, true
	}
	return "", docRef{}, false
}

// lettersSent returns the letters as sent, with their bytes, of the mailings and
// deliveries (docket.Sending) among actions on case number, checked against what each
// records of its letter; none if no action carries one.
func (s *Store) lettersSent(number string, actions []docket.Action) ([]*docket.SentLetter, error) {
	var out []*docket.SentLetter
	for _, act := range actions {
		a, ok := act.(docket.Sending)
		if !ok || a.Sent() == nil || a.Sent().PDF == nil {
			continue
		}
		sent := a.Sent()
		if sent.SHA256 != sum(sent.PDF) || sent.Size != int64(len(sent.PDF)) {
			return nil, fmt.Errorf("case %s: the letter given does not match the mailing's record of it", number)
		}
		out = append(out, sent)
	}
	if len(out) > 0 && !s.docs {
		return nil, docket.Unavailable(fmt.Sprintf("the database %s cannot keep letters yet: run "+
			"ethicsbot migrate", s.path))
	}
	return out, nil
}

// LetterData returns the bytes of a letter as sent of case number, by its SHA-256: only
// a letter the case's mailings record is given, checked against its hash.
func (s *Store) LetterData(ctx context.Context, number, sha string) ([]byte, error) {
	c, _, err := loadCase(ctx, s.r, number)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(c.Mailings, func(m docket.Mailing) bool { return m.Letter != nil && m.Letter.SHA256 == sha }) {
		return nil, docket.NotFound("", "letter", fmt.Sprintf("case %s has no letter as sent %s", number, sha))
	}
	return s.blob(ctx, number, sha)
}

// docGuards are the triggers that keep the documents append-only.
var docGuards = []string{"documents_no_update", "documents_no_delete"}

// checkDocuments checks every document's bytes against the SHA-256 it is stored under and
// its size, and that every document an event added is there: a changed byte is a broken
// record, naming the document and its case.
func checkDocuments(ctx context.Context, tx *sql.Tx, refs map[string]docRef) (*Break, error) {
	rows, err := tx.QueryContext(ctx, `SELECT sha256, size, data FROM documents ORDER BY sha256`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var sha string
		var size int64
		var data []byte
		if err := rows.Scan(&sha, &size, &data); err != nil {
			return &Break{Problem: "a document cannot be read (" + err.Error() + "): it was changed outside ethicsbot"}, nil
		}
		seen[sha] = true
		if sum(data) == sha && int64(len(data)) == size {
			continue
		}
		if r, ok := refs[sha]; ok {
			return &Break{EventID: r.event, Case: r.case_,
				Problem: fmt.Sprintf("the document %q (SHA-256 %s) it added no longer matches its hash: its bytes were changed "+
					"outside ethicsbot", r.title, sha[:12])}, nil
		}
		return &Break{Problem: fmt.Sprintf("a stored document (SHA-256 %s) no longer matches its hash: its bytes were "+
			"changed outside ethicsbot", sha[:min(12, len(sha))])}, nil
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var missing []string
	for sha := range refs {
		if !seen[sha] {
			missing = append(missing, sha)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		r := refs[missing[0]]
		return &Break{EventID: r.event, Case: r.case_,
			Problem: fmt.Sprintf("the document %q (SHA-256 %s) it added is missing from the record: it was deleted "+
				"outside ethicsbot", r.title, missing[0][:12])}, nil
	}
	for _, g := range docGuards {
		var body string
		err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`, g).Scan(&body)
		if errors.Is(err, sql.ErrNoRows) || err == nil && !strings.Contains(body, "RAISE(ABORT") {
			return &Break{Problem: fmt.Sprintf("the trigger %s, which keeps the documents append-only, was dropped or changed "+
				"outside ethicsbot", g)}, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}
