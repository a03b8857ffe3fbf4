package app

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
)

func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bot := write("bot", "xoxb-from-file\n")
	creds := filepath.Join(dir, "creds")
	os.Mkdir(creds, 0o700)
	os.WriteFile(filepath.Join(creds, "slack-app-token"), []byte("xapp-from-credential\r\n"), 0o600)
	os.WriteFile(filepath.Join(creds, "slack-signing-secret"), []byte("secret"), 0o600)

	for _, tc := range []struct {
		name string
		env  map[string]string
		want map[string]string // the values getenv gives, or
		err  string            // the error
	}{
		{"Environment", map[string]string{"SLACK_BOT_TOKEN": "xoxb-env"},
			map[string]string{"SLACK_BOT_TOKEN": "xoxb-env", "SLACK_APP_TOKEN": ""}, ""},
		{"File", map[string]string{"SLACK_BOT_TOKEN_FILE": bot}, map[string]string{"SLACK_BOT_TOKEN": "xoxb-from-file"}, ""},
		{"Credentials", map[string]string{"SLACK_BOT_TOKEN_FILE": bot, "CREDENTIALS_DIRECTORY": creds},
			map[string]string{"SLACK_BOT_TOKEN": "xoxb-from-file", "SLACK_APP_TOKEN": "xapp-from-credential",
				"SLACK_SIGNING_SECRET": "secret"}, ""},
		{"VariableAndFile", map[string]string{"SLACK_BOT_TOKEN": "xoxb-env", "SLACK_BOT_TOKEN_FILE": bot}, nil,
			"SLACK_BOT_TOKEN is given 2 times, as SLACK_BOT_TOKEN and SLACK_BOT_TOKEN_FILE (" + bot + "): give it once"},
		{"VariableAndCredential", map[string]string{"SLACK_APP_TOKEN": "xapp-env", "CREDENTIALS_DIRECTORY": creds}, nil,
			"SLACK_APP_TOKEN is given 2 times, as SLACK_APP_TOKEN and the credential slack-app-token ($CREDENTIALS_DIRECTORY)"},
		{"Unreadable", map[string]string{"SLACK_SIGNING_SECRET_FILE": filepath.Join(dir, "missing")}, nil,
			"SLACK_SIGNING_SECRET_FILE (" + filepath.Join(dir, "missing") + "): cannot read " + filepath.Join(dir,
				"missing") + ": no such file or directory"},
		{"Empty", map[string]string{"SLACK_BOT_TOKEN_FILE": write("empty", "\n")}, nil, "is empty"},
		{"TwoLines", map[string]string{"SLACK_BOT_TOKEN_FILE": write("two", "xoxb-1\nxoxb-2\n")}, nil,
			"has more than one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv, err := secretsFromFiles(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "xoxb-") || strings.Contains(err.Error(), "xapp-") {
					t.Errorf("the error shows a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got := getenv(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestSecretFileNotAFile: a secret's file that is a named pipe, a device or a folder is
// refused at once, naming the setting: a pipe used to keep the start waiting for a writer
// for ever, and /dev/zero to read without end.
func TestSecretFileNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	creds := filepath.Join(dir, "creds")
	if err := os.MkdirAll(filepath.Join(creds, "slack-app-token"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"NamedPipe", map[string]string{"SLACK_BOT_TOKEN_FILE": fifo},
			"SLACK_BOT_TOKEN_FILE (" + fifo + "): cannot read " + fifo + ": it is a named pipe (FIFO)"},
		{"Device", map[string]string{"SLACK_SIGNING_SECRET_FILE": "/dev/zero"},
			"SLACK_SIGNING_SECRET_FILE (/dev/zero): cannot read /dev/zero: it is a device"},
		{"Folder", map[string]string{"CREDENTIALS_DIRECTORY": creds},
			"the credential slack-app-token ($CREDENTIALS_DIRECTORY): cannot read " +
				filepath.Join(creds, "slack-app-token") + ": it is a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := secretsFromFiles(func(k string) string { return tc.env[k] })
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the start hangs on the secret's file")
			}
		})
	}
}

// TestStartWithTokenFiles: the tokens read from files are the ones ethicsbot gives Slack.
func TestStartWithTokenFiles(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		auth = r.Header.Get("Authorization") + r.Form.Get("token")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":false,"error":"invalid_auth"}`))
	}))
	defer srv.Close()
	creds := t.TempDir()
	os.WriteFile(filepath.Join(creds, "slack-bot-token"), []byte("xoxb-credential\n"), 0o600)
	os.WriteFile(filepath.Join(creds, "slack-signing-secret"), []byte("s\n"), 0o600)
	env := apptest.WriteConfig(t, apptest.SlackConfig)
	env["ETHICSBOT_DB"], env["ETHICSBOT_ADDR"] = filepath.Join(t.TempDir(), "ethicsbot.db"), "127.0.0.1:0"
	env["CREDENTIALS_DIRECTORY"], env["SLACK_API_URL"] = creds, srv.URL+"/api"
	code, _, errOut := run(t, env, "")
	if code != 1 || !strings.Contains(errOut, "invalid_auth") || !strings.Contains(auth, "xoxb-credential") {
		t.Errorf("exit %d, Slack was given %q, stderr %q", code, auth, errOut)
	}
	env["SLACK_BOT_TOKEN"] = "xoxb-env"
	if code, _, errOut := run(t, env, ""); code != ExitConfig ||
		!strings.Contains(errOut, "SLACK_BOT_TOKEN is given 2 times") {
		t.Errorf("two bot tokens: exit %d, %q", code, errOut)
	}
}
