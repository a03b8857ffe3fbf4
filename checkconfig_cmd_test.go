package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const exampleConfig = "deploy/ethicsbot.example.yml"

func TestCheckConfigExample(t *testing.T) {
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
	os.WriteFile(local, []byte(slackConfig), 0o600)
	// 2027-02-12 is a Friday, Lincoln's Birthday (5 ILCS 490/15); 2027-02-09 a plain Tuesday.
	holiday := filepath.Join(dir, "holiday.yml")
	os.WriteFile(holiday,
		[]byte(slackConfig+"public_url: https://ethics.example.gov\nmeetings:\n  regular: {place: Hall, time: \"18:00\", "+
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
