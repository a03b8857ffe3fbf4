package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
	"ethicsbot/config"
)

func TestCalendarCommand(t *testing.T) {
	env := twoCases(t)
	path := filepath.Join(t.TempDir(), "docket.ics")
	code, out, errOut := runCLI(t, env, "", "calendar", "--out", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("the file does not parse: %v", err)
	}
	// Each case: (B) twice, (C)(1) three times, the meeting's notice and the meeting.
	if got, want := len(cal.Events()), 2*7; got != want || out != path+"\t14 events\n" {
		t.Errorf("%d events, stdout %q; want %d", got, out, want)
	}
	for _, number := range []string{"2026-001", "2026-002"} {
		if !strings.Contains(string(b), "UID:"+number+"-meeting-sufficiency@localhost") {
			t.Errorf("no sufficiency meeting of %s, with a UID at the default public_url's host", number)
		}
	}
	for _, secret := range []string{"Olga", "Quentin", "Acme", "Jane Roe", "John Doe", "campaign"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the calendar holds %q", secret)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600: it lists the confidential docket", fi.Mode().Perm())
	}

	t.Run("Stdout", func(t *testing.T) {
		code, out, _ := runCLI(t, env, "", "calendar")
		if code != 0 || !strings.HasPrefix(out, "BEGIN:VCALENDAR\r\n") || strings.Count(out, "\r\nBEGIN:VEVENT\r\n") != 14 {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("ErrArgs", func(t *testing.T) {
		code, out, errOut := runCLI(t, env, "", "calendar", "2026-001")
		if code != app.ExitUsage || out != "" || !strings.Contains(errOut, "usage: ethicsbot calendar [--out FILE]") {
			t.Errorf("exit %d, %q %q", code, out, errOut)
		}
	})
	t.Run("ErrNoDatabase", func(t *testing.T) {
		env := map[string]string{"ETHICSBOT_CONFIG": env["ETHICSBOT_CONFIG"],
			"ETHICSBOT_DB": filepath.Join(t.TempDir(), "none.db")}
		code, _, errOut := runCLI(t, env, "", "calendar")
		if code != app.ExitFailure || !strings.Contains(errOut, "set ETHICSBOT_DB") {
			t.Errorf("exit %d, %q", code, errOut)
		}
	})
}

func TestPublicURLConfig(t *testing.T) {
	cfg, err := config.Parse([]byte("public_url: https://ethics.example.gov/\n"))
	if err != nil || cfg.PublicURL != "https://ethics.example.gov" {
		t.Errorf("public_url: %q %v", cfg.PublicURL, err)
	}
	if got := app.SettingsOf(cfg, nil).PublicURL; got != "https://ethics.example.gov" {
		t.Errorf("settings carry %q", got)
	}
	for _, bad := range []string{"ethics.example.gov", "ftp://x.gov", "https://", "https://x.gov/?a=1", "https://x.gov/#f",
		"https://u:p@x.gov"} {
		_, err := config.Parse([]byte("database: x.db\npublic_url: " + bad + "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 2: public_url") {
			t.Errorf("public_url %q: err = %v", bad, err)
		}
	}
	for _, tc := range []struct{ addr, want string }{
		{"", "http://localhost:3000"},
		{":8080", "http://localhost:8080"},
		{"0.0.0.0:8080", "http://localhost:8080"},
		{"[::]:8080", "http://localhost:8080"},
		{"10.0.0.5:3000", "http://10.0.0.5:3000"},
	} {
		cfg, err := config.Load(func(k string) string {
			return map[string]string{"ETHICSBOT_CONFIG": apptest.WriteConfig(t, "")["ETHICSBOT_CONFIG"], "ETHICSBOT_ADDR": tc.addr}[k]
		})
		if err != nil || cfg.PublicURL != tc.want {
			t.Errorf("ETHICSBOT_ADDR %q: public URL %q %v, want %q", tc.addr, cfg.PublicURL, err, tc.want)
		}
	}
}
