package bot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
)

// flakySlack answers auth.test with each of answers in turn (an HTTP status, or a Slack
// error code), then ok, and counts the calls. A 429 asks to wait 45 s.
type flakySlack struct {
	*httptest.Server
	mu      sync.Mutex
	calls   int
	answers []string
	onCall  func(n int) // optional, called before answering
}

func newFlakySlack(t *testing.T, answers ...string) *flakySlack {
	f := &flakySlack{answers: answers}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.calls++
		n, onCall := f.calls, f.onCall
		answer := "ok"
		if n <= len(f.answers) {
			answer = f.answers[n-1]
		}
		f.mu.Unlock()
		if onCall != nil {
			onCall(n)
		}
		w.Header().Set("Content-Type", "application/json")
		var status int
		switch _, err := fmt.Sscan(answer, &status); {
		case err == nil:
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", "45")
			}
			w.WriteHeader(status)
		case answer == "ok":
			io.WriteString(w, `{"ok":true,"user_id":"UBOT","team_id":"T1"}`)
		default:
			fmt.Fprintf(w, `{"ok":false,"error":%q}`, answer)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *flakySlack) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *flakySlack) api() *slack.Client {
	return slack.New("xoxb-test", slack.OptionAPIURL(f.URL+"/api/"))
}

// recordWaits makes CheckAuth record its waits instead of sleeping.
func recordWaits(t *testing.T) *[]time.Duration {
	var waits []time.Duration
	bot.SetAuthWait(t, func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	})
	return &waits
}

// TestCheckAuthWaitsForSlack: Slack down at start (503s, a 500, a rate limit) is waited
// for, 1 s doubling up to 30 s, or as long as a rate limit asks, each failure logged with
// the wait; then the bot starts.
func TestCheckAuthWaitsForSlack(t *testing.T) {
	f := newFlakySlack(t, "503", "503", "429", "500", "503", "503", "503", "503")
	waits := recordWaits(t)
	var logs bytes.Buffer
	err := bot.CheckAuth(context.Background(), f.api(), bot.BotToken("SLACK_BOT_TOKEN"),
		slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatalf("CheckAuth = %v", err)
	}
	if got, want := f.count(), 9; got != want {
		t.Errorf("%d calls to auth.test, want %d", got, want)
	}
	s := time.Second
	if want := []time.Duration{1 * s, 2 * s, 45 * s, 8 * s, 16 * s, 30 * s, 30 * s,
		30 * s}; !reflect.DeepEqual(*waits, want) {
		t.Errorf("waits %v, want %v", *waits, want)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 8 || !strings.Contains(lines[0], "retry_in=1s") || !strings.Contains(lines[7], "retry_in=30s") ||
		!strings.Contains(lines[3], "500") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// TestCheckAuthRetriesUnreachableSlack: nothing listening at the API URL is a network
// failure, waited for like a 503.
func TestCheckAuthRetriesUnreachableSlack(t *testing.T) {
	f := newFlakySlack(t)
	api := f.api()
	f.Close() // the address now refuses connections
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tries := 0
	bot.SetAuthWait(t, func(ctx context.Context, d time.Duration) error {
		if tries++; tries == 3 {
			cancel() // SIGTERM while waiting
		}
		return ctx.Err()
	})
	err := bot.CheckAuth(ctx, api, bot.BotToken("SLACK_BOT_TOKEN"), slog.New(slog.DiscardHandler))
	if !errors.Is(err, context.Canceled) || tries != 3 {
		t.Errorf("CheckAuth = %v after %d waits; want context.Canceled after 3", err, tries)
	}
}

// TestCheckAuthStopsAtOnce: answers that waiting cannot change end start-up at once, with
// a message that says what to do.
func TestCheckAuthStopsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string
	}{
		{"InvalidAuth", "invalid_auth",
			"Slack refused the bot token (invalid_auth): the token is not valid. To do: reinstall the app in Slack " +
				"(api.slack.com/apps, Install App), put the new Bot User OAuth Token (xoxb-...) in the credential file " +
				"/etc/ethicsbot/credentials/slack-bot-token, and restart ethicsbot"},
		{"TokenRevoked", "token_revoked", "the token was revoked. To do: reinstall the app"},
		{"AccountInactive", "account_inactive", "the app's account is deactivated. To do: reinstall the app"},
		{"MissingScope", "missing_scope", "the app lacks a scope it needs; reinstall it from manifest.yml. To do: " +
			"reinstall the app from manifest.yml (api.slack.com/apps, App Manifest, then Install App), and restart ethicsbot"},
		{"WrongAPIURL", "404", "404"},
		{"OtherSlackError", "team_access_not_granted", "team_access_not_granted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlakySlack(t, tc.answer, tc.answer)
			waits := recordWaits(t)
			err := bot.CheckAuth(context.Background(), f.api(),
				bot.BotToken("the credential file /etc/ethicsbot/credentials/slack-bot-token"), slog.New(slog.DiscardHandler))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckAuth = %v, want %q", err, tc.want)
			}
			if f.count() != 1 || len(*waits) != 0 {
				t.Errorf("%d calls, waits %v; want one call and no wait", f.count(), *waits)
			}
		})
	}
}

// TestCheckAuthStopsWhenCancelled: a SIGTERM while Slack is down ends the wait and
// CheckAuth, with ctx's error, so ethicsbot exits cleanly. The real wait is used: were it
// deaf to ctx, this test would hang until go test's timeout.
func TestCheckAuthStopsWhenCancelled(t *testing.T) {
	f := newFlakySlack(t, "503")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.onCall = func(int) { cancel() }
	err := bot.CheckAuth(ctx, f.api(), bot.BotToken("SLACK_BOT_TOKEN"), slog.New(slog.DiscardHandler))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("CheckAuth = %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := bot.AuthWait(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("wait = %v, want context.Canceled", err)
	}
}
