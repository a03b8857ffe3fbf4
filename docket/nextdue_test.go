package docket_test

import (
	"testing"

	"ethicsbot/docket"
)

// TestDueBasis: the basis of the next due instants changes with every configuration that
// moves a deadline (a holiday kept or not, a closure, a proclamation, the zone, the mail
// policy), and not between two engines built alike.
func TestDueBasis(t *testing.T) {
	engine := func(cfg docket.CalendarConfig, mail docket.MailPolicy) *docket.Engine {
		t.Helper()
		cal, err := docket.NewCalendar(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance(), Mail: mail}
	}
	base := engine(docket.CalendarConfig{}, docket.MailPolicy{}).DueBasis()
	if again := engine(docket.CalendarConfig{}, docket.MailPolicy{}).DueBasis(); again != base {
		t.Fatalf("two engines built alike: %s and %s", base, again)
	}
	for _, tc := range []struct {
		name string
		cfg  docket.CalendarConfig
		mail docket.MailPolicy
	}{
		{"ColumbusDayWorked", docket.CalendarConfig{Remove: []string{"columbus_day"}}, docket.MailPolicy{}},
		{"DayAfterThanksgivingOff", docket.CalendarConfig{Add: []string{"day_after_thanksgiving"}}, docket.MailPolicy{}},
		{"SnowDay", docket.CalendarConfig{Closures: []docket.Date{docket.NewDate(2027, 1, 26)}}, docket.MailPolicy{}},
		{"Proclaimed", docket.CalendarConfig{Proclaimed: []docket.Date{docket.NewDate(2027, 1, 26)}},
			docket.MailPolicy{}},
		{"NewYorkTime", docket.CalendarConfig{Zone: "America/New_York"}, docket.MailPolicy{}},
		{"UnclaimedRecertified", docket.CalendarConfig{}, docket.MailPolicy{Unclaimed: docket.Recertify}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := engine(tc.cfg, tc.mail).DueBasis(); got == base {
				t.Errorf("DueBasis = %s, the default's", got)
			}
		})
	}
}
