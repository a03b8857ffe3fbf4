package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
)

func TestCheckConfigExample(t *testing.T) {
	exampleConfig := apptest.Path(t, "deploy/ethicsbot.example.yml")
	code, out, errOut := runCLI(t, nil, "", "check-config", exampleConfig)
	if code != 0 || errOut != "" ||
		!strings.Contains(out, exampleConfig+": valid: 3 commissioners, 1 clerks, time zone America/Chicago") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("the example sets public_url, yet: %q", out)
	}
}

func TestCheckConfigRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	os.WriteFile(bad,
		[]byte("commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\ntimezone: "+
			"Mars/Olympus\n"), 0o600)
	noSlack := filepath.Join(dir, "console.yml")
	os.WriteFile(noSlack, []byte("commissioners: [U0COMM1]\n"), 0o600)
	local := filepath.Join(dir, "local.yml")
	os.WriteFile(local, []byte(apptest.SlackConfig), 0o600)
	// 2027-02-12 is a Friday, Lincoln's Birthday (5 ILCS 490/15); 2027-02-09 a plain Tuesday.
	holiday := filepath.Join(dir, "holiday.yml")
	os.WriteFile(holiday,
		[]byte(apptest.SlackConfig+"public_url: https://ethics.example.gov\nmeetings:\n  regular: {place: Hall, time: \"18:00\", "+
			"dates: [2027-02-09, 2027-02-12]}\n"), 0o600)
	for _, tc := range []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{bad}, 1, "", "config " + bad + ": line 4: time zone"},
		{[]string{noSlack}, 1, "", "connecting to Slack needs clerk, channels.docket, channels.notices"},
		{[]string{filepath.Join(dir, "missing.yml")}, 1, "", "cannot read it"},
		{[]string{local}, 0, "warning: public_url is http://localhost:3000", ""},
		{[]string{bad, "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{holiday}, 0,
			"warning: meetings.regular: the regular meeting of Fri 2027-02-12, Lincoln's Birthday falls on a holiday", ""},
	} {
		code, out, errOut := runCLI(t, map[string]string{}, "", append([]string{"check-config"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.err) ||
			(tc.err != "" && out != "") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
	// ETHICSBOT_CONFIG names the file when no argument does.
	if code, _, errOut := runCLI(t, map[string]string{"ETHICSBOT_CONFIG": bad}, "", "check-config"); code != 1 ||
		!strings.Contains(errOut, "line 4") {
		t.Errorf("ETHICSBOT_CONFIG: exit %d, %q", code, errOut)
	}
}

// TestPreviousSampleStarts: a bot configured from the previous release's sample (the
// officer's and the attorney's addresses on one line each, which the envelope's window now
// refuses) starts in a Slack mode, with a warning at each address's line that says what to
// change, and check-config, which the unit runs before a reload, accepts the file. The
// release refused it at start, and the bot stayed down after the upgrade.
func TestPreviousSampleStarts(t *testing.T) {
	path := apptest.Path(t, "testdata/previous-release/ethicsbot.example.yml")
	want := `line 111: letters.officer.address: the line "Office of the Mayor, 100 Main Street, Springfield, IL 62701" ` +
		`is too wide for the window of a No. 10 envelope and would wrap: break the address into its lines`
	code, out, errOut := runCLI(t, map[string]string{}, "", "check-config", path)
	if code != app.ExitOK || !strings.Contains(out, path+": warning: "+want) {
		t.Errorf("check-config of the previous sample: exit %d\n%s%s", code, out, errOut)
	}
	// Slack refuses the token, so the start ends there: after the configuration and the record.
	srv, calls := apptest.AuthSlack(t, http.StatusOK, `{"ok":false,"error":"invalid_auth"}`)
	env := map[string]string{"ETHICSBOT_CONFIG": path, "ETHICSBOT_DB": filepath.Join(t.TempDir(), "ethicsbot.db"),
		"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": srv.URL + "/api",
		"ETHICSBOT_ADDR": "127.0.0.1:0", "ETHICSBOT_ADMIN_ADDR": "127.0.0.1:0"}
	_, _, errOut = runCLI(t, env, "")
	if calls.Load() != 1 || !strings.Contains(errOut, `level=WARN msg="configuration: `+strings.ReplaceAll(want, `"`,
		`\"`)) {
		t.Errorf("a start with the previous sample: %d calls to Slack; log:\n%s", calls.Load(), errOut)
	}
}
