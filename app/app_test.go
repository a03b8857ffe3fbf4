package app

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/outbox"
	"ethicsbot/reminders"
)

// run runs ethicsbot, the bot itself, with stdin and environment, and returns its exit
// status, stdout and stderr.
func run(t *testing.T, env map[string]string, stdin string) (int, string, string) {
	t.Helper()
	return runAt(t, time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC), env, stdin)
}

// runAt is run on a machine whose clock reads now.
func runAt(t *testing.T, now time.Time, env map[string]string, stdin string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	code := (&App{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Getenv: getenv,
		Now: func() time.Time { return now }}).Run()
	return code, stdout.String(), stderr.String()
}

// TestGoRunStartsConsole is `go run .` on a fresh machine: no Slack settings and no
// configuration file, so a demo console on its own database.
func TestGoRunStartsConsole(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := run(t, map[string]string{}, "/ethics help\n:quit\n")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"this is a demo", "U_COMM1", "ethicsbot-demo.db", "You are U_CLERK",
		"[ephemeral] */ethics* runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat("ethicsbot-demo.db"); err != nil {
		t.Errorf("no demo database: %v", err)
	}
	if _, err := os.Stat("ethicsbot.db"); err == nil {
		t.Error("the demo wrote to ethicsbot.db, the production default")
	}
}

// TestDemoClockStartsAtTheLastEvent: the demo's record persists between runs, so a console
// started again at a real time before the record's last event starts its clock at that
// event instead, says so, and records the next event after it, not before.
func TestDemoClockStartsAtTheLastEvent(t *testing.T) {
	t.Chdir(t.TempDir())
	file := `/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="x"` + "\n"
	code, out, errOut := run(t, map[string]string{}, ":clock +3d\n"+file+":quit\n")
	if code != 0 || !strings.Contains(out, "Filed as case *2026-001*") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "clock starts at") {
		t.Errorf("a new record's clock starts at the real time:\n%s", out)
	}
	// Started again at the same real time, three days before the case was filed.
	code, out, errOut = run(t, map[string]string{}, ":clock\n"+file+":quit\n")
	if code != 0 || !strings.Contains(out, "Filed as case *2026-002*") {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"[console] The demo's clock starts at Sat 2026-12-05 06:00 CST, the record's last event",
		"[console] the time is 2026-12-05T06:00:00-06:00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("console output lacks %q:\n%s", want, out)
		}
	}
}

// TestClerksGuideWalkthrough pastes the clerk's guide's "A case in the console"
// (docs/clerk.md) into `go run .` with nothing else set, as a newcomer would, and checks the
// whole case runs: no step refused, and the public notices, votes included, come out.
func TestClerksGuideWalkthrough(t *testing.T) {
	section := apptest.DocSection(t, "docs/clerk.md", "A case in the console")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(block, "/ethics final") {
		t.Fatalf("the clerk's guide's walk-through is not where this test looks:\n%s", block)
	}
	t.Chdir(t.TempDir())
	// The scan of the signed complaint the guide asks for, as a scanner makes it: a PDF.
	apptest.WriteScan(t, "complaint.pdf", "COMPLAINT OF JOHN DOE, SIGNED")
	code, out, errOut := run(t, map[string]string{}, block)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[ephemeral] Not done") || strings.HasPrefix(line, "[ephemeral] Only ") ||
			strings.HasPrefix(line, "[ephemeral] There is no") ||
			strings.Contains(line, "no copy was kept") {
			t.Errorf("a step of the walk-through was refused: %s", line)
		}
	}
	for _, want := range []string{
		// The complaint as received is in the case file.
		`[ephemeral] Case 2026-001: document added to the case file: "Signed complaint" (complaint,`,
		// One notice for the meeting of two cases and other business.
		"[#ethics-notices] PUBLIC NOTICE. Ethics Commission, regular meeting on Mon 7 Dec 2026 at 17:00 CST at City Hall, " +
			"Room 201. Agenda: Call to order and roll call. 1. Review of the sufficiency of complaint 2026-001",
		"4. Evaluation of the executive director (closed session, 5 ILCS 120/2(c)(1)). Public comment. Adjournment. " +
			"Open to the public, except the " +
			"items marked closed session.",
		"By roll call: adopted 2–1.",
		"By roll call: adopted 2–0, 1 absent.",
		"[ephemeral] Case 2026-001: final",
		// The minutes of the first meeting, noted, approved at a later one and published.
		"the clerk's note added to its draft minutes, on item 4",
		"Meeting *2026-12-07*: roll call on approving its minutes at meeting 2027-01-04, item 1: adopted 2–0, 1 absent.",
		"Meeting *2026-12-07*: its approved open minutes are on the public board",
		// The card: when each public record reached the board, on its first line.
		"decision (E) on Thu 2026-12-10: recommendation and/or fine (E)(2) · on the board since Thu 10 Dec 2026 15:00 CST",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the walk-through's output lacks %q:\n%s", want, out)
		}
	}
	// The hearing path's letters: every one the procedure needed.
	checkLetters(t, out, "respondent", "complainant", "ruling_respondent", "ruling_complainant",
		"recommendation_respondent", "recommendation_officer", "demand_acknowledgement", "public_hearing_respondent",
		"public_hearing_complainant",
		"final_respondent", "final_officer", "notice_sufficiency", "notice_hearing", "notice_public_hearing")
}

// checkLetters checks that the console wrote exactly the letters of kinds for case
// 2026-001 to the demo's letters folder, as PDF files, and printed their paths.
func checkLetters(t *testing.T, out string, kinds ...string) {
	t.Helper()
	entries, err := os.ReadDir("ethicsbot-demo-letters")
	if err != nil {
		t.Fatalf("no letters folder: %v\n%s", err, out)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
		b, err := os.ReadFile(filepath.Join("ethicsbot-demo-letters", e.Name()))
		if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s is not a PDF: %v", e.Name(), err)
		}
		if !strings.Contains(out, e.Name()) {
			t.Errorf("the console did not print the path of %s", e.Name())
		}
	}
	var want []string
	for _, k := range kinds {
		want = append(want, "2026-001-"+k+".pdf")
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("letters written:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestConsoleDismissalLetters runs a case to a dismissal in the demo console: the letters
// are the (B) notices, the (C)(2) notices of dismissal and the meeting's public notice, and
// once both dismissal notices are mailed the case leaves the docket.
func TestConsoleDismissalLetters(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := run(t, map[string]string{}, `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email to campaign." respondent_address="34 Oak Avenue | Springfield, IL 62703" complainant_address="12 Elm Street | Springfield, IL 62702"
/ethics schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall, Room 201"
/ethics posted 2026-001 sufficiency
/ethics mail 2026-001 respondent 9407 1118 9876 5432 1016 34
/ethics mail 2026-001 complainant 9407 1118 9876 5432 1015 35
:clock 2026-12-07T18:00:00-06:00
:as U_COMM1
/ethics rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3
:as U_CLERK
/ethics letters 2026-001
/ethics mail 2026-001 dismissal_respondent 9407 1118 9876 5432 1014 36
/ethics mail 2026-001 dismissal_complainant 9407 1118 9876 5432 1013 37
/ethics docket
`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[ephemeral] Not done") || strings.HasPrefix(line, "[ephemeral] Only ") {
			t.Errorf("a step was refused: %s", line)
		}
	}
	checkLetters(t, out, "respondent", "complainant", "dismissal_respondent", "dismissal_complainant",
		"notice_sufficiency")
	if !strings.Contains(out, "No open cases.") {
		t.Errorf("the dismissed case with its notices sent is still on the docket:\n%s", out)
	}
}

func TestSlackModesNeedConfig(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, env := range []map[string]string{
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"},
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"},
	} {
		code, _, errOut := run(t, env, "")
		if code != ExitConfig || !strings.Contains(errOut, "needs ethicsbot.yml") {
			t.Errorf("%v: exit %d, %q", env, code, errOut)
		}
	}
	env := apptest.WriteConfig(t, "commissioners: [U01]\n")
	env["SLACK_BOT_TOKEN"], env["SLACK_APP_TOKEN"] = "xoxb-1", "xapp-1"
	if code, _, errOut := run(t, env, ""); code != ExitConfig ||
		!strings.Contains(errOut, "needs clerk, channels.docket, channels.notices") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestSlackSettingsIncomplete: one Slack setting without its partner is someone who meant
// to connect to Slack; ethicsbot says what to set instead of opening the console.
func TestSlackSettingsIncomplete(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"BotTokenOnly", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1"},
			[]string{"SLACK_APP_TOKEN (xapp-...) for Socket Mode", "SLACK_SIGNING_SECRET for HTTP mode",
				"unset SLACK_BOT_TOKEN"}},
		{"EmptySigningSecret", map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": ""},
			[]string{"SLACK_SIGNING_SECRET for HTTP mode"}},
		{"AppTokenOnly", map[string]string{"SLACK_APP_TOKEN": "xapp-1"},
			[]string{"SLACK_APP_TOKEN is set, but Socket Mode also needs SLACK_BOT_TOKEN"}},
		{"SigningSecretOnly", map[string]string{"SLACK_SIGNING_SECRET": "s"},
			[]string{"SLACK_SIGNING_SECRET is set, but HTTP mode also needs SLACK_BOT_TOKEN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, out, errOut := run(t, tc.env, "/ethics help\n")
			if code != ExitConfig || out != "" {
				t.Errorf("exit %d, stdout %q: want %d and no console", code, out, ExitConfig)
			}
			for _, want := range tc.want {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q lacks %q", errOut, want)
				}
			}
			if files, _ := filepath.Glob("*.db"); len(files) > 0 {
				t.Errorf("a refused start created %v", files)
			}
		})
	}
}

// TestSlackModesNeedChannelIDs: Slack posts to and reads channels by id, so a #name is
// refused at start with where to find the id; the console keeps accepting names.
func TestSlackModesNeedChannelIDs(t *testing.T) {
	body := "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: \"#ethics-notices\"}\n"
	for _, mode := range []map[string]string{
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"},
		{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s"},
	} {
		env := apptest.WriteConfig(t, body)
		env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
		maps.Copy(env, mode)
		code, _, errOut := run(t, env, "")
		want := `channels.notices is the channel name "#ethics-notices", but Slack needs the channel's id, such as C0123456789: in Slack, open the channel's details; the id is at the bottom`
		if code != ExitConfig || !strings.Contains(errOut, want) || !strings.Contains(errOut, env["ETHICSBOT_CONFIG"]) {
			t.Errorf("%v: exit %d, stderr %q", mode, code, errOut)
		}
	}
	env := apptest.WriteConfig(t, body)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	if code, out, errOut := run(t, env, "/ethics help\n"); code != 0 || !strings.Contains(out, "You are U0CLERK1") {
		t.Errorf("console with a channel name: exit %d\n%s%s", code, out, errOut)
	}
}

// TestStartStopsOnRefusedToken: a bad bot token ends start-up at once, with what to do.
func TestStartStopsOnRefusedToken(t *testing.T) {
	srv, calls := apptest.AuthSlack(t, http.StatusOK, `{"ok":false,"error":"invalid_auth"}`)
	env := apptest.WriteConfig(t, apptest.SlackConfig)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	env["SLACK_BOT_TOKEN"], env["SLACK_SIGNING_SECRET"], env["SLACK_API_URL"] = "xoxb-bad", "s", srv.URL+"/api"
	// Any free port: :3000, the default, may be another program's on a shared machine.
	env["ETHICSBOT_ADDR"], env["ETHICSBOT_ADMIN_ADDR"] = "127.0.0.1:0", "127.0.0.1:0"
	code, _, errOut := run(t, env, "")
	want := "Slack refused the bot token (invalid_auth): the token is not valid. To do: reinstall the app in Slack " +
		"(api.slack.com/apps, Install App), put the new Bot User OAuth Token (xoxb-...) in SLACK_BOT_TOKEN in " +
		"ethicsbot's environment, and restart ethicsbot"
	if code != 1 || !strings.Contains(errOut, want) || calls.Load() != 1 {
		t.Errorf("exit %d after %d calls, stderr %q", code, calls.Load(), errOut)
	}
}

// TestStartWaitsForSlackUntilStopped runs ethicsbot in a child process while Slack answers
// 503: it logs that it will try again and keeps waiting, and a SIGTERM then stops it
// cleanly, with exit status 0.
func TestStartWaitsForSlackUntilStopped(t *testing.T) {
	srv, calls := apptest.AuthSlack(t, http.StatusServiceUnavailable, "")
	env := apptest.WriteConfig(t, apptest.SlackConfig)
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), apptest.ServeEnv+"=1", "ETHICSBOT_CONFIG="+env["ETHICSBOT_CONFIG"],
		"ETHICSBOT_DB="+filepath.Join(t.TempDir(), "ethicsbot.db"), "ETHICSBOT_ADDR=127.0.0.1:0",
		"ETHICSBOT_ADMIN_ADDR=localhost:0", // two listeners
		"SLACK_BOT_TOKEN=xoxb-1", "SLACK_SIGNING_SECRET=s", "SLACK_API_URL="+srv.URL+"/api/")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	guard := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() }) // a hang fails, not blocks
	defer guard.Stop()
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "trying again") {
			break
		}
	}
	if !strings.Contains(log.String(), "retry_in=1s") {
		t.Fatalf("no retry logged:\n%s", log.String())
	}
	// Meanwhile the board and /healthz answer, each on its own address; Slack's routes say
	// to come back.
	m := regexp.MustCompile(`serving the public notice board, Slack's endpoints /slack/\*" addr=(\S+)`).FindStringSubmatch(log.String())
	admin := regexp.MustCompile(`serving /healthz, /metrics" addr=(\S+)`).FindStringSubmatch(log.String())
	if m == nil || admin == nil {
		t.Fatalf("the addresses are not logged:\n%s", log.String())
	}
	for url, want := range map[string]int{admin[1] + "/healthz": 200, admin[1] + "/metrics": 200, m[1] + "/": 200,
		m[1] + "/feed.atom": 200,
		m[1] + "/healthz":   404, m[1] + "/metrics": 404, admin[1] + "/": 404} {
		if resp, err := http.Get("http://" + url); err != nil || resp.StatusCode != want {
			t.Errorf("GET %s while Slack is unreachable: %v %v, want %d", url, resp, err, want)
		}
	}
	if resp, err := http.Get("http://" + admin[1] + "/healthz"); err == nil {
		health, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(health), `"slack":"connecting"`) {
			t.Errorf("/healthz while Slack is unreachable: %s, want slack connecting", health)
		}
	}
	if resp, err := http.Post("http://"+m[1]+"/slack/commands", "application/x-www-form-urlencoded",
		strings.NewReader("x=1")); err != nil || resp.StatusCode != 503 {
		t.Errorf("POST /slack/commands before Slack answered: %v %v, want 503", resp, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	log.Write(rest)
	if err := cmd.Wait(); err != nil || !strings.Contains(log.String(), "stopped before Slack answered") {
		t.Errorf("after SIGTERM: %v, after %d calls\n%s", err, calls.Load(), log.String())
	}
}

// TestStartSaysItCreatesADatabase: a start that finds no database at the configured path
// creates one and logs it with the full path, so a record expected elsewhere, or removed,
// shows in the log; a start on the existing database says nothing of the kind.
func TestStartSaysItCreatesADatabase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := apptest.WriteConfig(t, "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n")
	env["ETHICSBOT_DB"], env["ETHICSBOT_ADDR"] = "bot.db", "127.0.0.1:0"
	code, out, errOut := run(t, env, ":quit\n")
	want := `msg="creating a new database" path=` + filepath.Join(dir, "bot.db") + "\n"
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d; the log lacks %q:\n%s%s", code, want, out, errOut)
	}
	if code, _, errOut := run(t, env, ":quit\n"); code != 0 || strings.Contains(errOut, "creating a new database") {
		t.Errorf("a start on the existing database: exit %d\n%s", code, errOut)
	}
}

// TestConsoleOnARealRecord: with a configuration file, the console works on the real
// database in real time: :clock is refused, and no reminder is marked said.
func TestConsoleOnARealRecord(t *testing.T) {
	env := apptest.WriteConfig(t, "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n")
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "real.db")
	code, out, errOut := run(t, env, ":clock +3d\n/ethics help\n")
	if code != 0 || !strings.Contains(out, ":clock works only in the demo console") ||
		!strings.Contains(out, "You are U0CLERK1") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestConsoleServesTheBoard: the demo console serves the public notice board beside
// /healthz and prints its address; a meeting scheduled in the console is on the board at
// once, with when it was posted there.
func TestConsoleServesTheBoard(t *testing.T) {
	t.Chdir(t.TempDir())
	in, feed := io.Pipe()
	out := &apptest.LockedBuffer{}
	env := map[string]string{"ETHICSBOT_ADDR": "127.0.0.1:0"}
	now := func() time.Time { return time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC) }
	done := make(chan int, 1)
	go func() {
		getenv := func(k string) string { return env[k] }
		done <- (&App{Stdin: in, Stdout: out, Stderr: io.Discard, Getenv: getenv, Now: now}).Run()
	}()
	defer func() {
		feed.Close()
		if code := <-done; code != 0 {
			t.Errorf("the console exited %d", code)
		}
	}()
	addr := regexp.MustCompile(`The public notice board is at (http://\S+)`)
	var board string
	for deadline := time.Now().Add(20 * time.Second); board == "" &&
		time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			board = m[1]
		}
	}
	if board == "" {
		t.Fatalf("the console did not print the board's address:\n%s", out.String())
	}
	fmt.Fprintln(feed,
		`/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="CONFIDENTIAL-WORDS"`)
	fmt.Fprintln(feed, `/ethics schedule 2026-001 sufficiency 2026-12-10T17:00 place="Council Chambers"`)
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(board)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if page = string(b); strings.Contains(page, "Sufficiency meeting, case") {
			break
		}
	}
	for _, want := range []string{"Ethics Commission of the City of Demo", "Sufficiency meeting, case", "2026-001",
		"Thursday 10 December 2026", "Council Chambers", "Posted on this board"} {
		if !strings.Contains(page, want) {
			t.Errorf("the board lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "CONFIDENTIAL-WORDS") || strings.Contains(page, "Jane Roe") {
		t.Error("the board shows what is confidential")
	}
	resp, err := http.Get(board + "healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("/healthz beside the board: %v %v", resp, err)
	}
}

// TestAnchorAlarmFromTheRecord: the daily post's check reads the anchor posted last from
// the outbox and finds that a record cut back since no longer holds it.
func TestAnchorAlarmFromTheRecord(t *testing.T) {
	env := apptest.RecordEnv(t)
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	ctx := context.Background()
	check := anchorOf(db)
	head, held, problem, err := check(ctx)
	if err != nil || held != "" || problem != "" {
		t.Fatalf("before any post: %q %q %q %v", head, held, problem, err)
	}
	post := outbox.Post{Key: outbox.Key{Series: reminders.AnchorSeries, Step: "2026-12-02",
		To: outbox.Dest{Channel: "C0DOCKET1"}},
		Text: outbox.Format("Record anchor: `anchor %s`", head), Due: time.Now()}
	if err := db.Enqueue(ctx, []outbox.Post{post}); err != nil {
		t.Fatal(err)
	}
	if _, held, problem, err = check(ctx); err != nil || held != head || problem != "" {
		t.Fatalf("the record as posted: %q %q %v", held, problem, err)
	}
	db.Close()
	raw, err := sql.Open("sqlite3", "file:"+env["ETHICSBOT_DB"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DROP TRIGGER events_no_delete; DELETE FROM events WHERE id = (SELECT max(id) FROM events)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	_, db = apptest.MustOpenRecord(t, cfg)
	defer db.Close()
	if _, held, problem, err = anchorOf(db)(ctx); err != nil || held != head || !strings.Contains(problem, "are missing") {
		t.Errorf("the cut record: %q %q %v", held, problem, err)
	}
}
