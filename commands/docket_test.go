package commands_test

import (
	"fmt"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// everyOpenCase is the record as /ethics docket read it before the store kept each case's
// next step: it hides the store's Docket, so the reply counts every open case's deadlines.
type everyOpenCase struct{ commands.Record }

// TestDocketReadThroughItsIndex: `/ethics docket` read through the store's index of the
// cases' next steps is, byte for byte, the reply counted from every open case: more cases
// than it shows, at every stage, some recused from (left out, and not counted), on several
// days as deadlines pass.
func TestDocketReadThroughItsIndex(t *testing.T) {
	s, c, db := MustService(t)
	e := s.Engine
	for i := range 70 {
		received := c.now.Add(-time.Duration(i*17) * time.Hour)
		res := fileNth(t, db, i, received)
		var actions []docket.Action
		if i%3 == 1 && !(i%5 == 0 && i >= 20) {
			meeting := time.Date(2026, 12, 8+i%10, 17, 0, 0, 0, e.Cal.Location())
			for !e.Cal.IsBusinessDay(e.Cal.DateOf(meeting)) {
				meeting = meeting.AddDate(0, 0, 1)
			}
			actions = append(actions, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting,
				Place: "City Hall"})
		}
		if i%6 == 4 && !(i%5 == 0 && i >= 20) { // its meeting scheduled above
			actions = append(actions, docket.RecordMailing{Recipient: docket.Respondent,
				Article: article(fmt.Sprintf("94071118987654321%02d", i))})
		}
		if i%5 == 0 && i >= 20 { // ruled long ago: the attorney's request alone, without a time limit
			y, m, d := received.In(e.Cal.Location()).AddDate(0, 0, 5).Date()
			meeting := time.Date(y, m, d, 17, 0, 0, 0, e.Cal.Location())
			for !e.Cal.IsBusinessDay(e.Cal.DateOf(meeting)) || e.Cal.StatutoryHoliday(e.Cal.DateOf(meeting)) != "" {
				meeting = meeting.AddDate(0, 0, 1)
			}
			held := meeting.Add(time.Hour)
			for _, a := range []docket.Action{
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"},
				docket.PostNotice{Meeting: docket.SufficiencyMeeting},
				docket.RecordMailing{Recipient: docket.Respondent, Article: article(fmt.Sprintf("94071118987654322%02d", i))},
				docket.RecordMailing{Recipient: docket.Complainant, Article: article(fmt.Sprintf("94071118987654323%02d", i))},
			} {
				if _, err := db.Apply(ctx, docket.Act{By: clerk, At: received}, res.Number, a); err != nil {
					t.Fatalf("case %d: %s: %v", i, a.Kind(), err)
				}
			}
			for _, a := range []docket.Action{docket.Rule{Ruling: docket.JudicialReferral},
				docket.RecordDelivery{Paper: docket.RulingToRespondent},
				docket.RecordDelivery{Paper: docket.RulingToComplainant}} {
				if _, err := db.Apply(ctx, docket.Act{By: clerk, At: held}, res.Number, a); err != nil {
					t.Fatalf("case %d: %s: %v", i, a.Kind(), err)
				}
			}
		}
		if i%7 == 3 {
			actions = append(actions, docket.Recuse{User: comm, Reason: "a relative"})
		}
		for _, a := range actions {
			if _, err := db.Apply(ctx, docket.Act{By: clerk, At: received}, res.Number, a); err != nil {
				t.Fatalf("case %d: %s: %v", i, a.Kind(), err)
			}
		}
	}
	before := &commands.Service{Record: everyOpenCase{db}, Engine: e, Now: c.Now}
	before.Configure(*s.Settings())
	for _, day := range []int{0, 3, 9, 30} {
		c.now = time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC).AddDate(0, 0, day)
		for _, user := range []string{clerk, comm} {
			want, got := replyText(do(before, user, "docket")), replyText(do(s, user, "docket"))
			if got != want {
				t.Fatalf("day %d, %s: the docket read through the index\n%s\nwant, as counted from every case,\n%s",
					day, user, got, want)
			}
		}
	}
}

// fileNth files the i-th of many complaints, received then, between C<i> and R<i>.
func fileNth(t *testing.T, db commands.Record, i int, received time.Time) docket.Case {
	t.Helper()
	res, err := db.File(ctx, docket.Act{By: clerk, At: received}, docket.File{
		Complainant: docket.Person{Name: fmt.Sprint("C", i)}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
		Sections: []string{"103.10"}, Received: received, Summary: "x"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Case
}

// article is body with its check digit (USPS Publication 199).
func article(body string) string { return fmt.Sprint(body, docket.ArticleCheckDigit(body)) }
