package docket_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// upTo applies the first n steps of the closed-hearing case, leaving out step drop (-1:
// none), and returns the case.
func upTo(t *testing.T, e *docket.Engine, n, drop int) docket.Case {
	t.Helper()
	var steps []step
	for i, s := range closedHearingCase()[:n] {
		if i != drop {
			steps = append(steps, s)
		}
	}
	return apply(t, e, steps)
}

// refusal applies a to c at at and returns the *docket.Error it must be refused with.
func refusal(t *testing.T, e *docket.Engine, c docket.Case, a docket.Action, at string) *docket.Error {
	t.Helper()
	before, _ := json.Marshal(c)
	_, _, err := e.Apply(c, a, T(t, at))
	de, ok := err.(*docket.Error)
	if !ok {
		t.Fatalf("%s at %s = %v, want a refusal", a.Kind(), at, err)
	}
	if after, _ := json.Marshal(c); string(after) != string(before) {
		t.Errorf("a refused %s changed the case", a.Kind())
	}
	return de
}

// TestPostingLiesBetweenSchedulingAndNow: a notice cannot be recorded as posted before the
// meeting it announces was scheduled as it now stands, nor in the future. Before this
// rule, a posting dated months before the complaint made the deadline show "met".
func TestPostingLiesBetweenSchedulingAndNow(t *testing.T) {
	e := MustEngine(t)
	scheduled := upTo(t, e, 2, -1) // filed Fri 4 Dec 10:00, meeting scheduled 11:00
	if got := scheduled.Sufficiency.ScheduledAt; !got.Equal(T(t, "2026-12-04T11:00:00-06:00")) {
		t.Fatalf("ScheduledAt %v, want when the meeting was scheduled", got)
	}
	post := func(at string) docket.PostNotice {
		return docket.PostNotice{Meeting: docket.SufficiencyMeeting, Posted: T(t, at)}
	}
	const now = "2026-12-04T12:00:00-06:00"
	for _, tc := range []struct {
		name, posted, want string
	}{
		{"ErrBackdatedBeforeTheComplaint", "2026-06-01T09:00:00-05:00",
			"Mon 1 Jun 2026 09:00 CDT is before the sufficiency meeting was scheduled as it now stands, at Fri 4 Dec " +
				"2026 11:00 CST"},
		{"ErrBeforeScheduling", "2026-12-04T10:30:00-06:00", "is before the sufficiency meeting was scheduled"},
		{"ErrInTheFuture", "2026-12-04T13:00:00-06:00",
			"Fri 4 Dec 2026 13:00 CST is in the future: it is now Fri 4 Dec 2026 12:00 CST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			de := refusal(t, e, scheduled, post(tc.posted), now)
			if de.Rule != "(C)(1)" || de.Field != "posted" || !strings.Contains(de.Message, tc.want) {
				t.Errorf("refusal %q (field %q, rule %q), want %q under (C)(1)", de, de.Field, de.Rule, tc.want)
			}
		})
	}
	t.Run("AtScheduling", func(t *testing.T) {
		c, _, err := e.Apply(scheduled, post("2026-12-04T11:00:00-06:00"), T(t, now))
		if err != nil || !c.Sufficiency.NoticePosted.Equal(T(t, "2026-12-04T11:00:00-06:00")) {
			t.Fatalf("posting at the moment of scheduling: %v", err)
		}
		if d := due(t, e.Schedule(&c.Facts, T(t, now)), docket.SufficiencyMeetingNotice); d.Status != docket.Met {
			t.Errorf("notice deadline %s, want met", d.Status)
		}
	})
	t.Run("ErrBeforeTheReschedule", func(t *testing.T) {
		// Rescheduling resets the notice: one posted for the old meeting announced another.
		moved, _, err := e.Apply(scheduled,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-14T17:00:00-06:00"),
				Place: "Library"}, T(t, "2026-12-07T10:00:00-06:00"))
		if err != nil {
			t.Fatal(err)
		}
		de := refusal(t, e, moved, post("2026-12-05T09:00:00-06:00"), "2026-12-07T11:00:00-06:00")
		if de.Rule != "(C)(1)" || !strings.Contains(de.Message, "scheduled as it now stands, at Mon 7 Dec 2026 10:00 CST") {
			t.Errorf("refusal %q", de)
		}
	})
	t.Run("OldRecordFallsBackToReceipt", func(t *testing.T) {
		// A case stored before meetings kept when they were scheduled still loads, and a
		// posting is then bounded by the complaint's receipt.
		doc, _ := json.Marshal(scheduled)
		var raw map[string]any
		json.Unmarshal(doc, &raw)
		delete(raw["sufficiency"].(map[string]any), "scheduled_at")
		doc, _ = json.Marshal(raw)
		var old docket.Case
		if err := json.Unmarshal(doc, &old); err != nil || !old.Sufficiency.ScheduledAt.IsZero() ||
			!old.Sufficiency.Scheduled() {
			t.Fatalf("old record: %v, %+v", err, old.Sufficiency)
		}
		if _, _, err := e.Apply(old, post("2026-12-04T10:30:00-06:00"), T(t, now)); err != nil {
			t.Errorf("a posting after receipt on an old record: %v", err)
		}
		de := refusal(t, e, old, post("2026-12-04T09:00:00-06:00"), now)
		if de.Rule != "(C)(1)" ||
			!strings.Contains(de.Message, "is before the complaint was received, at Fri 4 Dec 2026 10:00 CST") {
			t.Errorf("refusal %q", de)
		}
	})
}

// TestStepsNeedPostedNotice: a ruling (C)(1), a hearing's recess or conclusion (D) and a
// public hearing held (F) are refused unless the meeting's notice was recorded as posted
// at least 48 hours before it; an override records them anyway, with its reason.
func TestStepsNeedPostedNotice(t *testing.T) {
	e := MustEngine(t)
	loc := e.Cal.Location()
	const reason = "posted on the City Hall board on time; the clerk recorded it late"
	for _, tc := range []struct {
		name     string
		n, drop  int // the steps before, without the posting
		meeting  docket.MeetingKind
		start    string
		action   docket.Action
		override docket.Action
		at, rule string
		step     string
	}{
		{"Ruling", 6, 2, docket.SufficiencyMeeting, "2026-12-10T17:00:00-06:00",
			docket.Rule{Ruling: docket.Insufficient}, docket.Rule{Ruling: docket.Insufficient, Override: reason},
			"2026-12-10T18:00:00-06:00", "(C)(1)", "ruling"},
		{"Recess", 9, 8, docket.HearingMeeting, "2026-12-21T10:00:00-06:00",
			docket.RecessHearing{}, docket.RecessHearing{Override: reason}, "2026-12-21T16:00:00-06:00", "(D)", "recess"},
		{"Conclusion", 9, 8, docket.HearingMeeting, "2026-12-21T10:00:00-06:00",
			docket.ConcludeHearing{}, docket.ConcludeHearing{Override: reason}, "2026-12-21T16:00:00-06:00", "(D)",
			"hearing's conclusion"},
		{"ConclusionOfTheRecessedHearing", 12, 11, docket.RecessedHearing, "2026-12-28T10:00:00-06:00",
			docket.ConcludeHearing{}, docket.ConcludeHearing{Override: reason}, "2026-12-28T15:00:00-06:00", "(D)",
			"hearing's conclusion"},
		{"PublicHearingHeld", 17, 16, docket.PublicHearing, "2027-01-19T18:00:00-06:00",
			docket.HoldPublicHearing{}, docket.HoldPublicHearing{Override: reason}, "2027-01-19T21:00:00-06:00", "(F)",
			"public hearing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unposted := upTo(t, e, tc.n, tc.drop)
			start := T(t, tc.start)
			postedAt := func(before time.Duration) docket.Case {
				p := start.Add(-before)
				c, _, err := e.Apply(unposted, docket.PostNotice{Meeting: tc.meeting}, p)
				if err != nil {
					t.Fatalf("posting %v before: %v", before, err)
				}
				return c
			}
			t.Run("ErrNotPosted", func(t *testing.T) {
				de := refusal(t, e, unposted, tc.action, tc.at)
				earliest := T(t, tc.at).Add(48 * time.Hour).In(loc).Format("Mon 2 Jan 2006 15:04 MST")
				for _, want := range []string{
					"the " + tc.meeting.Name() + " at ", "no posting of its notice is recorded",
					"the earliest lawful start is " + earliest, `override="<reason>"`,
				} {
					if !strings.Contains(de.Message, want) {
						t.Errorf("refusal %q lacks %q", de, want)
					}
				}
				if de.Rule != tc.rule || de.Code != docket.ECONFLICT {
					t.Errorf("refusal under %q (%s), want %s", de.Rule, de.Code, tc.rule)
				}
			})
			t.Run("ErrPosted47Hours", func(t *testing.T) {
				de := refusal(t, e, postedAt(47*time.Hour), tc.action, tc.at)
				if de.Rule != tc.rule || !strings.Contains(de.Message, "only 47 hours before it") ||
					!strings.Contains(de.Message, "earliest lawful start") {
					t.Errorf("refusal %q (rule %q)", de, de.Rule)
				}
			})
			t.Run("Posted48Hours", func(t *testing.T) {
				if _, _, err := e.Apply(postedAt(48*time.Hour), tc.action, T(t, tc.at)); err != nil {
					t.Errorf("with the notice posted 48 hours before: %v", err)
				}
			})
			t.Run("Override", func(t *testing.T) {
				c, _, err := e.Apply(unposted, tc.override, T(t, tc.at))
				if err != nil {
					t.Fatal(err)
				}
				want := docket.Override{Rule: tc.rule, Step: tc.step,
					Without: "48 hours' posted notice of the " + tc.meeting.Name(), Reason: reason, On: e.Cal.DateOf(T(t, tc.at))}
				if len(c.Overrides) != len(unposted.Overrides)+1 || c.Overrides[len(c.Overrides)-1] != want {
					t.Errorf("overrides %+v, want %+v last", c.Overrides, want)
				}
			})
			t.Run("ErrOverrideOfNothing", func(t *testing.T) {
				de := refusal(t, e, postedAt(48*time.Hour), tc.override, tc.at)
				if de.Field != "override" || !strings.Contains(de.Message, "nothing needs overriding") {
					t.Errorf("refusal %q", de)
				}
			})
			t.Run("ErrOverrideOnTwoLines", func(t *testing.T) {
				bad := map[string]docket.Action{
					"rule":                docket.Rule{Ruling: docket.Insufficient, Override: "posted\nPUBLIC NOTICE"},
					"recess_hearing":      docket.RecessHearing{Override: "posted\nPUBLIC NOTICE"},
					"conclude_hearing":    docket.ConcludeHearing{Override: "posted\nPUBLIC NOTICE"},
					"public_hearing_held": docket.HoldPublicHearing{Override: "posted\nPUBLIC NOTICE"},
				}[tc.action.Kind()]
				de := refusal(t, e, unposted, bad, tc.at)
				if de.Field != "override" || de.Rule != tc.rule || !strings.Contains(de.Message, "must be one line") {
					t.Errorf("refusal %q", de)
				}
			})
		})
	}
}

// TestRulingNeedsTheBNotices: (B) has both parties told the sufficiency meeting's date,
// time and place; a ruling before both notices are recorded as mailed is refused, or
// recorded by override.
func TestRulingNeedsTheBNotices(t *testing.T) {
	e := MustEngine(t)
	rule := docket.Rule{Ruling: docket.ProbableCause}
	const at = "2026-12-10T18:00:00-06:00"
	t.Run("ErrNeitherMailed", func(t *testing.T) {
		de := refusal(t, e, upTo(t, e, 3, -1), rule, at)
		if de.Rule != "(B)" ||
			!strings.Contains(de.Message,
				"no certified notice to the respondent and the complainant giving the sufficiency meeting's date, time and place "+
					"(Thu 10 Dec 2026 17:00 CST, City Hall, Room 201)") {
			t.Errorf("refusal %q (rule %q)", de, de.Rule)
		}
	})
	t.Run("ErrComplainantNotMailed", func(t *testing.T) {
		de := refusal(t, e, upTo(t, e, 4, -1), rule, at)
		if de.Rule != "(B)" || !strings.Contains(de.Message, "no certified notice to the complainant giving") {
			t.Errorf("refusal %q (rule %q)", de, de.Rule)
		}
	})
	t.Run("ErrNeitherMailedNorPosted", func(t *testing.T) {
		de := refusal(t, e, upTo(t, e, 2, -1), rule, at)
		if de.Rule != "(C)(1), (B)" || !strings.Contains(de.Message, "no posting of its notice") ||
			!strings.Contains(de.Message, "no certified notice") {
			t.Errorf("refusal %q (rule %q), want both the notice and the mailings", de, de.Rule)
		}
	})
	t.Run("Override", func(t *testing.T) {
		rule := rule
		rule.Override = "both parties were served by hand at the meeting"
		c, _, err := e.Apply(upTo(t, e, 2, -1), rule, T(t, at))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Overrides) != 2 || c.Overrides[0].Rule != "(C)(1)" || c.Overrides[1].Rule != "(B)" ||
			c.Overrides[1].Without != "a certified notice to the respondent and the complainant of the sufficiency meeting" ||
			c.Overrides[1].Reason != rule.Override {
			t.Errorf("overrides %+v", c.Overrides)
		}
		if c.State != docket.StateHearingPending {
			t.Errorf("state %s", c.State)
		}
	})
}

// TestSessionHeldWithoutNoticeMayBeHeldAgain: the refusal's advice works: a hearing
// session that met without its notice can be rescheduled, while one duly noticed that
// has begun cannot.
func TestSessionHeldWithoutNoticeMayBeHeldAgain(t *testing.T) {
	e := MustEngine(t)
	again := docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: T(t, "2026-12-28T10:00:00-06:00"),
		Place: "City Hall, Room 201"}
	const at = "2026-12-21T16:00:00-06:00"
	c, _, err := e.Apply(upTo(t, e, 8, -1), again, T(t, at))
	if err != nil || !c.Hearing.Start.Equal(again.Start) || !c.Hearing.NoticePosted.IsZero() {
		t.Fatalf("rescheduling a session held without notice: %v", err)
	}
	if de := refusal(t, e, upTo(t, e, 9, -1), again, at); !strings.Contains(de.Message, "the hearing has begun") {
		t.Errorf("refusal %q", de)
	}
}

// TestClosedPostingDeadlineWarns: when the last instant to post a notice falls on a day
// the office is closed, scheduling says so and by when to post it. Each row is a meeting a
// clerk might schedule.
func TestClosedPostingDeadlineWarns(t *testing.T) {
	for _, tc := range []struct {
		name                string
		closures            []docket.Date
		received, at, start string
		want                string // "" for no such warning
	}{
		{"MondayMeetingScheduledFriday", nil, "2026-12-11T09:00:00-06:00", "2026-12-11T10:00:00-06:00",
			"2026-12-14T17:00:00-06:00",
			"the notice of the sufficiency meeting must be posted by Sat 12 Dec 2026 17:00 CST, a weekend: post it before the " +
				"office closes today, Fri 11 Dec"},
		{"TuesdayMorningScheduledWednesday", nil, "2026-12-09T09:00:00-06:00", "2026-12-09T10:00:00-06:00",
			"2026-12-15T10:00:00-06:00",
			"must be posted by Sun 13 Dec 2026 10:00 CST, a weekend: post it before the office closes on Fri 11 Dec"},
		{"ScheduledOnTheWeekend", nil, "2026-12-04T10:00:00-06:00", "2026-12-05T09:00:00-06:00", "2026-12-07T17:00:00-06:00",
			"must be posted by Sat 5 Dec 2026 17:00 CST, a weekend, while the office is closed: arrange for it to be " +
				"posted by then"},
		{"MLKDay", nil, "2027-01-13T09:00:00-06:00", "2027-01-13T10:00:00-06:00", "2027-01-20T18:00:00-06:00",
			"must be posted by Mon 18 Jan 2027 18:00 CST, Martin Luther King Jr. Day: post it before the office closes " +
				"on Fri 15 Jan"},
		// Mon 2027-07-05 is an office closure only where the office observes Sunday holidays
		// on Monday (weekend_observance); no Illinois statute fixes it.
		{"IndependenceDayObserved", []docket.Date{D(t, "2027-07-05")}, "2027-06-30T09:00:00-05:00",
			"2027-06-30T10:00:00-05:00", "2027-07-07T10:00:00-05:00",
			"must be posted by Mon 5 Jul 2027 10:00 CDT, office closed: post it before the office closes on Fri 2 Jul"},
		{"ChristmasAndASnowDay", []docket.Date{D(t, "2026-12-24")}, "2026-12-21T09:00:00-06:00", "2026-12-21T10:00:00-06:00",
			"2026-12-28T10:00:00-06:00",
			"must be posted by Sat 26 Dec 2026 10:00 CST, a weekend: post it before the office closes on Wed 23 Dec"},
		{"BusinessDayNoWarning", nil, "2026-12-07T09:00:00-06:00", "2026-12-07T10:00:00-06:00",
			"2026-12-10T17:00:00-06:00", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &docket.Engine{Cal: MustCalendar(t, docket.CalendarConfig{Closures: tc.closures}),
				Ord: docket.DefaultOrdinance()}
			f := filing
			f.Received = T(t, tc.received)
			c, _, err := e.Apply(docket.Case{}, f, f.Received)
			if err != nil {
				t.Fatal(err)
			}
			_, ws, err := e.Apply(c,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, tc.start), Place: "City Hall"}, T(t, tc.at))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range ws {
				if strings.Contains(w.Message, "must be posted by") {
					got = append(got, w.String())
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("warnings %q, want none about the posting deadline", got)
			case tc.want != "" &&
				(len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.HasSuffix(got[0], "(rule (C)(1))")):
				t.Errorf("warnings %q, want %q (rule (C)(1))", got, tc.want)
			}
		})
	}
}
