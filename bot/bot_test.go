package bot_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// fixture reads one of Slack's published payloads from testdata (see testdata/README.md
// for where each comes from). Go runs a package's tests in its directory.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return b
}

// call is one request the fake Slack API received.
type call struct {
	Method string         // e.g. chat.postMessage, or "response_url"
	Fields map[string]any // form fields or JSON body
}

// fakeSlack is a Slack Web API that records every call and answers ok.
type fakeSlack struct {
	*httptest.Server
	mu    sync.Mutex
	calls []call
	got   chan struct{}
	fail  map[string]string // method → Slack error, or "404" for an HTTP status
	// failTo makes chat.postMessage to one channel (or user) answer a Slack error.
	failTo map[string]string
	// channels are conversations.info's answers, by channel: the channel object's JSON.
	channels map[string]string
	// distinct makes chat.postMessage answer, as Slack does, with the channel posted to
	// and a ts of its own for each message, so that a test can tell them apart.
	distinct bool
}

func newFakeSlack(t testing.TB) *fakeSlack {
	f := &fakeSlack{got: make(chan struct{}, 100)}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fields := map[string]any{}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			json.Unmarshal(body, &fields)
		} else {
			form, _ := url.ParseQuery(string(body))
			for k := range form {
				fields[k] = form.Get(k)
			}
		}
		method := strings.TrimPrefix(r.URL.Path, "/api/")
		switch {
		case strings.HasPrefix(r.URL.Path, "/response/upload/"):
			// files.uploadV2's second step: the file, posted to the URL Slack gave.
			method = "upload"
			fields = map[string]any{"url": r.URL.Path, "bytes": len(body), "pdf": bytes.Contains(body, []byte("%PDF-"))}
		case strings.HasPrefix(r.URL.Path, "/response/"):
			method = "response_url"
		}
		f.mu.Lock()
		f.calls = append(f.calls, call{method, fields})
		failure := f.fail[method]
		if to, ok := f.failTo[fmt.Sprint(fields["channel"])]; ok && method == "chat.postMessage" {
			failure = to
		}
		info, described := f.channels[fmt.Sprint(fields["channel"])]
		f.mu.Unlock()
		defer func() {
			select {
			case f.got <- struct{}{}:
			default: // nobody is waiting; wait() also looks at calls itself
			}
		}()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case failure == "404":
			w.WriteHeader(http.StatusNotFound)
			return
		case failure != "":
			fmt.Fprintf(w, `{"ok":false,"error":%q}`, failure)
			return
		}
		switch method {
		case "auth.test":
			io.WriteString(w, `{"ok":true,"user_id":"UBOT","team_id":"T1"}`)
		case "chat.postMessage":
			f.mu.Lock()
			distinct, n := f.distinct, len(f.calls)
			f.mu.Unlock()
			if distinct {
				fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":"1733400000.%06d"}`, fields["channel"], n)
				return
			}
			io.WriteString(w, `{"ok":true,"channel":"C1","ts":"1733400000.000100"}`)
		case "conversations.info":
			if !described {
				info = "{}"
			}
			fmt.Fprintf(w, `{"ok":true,"channel":%s}`, info)
		case "files.getUploadURLExternal":
			fmt.Fprintf(w, `{"ok":true,"upload_url":"https://files.slack.com/upload/v1/F%d","file_id":"F%d"}`, len(f.calls),
				len(f.calls))
		case "files.completeUploadExternal":
			io.WriteString(w, `{"ok":true,"files":[{"id":"F1","title":"uploaded"}]}`)
		default:
			io.WriteString(w, `{"ok":true}`)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// wait returns the calls once n have arrived, or fails after a few seconds.
func (f *fakeSlack) wait(t *testing.T, n int) []call {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		f.mu.Lock()
		if len(f.calls) >= n {
			out := append([]call(nil), f.calls...)
			f.mu.Unlock()
			return out
		}
		f.mu.Unlock()
		select {
		case <-f.got:
		case <-time.After(10 * time.Millisecond): // a signal may have been dropped
		case <-deadline:
			f.mu.Lock()
			defer f.mu.Unlock()
			t.Fatalf("got %d Slack calls, want %d: %+v", len(f.calls), n, f.calls)
		}
	}
}

// countOf is how many calls to method the fake received.
func (f *fakeSlack) countOf(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		if c.Method == method {
			n++
		}
	}
	return n
}

func (f *fakeSlack) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// env is a bot wired to a fake Slack and a real store, with the outbox's deliverer
// running as in production.
type env struct {
	slack *fakeSlack
	app   *bot.App
	db    *store.Store
	path  string // db's file
	now   time.Time
}

func newEnv(t testing.TB) *env { return newEnvSender(t, nil) }

// reconfigure changes the service's settings as a reload would: change edits a copy of
// those in force, and the copy is put in force.
func reconfigure(svc *commands.Service, change func(*commands.Settings)) {
	st := *svc.Settings()
	change(&st)
	svc.Configure(st)
}

// newEnvSender is newEnv with the outbox delivering through sender (nil: bot.Sender to the
// fake Slack).
func newEnvSender(t testing.TB, sender outbox.Sender) *env {
	t.Helper()
	e := newQuietEnv(t, sender)
	d := e.app.Outbox.(*outbox.Deliverer)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Every post is due by then: tests set the service's clock as they go, and the
		// deliverer must not read it from another goroutine.
		d.Run(ctx, time.Hour, func() time.Time { return time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC) })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return e
}

// newQuietEnv is newEnvSender with no delivery running in the background: a console test
// drains the outbox itself, and a background drain would race it for every post.
func newQuietEnv(t testing.TB, sender outbox.Sender) *env {
	t.Helper()
	cal, _ := docket.NewCalendar(docket.CalendarConfig{})
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	db, err := store.Open(path, e)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	fs := newFakeSlack(t)
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	svc := &commands.Service{Record: db, Engine: e, Now: func() time.Time { return now }}
	db.SayWith(svc)
	svc.Configure(commands.Settings{
		Roles:    commands.Roles{Commissioners: []string{"U_COMM1"}, Clerks: []string{"U2147483697"}, Attorney: "U_ATTY"},
		Channels: commands.Channels{Docket: "C_DOCKET", Notices: "C_NOTICES"},
	})
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.URL+"/api/"), slack.OptionHTTPClient(localOnly(fs)))
	if sender == nil {
		sender = &bot.Sender{API: api}
	}
	d := &outbox.Deliverer{Store: db, Sender: sender, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return &env{slack: fs, app: &bot.App{Service: svc, API: api, Outbox: d, Client: localOnly(fs)}, db: db,
		path: path, now: now}
}

// settle waits until the outbox has delivered everything due, or fails after a few
// seconds: delivery runs on its own, after the request that caused it has answered.
func (e *env) settle(t testing.TB) {
	t.Helper()
	e.app.Outbox.Kick() // posts committed without a request's answer (Handle called directly) wait for a kick
	for deadline := time.Now().Add(5 * time.Second); ; {
		pending, err := e.db.Pending(context.Background(), e.app.Service.Now(), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the outbox still holds %+v", pending[0])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// localOnly is an HTTP client that sends every request to the fake Slack, whatever its
// URL: a payload's response_url (hooks.slack.com in the fixtures) arrives as
// /response/<path>. Tests never reach Slack.
func localOnly(f *fakeSlack) *http.Client {
	fake, _ := url.Parse(f.URL)
	return &http.Client{Timeout: 5 * time.Second, Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host != fake.Host {
			r = r.Clone(r.Context())
			r.URL.Path = "/response" + r.URL.Path
			r.URL.Scheme, r.URL.Host, r.Host = fake.Scheme, fake.Host, fake.Host
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func sign(secret string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:", ts)
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

func TestVerifySlackSigningExample(t *testing.T) {
	var v struct {
		Secret    string `json:"signing_secret"`
		Timestamp string `json:"timestamp"`
		Body      string `json:"body"`
		Signature string `json:"signature"`
	}
	if err := json.Unmarshal(fixture(t, "signing-vector.json"), &v); err != nil {
		t.Fatal(err)
	}
	ts, _ := strconv.ParseInt(v.Timestamp, 10, 64)
	then := time.Unix(ts, 0).Add(30 * time.Second)
	h := http.Header{}
	h.Set("X-Slack-Signature", v.Signature)
	h.Set("X-Slack-Request-Timestamp", v.Timestamp)
	if err := bot.Verify(h, []byte(v.Body), v.Secret, then); err != nil {
		t.Fatalf("Slack's own example does not verify: %v", err)
	}
	for name, tc := range map[string]struct {
		body   string
		secret string
		now    time.Time
		want   error
	}{
		"Stale":       {v.Body, v.Secret, time.Unix(ts, 0).Add(6 * time.Minute), bot.ErrStale},
		"FromFuture":  {v.Body, v.Secret, time.Unix(ts, 0).Add(-6 * time.Minute), bot.ErrStale},
		"BodyChanged": {strings.Replace(v.Body, "text=", "text=file", 1), v.Secret, then, bot.ErrBadSig},
		"WrongSecret": {v.Body, "not-the-secret", then, bot.ErrBadSig},
		"NoSecret":    {v.Body, "", then, bot.ErrNoSignature},
	} {
		t.Run(name, func(t *testing.T) {
			if err := bot.Verify(h, []byte(tc.body), tc.secret, tc.now); err != tc.want {
				t.Errorf("Verify = %v, want %v", err, tc.want)
			}
		})
	}
}

const secret = "test-signing-secret"

// slashBody is the fixture's slash command, turned into /ethics with text, from the
// configured clerk (the fixture's user U2147483697), answering to the fake response_url.
func slashBody(t *testing.T, f *fakeSlack, text, trigger string) []byte {
	form, err := url.ParseQuery(strings.TrimSpace(string(fixture(t, "slash-command.form"))))
	if err != nil {
		t.Fatal(err)
	}
	form.Set("command", "/ethics")
	form.Set("text", text)
	form.Set("response_url", f.URL+"/response/"+trigger)
	form.Set("trigger_id", trigger)
	return []byte(form.Encode())
}

func post(t *testing.T, h http.Handler, path string, body []byte, ts time.Time, sig string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	if sig == "" {
		sig = sign(secret, ts.Unix(), body)
	}
	r.Header.Set("X-Slack-Signature", sig)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// replyOf is the ephemeral reply a slash command's HTTP response carries.
func replyOf(t *testing.T, body []byte) string {
	t.Helper()
	var r struct {
		ResponseType string `json:"response_type"`
		Text         string `json:"text"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.ResponseType != "ephemeral" {
		t.Fatalf("response %q is not an ephemeral reply: %v", body, err)
	}
	return r.Text
}

func TestHTTPSlashCommand(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	body := slashBody(t, e.slack,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email."`, "trig-1")
	start := time.Now()
	w := post(t, h, "/slack/commands", body, time.Now(), "")
	if w.Code != http.StatusOK || time.Since(start) > 3*time.Second {
		t.Fatalf("ack %d after %v", w.Code, time.Since(start))
	}
	// The reply is in the response: the 200 comes after the durable commit.
	reply := strings.Contains(replyOf(t, w.Body.Bytes()), "Filed as case *2026-001*")
	if all, _ := e.db.AllCases(context.Background()); len(all) != 1 {
		t.Fatalf("answered before the filing was recorded")
	}
	e.app.Wait()
	e.settle(t)
	calls := e.slack.wait(t, 1)
	var docketPost bool
	for _, c := range calls {
		switch {
		case c.Method == "chat.postMessage" && c.Fields["channel"] == "C_DOCKET" &&
			strings.Contains(fmt.Sprint(c.Fields["text"]), "Jane Roe"):
			docketPost = true
		case c.Method == "chat.postMessage" && c.Fields["channel"] == "C_NOTICES":
			t.Errorf("a filing reached the public channel: %+v", c)
		}
	}
	if !reply || !docketPost {
		t.Errorf("reply %v, docket post %v: %+v", reply, docketPost, calls)
	}

	t.Run("RetryFilesOnce", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodPost, "/slack/commands", bytes.NewReader(body))
		now := time.Now()
		r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now.Unix(), 10))
		r.Header.Set("X-Slack-Signature", sign(secret, now.Unix(), body))
		r.Header.Set("X-Slack-Retry-Num", "1")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		e.app.Wait()
		if all, _ := e.db.AllCases(context.Background()); len(all) != 1 {
			t.Errorf("a retried filing made %d cases", len(all))
		}
	})
	t.Run("FileAloneOpensModal", func(t *testing.T) {
		n := e.slack.count()
		post(t, h, "/slack/commands", slashBody(t, e.slack, "file", "trig-2"), time.Now(), "")
		e.app.Wait()
		calls := e.slack.wait(t, n+1)
		if c := calls[n]; c.Method != "views.open" || c.Fields["trigger_id"] != "trig-2" {
			t.Errorf("first call after `file`: %+v", c)
		}
	})
}

func TestHTTPRejectsForgedStaleAndOversized(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	body := slashBody(t, e.slack, `file respondent="A" complainant="B" section=103.10 summary="x"`, "trig-x")
	for name, tc := range map[string]struct {
		body []byte
		ts   time.Time
		sig  string
		code int
	}{
		"Forged":    {body, time.Now(), sign("wrong-secret", time.Now().Unix(), body), http.StatusUnauthorized},
		"Unsigned":  {body, time.Now(), "v0=", http.StatusUnauthorized},
		"Stale":     {body, time.Now().Add(-10 * time.Minute), "", http.StatusUnauthorized},
		"Replayed":  {body, time.Now().Add(-6 * time.Minute), "", http.StatusUnauthorized},
		"Oversized": {bytes.Repeat([]byte("a"), bot.MaxBody+1), time.Now(), "", http.StatusRequestEntityTooLarge},
	} {
		t.Run(name, func(t *testing.T) {
			w := post(t, h, "/slack/commands", tc.body, tc.ts, tc.sig)
			if w.Code != tc.code {
				t.Errorf("status %d, want %d", w.Code, tc.code)
			}
		})
	}
	e.app.Wait()
	time.Sleep(50 * time.Millisecond)
	if n := e.slack.count(); n != 0 {
		t.Errorf("rejected requests made %d Slack calls", n)
	}
	if all, _ := e.db.AllCases(context.Background()); len(all) != 0 {
		t.Errorf("rejected requests filed %d cases", len(all))
	}
}

func TestHTTPEventsAndHealth(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	w := post(t, h, "/slack/events",
		[]byte(`{"type":"url_verification","token":"x","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}`),
		time.Now(), "")
	if w.Code != 200 || w.Body.String() != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Errorf("url_verification: %d %q", w.Code, w.Body.String())
	}
	r := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"database":"ok"`) {
		t.Errorf("healthz: %d %s", rec.Code, rec.Body.String())
	}
	e.db.Close()
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("healthz with the database closed: %d", rec.Code)
	}
}

// TestHTTPDatabaseRemoved: with the database file removed under a running bot, /healthz
// answers 503 saying so (without the path), and a filing is refused, not "filed".
func TestHTTPDatabaseRemoved(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	for _, p := range []string{e.path, e.path + "-wal", e.path + "-shm"} {
		os.Remove(p)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var health map[string]string
	json.Unmarshal(rec.Body.Bytes(), &health)
	if rec.Code != http.StatusServiceUnavailable || health["status"] != "error" || health["database"] != "removed" {
		t.Errorf("healthz: %d %s, want 503 and database removed", rec.Code, rec.Body.String())
	}
	if strings.Contains(rec.Body.String(), filepath.Base(e.path)) {
		t.Errorf("healthz shows the path: %s", rec.Body.String())
	}
	body := slashBody(t, e.slack,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email."`, "trig-1")
	w := post(t, h, "/slack/commands", body, time.Now(), "")
	if reply := replyOf(t, w.Body.Bytes()); !strings.Contains(reply, "Not done") ||
		!strings.Contains(reply, "record cannot be written") || strings.Contains(reply, "ethicsbot.db") ||
		strings.Contains(reply, "Filed") {
		t.Errorf("filing with the file removed answered %q", reply)
	}
	e.app.Wait()
}

func TestHTTPViewSubmission(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	// Open the form as the clerk, then submit Slack's fixture payload carrying it.
	resp := e.app.Service.Handle(context.Background(), commands.Request{User: "U2147483697", Text: "file"})
	var cb map[string]any
	json.Unmarshal(fixture(t, "view-submission.json"), &cb)
	cb["user"].(map[string]any)["id"] = "U2147483697"
	view := cb["view"].(map[string]any)
	view["callback_id"] = resp.Modal.CallbackID
	view["private_metadata"] = resp.Modal.PrivateMetadata
	view["state"] = map[string]any{"values": map[string]any{
		"respondent":  map[string]any{"respondent": map[string]any{"type": "plain_text_input", "value": "Jane Roe"}},
		"complainant": map[string]any{"complainant": map[string]any{"type": "plain_text_input", "value": "John Doe"}},
		"section":     map[string]any{"section": map[string]any{"type": "plain_text_input", "value": "103.99"}},
		"summary":     map[string]any{"summary": map[string]any{"type": "plain_text_input", "value": "x"}},
	}}
	payload, _ := json.Marshal(cb)
	w := post(t, h, "/slack/interactivity", []byte("payload="+url.QueryEscape(string(payload))), time.Now(), "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"response_action":"errors"`) ||
		!strings.Contains(w.Body.String(), `"section"`) {
		t.Fatalf("a bad section should keep the modal open with an error: %d %s", w.Code, w.Body.String())
	}
	view["state"].(map[string]any)["values"].(map[string]any)["section"] = map[string]any{"section": map[string]any{"type": "plain_text_input", "value": "103.10"}}
	payload, _ = json.Marshal(cb)
	w = post(t, h, "/slack/interactivity", []byte("payload="+url.QueryEscape(string(payload))), time.Now(), "")
	// A good submission shows what it did in the modal's place, with only a Done button.
	var answer struct {
		Action string `json:"response_action"`
		View   struct {
			Blocks []struct{ Text struct{ Text string } }
			Submit *struct{}
			Close  struct{ Text string }
		}
	}
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &answer) != nil || answer.Action != "update" ||
		answer.View.Submit != nil ||
		answer.View.Close.Text != "Done" || len(answer.View.Blocks) == 0 ||
		!strings.Contains(answer.View.Blocks[0].Text.Text, "Filed as case *2026-001*") {
		t.Fatalf("a good submission should show what it did: %d %s", w.Code, w.Body.String())
	}
	e.app.Wait()
	if all, _ := e.db.AllCases(context.Background()); len(all) != 1 {
		t.Fatalf("%d cases filed from the modal", len(all))
	}
	// What the form did is said as a typed command's is: the case's card in the docket
	// channel, and the filing's line in its thread.
	rows, _ := e.db.Outbox(context.Background())
	var card, reply bool
	for _, r := range rows {
		card = card || r.Key.Series == outbox.CardSeries && r.Key.Step == "parent" && r.Key.Case == "2026-001"
		reply = reply || r.Key.Series == outbox.EventSeries && r.Thread.Series == outbox.CardSeries &&
			r.Thread.Case == "2026-001"
	}
	if !card || !reply {
		t.Errorf("after the form: the case's card %v, the filing's line in its thread %v", card, reply)
	}
}

func TestSocketModeDispatch(t *testing.T) {
	e := newEnv(t)
	client := socketmode.New(e.app.API)
	h := e.app.SocketHandler(client)
	var env socketmode.Request
	if err := json.Unmarshal(fixture(t, "socket-slash-command.json"), &env); err != nil {
		t.Fatal(err)
	}
	var cmd slack.SlashCommand
	if err := json.Unmarshal(env.Payload, &cmd); err != nil {
		t.Fatal(err)
	}
	cmd.Command, cmd.UserID, cmd.Text = "/ethics", "U2147483697", "docket"
	cmd.ResponseURL = e.slack.URL + "/response/socket"
	h.DispatchEvent(socketmode.Event{Type: socketmode.EventTypeSlashCommand, Data: cmd, Request: &env})
	calls := e.slack.wait(t, 1)
	e.app.Wait()
	if c := calls[0]; c.Method != "response_url" || !strings.Contains(fmt.Sprint(c.Fields["text"]), "No open cases.") {
		t.Errorf("reply %+v", c)
	}
}

// TestSlackOutageRetries: a 429 with Retry-After, then a 500, then success: the message is
// delivered once.
func TestSlackOutageRetries(t *testing.T) {
	var mu sync.Mutex
	var attempts, delivered int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		switch attempts {
		case 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		case 2:
			w.WriteHeader(http.StatusInternalServerError)
		default:
			delivered++
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"channel":"C1","ts":"1.2"}`)
		}
	}))
	defer srv.Close()
	e := newEnv(t)
	e.app.API = slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/api/"))
	start := time.Now()
	e.app.Deliver(context.Background(), []commands.Message{{Text: "hello"}}, bot.Reply{Channel: "C_DOCKET", User: "U1"})
	if delivered != 1 || attempts != 3 || time.Since(start) < time.Second {
		t.Errorf("delivered %d after %d attempts in %v", delivered, attempts, time.Since(start))
	}
}

// TestReplyFallsBackToDM: a form opened where the bot is not a member still answers the
// user, in their direct messages.
func TestReplyFallsBackToDM(t *testing.T) {
	e := newEnv(t)
	e.slack.fail = map[string]string{"chat.postEphemeral": "channel_not_found"}
	e.app.Deliver(context.Background(), []commands.Message{{Text: "Filed as case 2026-001."}},
		bot.Reply{Channel: "D0SOMEDM", User: "U2147483697"})
	calls := e.slack.wait(t, 2)
	if c := calls[1]; c.Method != "chat.postMessage" || c.Fields["channel"] != "U2147483697" {
		t.Errorf("fallback %+v", c)
	}
}

// TestExpiredResponseURLIsNotRetried: a 404 will not get better; one attempt only.
func TestExpiredResponseURLIsNotRetried(t *testing.T) {
	e := newEnv(t)
	e.slack.fail = map[string]string{"response_url": "404"}
	start := time.Now()
	e.app.Deliver(context.Background(), []commands.Message{{Text: "x"}},
		bot.Reply{ResponseURL: e.slack.URL + "/response/old", Channel: "C1", User: "U1"})
	if n := e.slack.count(); n != 1 || time.Since(start) > time.Second {
		t.Errorf("%d attempts in %v", n, time.Since(start))
	}
}

// TestSocketModeStopsOnMissingScope: an app token without connections:write stops the bot
// with a message, instead of reconnecting for ever.
func TestSocketModeStopsOnMissingScope(t *testing.T) {
	e := newEnv(t)
	e.slack.fail = map[string]string{"apps.connections.open": "missing_scope"}
	api := slack.New("xoxb-test", slack.OptionAppLevelToken("xapp-test"), slack.OptionAPIURL(e.slack.URL+"/api/"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.app.RunSocketMode(ctx, socketmode.New(api))
	if err == nil || !strings.Contains(err.Error(), "missing_scope") || ctx.Err() != nil {
		t.Errorf("RunSocketMode = %v", err)
	}
}

// TestSocketModeStopsOnRevokedAppToken: an app-level token Slack revoked stops the bot
// with what to do, naming where this install keeps the token.
func TestSocketModeStopsOnRevokedAppToken(t *testing.T) {
	e := newEnv(t)
	e.slack.fail = map[string]string{"apps.connections.open": "token_revoked"}
	e.app.AppToken = bot.AppToken("the file /etc/ethicsbot/app-token (SLACK_APP_TOKEN_FILE)")
	api := slack.New("xoxb-test", slack.OptionAppLevelToken("xapp-test"), slack.OptionAPIURL(e.slack.URL+"/api/"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.app.RunSocketMode(ctx, socketmode.New(api))
	want := "Slack refused the app-level token (token_revoked): the token was revoked. To do: generate a new " +
		"app-level token with the connections:write scope (api.slack.com/apps, Basic Information, App-Level Tokens), " +
		"put it in the file /etc/ethicsbot/app-token (SLACK_APP_TOKEN_FILE), and restart ethicsbot"
	if err == nil || err.Error() != want || ctx.Err() != nil {
		t.Errorf("RunSocketMode = %v\nwant %s", err, want)
	}
}

// play runs the complete case as a person would type it: ":as" changes who types,
// ":clock" sets the service's clock, and each /ethics line goes to send.
func play(e *env, send func(i int, user, text string)) {
	svc := e.app.Service
	reconfigure(svc, func(st *commands.Settings) {
		st.Roles = commands.Roles{Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"}, Clerks: []string{"U_CLERK"}}
		st.Voting = commands.Voting{Required: true} // as configured by default
	})
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	svc.Now = func() time.Time { return now }
	user := "U_CLERK"
	for i, line := range strings.Split(strings.TrimSpace(completeCase), "\n") {
		switch {
		case strings.HasPrefix(line, ":as "):
			user = strings.TrimPrefix(line, ":as ")
		case strings.HasPrefix(line, ":clock "):
			now, _ = time.Parse(time.RFC3339, strings.TrimPrefix(line, ":clock "))
		default:
			send(i, user, strings.TrimPrefix(line, "/ethics "))
		}
	}
}

// TestHTTPCompleteCase drives the console's complete case through signed HTTP requests,
// as Slack would send them, and checks what reaches the public channel.
func TestHTTPCompleteCase(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	var notices, refusals []string
	play(e, func(i int, user, text string) {
		form, _ := url.ParseQuery(strings.TrimSpace(string(fixture(t, "slash-command.form"))))
		form.Set("command", "/ethics")
		form.Set("text", text)
		form.Set("user_id", user)
		form.Set("trigger_id", fmt.Sprintf("trigger-%d", i))
		form.Set("response_url", e.slack.URL+"/response/"+strconv.Itoa(i))
		w := post(t, h, "/slack/commands", []byte(form.Encode()), time.Now(), "")
		if w.Code != 200 {
			t.Fatalf("%s: %d", text, w.Code)
		}
		if reply := replyOf(t, w.Body.Bytes()); strings.HasPrefix(reply, "Not done") || strings.HasPrefix(reply, "Only ") {
			refusals = append(refusals, reply)
		}
		e.app.Wait() // each step sees the one before, as a person typing would
	})
	e.settle(t)
	e.slack.mu.Lock()
	for _, c := range e.slack.calls {
		if c.Method == "chat.postMessage" && c.Fields["channel"] == "C_NOTICES" {
			notices = append(notices, fmt.Sprint(c.Fields["text"]))
		}
	}
	e.slack.mu.Unlock()
	if len(refusals) > 0 {
		t.Errorf("refused: %q", refusals)
	}
	if len(notices) != 5 || !strings.Contains(notices[4], "final recommendation in case 2026-001") {
		t.Errorf("public notices: %q", notices)
	}
	for _, n := range notices[:2] {
		if strings.Contains(n, "Jane Roe") || strings.Contains(n, "John Doe") {
			t.Errorf("a party is named before the ordinance makes the case public: %s", n)
		}
	}
	c, err := e.db.Case(context.Background(), "2026-001")
	if err != nil || c.State != docket.StateFinal {
		t.Errorf("case ended %v, %v", c.State, err)
	}
}

const completeCase = `
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="Used city email to campaign."
/ethics schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall, Room 201"
/ethics posted 2026-001 sufficiency
/ethics mail 2026-001 respondent 9407 1118 9876 5432 1016 34
/ethics mail 2026-001 complainant 9407 1118 9876 5432 1015 35
:clock 2026-12-07T18:00:00-06:00
:as U_COMM1
/ethics rule 2026-001 probable_cause hearing=2026-12-10T10:00 place="Council Chambers" closed="5 ILCS 120/2(c)(4)" yes=U_COMM1,U_COMM2,U_COMM3
/ethics posted 2026-001 hearing
:clock 2026-12-10T15:00:00-06:00
/ethics concluded 2026-001
/ethics decide 2026-001 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="Violated 103.10." yes=U_COMM1,U_COMM2 no=U_COMM3
:clock 2026-12-11T10:00:00-06:00
:as U_CLERK
/ethics demand 2026-001
/ethics schedule 2026-001 public_hearing 2026-12-14T18:00 place="Council Chambers"
/ethics posted 2026-001 public_hearing
:clock 2026-12-14T20:00:00-06:00
/ethics held 2026-001
:as U_COMM1
/ethics final 2026-001 text="Reprimand and fine affirmed." fine=2500 intentional=yes yes=U_COMM1,U_COMM2 absent=U_COMM3
`

// TestSocketModeCompleteCase drives the same case through Socket Mode envelopes.
func TestSocketModeCompleteCase(t *testing.T) {
	e := newEnv(t)
	h := e.app.SocketHandler(socketmode.New(e.app.API))
	var env socketmode.Request
	json.Unmarshal(fixture(t, "socket-slash-command.json"), &env)
	replies := func() int { return e.slack.countOf("response_url") }
	play(e, func(i int, user, text string) {
		var cmd slack.SlashCommand
		json.Unmarshal(env.Payload, &cmd)
		cmd.Command, cmd.UserID, cmd.Text = "/ethics", user, text
		cmd.TriggerID, cmd.ResponseURL = fmt.Sprintf("socket-%d", i), e.slack.URL+"/response/s"+strconv.Itoa(i)
		before := replies()
		req := env
		req.EnvelopeID = fmt.Sprintf("env-%d", i)
		h.DispatchEvent(socketmode.Event{Type: socketmode.EventTypeSlashCommand, Data: cmd, Request: &req})
		for deadline := time.Now().Add(5 * time.Second); replies() == before && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
	})
	e.app.Wait()
	c, err := e.db.Case(context.Background(), "2026-001")
	if err != nil || c.State != docket.StateFinal {
		t.Errorf("case ended %v, %v", c.State, err)
	}
}

// slowRecord is a record whose filings take a while, like a database under load.
type slowRecord struct {
	*store.Store
	delay time.Duration
}

func (r slowRecord) File(ctx context.Context, act docket.Act, f docket.File) (docket.Result, error) {
	time.Sleep(r.delay)
	return r.Store.File(ctx, act, f)
}

// TestSlowCommandIsAckedThenAnswered: a command that outlasts the inline window is acked
// at once with an empty 200 and answered through response_url.
func TestSlowCommandIsAckedThenAnswered(t *testing.T) {
	e := newEnv(t)
	e.app.Service.Record = slowRecord{e.db, 300 * time.Millisecond}
	defer func(d time.Duration) { bot.SlashInline = d }(bot.SlashInline)
	bot.SlashInline = 50 * time.Millisecond
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	start := time.Now()
	w := post(t, h, "/slack/commands",
		slashBody(t, e.slack, `file respondent="A" complainant="B" section=103.10 summary="x"`, "slow"), time.Now(), "")
	if w.Code != 200 || w.Body.Len() != 0 || time.Since(start) > 250*time.Millisecond {
		t.Fatalf("ack %d %q after %v", w.Code, w.Body.String(), time.Since(start))
	}
	e.app.Wait()
	var answered bool
	for _, c := range e.slack.wait(t, 2) {
		if c.Method == "response_url" && strings.Contains(fmt.Sprint(c.Fields["text"]), "Filed as case") {
			answered = true
		}
	}
	if !answered {
		t.Error("no answer through response_url")
	}
}

// TestNoticeQueuedBeforeTheAnswer: when a command's 200 goes back, the public notice it
// caused is already in the outbox, so a crash right after cannot lose it.
func TestNoticeQueuedBeforeTheAnswer(t *testing.T) {
	blocked := make(chan struct{})
	e := newEnvSender(t, &blockingSender{release: blocked})
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	post(t, h, "/slack/commands",
		slashBody(t, e.slack, `file respondent="A" complainant="B" section=103.10 received=2026-12-04T10:00 summary="x"`,
			"q1"), time.Now(), "")
	w := post(t, h, "/slack/commands",
		slashBody(t, e.slack, `schedule 2026-001 sufficiency 2026-12-10T17:00 place="City Hall"`, "q2"), time.Now(), "")
	if !strings.Contains(replyOf(t, w.Body.Bytes()), "scheduled") {
		t.Fatalf("reply %q", w.Body.String())
	}
	all, err := e.db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var notice bool
	for _, r := range all {
		notice = notice || strings.HasPrefix(string(r.Text), "PUBLIC NOTICE") && r.Key.To.Channel == "C_NOTICES" &&
			r.Sent.IsZero()
	}
	if !notice {
		t.Errorf("at the 200 the public notice is not in the outbox: %+v", all)
	}
	close(blocked)
	e.app.Wait()
}

// blockingSender holds every send until released.
type blockingSender struct{ release chan struct{} }

func (b *blockingSender) Send(ctx context.Context, d outbox.Dest, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	select {
	case <-b.release:
		return d.String(), "1", nil
	case <-ctx.Done():
		return "", "", ctx.Err()
	}
}

func (b *blockingSender) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// TestHelpAnsweredInOnePiece: help reads no record, so it is answered on the request's own
// goroutine even when there is no record to read; its reply goes out in one piece with its
// length, not chunked, byte for byte what encoding it afresh gives, every time; and a
// reload of the settings that changes the text is answered with the new text, never a
// kept one.
func TestHelpAnsweredInOnePiece(t *testing.T) {
	e := newEnv(t)
	e.app.Service.Record = nil // help must not need it
	srv := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer srv.Close()
	texts := map[string]bool{}
	for i, voting := range []bool{false, false, true, true, false} {
		reconfigure(e.app.Service, func(st *commands.Settings) { st.Voting.Required = voting })
		resp, err := srv.Client().Do(signedRequest(t, srv.URL, "help", fmt.Sprint("help-", i)))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		help := e.app.Service.Handle(context.Background(), commands.Request{User: "U2147483697", Text: "help"})
		var want bytes.Buffer
		json.NewEncoder(&want).Encode(struct {
			ResponseType string `json:"response_type"`
			Text         string `json:"text"`
		}{"ephemeral", string(help.Messages[0].Text)})
		if !bytes.Equal(body, want.Bytes()) {
			t.Errorf("help %d (votes required: %v) answered\n%s\nwant\n%s", i, voting, body, want.Bytes())
		}
		if resp.ContentLength != int64(len(body)) || len(resp.TransferEncoding) > 0 {
			t.Errorf("help %d: length %d, transfer encoding %v, for %d bytes", i, resp.ContentLength,
				resp.TransferEncoding, len(body))
		}
		texts[string(body)] = true
	}
	if len(texts) != 2 {
		t.Errorf("help said %d different texts under two settings", len(texts))
	}
}
