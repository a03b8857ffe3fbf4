package docket_test

import (
	"testing"
	"time"

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

// TestNextDueOfAMeeting: a scheduled meeting is due at its start, for the commissioners'
// reminders before it, while it has not begun at the case's last event; one that began
// before it has nothing more to remind of, and the case's instant is its next deadline.
func TestNextDueOfAMeeting(t *testing.T) {
	e := MustEngine(t)
	c := noticedForTuesday(t, e)
	for _, tc := range []struct{ name, asOf, want string }{
		{"BeforeTheMeeting", "2026-12-04T10:00:00-06:00", "2026-12-08T17:00:00-06:00"},
		// The (C)(1) ruling and its notices, 7 business days after receipt: Tue 15 Dec.
		{"AfterItBegan", "2026-12-08T17:30:00-06:00", "2026-12-15T00:00:00-06:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := e.NextDue(&c, T(t, tc.asOf)); !got.Equal(T(t, tc.want)) {
				t.Errorf("NextDue as of %s = %v, want %s", tc.asOf, got, tc.want)
			}
		})
	}
}

// TestNextDueOfAPaperWithoutATimeLimit: the (C)(2) request to the attorney, owed once the
// ruling referred the complaint, has no due date; the case is due from the ruling's day
// until the request is sent, so that the sweep reminds of it and the digest lists it.
func TestNextDueOfAPaperWithoutATimeLimit(t *testing.T) {
	e := MustEngine(t)
	held := T(t, "2026-12-08T18:00:00-06:00")
	c := applyAll(t, e, noticedForTuesday(t, e), held, docket.Rule{Ruling: docket.JudicialReferral},
		docket.RecordDelivery{Paper: docket.RulingToRespondent}, docket.RecordDelivery{Paper: docket.RulingToComplainant})
	if got, want := e.NextDue(&c, held), T(t, "2026-12-08T00:00:00-06:00"); !got.Equal(want) {
		t.Errorf("NextDue with the attorney's request owed = %v, want the ruling's day, %v", got, want)
	}
}

// noticedForTuesday is a complaint received Fri 4 Dec 2026, its sufficiency meeting
// scheduled for Tue 8 Dec at 17:00 and noticed, and both (B) notices mailed.
func noticedForTuesday(t *testing.T, e *docket.Engine) docket.Case {
	t.Helper()
	received := T(t, "2026-12-04T10:00:00-06:00")
	c, _, err := e.Apply(docket.Case{}, docket.File{Complainant: docket.Person{Name: "John Doe"},
		Respondent: docket.Person{Name: "Jane Roe"}, Sections: []string{"103.10"}, Received: received,
		Summary: "x"}, received)
	if err != nil {
		t.Fatal(err)
	}
	return applyAll(t, e, c, received,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-08T17:00:00-06:00"),
			Place: "City Hall"},
		docket.PostNotice{Meeting: docket.SufficiencyMeeting},
		docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"},
		docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321729"})
}

// applyAll applies actions to c in order, at at, or stops the test.
func applyAll(t *testing.T, e *docket.Engine, c docket.Case, at time.Time, actions ...docket.Action) docket.Case {
	t.Helper()
	for _, a := range actions {
		var err error
		if c, _, err = e.Apply(c, a, at); err != nil {
			t.Fatalf("%s: %v", a.Kind(), err)
		}
	}
	return c
}
