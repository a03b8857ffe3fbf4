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
	"strconv"
	"syscall"
	"testing"
	"time"

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
	stderr bytes.Buffer
	exited chan error // the child's exit
}

const faultSecret = "fault-test-secret"

func startServer(t *testing.T, env []string, addr string) *server {
	t.Helper()
	s := &server{t: t, addr: addr, env: env}
	s.cmd = exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	s.cmd.Env = append(os.Environ(), append(env, serveEnv+"=1", "ETHICSBOT_ADDR="+addr)...)
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
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	t.Fatalf("ethicsbot did not start: %s", s.stderr.String())
	return nil
}

// file sends a signed one-line filing and returns the case number if the answer says the
// case was filed.
func (s *server) file(i int) (string, bool) {
	form := url.Values{"command": {"/ethics"}, "user_id": {"U_CLERK"}, "channel_id": {"C1"}, "trigger_id": {fmt.Sprintf("fault-%d", i)},
		"response_url": {"http://127.0.0.1:1/unused"},
		"text":         {fmt.Sprintf(`file respondent="Respondent %d" complainant="C" section=103.10 summary="x"`, i)}}
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
	m := filedPattern.FindStringSubmatch(r.Text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

var filedPattern = regexp.MustCompile(`Filed as case \*(\d{4}-\d+)\*`)

// TestKill9 runs ethicsbot in HTTP mode, files cases as fast as a client can, kills the
// server with SIGKILL, restarts it, and checks that every filing answered 200 is there and
// the chain verifies.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"user_id":"UBOT","channel":"C1","ts":"1.1"}`)
	}))
	defer slackAPI.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ethicsbot.yml")
	os.WriteFile(cfg, []byte("commissioners: [U_COMM1]\nclerk: U_CLERK\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\nreminders: {sweep: \"@every 1h\"}\n"), 0o600)
	dbPath := filepath.Join(dir, "ethicsbot.db")
	env := []string{"ETHICSBOT_CONFIG=" + cfg, "ETHICSBOT_DB=" + dbPath, "SLACK_BOT_TOKEN=xoxb-test",
		"SLACK_SIGNING_SECRET=" + faultSecret, "SLACK_API_URL=" + slackAPI.URL + "/api/", "SLACK_APP_TOKEN="}
	addr := freeAddr(t)

	var acknowledged []string
	for round := 0; round < 2; round++ {
		srv := startServer(t, env, addr)
		stop := time.Now().Add(time.Duration(300+round*200) * time.Millisecond)
		for i := 0; time.Now().Before(stop); i++ {
			if n, ok := srv.file(round*100000 + i); ok {
				acknowledged = append(acknowledged, n)
			}
		}
		// Keep filing while the kill lands, so it may hit a commit in flight.
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; i < 50; i++ {
				if n, ok := srv.file(round*100000 + 50000 + i); ok {
					acknowledged = append(acknowledged, n)
				}
			}
		}()
		time.Sleep(5 * time.Millisecond)
		srv.cmd.Process.Signal(syscall.SIGKILL)
		<-srv.exited
		<-done
	}
	if len(acknowledged) < 10 {
		t.Fatalf("only %d filings were acknowledged", len(acknowledged))
	}
	// Restart once more: it starts on the killed database, then stops cleanly on SIGTERM.
	srv := startServer(t, env, addr)
	srv.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.exited; err != nil {
		t.Fatalf("did not stop cleanly on SIGTERM: %v\n%s", err, srv.stderr.String())
	}

	engine, err := newEngine(defaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(dbPath, engine)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, n := range acknowledged {
		if _, err := db.Case(context.Background(), n); err != nil {
			t.Errorf("case %s was acknowledged with a 200 but is missing: %v", n, err)
		}
	}
	t.Logf("%d filings acknowledged across two SIGKILLs; all present", len(acknowledged))
	code, out, errOut := runCLI(t, map[string]string{"ETHICSBOT_CONFIG": cfg, "ETHICSBOT_DB": dbPath}, "", "verify")
	if code != 0 {
		t.Errorf("verify after SIGKILL: exit %d\n%s%s", code, out, errOut)
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

// BenchmarkStartAndMemory starts ethicsbot in HTTP mode on the store benchmarks' database
// (10,000 open cases, 1,000,000 events; run `go test ./store -bench OpenCases10k` first to
// build it) and reports the time to healthy and the resident memory 5 s later.
func BenchmarkStartAndMemory(b *testing.B) {
	src := filepath.Join(os.TempDir(), "ethicsbot-bench-10000x100.db")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no benchmark database: run go test ./store -run '^$' -bench OpenCases10k first")
	}
	slackAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"user_id":"UBOT","channel":"C1","ts":"1.1"}`)
	}))
	defer slackAPI.Close()
	for b.Loop() {
		dir := b.TempDir()
		db := filepath.Join(dir, "ethicsbot.db")
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(db, data, 0o600)
		cfg := filepath.Join(dir, "ethicsbot.yml")
		os.WriteFile(cfg, []byte("commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"), 0o600)
		addr := freeAddr(b)
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), serveEnv+"=1", "ETHICSBOT_ADDR="+addr, "ETHICSBOT_CONFIG="+cfg, "ETHICSBOT_DB="+db,
			"SLACK_BOT_TOKEN=xoxb-test", "SLACK_SIGNING_SECRET=s", "SLACK_API_URL="+slackAPI.URL+"/api/", "SLACK_APP_TOKEN=")
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		for {
			resp, err := http.Get("http://" + addr + "/healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
			if time.Since(start) > time.Minute {
				cmd.Process.Kill()
				b.Fatal("not healthy after a minute")
			}
			time.Sleep(5 * time.Millisecond)
		}
		ready := time.Since(start)
		time.Sleep(5 * time.Second)
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		rss := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status)
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		b.ReportMetric(float64(ready.Milliseconds()), "start-ms")
		if rss != nil {
			kb, _ := strconv.Atoi(string(rss[1]))
			b.ReportMetric(float64(kb)/1024, "rss-MB")
		}
	}
}
