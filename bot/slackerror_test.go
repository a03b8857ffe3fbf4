package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
)

// proxyURL stands for a SLACK_API_URL inside the city's network: users must never see it.
const proxyURL = "https://slack-proxy.city.internal/api/views.open"

func TestSlackErrorShowsNoURL(t *testing.T) {
	refused := &url.Error{Op: "Post", URL: proxyURL, Err: &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"SlackCode", slack.SlackErrorResponse{Err: "channel_not_found"}, "channel_not_found"},
		{"Timeout", &url.Error{Op: "Post", URL: proxyURL, Err: context.DeadlineExceeded}, "Slack did not answer in time"},
		{"Refused", refused, "Slack could not be reached"},
		{"RefusedWrapped", fmt.Errorf("opening the direct messages with U1: %w", refused), "Slack could not be reached"},
		{"DNS",
			&url.Error{Op: "Post", URL: proxyURL,
				Err: &net.DNSError{Err: "no such host", Name: "slack-proxy.city.internal", IsNotFound: true}},
			"Slack could not be reached"},
		{"BadCertificate", &url.Error{Op: "Post", URL: proxyURL, Err: errors.New("tls: failed to verify certificate")},
			"Slack could not be reached"},
		{"Stopping", &url.Error{Op: "Post", URL: proxyURL, Err: context.Canceled}, "ethicsbot stopped before Slack answered"},
		{"ServerError", slack.StatusCodeError{Code: 503, Status: "503 Service Unavailable"},
			"Slack answered with an error, HTTP 503"},
		{"RateLimited", &slack.RateLimitedError{RetryAfter: time.Second}, "Slack asked ethicsbot to slow down"},
		{"NotSlack", errors.New("database is locked"), "database is locked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := bot.SlackError(tc.err); got != tc.want {
				t.Errorf("slackError = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFormTimeoutShowsNoURL: views.open through a proxy that does not answer in time. The
// user is told the form could not be opened and why, in words, without the proxy's URL.
func TestFormTimeoutShowsNoURL(t *testing.T) {
	e := newEnv(t)
	var mu sync.Mutex
	var replies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body) // so that the server sees the client hang up
		if strings.HasSuffix(r.URL.Path, "/views.open") {
			select { // hangs past the client's timeout, but not for ever
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		var m struct{ Text string }
		json.Unmarshal(b, &m)
		mu.Lock()
		replies = append(replies, m.Text)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	e.app.API = slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/internal-proxy/api/"),
		slack.OptionHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
	e.app.Client = srv.Client() // the reply goes to this server's response_url
	e.app.Log = slog.New(slog.DiscardHandler)
	e.app.Slash(context.Background(), slack.SlashCommand{Command: "/ethics", Text: "file", UserID: "U2147483697",
		ChannelID: "C1", TriggerID: "t1", ResponseURL: srv.URL + "/response/1"})
	mu.Lock()
	defer mu.Unlock()
	if len(replies) != 1 {
		t.Fatalf("replies %q, want one", replies)
	}
	got := replies[0]
	if !strings.Contains(got, "The form could not be opened (Slack did not answer in time).") ||
		strings.Contains(got, "internal-proxy") || strings.Contains(got, "http") {
		t.Errorf("reply %q", got)
	}
}

// TestResponseURLBodiesHaveNoNulls: a reply through a response_url, with blocks or
// without, carries no null field and no empty metadata, which Slack's types reject.
func TestResponseURLBodiesHaveNoNulls(t *testing.T) {
	e := newEnv(t)
	for i, text := range []string{"docket", `file respondent="Jane Roe" complainant="John Doe" section=103.10 summary=x`,
		"case 2026-001"} {
		e.app.Slash(context.Background(),
			slack.SlashCommand{Command: "/ethics", Text: text, UserID: "U2147483697", ChannelID: "C1",
				ResponseURL: fmt.Sprintf("%s/response/nulls%d", e.slack.URL, i)})
	}
	e.app.Wait()
	e.slack.mu.Lock()
	defer e.slack.mu.Unlock()
	replies, blocks := 0, 0
	for _, c := range e.slack.calls {
		if c.Method != "response_url" {
			continue
		}
		replies++
		for k, v := range c.Fields {
			if m, ok := v.(map[string]any); v == nil || ok && len(m) == 0 || k == "metadata" {
				t.Errorf("a response_url body has %q: %v", k, v)
			}
		}
		if _, ok := c.Fields["blocks"]; ok {
			blocks++
		}
	}
	if replies != 3 || blocks != 1 {
		t.Errorf("%d replies, %d with blocks; want 3, the card's with blocks", replies, blocks)
	}
}
