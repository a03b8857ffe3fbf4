package reminders_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestReturnedMailRemindsTheNextStep: a (B) notice that came back unclaimed reminds the
// clerk, as a task, of the next step the commission chose: by default the notice again by
// first-class mail to the same address, recorded as a delivery. The digest lists it every
// business day until that delivery is recorded, and then no more. Under a policy of
// certified mail again, the reminder names the mail command instead.
func TestReturnedMailRemindsTheNextStep(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy docket.MailPolicy
		want   string
		then   func(w *world, n string, now time.Time)
	}{
		{"FirstClass", docket.MailPolicy{},
			"2026-001: notice of the complaint to the respondent sent again by first-class mail to the same address (it came " +
				"back unclaimed) not yet recorded as sent (no time limit), rule (B). Record it with `/ethics delivered 2026-001 " +
				"respondent`.",
			func(w *world, n string, now time.Time) {
				w.apply(n, now, docket.RecordDelivery{Paper: docket.RespondentNoticePaper})
			}},
		{"Certified", docket.MailPolicy{Unclaimed: docket.Recertify},
			"2026-001: notice of the complaint to the respondent mailed again by certified mail (it came back unclaimed) not " +
				"yet recorded as sent (no time limit), rule (B). Record it with `/ethics mail 2026-001 respondent " +
				"&lt;article no.&gt;`.",
			func(w *world, n string, now time.Time) {
				w.apply(n, now, docket.RecordMailing{Paper: docket.RespondentNoticePaper, Article: "94071118987654322801"})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.e.Mail = tc.policy
			var n string
			w.run(at(t, "2026-12-04 10:00"), at(t, "2026-12-16 12:00"), 15*time.Minute, map[time.Time]func(){
				at(t, "2026-12-04 10:00"): func() {
					n = w.noticed(at(t, "2026-12-04 10:00"), at(t, "2026-12-10 17:00"))
				},
				at(t, "2026-12-09 14:00"): func() {
					w.apply(n, at(t, "2026-12-09 14:00"),
						docket.RecordUndelivered{Article: "9407 1118 9876 5432 1712", Outcome: docket.Unclaimed})
				},
				at(t, "2026-12-14 10:00"): func() { tc.then(w, n, at(t, "2026-12-14 10:00")) },
			})
			var task, digests []string
			for _, s := range w.rec.said {
				switch {
				case strings.Contains(s.Key, "|resend_respondent|"):
					task = append(task, s.String()+" "+s.Text)
				case strings.Contains(s.Text, "came back unclaimed"):
					digests = append(digests, s.When.Format("01-02"))
				}
			}
			if len(task) != 2 || !strings.Contains(task[0], "required:2026-12-09") || !strings.HasSuffix(task[0], tc.want) {
				t.Errorf("task reminders:\n%s\nwant one to the clerk and one to the docket channel, saying %q",
					strings.Join(task, "\n"), tc.want)
			}
			if got := strings.Join(digests, ","); got != "12-10,12-11,12-14" {
				t.Errorf("digests listing the task on %s, want 12-10,12-11,12-14 (every business day until recorded)", got)
			}
		})
	}
}

// noticed files a complaint at when, schedules its sufficiency meeting for meeting, posts
// its notice and mails both (B) notices, respondent's article 9407 1118 9876 5432 1712; it
// returns the case's number.
func (w *world) noticed(when, meeting time.Time) string {
	w.t.Helper()
	n := w.file(when)
	w.apply(n, when, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"})
	w.apply(n, when, docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	w.apply(n, when, docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"})
	w.apply(n, when, docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"})
	return n
}
