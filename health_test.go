package main

import (
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/config"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// testStats are the metrics of a fresh record in a temporary folder, logged to log (nil:
// nowhere), and the record.
func testStats(t *testing.T, log *slog.Logger) (*metrics, *store.Store) {
	t.Helper()
	env := writeConfig(t, slackConfig)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := mustOpenRecord(t, cfg)
	t.Cleanup(func() { db.Close() })
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return newMetrics(db, cfg.Database, time.Now, log), db
}

// TestServiceProbesTheToken: with nothing to say, the deliverer still asks Slack every
// few minutes whether it takes the bot token (auth.test), through the sender that counts
// deliveries for /metrics, as the service wires them: a token revoked while all is quiet
// is found then, not at the next message.
func TestServiceProbesTheToken(t *testing.T) {
	srv, calls := authSlack(t, http.StatusOK, `{"ok":false,"error":"token_revoked"}`)
	m, db := testStats(t, nil)
	api := slack.New("xoxb-1", slack.OptionAPIURL(srv.URL+"/api/"))
	d := &outbox.Deliverer{Store: db, Sender: m.sender(&bot.Sender{API: api})}
	ctx, now := context.Background(), time.Now()
	d.Probe(ctx, now)
	h, err := d.Health(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 || h.TokenRefused != "token_revoked" {
		t.Errorf("after a probe: %d calls to auth.test, the token refused %q; want 1 and token_revoked", calls.Load(),
			h.TokenRefused)
	}
}
