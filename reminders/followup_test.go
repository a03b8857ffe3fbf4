package reminders_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestReferralFollowedUp: a referral to the attorney, once sent, is the clerk's to follow:
// the clerk is reminded to ask for the attorney's report as its interval ends (30 days
// after the sending), with the command that records it.
func TestReferralFollowedUp(t *testing.T) {
	w := newWorld(t)
	var n string
	w.run(at(t, "2026-12-04 10:00"), at(t, "2027-01-15 12:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-12-04 10:00"): func() {
			n = w.noticed(at(t, "2026-12-04 10:00"), at(t, "2026-12-10 17:00"))
		},
		at(t, "2026-12-10 18:00"): func() {
			w.apply(n, at(t, "2026-12-10 18:00"), docket.Rule{Ruling: docket.JudicialReferral})
			w.apply(n, at(t, "2026-12-10 18:05"), docket.RecordDelivery{Paper: docket.RulingToRespondent})
			w.apply(n, at(t, "2026-12-10 18:10"), docket.RecordDelivery{Paper: docket.RulingToComplainant})
		},
		at(t, "2026-12-15 10:00"): func() {
			w.apply(n, at(t, "2026-12-15 10:00"), docket.RecordDelivery{Paper: docket.AdjudicationRequest})
		},
	})
	var follow []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "|referral_follow_up|") {
			follow = append(follow, s.String()+" "+s.Text)
		}
	}
	all := strings.Join(follow, "\n")
	for _, want := range []string{
		"@U_CLERK 2026-001: the attorney's report on the referral recorded due Thu 14 Jan (2 days), rule (C)(2). " +
			"Record it with `/ethics referral 2026-001 status=\"...\"`.",
		"@U_CLERK 2026-001: the attorney's report on the referral recorded due Thu 14 Jan (1 day overdue)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("follow-up reminders:\n%s\nwant %q", all, want)
		}
	}
}
