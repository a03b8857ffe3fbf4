package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ethicsbot/config"
	"ethicsbot/store"
)

// serveEnv, when set, makes the test binary run ethicsbot itself, as the real binary does.
const serveEnv = "ETHICSBOT_TEST_SERVE"

// TestServeChild is the re-executed test binary running ethicsbot; it does nothing in a
// normal run.
func TestServeChild(t *testing.T) {
	if os.Getenv(serveEnv) != "1" {
		t.Skip("runs only as the child of a fault test")
	}
	os.Exit(run(nil, os.Stdin, os.Stdout, os.Stderr, os.Getenv, time.Now))
}

// server is ethicsbot running in HTTP mode in a child process, against a fake Slack.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	addr   string
	env    []string
	stderr lockedBuffer
	exited chan error // the child's exit
}

// lockedBuffer is a buffer that a child's stderr is copied into while a test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const faultSecret = "fault-test-secret"

// faultPeople is the fault tests' configuration after its first line, the commissioners.
const faultPeople = "clerk: U_CLERK\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\nreminders: " +
	"{sweep: \"@every 1h\"}\n"

// childEnv writes body as dir's ethicsbot.yml and returns its path and the environment of
// ethicsbot in HTTP mode on dir's database, against the fake Slack at slackURL.
func childEnv(t *testing.T, dir, slackURL, body string) (cfg string, env []string) {
	t.Helper()
	cfg = filepath.Join(dir, "ethicsbot.yml")
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, []string{"ETHICSBOT_CONFIG=" + cfg, "ETHICSBOT_DB=" + filepath.Join(dir, "ethicsbot.db"),
		"SLACK_BOT_TOKEN=xoxb-test",
		"SLACK_SIGNING_SECRET=" + faultSecret, "SLACK_API_URL=" + slackURL + "/api/", "SLACK_APP_TOKEN=",
		"SLACK_PACE=0"} // the fake Slack takes hundreds a second; the pace is TestDrainIsPaced's
}

func startServer(t *testing.T, env []string, addr string) *server {
	t.Helper()
	s := &server{t: t, addr: addr, env: env}
	s.cmd = exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	// /healthz and /metrics share the board's listener here, where the tests probe them.
	s.cmd.Env = append(os.Environ(), append(env, serveEnv+"=1", "ETHICSBOT_ADDR="+addr, "ETHICSBOT_ADMIN_ADDR="+addr)...)
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.exited = make(chan error, 1)
	go func() { s.exited <- s.cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.exited:
			t.Fatalf("ethicsbot exited at start (%v): %s", err, s.stderr.String())
		default:
		}
		// Up, and Slack's routes ready: the board and /healthz answer before them.
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			health, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && strings.Contains(string(health), `"slack":"ok"`) {
				return s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	t.Fatalf("ethicsbot did not start: %s", s.stderr.String())
	return nil
}

// slash sends a signed /ethics command as the clerk and returns the reply, if the answer
// was a 200 with one.
func (s *server) slash(trigger, text string) (string, bool) {
	return s.slashAs("U_CLERK", trigger, text)
}

// slashAs is slash as user.
func (s *server) slashAs(user, trigger, text string) (string, bool) {
	form := url.Values{"command": {"/ethics"}, "user_id": {user}, "channel_id": {"C1"}, "trigger_id": {trigger},
		"response_url": {"http://127.0.0.1:1/unused"}, "text": {text}}
	body := []byte(form.Encode())
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(faultSecret))
	io.WriteString(mac, "v0:"+ts+":")
	mac.Write(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/slack/commands", bytes.NewReader(body))
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var r struct{ Text string }
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&r) != nil {
		return "", false
	}
	return r.Text, true
}

// file sends a signed one-line filing and returns the case number if the answer says the
// case was filed.
func (s *server) file(i int) (string, bool) {
	reply, _ := s.slash(fmt.Sprintf("fault-%d", i),
		fmt.Sprintf(`file respondent="Respondent %d" complainant="C" section=103.10 summary="x"`, i))
	m := filedPattern.FindStringSubmatch(reply)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// schedule schedules case n's sufficiency meeting four days ahead; true if the answer says
// it was scheduled.
func (s *server) schedule(n string, i int) bool {
	start := time.Now().Add(96 * time.Hour).In(chicago).Format("2006-01-02T15:04")
	reply, _ := s.slash(fmt.Sprintf("sched-%d", i), fmt.Sprintf(`schedule %s sufficiency %s place="Room %d"`, n, start, i))
	return strings.Contains(reply, "sufficiency meeting scheduled")
}

var (
	filedPattern = regexp.MustCompile(`Filed as case \*(\d{4}-\d+)\*`)
	chicago, _   = time.LoadLocation("America/Chicago")
)

// recordingSlack is a fake Slack Web API that keeps every message posted, with its
// metadata, and answers conversations.history from them, as Slack does; so a process
// killed between posting and recording can find what it posted.
type recordingSlack struct {
	*httptest.Server
	mu   sync.Mutex
	msgs []slackMessage
}

type slackMessage struct {
	Channel  string
	TS       string
	Thread   string // the parent's ts, for a reply in a thread
	Text     string
	Metadata map[string]any
}

func newRecordingSlack(t *testing.T) *recordingSlack {
	f := &recordingSlack{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		f.mu.Lock()
		defer f.mu.Unlock()
		switch strings.TrimPrefix(r.URL.Path, "/api/") {
		case "chat.postMessage":
			m := slackMessage{Channel: r.Form.Get("channel"), TS: fmt.Sprintf("1800000000.%06d", len(f.msgs)+1),
				Thread: r.Form.Get("thread_ts"), Text: r.Form.Get("text")}
			json.Unmarshal([]byte(r.Form.Get("metadata")), &m.Metadata)
			f.msgs = append(f.msgs, m)
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "channel": m.Channel, "ts": m.TS})
		case "chat.update":
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "channel": r.Form.Get("channel"), "ts": r.Form.Get("ts")})
		case "conversations.replies": // the thread: the parent, then its replies
			var out []map[string]any
			for _, m := range f.msgs {
				if m.Channel == r.Form.Get("channel") && (m.TS == r.Form.Get("ts") || m.Thread == r.Form.Get("ts")) {
					out = append(out,
						map[string]any{"type": "message", "ts": m.TS, "thread_ts": r.Form.Get("ts"), "text": m.Text,
							"metadata": m.Metadata})
				}
			}
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "messages": out, "has_more": false})
		case "conversations.history": // the channel: no replies
			var out []map[string]any
			for i := len(f.msgs) - 1; i >= 0; i-- {
				if m := f.msgs[i]; m.Channel == r.Form.Get("channel") && m.Thread == "" {
					out = append(out, map[string]any{"type": "message", "ts": m.TS, "text": m.Text, "metadata": m.Metadata})
				}
			}
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "messages": out, "has_more": false})
		case "conversations.open":
			io.WriteString(w, `{"ok":true,"channel":{"id":"D0DIRECT1"}}`)
		default:
			io.WriteString(w, `{"ok":true,"user_id":"UBOT","team_id":"T1"}`)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// keys counts the messages posted with each outbox key.
func (f *recordingSlack) keys() map[string][]slackMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]slackMessage{}
	for _, m := range f.msgs {
		if p, ok := m.Metadata["event_payload"].(map[string]any); ok {
			k, _ := p["key"].(string)
			out[k] = append(out[k], m)
		}
	}
	return out
}

// TestKill9 runs ethicsbot in HTTP mode, files cases and schedules their meetings as fast
// as a client can, kills the server with SIGKILL mid-burst, restarts it, and checks that
// every filing answered 200 is there, the chain verifies, every committed event has all
// its posts, and each post reached Slack exactly once: every scheduled meeting has
// exactly one public notice.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := newRecordingSlack(t)
	dir := t.TempDir()
	cfg, env := childEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+faultPeople)
	dbPath := filepath.Join(dir, "ethicsbot.db")
	addr := freeAddr(t)

	var acknowledged, scheduled []string
	var mu sync.Mutex
	for round := 0; round < 3; round++ {
		srv := startServer(t, env, addr)
		var mine []string
		stop := time.Now().Add(time.Duration(300+round*100) * time.Millisecond)
		for i := 0; time.Now().Before(stop); i++ {
			if n, ok := srv.file(round*100000 + i); ok {
				acknowledged = append(acknowledged, n)
				mine = append(mine, n)
			}
		}
		// Schedule this round's cases, and file more, while the kill lands, so it may hit
		// a commit or a delivery in flight.
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i, n := range mine {
				if srv.schedule(n, round*100000+i) {
					mu.Lock()
					scheduled = append(scheduled, n)
					mu.Unlock()
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if n, ok := srv.file(round*100000 + 50000 + i); ok {
					mu.Lock()
					acknowledged = append(acknowledged, n)
					mu.Unlock()
				}
			}
		}()
		time.Sleep(time.Duration(60+round*40) * time.Millisecond)
		srv.cmd.Process.Signal(syscall.SIGKILL)
		<-srv.exited
		wg.Wait()
	}
	if len(acknowledged) < 10 || len(scheduled) < 3 {
		t.Fatalf("only %d filings and %d meetings were acknowledged", len(acknowledged), len(scheduled))
	}
	// Restart once more: it starts on the killed database and delivers what the killed
	// processes left in the outbox; then it stops cleanly on SIGTERM.
	srv := startServer(t, env, addr)
	engine, err := config.Default().Engine()
	if err != nil {
		t.Fatal(err)
	}
	// Read only, as every reader beside the running bot must: a store opened to write
	// builds its search index and checks the file's identity, and the bot's commits
	// meanwhile would read as another program writing the file.
	db, err := store.OpenReadOnly(dbPath, engine)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pending, err := db.Pending(ctx, time.Now(), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after restart the outbox still holds %+v", pending[0])
		}
	}
	srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.exited; err != nil {
		t.Fatalf("did not stop cleanly on SIGTERM: %v\n%s", err, srv.stderr.String())
	}

	for _, n := range acknowledged {
		if _, err := db.Case(ctx, n); err != nil {
			t.Errorf("case %s was acknowledged with a 200 but is missing: %v", n, err)
		}
	}
	for _, n := range scheduled {
		if c, err := db.Case(ctx, n); err != nil || !c.Sufficiency.Scheduled() {
			t.Errorf("case %s's meeting was acknowledged with a 200 but is not on record: %v", n, err)
		}
	}
	// Every committed event has its posts, and each reached Slack exactly once.
	said := slackAPI.keys()
	all, err := db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	posts := map[string]bool{}
	for _, r := range all {
		posts[r.Key.String()] = true
		if r.Edit {
			// An update of a case's card (chat.update) posts nothing: its card is checked.
			if r.Sent.IsZero() {
				t.Errorf("%s was never made", r.Key)
			}
			continue
		}
		if got := len(said[r.Key.String()]); got != 1 || r.Sent.IsZero() {
			t.Errorf("%s reached Slack %d times (marked sent: %v)", r.Key, got, !r.Sent.IsZero())
		}
	}
	for k := range said {
		if !posts[k] {
			t.Errorf("Slack got %s, which is not on record", k)
		}
	}
	meetings := 0
	err = db.EachCase(ctx, false, func(c store.CaseRecord) error {
		for _, e := range c.Events {
			rows, err := db.EventPosts(ctx, e.ID)
			if err != nil {
				return err
			}
			var notices []string
			for _, r := range rows {
				if r.Key.To.Channel == "C0NOTICE1" {
					for _, m := range said[r.Key.String()] {
						notices = append(notices, m.Text)
					}
				}
			}
			switch {
			case len(rows) == 0:
				t.Errorf("event %d (%s of %s) is on record but caused no post", e.ID, e.Kind, c.Number)
			case e.Kind == "schedule_meeting":
				meetings++
				if len(notices) != 1 ||
					!strings.HasPrefix(notices[0], "PUBLIC NOTICE. Ethics Commission, case "+c.Number+": sufficiency meeting") {
					t.Errorf("meeting of %s (event %d) has public notices %q, want exactly one", c.Number, e.ID, notices)
				}
			case len(notices) != 0:
				t.Errorf("a %s of %s reached the public channel: %q", e.Kind, c.Number, notices)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d filings and %d meetings acknowledged across three SIGKILLs; %d meetings on record, each with one public "+
		"notice; %d posts, each delivered once",
		len(acknowledged), len(scheduled), meetings, len(all))
	code, out, errOut := runCLI(t, map[string]string{"ETHICSBOT_CONFIG": cfg, "ETHICSBOT_DB": dbPath}, "", "verify")
	if code != 0 {
		t.Errorf("verify after SIGKILL: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSIGHUPReloads runs ethicsbot in HTTP mode, adds a commissioner to ethicsbot.yml and
// sends SIGHUP: the new commissioner's signed command is then accepted. A broken file and
// another SIGHUP are refused with the file, the line and the problem on stderr, and the
// configuration in force goes on working.
func TestSIGHUPReloads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := newRecordingSlack(t)
	cfg, env := childEnv(t, t.TempDir(), slackAPI.URL, "commissioners: [U_COMM1]\n"+faultPeople)
	write := func(body string) {
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := startServer(t, env, freeAddr(t))
	defer srv.cmd.Process.Kill()
	seq := 0
	allowed := func(user string) bool {
		seq++
		reply, ok := srv.slashAs(user, fmt.Sprint("hup-", seq), "docket")
		if !ok {
			t.Fatalf("no answer to %s's /ethics docket:\n%s", user, srv.stderr.String())
		}
		return !strings.HasPrefix(reply, "Sorry")
	}
	// waitFor sends SIGHUP and waits for the log line it causes.
	waitFor := func(line string) {
		t.Helper()
		before := strings.Count(srv.stderr.String(), line)
		if err := srv.cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); strings.Count(srv.stderr.String(),
			line) == before; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q after SIGHUP:\n%s", line, srv.stderr.String())
			}
		}
	}
	if allowed("U_COMM2") {
		t.Fatal("U_COMM2 is allowed before being configured")
	}

	write("commissioners: [U_COMM1, U_COMM2]\n" + faultPeople)
	waitFor(`msg="configuration reloaded"`)
	if !allowed("U_COMM2") || !allowed("U_COMM1") || !allowed("U_CLERK") {
		t.Errorf("after SIGHUP, a configured user is refused:\n%s", srv.stderr.String())
	}

	write("commissioners: [U_COMM1, U_COMM2]\n" + faultPeople + "attorney: U_COMM2\n")
	waitFor(`msg="configuration not reloaded`)
	if want := cfg + ": line 5: U_COMM2 is the attorney here and a " +
		"commissioner on line 1"; !strings.Contains(srv.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, srv.stderr.String())
	}
	if !allowed("U_COMM2") || !allowed("U_CLERK") {
		t.Errorf("after a refused reload, the configuration in force is lost:\n%s", srv.stderr.String())
	}

	srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.exited; err != nil {
		t.Fatalf("did not stop cleanly on SIGTERM: %v\n%s", err, srv.stderr.String())
	}
}

func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// BenchmarkStartAndMemory starts ethicsbot in HTTP mode and reports the time to healthy
// and the resident memory 5 s later: on an empty record, and on the store benchmarks'
// database of 10,000 open cases and 1,000,000 events (run `go test ./store -run '^$'
// -bench OpenCases10k$` first to build it with store.BulkLoad; without it that half is
// skipped). /healthz is probed where ethicsbot serves it, on ETHICSBOT_ADMIN_ADDR.
func BenchmarkStartAndMemory(b *testing.B) {
	b.Run("empty", func(b *testing.B) { benchStart(b, "") })
	b.Run("cases=10000", func(b *testing.B) {
		src := filepath.Join(os.TempDir(), "ethicsbot-bench-10000x100.db")
		if _, err := os.Stat(src); err != nil {
			b.Skip("no benchmark database: run go test ./store -run '^$' -bench OpenCases10k$ first")
		}
		benchStart(b, src)
	})
}

// benchStart is BenchmarkStartAndMemory on a copy of the database src ("" for none).
func benchStart(b *testing.B, src string) {
	slackAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"user_id":"UBOT","channel":"C1","ts":"1.1"}`)
	}))
	defer slackAPI.Close()
	var starts, rsss []float64
	for b.Loop() {
		dir := b.TempDir()
		db := filepath.Join(dir, "ethicsbot.db")
		if src != "" {
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(db, data, 0o600); err != nil {
				b.Fatal(err)
			}
		}
		cfg := filepath.Join(dir, "ethicsbot.yml")
		os.WriteFile(cfg,
			[]byte("commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"), 0o600)
		addr, admin := freeAddr(b), freeAddr(b)
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), serveEnv+"=1", "ETHICSBOT_ADDR="+addr, "ETHICSBOT_ADMIN_ADDR="+admin,
			"ETHICSBOT_CONFIG="+cfg, "ETHICSBOT_DB="+db,
			"SLACK_BOT_TOKEN=xoxb-test", "SLACK_SIGNING_SECRET=s", "SLACK_API_URL="+slackAPI.URL+"/api/", "SLACK_APP_TOKEN=")
		var stderr lockedBuffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		for {
			select {
			case err := <-exited:
				b.Fatalf("ethicsbot exited at start (%v):\n%s", err, stderr.String())
			default:
			}
			resp, err := http.Get("http://" + admin + "/healthz")
			if err == nil {
				health, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && strings.Contains(string(health), `"slack":"ok"`) {
					break
				}
			}
			if time.Since(start) > time.Minute {
				cmd.Process.Kill()
				b.Fatalf("not healthy after a minute:\n%s", stderr.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		ready := time.Since(start)
		time.Sleep(5 * time.Second)
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		rss := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status)
		cmd.Process.Signal(syscall.SIGTERM)
		<-exited
		starts = append(starts, float64(ready.Microseconds())/1000)
		if rss != nil {
			kb, _ := strconv.Atoi(string(rss[1]))
			rsss = append(rsss, float64(kb)/1024)
		}
	}
	b.ReportMetric(median(starts), "start-ms")
	if len(rsss) > 0 {
		b.ReportMetric(median(rsss), "rss-MB")
	}
}

// median is the middle of xs (the mean of the two middles for an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
