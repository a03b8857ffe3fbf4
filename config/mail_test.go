package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestMailConfig: the commission's next step after returned certified mail is configured
// under mail:, defaults to first-class mail after a refused or unclaimed piece and to
// certified mail after an undeliverable one, and an unknown step is refused with its line.
func TestMailConfig(t *testing.T) {
	env := writeConfig(t, "mail:\n  after_unclaimed: hand\n  after_undeliverable: none\n")
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mail.After(docket.Unclaimed) != docket.ByHand || cfg.Mail.After(docket.Refused) != docket.ByHand ||
		cfg.Mail.After(docket.Undeliverable) != docket.NoStep {
		t.Errorf("mail policy %+v", cfg.Mail)
	}
	e, err := cfg.Engine()
	if err != nil || e.Mail != cfg.Mail {
		t.Errorf("the engine does not follow the configured policy: %+v, %v", e, err)
	}
	var none docket.MailPolicy
	if none.After(docket.Unclaimed) != docket.FirstClass || none.After(docket.Undeliverable) != docket.Recertify {
		t.Errorf("default policy: after unclaimed %s, after undeliverable %s", none.After(docket.Unclaimed),
			none.After(docket.Undeliverable))
	}
	env = writeConfig(t, "timezone: America/Chicago\nmail:\n  after_unclaimed: pigeon\n")
	if _, err := Load(func(k string) string { return env[k] }); err == nil ||
		!strings.Contains(err.Error(), `line 3: "pigeon" is not a next step`) {
		t.Errorf("an unknown next step: %v", err)
	}
}

// TestMailPolicyNeedsRestart: the mail policy is the engine's, built at start, so a reload
// that changes it says it needs a restart.
func TestMailPolicyNeedsRestart(t *testing.T) {
	old, next := Config{}, Config{Mail: docket.MailPolicy{Unclaimed: docket.ByHand}}
	if got := NeedsRestart(old, next); len(got) != 1 || got[0] != "mail" {
		t.Errorf("NeedsRestart = %v, want [mail]", got)
	}
}

// writeConfig writes body as a configuration file and returns the environment that names it.
func writeConfig(t *testing.T, body string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ethicsbot.yml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"ETHICSBOT_CONFIG": path}
}
