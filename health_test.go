package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
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

// TestRefusedTokenNamesTheCredential: under systemd the bot token is a credential file
// (LoadCredential=), and a refused token at start says to put the new one there, not in an
// environment variable the unit does not use; SLACK_BOT_TOKEN_FILE names its file.
func TestRefusedTokenNamesTheCredential(t *testing.T) {
	srv, _ := authSlack(t, http.StatusOK, `{"ok":false,"error":"token_revoked"}`)
	creds := t.TempDir()
	for _, name := range []string{"slack-bot-token", "slack-signing-secret"} {
		if err := os.WriteFile(filepath.Join(creds, name), []byte("xoxb-revoked\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "bot-token")
	if err := os.WriteFile(file, []byte("xoxb-revoked\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"Credential", map[string]string{"CREDENTIALS_DIRECTORY": creds},
			"put the new Bot User OAuth Token (xoxb-...) in the credential file that ethicsbot's systemd unit names in " +
				"LoadCredential=slack-bot-token:… (/etc/ethicsbot/credentials/slack-bot-token in deploy/ethicsbot.service), " +
				"and restart ethicsbot"},
		{"File", map[string]string{"SLACK_BOT_TOKEN_FILE": file, "SLACK_SIGNING_SECRET": "s"},
			"put the new Bot User OAuth Token (xoxb-...) in the file " + file + " (SLACK_BOT_TOKEN_FILE), and restart"},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := writeConfig(t, slackConfig)
			env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
			env["SLACK_API_URL"], env["ETHICSBOT_ADDR"], env["ETHICSBOT_ADMIN_ADDR"] = srv.URL+"/api", "127.0.0.1:0",
				"127.0.0.1:0"
			for k, v := range c.env {
				env[k] = v
			}
			code, _, errOut := runCLI(t, env, "")
			if code != 1 || !strings.Contains(errOut, "Slack refused the bot token (token_revoked): the token was revoked. "+
				"To do: reinstall the app in Slack (api.slack.com/apps, Install App), "+c.want) ||
				strings.Contains(errOut, "SLACK_BOT_TOKEN in") {
				t.Errorf("exit %d, stderr %s", code, errOut)
			}
		})
	}
}
