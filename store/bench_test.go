package store_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// BenchmarkFile files one complaint per op: validate, number, append the hash-chained
// event, materialise the case, and commit with synchronous=FULL.
func BenchmarkFile(b *testing.B) {
	s := MustOpen(b)
	when := T(b, "2026-12-04T10:00:00-06:00")
	for i := 0; b.Loop(); i++ {
		if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, fmt.Sprintf("Respondent %d", i))); err != nil {
			b.Fatal(err)
		}
	}
}

// docketLine is what commands says about a filing: one post to the docket channel.
func docketLine(st docket.Step) []outbox.Post {
	return []outbox.Post{{Key: outbox.EventKey(st.After.Number, st.Event, 1, outbox.Dest{Channel: "C_DOCKET"}),
		Text: outbox.Format("New case %s: %s v. %s", st.After.Number, st.After.Complainant.Name, st.After.Respondent.Name),
		Due:  st.At}}
}

// BenchmarkFileWithPost files one complaint per op as /ethics file does: the event and
// the docket line it causes, in one transaction.
func BenchmarkFileWithPost(b *testing.B) {
	s := MustOpen(b)
	s.SayWith(sayers{step: docketLine})
	when := T(b, "2026-12-04T10:00:00-06:00")
	for i := 0; b.Loop(); i++ {
		if _, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, fmt.Sprintf("Respondent %d", i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineFileThenQueue is the design before schema 6, measured in the same run:
// the event committed, then its docket line queued in a second durable transaction (and
// lost if the process died between the two).
func BenchmarkBaselineFileThenQueue(b *testing.B) {
	s := MustOpen(b)
	when := T(b, "2026-12-04T10:00:00-06:00")
	for i := 0; b.Loop(); i++ {
		res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, fmt.Sprintf("Respondent %d", i)))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Enqueue(ctx, docketLine(res.Steps[0])); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileCheck is what every write pays, before BenchmarkFile's work, to make sure
// the database file is still the one the store opened: one stat.
func BenchmarkFileCheck(b *testing.B) {
	s := MustOpen(b)
	for b.Loop() {
		if err := store.CheckFile(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineDurableInsert is the floor for any durable write on this disk: one row
// inserted and committed per op with the same pragmas (WAL, synchronous=FULL).
func BenchmarkBaselineDurableInsert(b *testing.B) {
	path := filepath.Join(b.TempDir(), "baseline.db")
	db, err := sql.Open("sqlite3",
		"file:"+path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate&_busy_timeout=10000")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO t (body) VALUES (?)`,
			"Confidential: used the city's email to campaign."); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// bigStore opens (building once, then reusing from the temp directory) a database of
// 10,000 open cases with 100 events each: 1,000,000 events.
func bigStore(b *testing.B) *store.Store {
	b.Helper()
	path := filepath.Join(os.TempDir(), "ethicsbot-bench-10000x100.db")
	if _, err := os.Stat(path); err != nil {
		tmp := path + ".building"
		os.Remove(tmp)
		s, err := store.Open(tmp, MustEngine(b))
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := store.BulkLoad(s, 10000, 100, T(b, "2026-01-05T09:00:00-06:00")); err != nil {
			b.Fatal(err)
		}
		s.Close()
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
		b.Logf("built %s in %v", path, time.Since(start))
	}
	s := MustOpenPath(b, path)
	return s
}

// BenchmarkOpenCases10k loads the 10,000 open cases' documents: what a reminder sweep reads.
func BenchmarkOpenCases10k(b *testing.B) {
	s := bigStore(b)
	for b.Loop() {
		cs, err := s.OpenCases(ctx)
		if err != nil || len(cs) != 10000 {
			b.Fatalf("%d cases, %v", len(cs), err)
		}
	}
}

// BenchmarkLoadOpenCasesWithEvents10k walks the 10,000 open cases with all 1,000,000
// events, one case at a time (as export does).
func BenchmarkLoadOpenCasesWithEvents10k(b *testing.B) {
	s := bigStore(b)
	for b.Loop() {
		cases, events := 0, 0
		err := s.EachCase(ctx, true, func(r store.CaseRecord) error {
			cases, events = cases+1, events+len(r.Events)
			return nil
		})
		if err != nil || cases != 10000 || events != 1000000 {
			b.Fatalf("%d cases, %d events, %v", cases, events, err)
		}
	}
}

// BenchmarkMeetings reads the commission's meetings with the case steps each holds,
// folded from every case: what the sweep reads for the agendas' reminders and the digest,
// at most every 15 minutes (reminders.meetingsEvery), beside OpenCases every minute.
func BenchmarkMeetings(b *testing.B) {
	for _, n := range []int{250, 1000, 10000} {
		b.Run(fmt.Sprintf("cases=%d", n), func(b *testing.B) {
			s, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), MustEngine(b))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if err := store.BulkLoad(s, n, 10, T(b, "2026-01-05T09:00:00-06:00")); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.Meetings(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerify1M walks the hash chain of 1,000,000 events and checks 10,000 cases.
func BenchmarkVerify1M(b *testing.B) {
	s := bigStore(b)
	for b.Loop() {
		r, err := s.Verify(ctx)
		if err != nil || r.Broken != nil || r.Events != 1000000 {
			b.Fatalf("%+v %v", r, err)
		}
	}
}

// BenchmarkOpenCases10kCold is the first sweep after start: every document decoded.
func BenchmarkOpenCases10kCold(b *testing.B) {
	bigStore(b).Close() // build it if needed
	path := filepath.Join(os.TempDir(), "ethicsbot-bench-10000x100.db")
	for b.Loop() {
		s, err := store.Open(path, MustEngine(b))
		if err != nil {
			b.Fatal(err)
		}
		if cs, err := s.OpenCases(ctx); err != nil || len(cs) != 10000 {
			b.Fatalf("%d cases, %v", len(cs), err)
		}
		s.Close()
	}
}

// BenchmarkVerifyApprovedMeetings verifies a record of 2,000 cases of 10 events each,
// with and without 20 meetings held whose minutes are approved, each holding one case's
// step: the check that each still holds the steps it held then rebuilds only the cases
// scheduled where one was.
func BenchmarkVerifyApprovedMeetings(b *testing.B) {
	for _, meetings := range []int{0, 20} {
		b.Run(fmt.Sprintf("approved=%d", meetings), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bench.db")
			s, err := store.Open(path, MustEngine(b))
			if err != nil {
				b.Fatal(err)
			}
			start := T(b, "2026-01-05T09:00:00-06:00")
			if err := store.BulkLoad(s, 2000, 10, start); err != nil {
				b.Fatal(err)
			}
			s.Close() // BulkLoad writes beside the store: it is opened again to write through it
			if s, err = store.Open(path, MustEngine(b)); err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			seated := []string{"U_COMM1", "U_COMM2"}
			vote := &docket.Vote{Seated: seated, Yes: seated, Quorum: 2, Carry: docket.MajorityOfVotesCast}
			cal := MustEngine(b).Cal
			for i := 0; i < meetings; i++ {
				// Meeting i, on a day of its own, holds the sufficiency review of case 100i+1,
				// moved there from where BulkLoad scheduled it.
				at := start.Add(time.Duration(500+i)*24*time.Hour + 8*time.Hour)
				if cal.StatutoryHoliday(cal.DateOf(at)) != "" {
					continue // no meeting on a legal holiday (5 ILCS 120/2.01)
				}
				res, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: start.Add(30 * 24 * time.Hour)},
					docket.MeetingChange{Create: &docket.CreateMeeting{Start: at, Place: "City Hall"}})
				if err != nil {
					b.Fatal(err)
				}
				number := fmt.Sprintf("%d-%03d", start.Year(), 100*i+1)
				if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: start.Add(30 * 24 * time.Hour)}, number,
					docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at, Place: "City Hall"}); err != nil {
					b.Fatal(err)
				}
				// Its agenda posted a week ahead, as a meeting must be to be called to order.
				if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at.Add(-7 * 24 * time.Hour)},
					docket.MeetingChange{Meeting: res.Meeting.Name,
						Actions: []docket.MeetingAction{docket.PostAgenda{}}}); err != nil {
					b.Fatal(err)
				}
				for _, a := range []docket.MeetingAction{
					docket.Convene{Seated: seated, Quorum: 2, Present: seated},
					docket.Adjourn{},
					docket.ApproveMinutes{At: "2099-01-05", On: docket.NewDate(2099, 1, 5), Vote: vote},
				} {
					if _, err := s.ChangeMeeting(ctx, docket.Act{By: "U_CLERK", At: at.Add(time.Hour)},
						docket.MeetingChange{Meeting: res.Meeting.Name, Actions: []docket.MeetingAction{a}}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ResetTimer()
			for range b.N {
				if r, err := s.Verify(ctx); err != nil || r.Broken != nil {
					b.Fatalf("%+v %v", r.Broken, err)
				}
			}
		})
	}
}

// BenchmarkSearch10k is a broad search of the 10,000 cases, one that every case matches,
// as `/ethics search` reads it: the first page of 50 and the count of all.
func BenchmarkSearch10k(b *testing.B) {
	s := bigStore(b)
	for b.Loop() {
		page, total, err := s.Search(ctx, "benchmark complaint", "U_COMM1", 0, 50)
		if err != nil || len(page) != 50 || total != 10000 {
			b.Fatalf("%d of %d, %v", len(page), total, err)
		}
	}
}

// BenchmarkDueCases10k is a steady sweep's read of the cases due on the 10,000-case
// record, where every case is overdue: after a first read, the cases DueCases keeps decoded
// are given again and the others decoded again.
func BenchmarkDueCases10k(b *testing.B) {
	s := bigStore(b)
	until := T(b, "2030-01-01T00:00:00-06:00")
	read := func() {
		n := 0
		if err := s.DueCases(ctx, until, func(page []*docket.Case) error { n += len(page); return nil }); err != nil ||
			n != 10000 {
			b.Fatalf("%d cases, %v", n, err)
		}
	}
	read()
	for b.Loop() {
		read()
	}
}

// BenchmarkClosedCasesForAForm is what a form that lists the closed cases after the open
// ones (correct, void) reads on a record of 2,000 closed cases: every case decoded and
// sorted, as before ClosedCases (AllCases), against the closed cases read the latest first
// until one more than a select holds (101).
func BenchmarkClosedCasesForAForm(b *testing.B) {
	s := MustOpen(b)
	cal, err := docket.NewCalendar(docket.CalendarConfig{}) // the calendar MustOpen's engine counts with
	if err != nil {
		b.Fatal(err)
	}
	day := time.Date(2021, 1, 4, 10, 0, 0, 0, cal.Location())
	for i := range 2000 {
		received := day.Add(time.Duration(i) * 21 * time.Hour)
		meeting := received.AddDate(0, 0, 3)
		for cal.StatutoryHoliday(cal.DateOf(meeting)) != "" {
			meeting = meeting.AddDate(0, 0, 1) // no meeting on a legal holiday (5 ILCS 120/2.01)
		}
		res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: received}, complaint(received, fmt.Sprint("Respondent ", i)))
		if err != nil {
			b.Fatal(err)
		}
		n := res.Case.Number
		for _, step := range []struct {
			at time.Time
			as []docket.Action
		}{
			{received, []docket.Action{
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"},
				docket.PostNotice{Meeting: docket.SufficiencyMeeting},
				docket.RecordMailing{Recipient: docket.Respondent, Article: articleFor(n, 1)},
				docket.RecordMailing{Recipient: docket.Complainant, Article: articleFor(n, 2)}}},
			{meeting.Add(time.Hour), []docket.Action{docket.Rule{Ruling: docket.Insufficient}}},
			{meeting.Add(time.Hour), []docket.Action{
				docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: articleFor(n, 3)},
				docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: articleFor(n, 4)}}},
		} {
			if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: step.at}, n, step.as...); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("AllCases", func(b *testing.B) {
		for b.Loop() {
			all, err := s.AllCases(ctx)
			if err != nil || len(all) != 2000 || !all[0].Closed() {
				b.Fatalf("%d cases, %v", len(all), err)
			}
		}
	})
	b.Run("ClosedCases", func(b *testing.B) {
		for b.Loop() {
			read := 0
			if err := s.ClosedCases(ctx, func(*docket.Case) bool { read++; return read <= 100 }); err != nil || read != 101 {
				b.Fatalf("%d cases, %v", read, err)
			}
		}
	})
}
