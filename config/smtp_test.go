package config

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/mailer"
)

// TestSMTPConfig: the smtp section names the relay; its password comes from the
// environment only; what the relay cannot use is refused with its line.
func TestSMTPConfig(t *testing.T) {
	env := writeConfig(t, "smtp:\n  host: smtp.city.example\n  from: \"Ethics Commission <ethics@city.example>\"\n"+
		"  username: ethicsbot\n  timeout: 20s\n")
	env[SMTPPasswordEnv] = "s3cret"
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := mailer.Config{Host: "smtp.city.example", From: "Ethics Commission <ethics@city.example>",
		Username: "ethicsbot", Password: "s3cret", Timeout: 20 * time.Second}
	if cfg.SMTP != want || cfg.SMTP.DefaultPort() != 587 {
		t.Fatalf("smtp %+v, want %+v", cfg.SMTP, want)
	}
	none := writeConfig(t, "clerk: U_CLERK\n")
	none[SMTPPasswordEnv] = "s3cret"
	if cfg, err := Load(func(k string) string { return none[k] }); err != nil || cfg.SMTP.Enabled() ||
		cfg.SMTP.Password != "" {
		t.Fatalf("without smtp: %+v, %v; want no relay", cfg.SMTP, err)
	}
	for _, tc := range []struct{ file, want string }{
		{"smtp:\n  from: ethics@city.example\n", "line 1: smtp: host is missing"},
		{"smtp:\n  host: smtp.city.example\n  from: ethics\n", `line 3: smtp: from "ethics"`},
		{"smtp:\n  host: smtp.city.example:25\n  from: ethics@city.example\n", "line 2: smtp: host"},
		{"smtp:\n  host: smtp.city.example\n  from: ethics@city.example\n  security: ssl\n", `line 4: smtp: security "ssl"`},
		{"smtp:\n  host: smtp.city.example\n  from: ethics@city.example\n  timeout: forever\n", "line 4: smtp.timeout"},
		{"smtp:\n  host: smtp.city.example\n  password: x\n", "password not found"},
	} {
		env := writeConfig(t, tc.file)
		if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.file, err, tc.want)
		}
	}
}
