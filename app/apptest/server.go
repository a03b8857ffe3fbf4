package apptest

import (
	"bytes"
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
	"strings"
	"sync"
	"testing"
	"time"
)

// ServeEnv, when set, makes the test binary run ethicsbot itself, as the real binary does.
const ServeEnv = "ETHICSBOT_TEST_SERVE"

// Server is ethicsbot running in HTTP mode in a child process, against a fake Slack.
type Server struct {
	t      *testing.T
	Cmd    *exec.Cmd
	Addr   string
	env    []string
	Stderr LockedBuffer
	Exited chan error // the child's exit
}

// LockedBuffer is a buffer that a child's stderr is copied into while a test reads it.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write adds p to the buffer.
func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written so far.
func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var (
	filedPattern = regexp.MustCompile(`Filed as case \*(\d{4}-\d+)\*`)
	chicago, _   = time.LoadLocation("America/Chicago")
)

const faultSecret = "fault-test-secret"

// FaultPeople is the fault tests' configuration after its first line, the commissioners.
const FaultPeople = "clerk: U_CLERK\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\nreminders: " +
	"{sweep: \"@every 1h\"}\n"

// ChildEnv writes body as dir's ethicsbot.yml and returns its path and the environment of
// ethicsbot in HTTP mode on dir's database, against the fake Slack at slackURL.
func ChildEnv(t *testing.T, dir, slackURL, body string) (cfg string, env []string) {
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

// StartServer runs ethicsbot in HTTP mode in a child process, with env, its board and
// /healthz on addr, and waits until it answers Slack. The child is the test binary itself
// running the test TestServeChild, which each package that starts a Server declares: it runs
// ethicsbot when ServeEnv is "1".
func StartServer(t *testing.T, env []string, addr string) *Server {
	t.Helper()
	s := &Server{t: t, Addr: addr, env: env}
	s.Cmd = exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	// /healthz and /metrics share the board's listener here, where the tests probe them.
	s.Cmd.Env = append(os.Environ(), append(env, ServeEnv+"=1", "ETHICSBOT_ADDR="+addr, "ETHICSBOT_ADMIN_ADDR="+addr)...)
	s.Cmd.Stderr = &s.Stderr
	if err := s.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Exited = make(chan error, 1)
	go func() { s.Exited <- s.Cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.Exited:
			t.Fatalf("ethicsbot exited at start (%v): %s", err, s.Stderr.String())
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
	s.Cmd.Process.Kill()
	t.Fatalf("ethicsbot did not start: %s", s.Stderr.String())
	return nil
}

// Slash sends a signed /ethics command as the clerk and returns the reply, if the answer
// was a 200 with one.
func (s *Server) Slash(trigger, text string) (string, bool) {
	return s.SlashAs("U_CLERK", trigger, text)
}

// SlashAs is slash as user.
func (s *Server) SlashAs(user, trigger, text string) (string, bool) {
	form := url.Values{"command": {"/ethics"}, "user_id": {user}, "channel_id": {"C1"}, "trigger_id": {trigger},
		"response_url": {"http://127.0.0.1:1/unused"}, "text": {text}}
	body := []byte(form.Encode())
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(faultSecret))
	io.WriteString(mac, "v0:"+ts+":")
	mac.Write(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.Addr+"/slack/commands", bytes.NewReader(body))
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

// File sends a signed one-line filing and returns the case number if the answer says the
// case was filed.
func (s *Server) File(i int) (string, bool) {
	reply, _ := s.Slash(fmt.Sprintf("fault-%d", i),
		fmt.Sprintf(`file respondent="Respondent %d" complainant="C" section=103.10 summary="x"`, i))
	m := filedPattern.FindStringSubmatch(reply)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Schedule schedules case n's sufficiency meeting four days ahead; true if the answer says
// it was scheduled.
func (s *Server) Schedule(n string, i int) bool {
	start := time.Now().Add(96 * time.Hour).In(chicago).Format("2006-01-02T15:04")
	reply, _ := s.Slash(fmt.Sprintf("sched-%d", i), fmt.Sprintf(`schedule %s sufficiency %s place="Room %d"`, n, start, i))
	return strings.Contains(reply, "sufficiency meeting scheduled")
}

// RecordingSlack is a fake Slack Web API that keeps every message posted, with its
// metadata, and answers conversations.history from them, as Slack does; so a process
// killed between posting and recording can find what it posted.
type RecordingSlack struct {
	*httptest.Server
	mu   sync.Mutex
	msgs []SlackMessage
	last int64 // the last message's ts, in microseconds
}

// stamp is a new message's ts as Slack gives it: the time it was posted, in seconds and
// microseconds, unique and increasing. A restore reads the channels since the backup's
// last event by it, so a fixed ts would fall before the record's events once the clock
// passed it. The caller holds mu.
func (f *RecordingSlack) stamp() string {
	f.last = max(time.Now().UnixMicro(), f.last+1)
	return fmt.Sprintf("%d.%06d", f.last/1e6, f.last%1e6)
}

// SlackMessage is a message the fake Slack took, with its metadata.
type SlackMessage struct {
	Channel  string
	TS       string
	Thread   string // the parent's ts, for a reply in a thread
	Text     string
	Metadata map[string]any
}

// NewRecordingSlack starts a RecordingSlack, closed when the test ends.
func NewRecordingSlack(t *testing.T) *RecordingSlack {
	f := &RecordingSlack{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		f.mu.Lock()
		defer f.mu.Unlock()
		switch strings.TrimPrefix(r.URL.Path, "/api/") {
		case "chat.postMessage":
			m := SlackMessage{Channel: r.Form.Get("channel"), TS: f.stamp(), Thread: r.Form.Get("thread_ts"),
				Text: r.Form.Get("text")}
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

// Keys counts the messages posted with each outbox key.
func (f *RecordingSlack) Keys() map[string][]SlackMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string][]SlackMessage{}
	for _, m := range f.msgs {
		if p, ok := m.Metadata["event_payload"].(map[string]any); ok {
			k, _ := p["key"].(string)
			out[k] = append(out[k], m)
		}
	}
	return out
}

// FreeAddr is a local address no one listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Msgs counts the messages in channel whose text contains s.
func Msgs(said map[string][]SlackMessage, channel, s string) int {
	n := 0
	for _, ms := range said {
		for _, m := range ms {
			if m.Channel == channel && strings.Contains(m.Text, s) {
				n++
			}
		}
	}
	return n
}
