package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"ethicsbot/docket"
)

// BenchmarkArticleCase: the look-up a mailing makes across the whole record for its
// article number (articlesUnique), in a record of 1,000 cases with a mailing each, through
// the search index and, on a schema without it, through the cases' documents.
func BenchmarkArticleCase(b *testing.B) {
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		b.Fatal(err)
	}
	engine := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	ctx := context.Background()
	for _, version := range []int{0, 7} {
		name := "Indexed"
		if version != 0 {
			name = "BeforeTheIndex"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "ethicsbot.db")
			var s *Store
			if version == 0 {
				s, err = Open(path, engine)
			} else {
				s, err = OpenAtVersion(path, engine, version)
			}
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			at := time.Date(2026, 1, 5, 10, 0, 0, 0, cal.Location())
			const cases = 1000
			for i := 0; i < cases; i++ {
				when := at.Add(time.Duration(i) * time.Minute)
				res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when},
					docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
						Sections: []string{"103.10"}, Received: when, Summary: "x"})
				if err != nil {
					b.Fatal(err)
				}
				body := fmt.Sprintf("9407111898765%06d", i)
				if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, res.Case.Number,
					docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: when.Add(400 * 24 * time.Hour),
						Place: "City Hall"},
					docket.RecordMailing{Paper: docket.RespondentNoticePaper,
						Article: body + fmt.Sprint(docket.ArticleCheckDigit(body))}); err != nil {
					b.Fatal(err)
				}
			}
			body := fmt.Sprintf("9407111898765%06d", cases/2)
			article := body + fmt.Sprint(docket.ArticleCheckDigit(body))
			b.ResetTimer()
			for b.Loop() {
				err := s.write(ctx, func(tx *sql.Tx) error {
					other, err := s.articleCase(ctx, tx, article, "2027-001")
					if err == nil && other == "" {
						err = fmt.Errorf("article %s not found", article)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
