package reminders_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
	"ethicsbot/store"
)

var ctx = context.Background()

func chicago(t testing.TB) *time.Location {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// at is a Chicago wall-clock time.
func at(t testing.TB, s string) time.Time {
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, chicago(t))
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// said is one reminder as the recording sender saw it.
type said struct {
	When time.Time
	To   string
	Key  string
	Text string
}

func (s said) String() string {
	return s.When.Format("Mon 01-02 15:04 MST") + " " + s.To + " " + s.Key
}

// recorder is a Sender that records what it says, at the simulated time, and can fail.
type recorder struct {
	mu    sync.Mutex
	now   func() time.Time
	said  []said
	fail  func(now time.Time) error
	calls int
	// lost, if set, makes Send post the message and then report failure, as when Slack
	// takes a message but its answer never arrives; findFail makes Find fail.
	lost     func(now time.Time) bool
	findFail func(now time.Time) error
	// blind makes Find find nothing: the deliverer without its look-back.
	blind bool
}

func (r *recorder) Send(ctx context.Context, d outbox.Dest, markup outbox.Markup,
	k outbox.Key) (string, string, error) {
	text, key := string(markup), k.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.fail != nil {
		if err := r.fail(r.now()); err != nil {
			return "", "", err
		}
	}
	r.said = append(r.said, said{r.now(), d.String(), key, text})
	if r.lost != nil && r.lost(r.now()) {
		return "", "", errors.New("slack: connection reset before the answer")
	}
	return d.String(), fmt.Sprint(len(r.said)), nil
}

func (r *recorder) Find(ctx context.Context, d outbox.Dest, k outbox.Key,
	since time.Time) (string, string, bool, error) {
	key := k.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.blind {
		return "", "", false, nil
	}
	if r.findFail != nil {
		if err := r.findFail(r.now()); err != nil {
			return "", "", false, err
		}
	}
	for i, s := range r.said {
		if s.Key == key && !s.When.Before(since) {
			return d.String(), fmt.Sprint(i + 1), true, nil
		}
	}
	return "", "", false, nil
}

// world is a store, an engine, a sweeper and the outbox's deliverer on a simulated clock.
type world struct {
	t       *testing.T
	db      *store.Store
	e       *docket.Engine
	now     time.Time
	rec     *recorder
	sweep   *reminders.Sweeper
	deliver *outbox.Deliverer
	path    string
}

var people = reminders.People{Clerks: []string{"U_CLERK"}, Commissioners: []string{"U_COMM1", "U_COMM2"},
	Docket: "C_DOCKET"}

// everywhere is the policy these tests of the sweep run under: every deadline reminder to
// the clerks and the docket channel, as before routing, so that each is seen at both
// kinds of destination (TestRoutes checks the routes themselves).
func everywhere() reminders.Policy {
	p := reminders.Defaults()
	p.Routes = reminders.Routes{reminders.ClerkTasks: reminders.Both, reminders.CommissionSteps: reminders.Both,
		reminders.Expedited: reminders.Both}
	return p
}

func newWorld(t *testing.T) *world {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, e: &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()},
		path: filepath.Join(t.TempDir(), "ethicsbot.db")}
	w.open()
	w.rec = &recorder{now: func() time.Time { return w.now }}
	w.restart()
	return w
}

func (w *world) open() {
	db, err := store.Open(w.path, w.e)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { db.Close() })
	w.db = db
}

// restart replaces the sweeper and the deliverer with new ones, as a restarted process
// would have.
func (w *world) restart() {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w.sweep = &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: w.e, Policy: everywhere(), People: people},
		Cases:   w.db, Outbox: w.db, DownAfter: time.Hour, Log: log,
	}
	w.deliver = &outbox.Deliverer{Store: w.db, Sender: w.rec, Log: log, Report: outbox.Dest{Channel: people.Docket},
		Zone: w.e.Cal.Location()}
}

func (w *world) file(received time.Time, elections ...docket.Date) string {
	w.t.Helper()
	res, err := w.db.File(ctx, docket.Act{By: "U_CLERK", At: received},
		docket.File{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: "Jane Roe"},
			Sections: []string{"103.10"}, Received: received, Summary: "x", Elections: elections})
	if err != nil {
		w.t.Fatal(err)
	}
	return res.Case.Number
}

func (w *world) apply(number string, when time.Time, a docket.Action) {
	w.t.Helper()
	if _, err := w.db.Apply(ctx, docket.Act{By: "U_CLERK", At: when}, number, a); err != nil {
		w.t.Fatalf("%s at %v: %v", a.Kind(), when, err)
	}
}

// run sweeps and drains the outbox every step from from to to, doing each action when its
// time comes.
func (w *world) run(from, to time.Time, every time.Duration, actions map[time.Time]func()) {
	w.t.Helper()
	for now := from; !now.After(to); now = now.Add(every) {
		w.now = now
		for when, a := range actions {
			if when.Equal(now) {
				a()
			}
		}
		if _, err := w.sweep.Sweep(ctx, now); err != nil {
			w.t.Fatalf("sweep at %v: %v", now, err)
		}
		if _, err := w.deliver.Drain(ctx, now); err != nil {
			w.t.Fatalf("drain at %v: %v", now, err)
		}
	}
}

// timesSaid counts how often each key was said.
func (w *world) timesSaid() map[string]int {
	seen := map[string]int{}
	for _, s := range w.rec.said {
		seen[s.Key]++
	}
	return seen
}

func (w *world) list() []string {
	var out []string
	for _, s := range w.rec.said {
		out = append(out, s.String())
	}
	return out
}

func diff(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("reminders:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCompleteCase runs a case from filing to dismissal over a simulated week, sweeping
// every 15 minutes, and checks every reminder: when, to whom, and which.
func TestCompleteCase(t *testing.T) {
	w := newWorld(t)
	var n string
	w.run(at(t, "2026-12-04 10:00"), at(t, "2026-12-11 12:00"), 15*time.Minute, map[time.Time]func(){
		at(t, "2026-12-04 10:00"): func() {
			n = w.file(at(t, "2026-12-04 10:00"))
			w.apply(n, at(t, "2026-12-04 10:00"),
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-10 17:00"), Place: "City Hall"})
			w.apply(n, at(t, "2026-12-04 10:00"), docket.PostNotice{Meeting: docket.SufficiencyMeeting})
		},
		at(t, "2026-12-07 10:00"): func() {
			w.apply(n, at(t, "2026-12-07 10:00"),
				docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"})
			w.apply(n, at(t, "2026-12-07 10:00"),
				docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"})
		},
		at(t, "2026-12-10 17:30"): func() { w.apply(n, at(t, "2026-12-10 17:30"), docket.Rule{Ruling: docket.Insufficient}) },
	})
	diff(t, w.list(), []string{
		"Fri 12-04 10:00 CST @U_CLERK |digest|daily:2026-12-04@@U_CLERK",
		"Mon 12-07 08:00 CST @U_CLERK |digest|daily:2026-12-07@@U_CLERK",
		"Mon 12-07 09:00 CST @U_CLERK 2026-001|respondent_notice|before-2:2026-12-09@@U_CLERK",
		"Mon 12-07 09:00 CST #C_DOCKET 2026-001|respondent_notice|before-2:2026-12-09@#C_DOCKET",
		"Mon 12-07 09:00 CST @U_CLERK 2026-001|complainant_confirmation|before-2:2026-12-09@@U_CLERK",
		"Mon 12-07 09:00 CST #C_DOCKET 2026-001|complainant_confirmation|before-2:2026-12-09@#C_DOCKET",
		"Tue 12-08 08:00 CST @U_CLERK |digest|daily:2026-12-08@@U_CLERK",
		"Wed 12-09 08:00 CST @U_CLERK |digest|daily:2026-12-09@@U_CLERK",
		"Wed 12-09 09:00 CST @U_COMM1 2026-001|meeting:sufficiency|day-before:1796943600@@U_COMM1",
		"Wed 12-09 09:00 CST @U_COMM2 2026-001|meeting:sufficiency|day-before:1796943600@@U_COMM2",
		"Thu 12-10 08:00 CST @U_CLERK |digest|daily:2026-12-10@@U_CLERK",
		"Thu 12-10 15:00 CST @U_COMM1 2026-001|meeting:sufficiency|lead:1796943600@@U_COMM1",
		"Thu 12-10 15:00 CST @U_COMM2 2026-001|meeting:sufficiency|lead:1796943600@@U_COMM2",
		// (C)(1), (C)(2): the dismissal's notice to each party is due with the ruling's
		// 7 business days; the case stays in the sweep until both are sent.
		"Fri 12-11 08:00 CST @U_CLERK |digest|daily:2026-12-11@@U_CLERK",
		"Fri 12-11 09:00 CST @U_CLERK 2026-001|ruling_notice_respondent|before-2:2026-12-15@@U_CLERK",
		"Fri 12-11 09:00 CST #C_DOCKET 2026-001|ruling_notice_respondent|before-2:2026-12-15@#C_DOCKET",
		"Fri 12-11 09:00 CST @U_CLERK 2026-001|ruling_notice_complainant|before-2:2026-12-15@@U_CLERK",
		"Fri 12-11 09:00 CST #C_DOCKET 2026-001|ruling_notice_complainant|before-2:2026-12-15@#C_DOCKET",
	})
	if len(w.rec.said) == 18 {
		if got, want := w.rec.said[14].Text,
			"2026-001: notice of the ruling to the respondent due Tue 15 Dec (2 business days), rule (C)(1). Record it with "+
				"`/ethics mail 2026-001 dismissal_respondent &lt;article no.&gt;`."; got != want {
			t.Errorf("message:\n%s\nwant:\n%s", got, want)
		}
	}
	want := "2026-001: respondent notice by certified mail due Wed 9 Dec (2 business days), rule (B). Record it with " +
		"`/ethics mail 2026-001 respondent &lt;article no.&gt;`."
	if len(w.rec.said) < 9 {
		return
	}
	if got := w.rec.said[2].Text; got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
	if got := w.rec.said[8].Text; got != "2026-001: the sufficiency meeting is Thu 10 Dec at 17:00 CST at City Hall, "+
		"open to the public." {
		t.Errorf("meeting reminder %q", got)
	}
}

// TestClerksAndReload: every clerk gets the clerk's reminders and the digest; a planner put
// in force with SetPlanner (a reload) applies from the next sweep, to a clerk added by it
// and with the new time of day, and says nothing twice to those already told.
func TestClerksAndReload(t *testing.T) {
	w := newWorld(t)
	w.file(at(t, "2026-12-04 10:00"))
	w.run(at(t, "2026-12-07 08:00"), at(t, "2026-12-07 08:15"), 15*time.Minute, nil)
	later := everywhere()
	later.At = 10 * time.Hour
	two := people
	two.Clerks = []string{"U_CLERK", "U_CLERK2"}
	w.sweep.SetPlanner(&reminders.Planner{Engine: w.e, Policy: later, People: two})
	w.run(at(t, "2026-12-07 08:30"), at(t, "2026-12-07 10:00"), 30*time.Minute, nil)
	diff(t, w.list(), []string{
		"Mon 12-07 08:00 CST @U_CLERK |digest|daily:2026-12-07@@U_CLERK",
		"Mon 12-07 08:30 CST @U_CLERK2 |digest|daily:2026-12-07@@U_CLERK2",
		"Mon 12-07 10:00 CST @U_CLERK 2026-001|respondent_notice|before-2:2026-12-09@@U_CLERK",
		"Mon 12-07 10:00 CST @U_CLERK2 2026-001|respondent_notice|before-2:2026-12-09@@U_CLERK2",
		"Mon 12-07 10:00 CST #C_DOCKET 2026-001|respondent_notice|before-2:2026-12-09@#C_DOCKET",
		"Mon 12-07 10:00 CST @U_CLERK 2026-001|complainant_confirmation|before-2:2026-12-09@@U_CLERK",
		"Mon 12-07 10:00 CST @U_CLERK2 2026-001|complainant_confirmation|before-2:2026-12-09@@U_CLERK2",
		"Mon 12-07 10:00 CST #C_DOCKET 2026-001|complainant_confirmation|before-2:2026-12-09@#C_DOCKET",
	})
	if len(w.rec.said) > 1 && w.rec.said[1].Text != w.rec.said[0].Text {
		t.Errorf("the second clerk's digest differs:\n%s\n%s", w.rec.said[1].Text, w.rec.said[0].Text)
	}
}

// TestRestartCausesNoDuplicates: a new process in the middle says nothing twice.
func TestRestartCausesNoDuplicates(t *testing.T) {
	w := newWorld(t)
	n := w.file(at(t, "2026-12-04 10:00"))
	w.run(at(t, "2026-12-07 08:30"), at(t, "2026-12-07 12:00"), 15*time.Minute, nil)
	first := len(w.rec.said)
	w.db.Close()
	w.open()
	w.restart()
	w.run(at(t, "2026-12-07 12:00"), at(t, "2026-12-08 10:00"), 15*time.Minute, nil)
	seen := map[string]bool{}
	for _, s := range w.rec.said {
		if seen[s.Key] {
			t.Errorf("said twice: %s", s)
		}
		seen[s.Key] = true
	}
	if first == 0 || len(w.rec.said) <= first || !seen[n+"|respondent_notice|before-1:2026-12-09@@U_CLERK"] {
		t.Errorf("reminders %v", w.list())
	}
}

// TestCrashBetweenSendAndMark: a message that went out before a crash is found, not resent.
func TestCrashBetweenSendAndMark(t *testing.T) {
	w := newWorld(t)
	n := w.file(at(t, "2026-12-04 10:00"))
	key := n + "|respondent_notice|before-2:2026-12-09@@U_CLERK"
	// The crashed process put it in the outbox, claimed it, and Slack took it, but it was
	// never marked sent.
	k := outbox.Key{Case: n, Series: "respondent_notice", Step: "before-2:2026-12-09", To: outbox.Dest{User: "U_CLERK"}}
	if err := w.db.Enqueue(ctx,
		[]outbox.Post{{Key: k, Text: "sent before the crash", Due: at(t, "2026-12-07 09:00")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.db.Claim(ctx, k, at(t, "2026-12-07 09:00")); err != nil {
		t.Fatal(err)
	}
	w.rec.said = append(w.rec.said, said{at(t, "2026-12-07 09:00"), "@U_CLERK", key, "sent before the crash"})
	w.run(at(t, "2026-12-07 09:15"), at(t, "2026-12-07 09:15"), time.Minute, nil)
	count := 0
	for _, s := range w.rec.said {
		if s.Key == key {
			count++
		}
	}
	if count != 1 {
		t.Errorf("said %d times: %v", count, w.list())
	}
}

// TestOutageCatchUp: three days down across two due dates give, to each destination, one
// catch-up message that lists what fell due meanwhile, each deadline at its
// latest step, and says ethicsbot was down; each reminder folded into it is recorded as
// said, and is never said on its own.
func TestOutageCatchUp(t *testing.T) {
	w := newWorld(t)
	n := w.file(at(t, "2026-12-04 10:00"))
	w.apply(n, at(t, "2026-12-04 10:00"),
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-14 17:00"), Place: "City Hall"})
	w.apply(n, at(t, "2026-12-04 10:00"), docket.PostNotice{Meeting: docket.SufficiencyMeeting})
	w.run(at(t, "2026-12-04 10:15"), at(t, "2026-12-04 10:15"), time.Minute, nil)
	w.rec.said = nil
	// Down from Friday 10:15 to Thursday 10:00: the (B) notices fell due Wednesday.
	w.run(at(t, "2026-12-10 10:00"), at(t, "2026-12-10 10:00"), time.Minute, nil)
	diff(t, w.list(), []string{
		"Thu 12-10 10:00 CST #C_DOCKET |catch-up|2026-12-04T16:15:00Z@#C_DOCKET",
		"Thu 12-10 10:00 CST @U_CLERK |catch-up|2026-12-04T16:15:00Z@@U_CLERK",
	})
	if len(w.rec.said) != 2 {
		t.Fatalf("said %v", w.list())
	}
	clerk := w.rec.said[1].Text
	for _, want := range []string{
		"*Catch-up:* ethicsbot was not running from Fri 4 Dec 10:15 CST to Thu 10 Dec 10:00 CST. 3 reminders fell " +
			"due meanwhile",
		// In the order they fell due: the digest at 08:00, the deadlines at 09:00.
		"\n• (due Thu 10 Dec 08:00) Docket for Thu 2026-12-10",
		"\n• (due Thu 10 Dec 09:00) 2026-001: respondent notice by certified mail due Wed 9 Dec (1 day overdue), rule (B).",
		"\n• (due Thu 10 Dec 09:00) 2026-001: complainant confirmation by certified mail due Wed 9 Dec (1 day overdue)",
	} {
		if !strings.Contains(clerk, want) {
			t.Errorf("the clerk's catch-up lacks %q:\n%s", want, clerk)
		}
	}
	if ch := w.rec.said[0].Text; !strings.Contains(ch, "2 reminders fell due meanwhile") ||
		strings.Contains(ch, "Docket for") {
		t.Errorf("the channel's catch-up: %s", ch)
	}
	// The folded reminders are on record as said: nothing of them is said again.
	w.run(at(t, "2026-12-10 10:01"), at(t, "2026-12-10 10:30"), time.Minute, nil)
	if len(w.rec.said) != 2 {
		t.Errorf("after the catch-up, said again: %v", w.list())
	}
	if pending, _, _ := w.db.Undelivered(ctx, at(t, "2026-12-10 10:30")); pending != 0 {
		t.Errorf("%d reminders still undelivered", pending)
	}
}

// TestSlackOutage: Slack answers 429 and 500 for ten simulated minutes around a due
// time, then recovers; each reminder is delivered exactly once.
func TestSlackOutage(t *testing.T) {
	w := newWorld(t)
	w.file(at(t, "2026-12-04 10:00"))
	w.rec.fail = func(now time.Time) error {
		if now.Before(at(t, "2026-12-07 09:10")) && !now.Before(at(t, "2026-12-07 08:55")) {
			if now.Minute()%2 == 0 {
				return errors.New("slack rate limit exceeded, retry after 2s")
			}
			return errors.New("slack server error: 500 Internal Server Error")
		}
		return nil
	}
	w.run(at(t, "2026-12-07 08:55"), at(t, "2026-12-07 09:30"), time.Minute, nil)
	for _, s := range w.rec.said {
		if s.When.Before(at(t, "2026-12-07 09:10")) {
			t.Errorf("delivered during the outage: %s", s)
		}
	}
	seen := w.timesSaid()
	for k, n := range seen {
		if n != 1 {
			t.Errorf("%s delivered %d times", k, n)
		}
	}
	if len(seen) != 5 || w.rec.calls <= 5 {
		t.Errorf("delivered %v after %d attempts", w.list(), w.rec.calls)
	}
}

// TestDelayedDeliveryIsReported: a reminder that could not be delivered for over an hour
// is reported in the docket channel once it is; after SetReport (a reload that moved the
// docket channel), in the new one.
func TestDelayedDeliveryIsReported(t *testing.T) {
	for _, tc := range []struct{ name, set, want string }{
		{"Report", "", "#C_DOCKET"},
		{"SetReport", "C_DOCKET2", "#C_DOCKET2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			if tc.set != "" {
				w.deliver.SetReport(outbox.Dest{Channel: tc.set})
			}
			w.file(at(t, "2026-12-04 10:00"))
			w.rec.fail = func(now time.Time) error {
				if now.Before(at(t, "2026-12-07 10:30")) {
					return errors.New("slack server error: 503")
				}
				return nil
			}
			w.run(at(t, "2026-12-07 09:00"), at(t, "2026-12-07 10:30"), 5*time.Minute, nil)
			reports := 0
			for _, s := range w.rec.said {
				if strings.HasPrefix(s.Text, "Delivery delayed") {
					reports++
					if s.To != tc.want {
						t.Errorf("report to %s, want %s", s.To, tc.want)
					}
				}
			}
			if reports != 5 {
				t.Errorf("%d delay reports, want one per delayed reminder (the digest and 4 others): %v", reports, w.list())
			}
		})
	}
}

// TestDaylightSaving: reminders at 09:00 local fire once each across spring-forward and
// fall-back days.
func TestDaylightSaving(t *testing.T) {
	for _, tc := range []struct {
		name, received, from, to string
		days                     []string
	}{
		{"SpringForward", "2027-03-09 10:00", "2027-03-12 00:00", "2027-03-16 12:00",
			[]string{"2027-03-13", "2027-03-14", "2027-03-15", "2027-03-16"}},
		{"FallBack", "2026-10-27 10:00", "2026-10-30 00:00", "2026-11-03 12:00",
			[]string{"2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			n := w.file(at(t, tc.received))
			w.run(at(t, tc.from), at(t, tc.to), 10*time.Minute, nil)
			var got []string
			for _, s := range w.rec.said {
				if s.To == "@U_CLERK" && strings.HasPrefix(s.Key, n+"|respondent_notice|overdue:") {
					got = append(got, s.When.In(chicago(t)).Format("2006-01-02 15:04"))
				}
			}
			var want []string
			for _, d := range tc.days {
				want = append(want, d+" 09:00")
			}
			sort.Strings(got)
			diff(t, got, want)
		})
	}
}

// TestExpedited: an expedited case is marked in every message, with a daily reminder.
func TestExpedited(t *testing.T) {
	w := newWorld(t)
	n := w.file(at(t, "2026-12-04 10:00"), docket.NewDate(2027, time.January, 20))
	w.run(at(t, "2026-12-04 10:15"), at(t, "2026-12-08 10:00"), 30*time.Minute, nil)
	days := map[string]bool{}
	for _, s := range w.rec.said {
		if s.Key[0:4] == "2026" && !strings.Contains(s.Text, n+" EXPEDITED (G): ") {
			t.Errorf("not marked EXPEDITED: %s", s.Text)
		}
		if strings.Contains(s.Key, "|expedited|") && s.To == "@U_CLERK" {
			days[s.When.Format("01-02")] = true
		}
	}
	if len(days) != 5 {
		t.Errorf("daily expedited reminders on %v, want every day from Fri 4 to Tue 8 Dec", days)
	}
}

// TestStartSweepsAtOnceAndStops: the cron-driven sweep runs at start, without waiting for
// its schedule, puts what is due in the outbox and wakes the deliverer; stop returns.
func TestStartSweepsAtOnceAndStops(t *testing.T) {
	w := newWorld(t)
	w.file(at(t, "2026-12-04 10:00"))
	woken := make(chan struct{}, 10)
	w.sweep.Notify = func() { woken <- struct{}{} }
	stop, err := w.sweep.Start("@every 1h", func() time.Time { return at(t, "2026-12-07 09:30") })
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-woken:
	case <-time.After(10 * time.Second):
		t.Fatal("the first sweep did not run at start")
	}
	stop()
	if all, err := w.db.Outbox(ctx); err != nil || len(all) != 5 {
		t.Errorf("the first sweep put %d reminders in the outbox (%v), want 5", len(all), err)
	}
	if _, err := w.sweep.Start("every minute", time.Now); err == nil {
		t.Error("a bad schedule was accepted")
	}
}

// TestPostsSurviveAnOutage: a public notice posted while Slack fails is kept, and the
// sweeps after Slack recovers deliver it once.
func TestPostsSurviveAnOutage(t *testing.T) {
	w := newWorld(t)
	w.now = at(t, "2026-12-07 10:00")
	w.rec.fail = func(now time.Time) error {
		if now.Before(at(t, "2026-12-07 10:20")) {
			return errors.New("slack server error: 500")
		}
		return nil
	}
	notice := outbox.Post{Key: outbox.EventKey("2026-001", 7, 2, outbox.Dest{Channel: "C_NOTICES"}),
		Text: "PUBLIC NOTICE. Ethics Commission, case 2026-001: ...", Due: w.now}
	if err := w.db.Enqueue(ctx, []outbox.Post{notice}); err != nil {
		t.Fatal(err)
	}
	if st, err := w.deliver.Drain(ctx, w.now); err != nil || st.Failed != 1 {
		t.Fatalf("the first attempt should have failed: %+v %v", st, err)
	}
	w.run(at(t, "2026-12-07 10:01"), at(t, "2026-12-07 10:40"), time.Minute, nil)
	count := 0
	for _, s := range w.rec.said {
		if strings.HasPrefix(s.Text, "PUBLIC NOTICE") {
			count++
			if s.When.Before(at(t, "2026-12-07 10:20")) || s.To != "#C_NOTICES" {
				t.Errorf("delivered %s", s)
			}
		}
	}
	if count != 1 {
		t.Errorf("notice delivered %d times: %v", count, w.list())
	}
}

// TestLostAnswerIsNotResent: Slack takes a reminder at 09:00 but the answer is lost, and
// the history cannot be read for ten minutes; the look-back starts at the first claim, so
// the reminder is found, not sent again. Without the look-back, it is said twice.
func TestLostAnswerIsNotResent(t *testing.T) {
	lostAnswer := func(t *testing.T, blind bool) map[string]int {
		w := newWorld(t)
		w.file(at(t, "2026-12-04 10:00"))
		w.rec.blind = blind
		w.rec.lost = func(now time.Time) bool { return now.Equal(at(t, "2026-12-07 09:00")) }
		w.rec.findFail = func(now time.Time) error {
			if now.Before(at(t, "2026-12-07 09:11")) {
				return errors.New("slack server error: 500")
			}
			return nil
		}
		w.run(at(t, "2026-12-07 09:00"), at(t, "2026-12-07 09:30"), time.Minute, nil)
		return w.timesSaid()
	}
	for k, n := range lostAnswer(t, false) {
		if n != 1 {
			t.Errorf("%s said %d times", k, n)
		}
	}
	t.Run("LookBackDisabled", func(t *testing.T) {
		twice := 0
		for _, n := range lostAnswer(t, true) {
			if n > 1 {
				twice++
			}
		}
		if twice == 0 {
			t.Error("without the look-back, no reminder was said twice: the test cannot tell that the look-back prevents it")
		}
	})
}

// TestRecusedCommissionerHearsNothing: a commissioner who is a party to a case, or who
// recused, gets none of its meeting reminders and is not mentioned in its overdue ones.
func TestRecusedCommissionerHearsNothing(t *testing.T) {
	w := newWorld(t)
	res, err := w.db.File(ctx, docket.Act{By: "U_CLERK", At: at(t, "2026-12-04 10:00")},
		docket.File{Complainant: docket.Person{Name: "John Doe"},
			Respondent: docket.Person{Name: "Jane Roe", SlackID: "U_COMM2"},
			Sections:   []string{"103.10"}, Received: at(t, "2026-12-04 10:00"), Summary: "x"})
	if err != nil {
		t.Fatal(err)
	}
	n := res.Case.Number
	w.apply(n, at(t, "2026-12-04 10:00"),
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-10 17:00"), Place: "City Hall"})
	w.run(at(t, "2026-12-09 09:00"), at(t, "2026-12-09 09:00"), time.Minute, nil)
	var to []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "|meeting:sufficiency|") {
			to = append(to, s.To)
		}
	}
	if strings.Join(to, " ") != "@U_COMM1" {
		t.Errorf("meeting reminders went to %v, want only @U_COMM1: U_COMM2 is the respondent", to)
	}
	// Overdue by two business days: the commissioners are mentioned, but not U_COMM2.
	c, _ := w.db.Case(ctx, n)
	planner := &reminders.Planner{Engine: w.e, Policy: everywhere(), People: people}
	mentioned := 0
	for _, r := range planner.Plan(&c, at(t, "2026-12-11 09:30")) {
		if text := string(r.Text()); strings.Contains(text, "Commissioners:") {
			mentioned++
			if strings.Contains(text, "U_COMM2") || !strings.Contains(text, "<@U_COMM1>") {
				t.Errorf("overdue reminder mentions the wrong commissioners: %s", text)
			}
		}
	}
	if mentioned == 0 {
		t.Error("no overdue reminder mentions the commissioners")
	}
}

// TestPaperWithoutTimeLimit: the (C)(2) request to the attorney has no deadline; the clerk
// is told once, on the day it becomes required, and the digest lists it every business day
// until it is recorded. The referred case stays in the sweep until then.
func TestPaperWithoutTimeLimit(t *testing.T) {
	w := newWorld(t)
	var n string
	w.run(at(t, "2026-12-04 10:00"), at(t, "2026-12-16 12:00"), 15*time.Minute, map[time.Time]func(){
		at(t, "2026-12-04 10:00"): func() {
			n = w.noticed(at(t, "2026-12-04 10:00"), at(t, "2026-12-10 17:00"))
		},
		at(t, "2026-12-10 17:30"): func() {
			w.apply(n, at(t, "2026-12-10 17:30"), docket.Rule{Ruling: docket.JudicialReferral})
			w.apply(n, at(t, "2026-12-10 17:35"), docket.RecordDelivery{Paper: docket.RulingToRespondent})
			w.apply(n, at(t, "2026-12-10 17:40"), docket.RecordDelivery{Paper: docket.RulingToComplainant})
		},
		at(t, "2026-12-15 10:00"): func() {
			w.apply(n, at(t, "2026-12-15 10:00"), docket.RecordDelivery{Paper: docket.AdjudicationRequest})
		},
	})
	var task, digests []string
	for _, s := range w.rec.said {
		switch {
		case strings.Contains(s.Key, "|adjudication_request|"):
			task = append(task, s.String()+" "+s.Text)
		case strings.Contains(s.Text, "written request to the attorney"):
			digests = append(digests, s.When.Format("01-02"))
		}
	}
	want := "2026-001: written request to the attorney for judicial adjudication not yet recorded as sent (no time " +
		"limit), rule (C)(2). Record it with `/ethics delivered 2026-001 adjudication_request`."
	if len(task) != 2 || !strings.Contains(task[0], "required:2026-12-10") || !strings.HasSuffix(task[0], want) {
		t.Errorf("task reminders:\n%s\nwant one to the clerk and one to the docket channel, saying %q",
			strings.Join(task, "\n"), want)
	}
	if got := strings.Join(digests, ","); got != "12-11,12-14,12-15" {
		t.Errorf("digests listing the task on %s, want 12-11,12-14,12-15 (every business day until recorded)", got)
	}
}

// TestAnchorPostedDaily: once a day, at the digest's time and weekends too, the record's
// anchor goes to the docket channel, once, however often the sweep runs or restarts.
func TestAnchorPostedDaily(t *testing.T) {
	w := newWorld(t)
	anchor := func() {
		w.sweep.Anchor = func(ctx context.Context) (string, string, string, error) {
			a, err := w.db.Head(ctx)
			return a.String(), "", "", err
		}
	}
	anchor()
	w.file(at(t, "2026-12-04 10:00")) // a Friday
	w.run(at(t, "2026-12-04 10:15"), at(t, "2026-12-05 07:45"), 15*time.Minute, nil)
	w.db.Close()
	w.open()
	w.restart()
	anchor()
	w.run(at(t, "2026-12-05 08:00"), at(t, "2026-12-06 12:00"), 15*time.Minute, nil)
	var posts []said
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "|anchor|") {
			posts = append(posts, s)
		}
	}
	head, err := w.db.Head(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Friday's at the first sweep after 8:00 (the filing came at 10:00), then each day at 8:00.
	if len(posts) != 3 || posts[0].To != "#C_DOCKET" || !posts[0].When.Equal(at(t, "2026-12-04 10:15")) ||
		!posts[1].When.Equal(at(t, "2026-12-05 08:00")) || !posts[2].When.Equal(at(t, "2026-12-06 08:00")) {
		t.Fatalf("anchor posts %v", posts)
	}
	if want := "ethicsbot verify --anchor " + head.String(); !strings.Contains(posts[2].Text, want) {
		t.Errorf("the anchor post %q lacks %q", posts[2].Text, want)
	}
}

// TestAnchorAlarm: once the record no longer holds the anchor posted before, the day's post
// is an alarm that names that anchor and what differs, every day until it is put right.
func TestAnchorAlarm(t *testing.T) {
	w := newWorld(t)
	held, problem := "", ""
	w.sweep.Anchor = func(ctx context.Context) (string, string, string, error) {
		a, err := w.db.Head(ctx)
		return a.String(), held, problem, err
	}
	w.file(at(t, "2026-12-04 10:00"))
	w.run(at(t, "2026-12-05 07:45"), at(t, "2026-12-05 08:00"), 15*time.Minute, nil)
	held, problem = "2:"+strings.Repeat("ab", 32), "the record ends at event 1"
	w.run(at(t, "2026-12-06 07:45"), at(t, "2026-12-07 08:00"), 15*time.Minute, nil)
	var texts []string
	for _, s := range w.rec.said {
		if strings.Contains(s.Key, "|anchor|") {
			texts = append(texts, s.Text)
		}
	}
	if len(texts) != 3 || strings.Contains(texts[0], "no longer holds") {
		t.Fatalf("anchor posts %q", texts)
	}
	for _, text := range texts[1:] {
		if !strings.Contains(text, "no longer holds the anchor posted before") ||
			!strings.Contains(text, "`anchor "+held+"`") ||
			!strings.Contains(text, problem) || strings.Count(text, "anchor ") != 3 {
			t.Errorf("the alarm %q", text)
		}
	}
}

// TestAcrossTheNewYear: a deadline in the next year is said with its year, so that the
// clerk does not read "Tue 5 Jan" in December as a date of this year.
func TestAcrossTheNewYear(t *testing.T) {
	w := newWorld(t)
	w.run(at(t, "2026-12-30 10:00"), at(t, "2027-01-05 12:00"), time.Hour, map[time.Time]func(){
		at(t, "2026-12-30 10:00"): func() { w.file(at(t, "2026-12-30 10:00")) },
	})
	var found bool
	for _, m := range w.rec.said {
		if strings.Contains(m.Text, "respondent notice by certified mail due ") && m.When.Year() == 2026 {
			found = true
			if !strings.Contains(m.Text, "due Tue 5 Jan 2027 (") {
				t.Errorf("a reminder in one year of a deadline in the next omits the year: %s", m.Text)
			}
		}
	}
	if !found {
		t.Fatalf("no reminder in 2026 of the respondent's notice: %+v", w.rec.said)
	}
}
