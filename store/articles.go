package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"ethicsbot/docket"
)

// articlesUnique refuses a step that brings an article number already recorded on a paper
// of another case: the Postal Service gives each piece of certified mail its own number
// (USPS Publication 199), so the same number on two papers means one was mistyped, and a
// return receipt typed with it could not say which case it belongs to. The docket checks
// the papers of the case it is given (docket.RecordMailing); only the store holds every
// case, so the store checks the others, in the transaction that records the step, where no
// other writer can record the same number meanwhile. It is checked on what the step
// changed, before and after, so a mailing and a correction of its number are checked
// alike, and any later action that records a number will be.
func (s *Store) articlesUnique(ctx context.Context, tx *sql.Tx, before, after *docket.Case) error {
	for _, m := range after.Mailings {
		if m.Article == "" ||
			slices.ContainsFunc(before.Mailings, func(b docket.Mailing) bool { return b.Article == m.Article }) {
			continue
		}
		other, err := s.articleCase(ctx, tx, m.Article, after.Number)
		if err != nil {
			return err
		}
		if other != "" {
			return docket.ArticleTaken(m.Article, other)
		}
	}
	return nil
}

// articleCase is the case other than number that records article on a paper, or "". It
// asks the search index, which every event keeps in step with its case in the same
// transaction; a database at a schema without the index is read case by case.
func (s *Store) articleCase(ctx context.Context, tx *sql.Tx, article, number string) (string, error) {
	var other string
	var err error
	if s.search {
		// An article number is one token of the articles column; quoted, it is matched
		// whole, not as a prefix.
		err = tx.QueryRowContext(ctx, `SELECT number FROM case_search WHERE articles MATCH ? AND number != ? LIMIT 1`,
			`"`+article+`"`, number).Scan(&other)
	} else {
		err = tx.QueryRowContext(ctx, `SELECT number FROM cases WHERE number != ? AND instr(doc, ?) > 0 LIMIT 1`, number,
			`"article":"`+article+`"`).Scan(&other)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return other, err
}
