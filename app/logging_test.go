package app

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

func TestLogSettings(t *testing.T) {
	var buf bytes.Buffer
	logger, err := newLogger(&buf, func(k string) string {
		return map[string]string{"ETHICSBOT_LOG_LEVEL": "warn", "ETHICSBOT_LOG_FORMAT": "json"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	logger.Info("not shown")
	logger.Warn("shown", "n", 1)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || line["msg"] != "shown" || line["level"] != "WARN" {
		t.Errorf("json at warn: %q (%v)", buf.String(), err)
	}
	buf.Reset()
	logger, _ = newLogger(&buf, func(string) string { return "" })
	logger.Debug("not shown")
	logger.Info("shown")
	if got := buf.String(); !strings.Contains(got, "level=INFO msg=shown") || strings.Contains(got, "not shown") {
		t.Errorf("default: %q", got)
	}
	for _, env := range []map[string]string{{"ETHICSBOT_LOG_LEVEL": "loud"}, {"ETHICSBOT_LOG_FORMAT": "xml"}} {
		if _, err := newLogger(&buf, func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
	// A start with a setting it does not know stops at once and says which.
	env := apptest.Defaults(t)
	env["ETHICSBOT_LOG_LEVEL"] = "loud"
	if code, _, errOut := run(t, env, ":quit\n"); code != ExitConfig ||
		!strings.Contains(errOut, `ETHICSBOT_LOG_LEVEL "loud" is not one of debug, info, warn, error`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
	env = apptest.Defaults(t)
	env["ETHICSBOT_TRUSTED_PROXIES"] = "proxy.example"
	if code, _, errOut := run(t, env, ":quit\n"); code != ExitConfig ||
		!strings.Contains(errOut, `"proxy.example" is not an IP address or a CIDR range`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestAccessLog: each request to the board and feeds is logged, and a calendar feed's
// token, which is the feed's only secret, never is.
func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	logger, _ := newLogger(&buf, func(string) string { return "" })
	h := accessLog(logger, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("hello"))
	}))
	for _, target := range []string{"/calendar/s3cr3t-t0ken.ics?x=s3cr3t-t0ken", "/calendar/s3cr3t-t0ken",
		"/2026/?q=s3cr3t-t0ken", "/missing"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", target, nil))
	}
	log := buf.String()
	if strings.Contains(log, "s3cr3t") {
		t.Errorf("the log shows a calendar token:\n%s", log)
	}
	for _, want := range []string{
		`msg=http method=GET path=/calendar/[token] status=200 bytes=5`,
		`path=/2026/ status=200 bytes=5`,
		`path=/missing status=404`,
		`client=192.0.2.1`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

func TestTrustedProxies(t *testing.T) {
	ps, err := parseProxies("127.0.0.1, 10.0.0.0/8 ,::1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		remote, xff, want string
	}{
		{"203.0.113.9:5000", "198.51.100.7", "203.0.113.9"}, // not from a proxy: the header is anyone's
		{"127.0.0.1:5000", "198.51.100.7", "198.51.100.7"},  // from the proxy
		{"[::1]:5000", "198.51.100.7", "198.51.100.7"},      // from the proxy over IPv6
		{"127.0.0.1:5000", "6.6.6.6, 198.51.100.7, 10.1.2.3",
			"198.51.100.7"}, // the client's own claim is left of what proxies saw
		{"127.0.0.1:5000", "", "127.0.0.1"},         // no header: the proxy itself
		{"127.0.0.1:5000", "nonsense", "127.0.0.1"}, // a malformed header is not believed
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		if got := ps.client(r); got != tc.want {
			t.Errorf("%s with X-Forwarded-For %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
	if got := proxies(nil).client(&http.Request{RemoteAddr: "127.0.0.1:1",
		Header: http.Header{"X-Forwarded-For": {"1.2.3.4"}}}); got != "127.0.0.1" {
		t.Errorf("with no trusted proxy the header was believed: %s", got)
	}
}

// TestJSONLogDurationsInSeconds: a log collector reads a duration in the JSON log as
// seconds, a number it can sum and compare (1.5, not slog's 1500000000 nanoseconds), in
// a group too; logfmt keeps the form a person reads, 1.5s.
func TestJSONLogDurationsInSeconds(t *testing.T) {
	var buf bytes.Buffer
	logger, err := newLogger(&buf, func(k string) string { return map[string]string{"ETHICSBOT_LOG_FORMAT": "json"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	logger.Info("took", "duration", 1500*time.Millisecond, slog.Group("sweep", "took", 250*time.Microsecond),
		"n", 3)
	var line struct {
		Duration any
		Sweep    struct{ Took any }
		N        any
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line.Duration != 1.5 || line.Sweep.Took != 0.00025 || line.N != 3.0 {
		t.Errorf("json: %s", buf.String())
	}
	buf.Reset()
	logger, _ = newLogger(&buf, func(string) string { return "" })
	logger.Info("took", "duration", 1500*time.Millisecond)
	if !strings.Contains(buf.String(), "duration=1.5s") {
		t.Errorf("logfmt: %s", buf.String())
	}
}
