package bot_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// commissionConsole is a demo console, as the clerk, on a commission of three that votes
// by roll call, with the console's channels; more changes the settings further.
func commissionConsole(t *testing.T, more func(*commands.Settings)) (*bot.Console, *env) {
	t.Helper()
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles.Clerks, st.Roles.Commissioners = []string{"U_CLERK"}, []string{"U_COMM1", "U_COMM2", "U_COMM3"}
		st.Voting = commands.Voting{Required: true}
		st.Channels = commands.Channels{Docket: "#ethics-docket", Notices: "#ethics-notices"}
		if more != nil {
			more(st)
		}
	})
	clock := bot.NewClock(time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC))
	svc.Now = clock.Now
	return &bot.Console{Service: svc, Clock: clock, User: "U_CLERK",
		Deliver: bot.Printing(&outbox.Deliverer{Store: e.db})}, e
}

// TestConsoleCompleteCase drives one case from filing to final recommendation through the
// console, as a newcomer would from the clerk's guide, and checks every line posted.
func TestConsoleCompleteCase(t *testing.T) {
	c, _ := commissionConsole(t, nil)
	script := ":clock 2026-12-04T10:30:00-06:00\n" + completeCase + "/ethics case 2026-001\n:quit\n/ethics docket\n"
	var out bytes.Buffer
	if err := c.Run(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	var notices []string
	for _, l := range lines {
		if strings.HasPrefix(l, "[#ethics-notices] ") {
			notices = append(notices, strings.TrimPrefix(l, "[#ethics-notices] "))
		}
	}
	wantNotices := []string{
		"PUBLIC NOTICE. Ethics Commission, case 2026-001: sufficiency meeting on Mon 7 Dec 2026 at 17:00 CST at City Hall, " +
			"Room 201, open to the public.",
		"PUBLIC NOTICE. Ethics Commission, case 2026-001: hearing on Thu 10 Dec 2026 at 10:00 CST at Council Chambers, " +
			"closed to the public under 5 ILCS 120/2(c)(4).",
		"PUBLIC NOTICE (E). The Ethics Commission's decision in case 2026-001, the complaint of John Doe against Jane Roe, " +
			"on Thu 2026-12-10: recommendation and/or fine (E)(2). By roll call: adopted 2–1.",
		"*Findings:*",
		"> Violated 103.10.",
		"*Recommendation:*",
		"> Written reprimand",
		"Fine: $2,500.",
		"PUBLIC NOTICE. Ethics Commission, case 2026-001: public hearing on Mon 14 Dec 2026 at 18:00 CST at Council " +
			"Chambers, open to the public.",
		"PUBLIC NOTICE (F). The Ethics Commission's final recommendation in case 2026-001, the complaint of John Doe " +
			"against Jane Roe, on Mon 2026-12-14. By roll call: adopted 2–0, 1 absent.",
		"*Final recommendation:*",
		"> Reprimand and fine affirmed.",
		"Fine: $2,500.",
	}
	if strings.Join(notices, "\n") != strings.Join(wantNotices, "\n") {
		t.Errorf("public notices:\n%s\nwant:\n%s", strings.Join(notices, "\n"), strings.Join(wantNotices, "\n"))
	}
	// No party name or allegation reaches the public channel before the (E) decision.
	for _, n := range notices[:2] {
		for _, secret := range []string{"Jane Roe", "John Doe", "city email"} {
			if strings.Contains(n, secret) {
				t.Errorf("public notice before the decision names %q: %s", secret, n)
			}
		}
	}
	var docketLines, replies int
	var warnings []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "[#ethics-docket] (card"):
			// The case's card and its updates: the parent of the case's thread.
		case strings.HasPrefix(l, "[#ethics-docket] :warning: "):
			warnings = append(warnings, strings.TrimPrefix(l, "[#ethics-docket] :warning: "))
		case strings.HasPrefix(l, "[#ethics-docket] "):
			docketLines++
		case strings.HasPrefix(l, "[ephemeral] Case 2026-001") || strings.HasPrefix(l, "[ephemeral] Filed as case"):
			replies++
		case strings.HasPrefix(l, "[ephemeral] "):
			if strings.Contains(l, "Not done") || strings.Contains(l, "Only ") {
				t.Errorf("a step was refused: %s", l)
			}
		}
	}
	// One docket line per event: the ruling that schedules its hearing is two events.
	if docketLines != 15 || replies != 15 {
		t.Errorf("%d docket lines and %d replies, want 15 and 15:\n%s", docketLines, replies, out.String())
	}
	// Both Monday meetings are scheduled with their notices due on the Saturday before.
	wantWarnings := []string{
		"the notice of the sufficiency meeting must be posted by Sat 5 Dec 2026 17:00 CST, a weekend: post it before the " +
			"office closes today, Fri 4 Dec (rule (C)(1))",
		"the notice of the public hearing must be posted by Sat 12 Dec 2026 18:00 CST, a weekend: post it before the " +
			"office closes today, Fri 11 Dec (rule (F))",
	}
	if strings.Join(warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("docket warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	for _, want := range []string{
		"[ephemeral] Filed as case *2026-001*, received Fri 4 Dec 2026 10:00 CST.",
		"[console] now acting as U_COMM1 (commissioner)",
		"[console] the time is now Mon 2026-12-07 18:00 CST",
		"[ephemeral] Case 2026-001: final",
		":white_check_mark: met final recommendation issued publicly (F): due Mon 2026-12-21",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("console output lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "Open cases") {
		t.Error("a line after :quit ran")
	}
}

// TestConsoleReminders: a meeting scheduled in the console posts its public notice, and
// moving :clock past the reminder times prints the reminders.
func TestConsoleReminders(t *testing.T) {
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles.Clerks, st.Roles.Commissioners = []string{"U_CLERK"}, []string{"U_COMM1"}
		st.Channels = commands.Channels{Docket: "#ethics-docket", Notices: "#ethics-notices"}
	})
	clock := bot.NewClock(time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC))
	svc.Now = clock.Now
	sweeper := &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: svc.Engine, Policy: reminders.Defaults(),
			People: reminders.People{Clerks: []string{"U_CLERK"}, Commissioners: []string{"U_COMM1"}, Docket: "#ethics-docket"}},
		Cases: e.db, Outbox: e.db,
	}
	c := &bot.Console{Service: svc, Clock: clock, User: "U_CLERK",
		Tick: func(ctx context.Context, now time.Time) {
			if _, err := sweeper.Sweep(ctx, now); err != nil {
				t.Fatal(err)
			}
		},
		Deliver: bot.Printing(&outbox.Deliverer{Store: e.db})}
	var out bytes.Buffer
	c.Run(context.Background(), strings.NewReader(`
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"
/ethics schedule 2026-001 sufficiency 2026-12-09T17:00 place="City Hall"
:clock 2026-12-07T09:00:00-06:00
:clock 2026-12-08T09:00:00-06:00
:clock 2026-12-09T15:00:00-06:00
:clock 2026-12-01T09:00:00-06:00
`), &out)
	got := out.String()
	for _, want := range []string{
		"[#ethics-notices] PUBLIC NOTICE. Ethics Commission, case 2026-001: sufficiency meeting on Wed 9 Dec 2026 at 17:00 " +
			"CST at City Hall, open to the public.",
		"[@U_CLERK] 2026-001: respondent notice by certified mail due Wed 9 Dec (2 business days), rule (B). Record it " +
			"with `/ethics mail 2026-001 respondent &lt;article no.&gt;`.",
		// The clerk's tasks go to the clerk only (reminders.ClerkTasks), not the channel too.
		"[@U_CLERK] 2026-001: respondent notice by certified mail due Wed 9 Dec (1 business day), rule (B).",
		"[@U_COMM1] 2026-001: the sufficiency meeting is Wed 9 Dec at 17:00 CST at City Hall, open to the public.",
		// The clock jumped from Monday 09:00 past the digest's 08:00: as after downtime, the
		// digest comes in the catch-up with what else fell due meanwhile.
		"[@U_CLERK] *Catch-up:* ethicsbot was not running from Mon 7 Dec 09:00 CST to Tue 8 Dec 09:00 CST. 2 reminders " +
			"fell due meanwhile",
		"[@U_CLERK] • (due Tue 8 Dec 08:00) Docket for Tue 2026-12-08: due within 5 business days or overdue:",
		"[console] 2026-12-01T09:00:00-06:00 is before the console's time, 2026-12-09T15:00:00-06:00: the clock moves " +
			"only forward",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("console lacks %q:\n%s", want, got)
		}
	}
}

// TestConsoleLongLine: a line longer than any command is refused, and the lines after it
// still run (a bufio.Scanner stopped the console there, losing them).
func TestConsoleLongLine(t *testing.T) {
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) { st.Roles.Clerks = []string{"U_CLERK"} })
	c := &bot.Console{Service: svc, Clock: bot.NewClock(time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)), User: "U_CLERK"}
	script := "/ethics file summary=" + strings.Repeat("a", 3<<20) + "\n/ethics docket\n"
	var out bytes.Buffer
	if err := c.Run(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatalf("the console stopped: %v", err)
	}
	if !strings.Contains(out.String(), "it was not run") || !strings.Contains(out.String(), "No open cases") {
		t.Errorf("console output:\n%.500s", out.String())
	}
}

// markCheck is an outbox store that, when the deliverer marks posts sent, notes whether
// the console has printed them yet, and then fails to mark them, as a console killed between
// the send and the mark would.
type markCheck struct {
	outbox.Store
	out       *bytes.Buffer
	unprinted []string
	marks     int
}

func (m *markCheck) Settle(ctx context.Context, done []outbox.Settled, claim []outbox.Key,
	now time.Time) ([]outbox.Claim, error) {
	marked := false
	for _, d := range done {
		if d.How != outbox.Sent {
			continue
		}
		m.marks, marked = m.marks+1, true
		if !strings.Contains(m.out.String(), "["+d.Key.To.String()+"] ") {
			m.unprinted = append(m.unprinted, d.Key.To.String())
		}
	}
	if marked {
		return nil, errors.New("the disk is full")
	}
	return m.Store.Settle(ctx, done, claim, now)
}

// TestConsolePrintsBeforeMarking: the console's sender prints each post as it is sent,
// before the deliverer marks it sent, so a console killed between the two prints the line
// again when it restarts, and never loses one it marked sent without printing it.
func TestConsolePrintsBeforeMarking(t *testing.T) {
	c, e := commissionConsole(t, nil)
	var out bytes.Buffer
	store := &markCheck{Store: e.db, out: &out}
	c.Deliver = bot.Printing(&outbox.Deliverer{Store: store})
	c.Run(context.Background(), strings.NewReader(
		`/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"`+"\n"), &out)
	if store.marks == 0 || len(store.unprinted) > 0 {
		t.Errorf("%d posts marked sent, of which not yet printed: %v\n%s", store.marks, store.unprinted, out.String())
	}
	if !strings.Contains(out.String(), "[#ethics-docket] (card) ") {
		t.Errorf("the case's card was not printed:\n%s", out.String())
	}
}

// TestConsoleClockOnTheRecord: with the record as its floor, the console's clock may be set
// to any time while the record holds no event (a newcomer's first session works on any day,
// its dates long past), and then never before the record's last event.
func TestConsoleClockOnTheRecord(t *testing.T) {
	e := newQuietEnv(t, nil)
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) { st.Roles.Clerks = []string{"U_CLERK"} })
	clock := bot.NewClock(time.Date(2027, 12, 6, 15, 0, 0, 0, time.UTC)) // a year after the dates below
	svc.Now = clock.Now
	c := &bot.Console{Service: svc, Clock: clock, User: "U_CLERK", Earliest: e.db.LastEventAt}
	var out bytes.Buffer
	c.Run(context.Background(), strings.NewReader(`:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"
:clock +1d
:clock 2026-12-04T10:00:00-06:00
:clock 2026-12-04T10:30:00-06:00
`), &out)
	got := out.String()
	for _, want := range []string{
		"[console] the time is now Fri 2026-12-04 10:30 CST",
		"[ephemeral] Filed as case *2026-001*, received Fri 4 Dec 2026 10:30 CST.",
		"[console] the time is now Sat 2026-12-05 10:30 CST",
		"[console] 2026-12-04T10:00:00-06:00 is before the record's last event, at 2026-12-04T10:30:00-06:00: the record " +
			"keeps its events in the order they happened",
		// Back to the last event itself, a day before the clock's time: nothing goes out of order.
		"[console] the time is now Fri 2026-12-04 10:30 CST\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("console lacks %q:\n%s", want, got)
		}
	}
}
