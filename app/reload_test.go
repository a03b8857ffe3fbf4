package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/commands"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
	"ethicsbot/store"
)

// TestReload rewrites the configuration file of a running service and reloads it as SIGHUP
// does: people and channels change at once, a refused file keeps the configuration in
// force, and settings that need a restart are reported and left as they were.
func TestReload(t *testing.T) {
	const (
		one = "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"
		two = "commissioners: [U0COMM1, U0COMM2]\nclerk: [U0CLERK1, U0CLERK2]\nchannels: {docket: C0DOCKET2, notices: " +
			"C0NOTICE1}\n"
	)
	rt := newReloadTest(t, one)
	path, cfg, engine, db, svc, r, log, sweeper := rt.path, rt.cfg, rt.engine, rt.db, rt.svc, rt.r, rt.log, rt.r.sweeper
	write := func(body string) { rt.write(t, body) }
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, engine.Cal.Location())
	svc.Now = func() time.Time { return now }
	ctx := context.Background()
	seq := 0
	ask := func(user, text string) commands.Response {
		seq++
		return svc.Handle(ctx, commands.Request{User: user, Text: text, RequestID: fmt.Sprint("reload-", seq)})
	}
	allowed := func(user string) bool {
		resp := ask(user, "docket")
		return len(resp.Messages) > 0 && !strings.HasPrefix(string(resp.Messages[0].Text), "Sorry")
	}
	logged := func(want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(log.String(), w) {
				t.Errorf("the log lacks %s:\n%s", w, log.String())
			}
		}
	}

	t.Run("AddsPeopleAndMovesTheDocket", func(t *testing.T) {
		if allowed("U0COMM2") {
			t.Fatal("U0COMM2 is allowed before being configured")
		}
		write(two)
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		if !allowed("U0COMM2") || !allowed("U0CLERK2") || !allowed("U0COMM1") {
			t.Error("after the reload, a commissioner or a clerk is refused")
		}
		resp := ask("U0CLERK2", `file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"`)
		if len(resp.Posts) == 0 || resp.Posts[0].Key.To.Channel != "C0DOCKET2" {
			t.Errorf("the filing's docket line went to %+v, want C0DOCKET2", resp.Posts)
		}
		logged(`msg="configuration reloaded"`, "config="+path, `changed="channels.docket, roles"`, "commissioners=2 clerks=2",
			`added="commissioner U0COMM2, clerk U0CLERK2"`)
		// The next sweep plans with the new people: Monday's digest goes to both clerks.
		if _, err := sweeper.Sweep(ctx, time.Date(2026, 12, 7, 8, 30, 0, 0, engine.Cal.Location())); err != nil {
			t.Fatal(err)
		}
		rows, err := db.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var digests []string
		for _, row := range rows {
			if row.Key.Series == "digest" {
				digests = append(digests, row.Key.To.User)
			}
		}
		if got := strings.Join(digests, " "); got != "U0CLERK1 U0CLERK2" {
			t.Errorf("digests to %q, want both clerks", got)
		}
	})

	t.Run("RefusesABadFile", func(t *testing.T) {
		for _, tc := range []struct{ name, body, want string }{
			{"NotYAML", "commissioners: [U0COMM1\n", "line"},
			{"TwoRoles", two + "attorney: U0CLERK2\n",
				"line 5: U0CLERK2 is the attorney here and a clerk on line 3; give each person one role"},
			{"NoClerk", "commissioners: [U0COMM1]\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n",
				"connecting to Slack needs clerk"},
			{"ChannelName", "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: \"#docket\", notices: C0NOTICE1}\n",
				"Slack needs the channel's id"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := svc.Settings()
				write(tc.body)
				err := r.Reload()
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Reload = %v, want an error with %q", err, tc.want)
				}
				logged(`level=ERROR msg="configuration not reloaded`, path, tc.want)
				if svc.Settings() != before || !allowed("U0COMM2") {
					t.Error("a refused file changed the configuration in force")
				}
			})
		}
	})

	t.Run("SettingsThatNeedARestart", func(t *testing.T) {
		os.WriteFile(path, []byte("database: "+filepath.Join(filepath.Dir(path), "other.db")+"\ntimezone: America/New_York\n"+
			"reminders: {sweep: \"@every 5m\", at: \"10:00\"}\nordinance: {fines: {min: 1, max: 2}}\n"+two), 0o600)
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		logged(`settings="database, timezone, ordinance, reminders.sweep"`, "needs a restart to take effect")
		if r.cfg.Database != cfg.Database || r.cfg.Calendar.Zone != "" || r.cfg.Sweep != cfg.Sweep ||
			r.cfg.Ordinance.FineMin != 1001 {
			t.Errorf("a setting that needs a restart changed: %+v", r.cfg)
		}
		if r.cfg.Reminders.At != 10*time.Hour {
			t.Errorf("reminders.at is %v, want 10:00 at once", r.cfg.Reminders.At)
		}
		// A correction's reply tells of the reminders by the policy in force.
		if p, ok := svc.Settings().Reminders.(*reminders.Planner); !ok || p.Policy.At != 10*time.Hour {
			t.Errorf("the commands' reminder planner is %+v, want the reloaded policy", svc.Settings().Reminders)
		}
	})

	t.Run("PublicURLAtOnce", func(t *testing.T) {
		write("public_url: https://ethics.example.gov\n" + two)
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		if got := svc.Settings().PublicURL; got != "https://ethics.example.gov" {
			t.Errorf("public_url after the reload: %q", got)
		}
		lines := strings.Split(strings.TrimSpace(log.String()), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, `msg="configuration reloaded"`) ||
			!strings.Contains(last, "public_url") {
			t.Errorf("the reload's log line does not name public_url: %s", last)
		}
	})

	t.Run("RemovesPeople", func(t *testing.T) {
		write(one)
		if err := r.Reload(); err != nil {
			t.Fatal(err)
		}
		if allowed("U0COMM2") || allowed("U0CLERK2") {
			t.Error("a commissioner or clerk removed from the file is still allowed")
		}
		logged(`removed="commissioner U0COMM2, clerk U0CLERK2"`)
	})

	// Requests go on while the file is reloaded over and over; `go test -race` checks that
	// they never read the settings half-written.
	t.Run("WhileRequestsRun", func(t *testing.T) {
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; ; j++ {
					select {
					case <-stop:
						return
					default:
					}
					svc.Handle(ctx, commands.Request{User: "U0COMM1", Text: "docket", RequestID: fmt.Sprint("race-", i, "-", j)})
				}
			}()
		}
		for i := range 20 {
			write([]string{one, two}[i%2])
			if err := r.Reload(); err != nil {
				t.Error(err)
			}
		}
		close(stop)
		wg.Wait()
		if !allowed("U0COMM2") {
			t.Error("after the last reload, U0COMM2 is refused")
		}
	})
}

// TestSettingsCarryTheOfficers: the officers letters.officers lists reach the commands,
// which refuse a case's officer they do not name.
func TestSettingsCarryTheOfficers(t *testing.T) {
	cfg, err := config.Parse([]byte("letters:\n  officer: {name: Pat Quimby, address: City Hall}\n  officers:\n    " +
		"council: {name: City Council, address: City Hall}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(SettingsOf(cfg, nil).Officers, " "); got != "mayor council" {
		t.Errorf("the commands' officers: %q", got)
	}
}

// TestReloadSigners: a reload that makes another commissioner the Chair, or renames the
// clerk, puts the new signers on the letters at once, as on everything else that prints a
// name, logs who changed, and says no restart is needed for it.
func TestReloadSigners(t *testing.T) {
	body := func(chair, clerk string) string {
		return apptest.LettersConfig +
			"commissioners:\n  - {id: U0COMM1, name: Ann Alder, title: " + chair + "}\n  - {id: U0COMM2, name: Bo Birch, " +
			"title: Member}\n" +
			"clerk: {id: U0CLERK1, name: " + clerk + ", title: Clerk}\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"
	}
	rt := newReloadTest(t, body("Chair", "Dana Dale"))
	path, r, log := rt.path, rt.r, rt.log
	write := func(chair, clerk string) { rt.write(t, body(chair, clerk)) }
	maker, err := letters.New(rt.cfg.Letters, rt.engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	rt.svc.Letters = maker

	at := time.Date(2026, 12, 7, 17, 0, 0, 0, time.UTC)
	c := &docket.Case{Number: "2026-001", State: docket.StateHearingSet,
		Complainant: docket.Person{Name: "John Doe", Address: "12 Elm Street\nSpringfield, IL 62702"},
		Respondent:  docket.Person{Name: "Jane Roe", Address: "34 Oak Avenue\nSpringfield, IL 62703"},
		Facts: docket.Facts{Received: at.AddDate(0, 0, -3), Sections: []string{"103.10"},
			Sufficiency: docket.Meeting{Start: at, Place: "City Hall"},
			Hearing:     docket.Meeting{Start: at.AddDate(0, 0, 3), Place: "City Hall"}}}
	c.Ruling, c.RulingDate = docket.ProbableCause, docket.NewDate(2026, 12, 7)
	signed := func(want, not string) {
		t.Helper()
		d, err := maker.Make(c, letters.Kind(docket.RulingToRespondent), docket.NewDate(2026, 12, 7))
		if err != nil {
			t.Fatal(err)
		}
		text := apptest.PDFText(t, writeTemp(t, d.Data))
		if !strings.Contains(text, want) || strings.Contains(text, not) {
			t.Errorf("the ruling is not signed by %s alone:\n%s", want, text)
		}
	}
	signed("AnnAlderChair", "BoBirch")

	write("Member", "Dana Dale")
	os.WriteFile(path,
		[]byte(strings.Replace(mustRead(t, path), "name: Bo Birch, title: Member", "name: Bo Birch, title: Chair", 1)), 0o600)
	if err := r.Reload(); err != nil {
		t.Fatal(err)
	}
	signed("BoBirchChair", "AnnAlder")
	for _, w := range []string{`changed="roles, letters' signers"`,
		`U0COMM1: \"Ann Alder, Chair\" -> \"Ann Alder, Member\"`, "chair: Ann Alder, Chair -> Bo Birch, Chair"} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("the log lacks %s:\n%s", w, log.String())
		}
	}
	if strings.Contains(log.String(), "needs a restart") {
		t.Errorf("a change of signers is logged as needing a restart:\n%s", log.String())
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "letter.pdf")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reloadTest is a service running on a configuration file, with the reloader that SIGHUP
// drives: what the tests of a reload share.
type reloadTest struct {
	path, database string
	cfg            config.Config // as read at start
	engine         *docket.Engine
	db             *store.Store
	svc            *commands.Service
	r              *reloader
	log            *apptest.LockedBuffer
}

// newReloadTest writes body as the configuration (after its database line) and starts
// the service on it, its clock the real one until the test sets svc.Now.
func newReloadTest(t *testing.T, body string) *reloadTest {
	t.Helper()
	dir := t.TempDir()
	rt := &reloadTest{path: filepath.Join(dir, "ethicsbot.yml"), database: filepath.Join(dir, "ethicsbot.db"),
		log: &apptest.LockedBuffer{}}
	rt.write(t, body)
	getenv := func(string) string { return "" }
	cfg, err := config.Read(rt.path, getenv)
	if err != nil {
		t.Fatal(err)
	}
	rt.cfg = cfg
	rt.engine, rt.db = apptest.MustOpenRecord(t, cfg)
	t.Cleanup(func() { rt.db.Close() })
	rt.svc = &commands.Service{Record: rt.db, Engine: rt.engine, Now: time.Now}
	rt.db.SayWith(rt.svc)
	planner := plannerOf(rt.engine, cfg)
	rt.svc.Configure(SettingsOf(cfg, planner))
	logger := slog.New(slog.NewTextHandler(rt.log, nil))
	rt.r = &reloader{cfg: cfg, getenv: getenv, svc: rt.svc,
		sweeper:   &reminders.Sweeper{Planner: planner, Cases: rt.db, Outbox: rt.db, Log: logger},
		deliverer: &outbox.Deliverer{Store: rt.db, Log: logger, Report: outbox.Dest{Channel: cfg.Channels.Docket}},
		log:       logger}
	return rt
}

// write replaces the configuration with body, keeping its database line.
func (rt *reloadTest) write(t *testing.T, body string) {
	t.Helper()
	if err := os.WriteFile(rt.path, []byte("database: "+rt.database+"\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
}
