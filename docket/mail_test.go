package docket_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// TestReturnedDismissalKeepsCaseOpen: (C)(2) a notice of dismissal by certified mail that
// came back unclaimed keeps the dismissed case open, with a task for the next step the
// commission chose, until that step is recorded; under a policy of no next step, the
// certified mailing was the notice and the case closes.
func TestReturnedDismissalKeepsCaseOpen(t *testing.T) {
	dismissed := func(t *testing.T, e *docket.Engine) docket.Case {
		steps := closedHearingCase()[:5]
		steps = append(steps,
			step{"2026-12-10T18:00:00-06:00", docket.Rule{Ruling: docket.Insufficient}, docket.StateDismissed, ""},
			step{"2026-12-11T09:00:00-06:00",
				docket.RecordMailing{Paper: docket.DismissalToRespondent, Article: "94071118987654322801"},
				docket.StateDismissed, ""},
			step{"2026-12-11T09:05:00-06:00",
				docket.RecordMailing{Paper: docket.DismissalToComplainant, Article: "94071118987654322702"},
				docket.StateDismissed, ""},
			step{"2026-12-21T09:00:00-06:00", docket.RecordUndelivered{Article: "94071118987654322801", Outcome: docket.Refused},
				docket.StateDismissed, ""},
		)
		return apply(t, e, steps)
	}
	e := MustEngine(t)
	c := dismissed(t, e)
	if c.Closed() {
		t.Fatal("a dismissed case whose notice came back refused is closed before the next step")
	}
	d, ok := e.Schedule(&c.Facts, T(t, "2026-12-21T10:00:00-06:00")).Find("resend_dismissal_respondent")
	if !ok || d.Done || d.Rule != "(C)(2)" ||
		!strings.Contains(d.Period.Duty, "sent again by first-class mail to the same address (it came back refused)") {
		t.Fatalf("task %+v", d)
	}
	c, _, err := e.Apply(c, docket.RecordDelivery{Paper: docket.DismissalToRespondent}, T(t, "2026-12-22T09:00:00-06:00"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Closed() {
		t.Error("the case stays open after the next step")
	}
	if _, _, err := e.Apply(c, docket.RecordDelivery{Paper: docket.DismissalToComplainant},
		T(t, "2026-12-22T09:00:00-06:00")); err == nil {
		t.Error("a certified paper that did not come back was delivered otherwise")
	}

	e.Mail = docket.MailPolicy{Unclaimed: docket.NoStep}
	c = dismissed(t, e)
	if _, task := e.Schedule(&c.Facts,
		T(t, "2026-12-21T10:00:00-06:00")).Find("resend_dismissal_respondent"); !c.Closed() || task {
		t.Errorf("with no next step, the returned notice holds the case open (closed %v) or adds a task (%v)",
			c.Closed(), task)
	}
}

// TestReturnedMailKeepsItsStep: the next step chosen when the mailing came back is kept
// with its event, so a case rebuilt (by a correction) after the policy changed keeps the
// task it had.
func TestReturnedMailKeepsItsStep(t *testing.T) {
	e := MustEngine(t)
	steps := closedHearingCase()[:5]
	steps = append(steps,
		step{"2026-12-09T09:00:00-06:00",
			docket.RecordUndelivered{Article: "9407 1118 9876 5432 1016 34", Outcome: docket.Unclaimed, Next: docket.ByHand},
			docket.StateNoticesSent, ""})
	entries := recorded(t, steps)
	e.Mail = docket.MailPolicy{Unclaimed: docket.NoStep}
	c, err := e.Rebuild("2026-001", entries)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := e.Schedule(&c.Facts, time.Time{}).Find("resend_respondent")
	if !ok || !strings.Contains(d.Period.Duty, "delivered by hand") {
		t.Errorf("rebuilt under another policy, the task is %+v (found %v)", d, ok)
	}
	if _, _, err := e.Apply(c, docket.RecordDelivery{Paper: docket.RespondentNoticePaper},
		T(t, "2026-12-09T10:00:00-06:00")); err != nil {
		t.Errorf("the delivery by hand chosen: %v", err)
	}
}
