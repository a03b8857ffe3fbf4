package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"ethicsbot/docket"
)

// The search index (migration 008, table case_search) holds, for every case, the words
// /ethics search looks in: the parties' names, the article numbers of its mailings and the
// summary. It is derived from the case record and rewritten in the transaction of every
// event that changes those, so it never disagrees with the record; it is no part of the
// hash chain.

// MaxSearchWords is how many words a search may hold: enough for a name and a phrase of
// the summary, few enough that no query can be made costly.
const MaxSearchWords = 12

// searchDocID is the index row's docid for a case number YYYY-NNN: fixed by the number,
// so it never changes (an implicit rowid of cases may, on VACUUM).
func searchDocID(number string) (int64, error) {
	year, n, ok := strings.Cut(number, "-")
	y, err1 := strconv.ParseInt(year, 10, 64)
	k, err2 := strconv.ParseInt(n, 10, 64)
	if !ok || err1 != nil || err2 != nil || k < 0 || k >= 10_000_000 {
		return 0, fmt.Errorf("case number %q cannot be indexed", number)
	}
	return y*10_000_000 + k, nil
}

// searchText is what the index holds of c: the parties' names, the article numbers of its
// mailings, and the summary.
func searchText(c *docket.Case) [3]string {
	var articles []string
	for _, m := range c.Mailings {
		if m.Article != "" {
			articles = append(articles, m.Article)
		}
	}
	return [3]string{c.Respondent.Name + "\n" + c.Complainant.Name, strings.Join(articles, " "), c.Summary}
}

// indexStep writes the row of the search index of the case step changed, in the caller's
// transaction, when the step changed what the index holds of it (a filing, a mailing, a
// correction): most steps do not, and an index row costs several pages to write.
func (s *Store) indexStep(ctx context.Context, tx *sql.Tx, step *docket.Step) error {
	if step.Before != nil && step.Before.Number != "" && searchText(step.Before) == searchText(step.After) {
		return nil
	}
	return s.indexCase(ctx, tx, step.After)
}

// indexCase writes c's row of the search index in the caller's transaction. It does
// nothing on a database opened at a schema without the index (tests of old schemas).
func (s *Store) indexCase(ctx context.Context, tx *sql.Tx, c *docket.Case) error {
	if !s.search {
		return nil
	}
	id, err := searchDocID(c.Number)
	if err != nil {
		return err
	}
	text := searchText(c)
	_, err = tx.ExecContext(ctx,
		`INSERT OR REPLACE INTO case_search (docid, number, parties, articles, summary) VALUES (?, ?, ?, ?, ?)`,
		id, c.Number, text[0], text[1], text[2])
	return err
}

// reindex indexes every case that has no row in the search index: all of them, the first
// time a database recorded before the index is opened. (Every event since is indexed in
// its own transaction, and an older ethicsbot refuses to open this schema, so a row can
// only be missing, never behind its case.) It changes no event and no case.
func (s *Store) reindex(ctx context.Context) error {
	if !s.search {
		return nil
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT number FROM cases WHERE number NOT IN (SELECT number FROM case_search)`)
		if err != nil {
			return err
		}
		var missing []string
		for rows.Next() {
			var number string
			if err := rows.Scan(&number); err != nil {
				rows.Close()
				return err
			}
			missing = append(missing, number)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, number := range missing {
			c, _, err := loadCase(ctx, tx, number)
			if err != nil {
				return err
			}
			if err := s.indexCase(ctx, tx, &c); err != nil {
				return err
			}
		}
		return nil
	})
}

// Search returns the cases, open and closed alike, whose parties' names, mailings' article
// numbers or summary hold every word of query, newest first: at most limit of them, after
// the first offset, and how many there are in all. A case viewer is recused from
// (docket.Case.Recused) is neither in the page nor in the count: to show it, even by its
// number, would tell them the words are in it. Only the page's cases are decoded in full;
// the others are read for their parties and recusals alone, so a broad query costs a
// page, not the whole record. Each word matches the start of a word (rob finds Roberts);
// digits typed in groups, as an article number is printed, are read as one number.
// Punctuation and the index's operators (OR, NEAR, quotes, *, -) are only separators, so
// no input is an error of SQL or matches everything. A query with no word is refused.
func (s *Store) Search(ctx context.Context, query, viewer string, offset, limit int) (page []docket.Case, total int,
	err error) {
	match, err := MatchExpression(query)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.doc FROM case_search JOIN cases c ON c.number = case_search.number
		WHERE case_search MATCH ? ORDER BY c.received DESC, c.number DESC`, match)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var doc sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, err
		}
		if mayName(doc, viewer) {
			var who docket.Interested
			if err := json.Unmarshal(doc, &who); err != nil {
				return nil, 0, fmt.Errorf("a stored case cannot be read: %w", err)
			}
			if _, recused := who.Recused(viewer); recused {
				continue
			}
		}
		if total >= offset && len(page) < limit {
			var c docket.Case
			if err := json.Unmarshal(doc, &c); err != nil {
				return nil, 0, fmt.Errorf("a stored case cannot be read: %w", err)
			}
			page = append(page, c)
		}
		total++
	}
	return page, total, rows.Err()
}

// mayName reports whether the stored case doc may name user as a party or a recused
// member: a user id is letters and digits, which JSON writes as they are, so a document
// that does not hold the id anywhere names no one by it, and need not be decoded to be
// asked (most of a broad search's cost was decoding every document it found).
func mayName(doc []byte, user string) bool {
	if user == "" {
		return false
	}
	for _, r := range user {
		if !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_') {
			return true // written otherwise in JSON, perhaps: decode to be sure
		}
	}
	return bytes.Contains(doc, []byte(user))
}

// MatchExpression builds the full-text MATCH expression for a user's query (see Search):
// each word lower-cased, quoted and made a prefix, all of them required. Numbers typed in
// groups ("9407 1118 9876") match as one number, the start of an article number, or as
// the same numbers in a row in the text. The query's own quotes, operators and
// punctuation never reach the expression.
func MatchExpression(query string) (string, error) {
	terms := searchTerms(query)
	if len(terms) == 0 {
		return "", docket.Invalid("", "words",
			"give a word or a number to search for: a party's name, an article number or words of the summary")
	}
	if len(terms) > MaxSearchWords {
		return "", docket.Invalid("", "words",
			fmt.Sprintf("%d words is more than a search takes (%d); a few distinctive ones find the case", len(terms),
				MaxSearchWords))
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		// A term holds only letters, digits and combining marks: nothing in it can end its
		// quotes or be read as an operator.
		if len(t) == 1 {
			out[i] = `"` + t[0] + `*"`
			continue
		}
		out[i] = `("` + strings.Join(t, " ") + `*" OR "` + strings.Join(t, "") + `*")`
	}
	return strings.Join(out, " "), nil
}

// searchTerms splits query into lower-case words of letters and digits, as the index's
// tokenizer splits text. Each term is one word, or a run of numbers typed apart by spaces.
func searchTerms(query string) [][]string {
	var terms [][]string
	run := false // the last term is a run of numbers, and may go on
	for _, field := range strings.Fields(strings.ToLower(query)) {
		words := strings.FieldsFunc(field, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
		})
		words = slices.DeleteFunc(words, func(w string) bool {
			return !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
		}) // combining marks alone: nothing the index holds
		number := strings.Trim(field, "0123456789") == "" // a group of digits alone
		switch {
		case number && run:
			terms[len(terms)-1] = append(terms[len(terms)-1], words[0])
		case number:
			terms = append(terms, words)
		default:
			for _, w := range words {
				terms = append(terms, []string{w})
			}
		}
		run = number
	}
	return terms
}
