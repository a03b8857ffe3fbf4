// Package mailpittest starts Mailpit (github.com/axllent/mailpit), a real SMTP server with
// an HTTP API that lists what it received, for the tests of ethicsbot's e-mail: on this
// machine only (127.0.0.1), with its version check and reverse DNS off, and its "chaos"
// on, so that a test can make it refuse senders or recipients with the reply it chooses.
//
// .ci/run builds Mailpit, pinned, into its cache and puts it on PATH with
// ETHICSBOT_SMTP=require; elsewhere a test that needs it is skipped when it is not
// installed (go install github.com/axllent/mailpit@v1.33.1).
package mailpittest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Env is the variable that, set to "require", turns a skip for want of Mailpit into a
// failure: CI sets it once it has installed Mailpit.
const Env = "ETHICSBOT_SMTP"

// Server is Mailpit running for a test.
type Server struct {
	SMTPPort int    // where it takes mail, on 127.0.0.1
	API      string // its HTTP API, http://127.0.0.1:PORT
	t        testing.TB
	bin      string
	db       string
	httpPort int
	cmd      *exec.Cmd
	exited   chan struct{}
	mu       sync.Mutex
	log      bytes.Buffer
}

// Binary is Mailpit's path: $MAILPIT, else mailpit on PATH. The test is skipped without it,
// or fails if ETHICSBOT_SMTP=require.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("MAILPIT"); p != "" {
		return p
	}
	p, err := exec.LookPath("mailpit")
	if err != nil {
		if os.Getenv(Env) == "require" {
			t.Fatalf("%s=require but mailpit is not on PATH: .ci/run installs it", Env)
		}
		t.Skip("mailpit is not installed (go install github.com/axllent/mailpit@v1.33.1); set " + Env +
			"=require to fail instead")
	}
	return p
}

// Start starts Mailpit on free ports, keeping what it receives in a file in a temporary
// folder, so that a restart (Stop, then Restart) keeps it. It is stopped when the test
// ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{t: t, bin: Binary(t), db: filepath.Join(t.TempDir(), "mailpit.db"), SMTPPort: freePort(t),
		httpPort: freePort(t)}
	s.API = "http://127.0.0.1:" + strconv.Itoa(s.httpPort)
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Write keeps Mailpit's output, for a failure's message.
func (s *Server) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.Write(p)
}

// Restart starts Mailpit again, on the same ports and the same file, after Stop; it waits
// until Mailpit answers.
func (s *Server) Restart() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin,
		"--smtp", "127.0.0.1:"+strconv.Itoa(s.SMTPPort), "--listen", "127.0.0.1:"+strconv.Itoa(s.httpPort),
		"--database", s.db, "--disable-version-check", "--smtp-disable-rdns", "--enable-chaos",
		"--smtp-auth-accept-any", "--smtp-auth-allow-insecure", "--max", "0")
	s.cmd.Stdout, s.cmd.Stderr = s, s
	if err := s.cmd.Start(); err != nil {
		s.t.Fatalf("mailpit: %v", err)
	}
	s.exited = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			s.t.Fatalf("mailpit exited at start: %s", s.output())
		default:
		}
		if resp, err := http.Get(s.API + "/readyz"); err == nil {
			resp.Body.Close()
			if c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.SMTPPort)); resp.StatusCode == 200 && err == nil {
				c.Close()
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("mailpit did not start: %s", s.output())
}

func (s *Server) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// Stop stops Mailpit (SIGKILL: a relay that goes down), if it runs.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Message is one message Mailpit received, as its API lists it.
type Message struct {
	ID        string
	MessageID string
	Subject   string
	To        []struct{ Address string }
}

// Messages lists every message Mailpit received, newest first.
func (s *Server) Messages() []Message {
	s.t.Helper()
	var out []Message
	for start := 0; ; {
		var page struct {
			Total    int
			Messages []Message
		}
		s.get(fmt.Sprintf("/api/v1/messages?start=%d&limit=500", start), &page)
		out = append(out, page.Messages...)
		start += len(page.Messages)
		if len(page.Messages) == 0 || start >= page.Total {
			return out
		}
	}
}

// Text returns the plain text of the message whose API ID is id.
func (s *Server) Text(id string) string {
	s.t.Helper()
	var m struct{ Text string }
	s.get("/api/v1/message/"+id, &m)
	return m.Text
}

// Raw returns the message whose API ID is id as it was received, headers and all.
func (s *Server) Raw(id string) string {
	s.t.Helper()
	resp, err := http.Get(s.API + "/api/v1/message/" + id + "/raw")
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// Count is how many messages Mailpit received with each Message-ID.
func (s *Server) Count() map[string]int {
	s.t.Helper()
	out := map[string]int{}
	for _, m := range s.Messages() {
		out[m.MessageID]++
	}
	return out
}

// Refuse makes Mailpit answer code (4xx or 5xx) to every recipient (RCPT TO) from now on;
// Refuse(0) takes every recipient again.
func (s *Server) Refuse(code int) {
	s.t.Helper()
	p := 0
	if code != 0 {
		p = 100
	} else {
		code = 451
	}
	body, _ := json.Marshal(map[string]any{"Recipient": map[string]int{"ErrorCode": code, "Probability": p}})
	req, err := http.NewRequest(http.MethodPut, s.API+"/api/v1/chaos", bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		s.t.Fatalf("mailpit refused the chaos setting: %s %s", resp.Status, b)
	}
}

func (s *Server) get(path string, v any) {
	s.t.Helper()
	resp, err := http.Get(s.API + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		s.t.Fatalf("mailpit %s: %s %s", path, resp.Status, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		s.t.Fatalf("mailpit %s: %v: %s", path, err, b)
	}
}
