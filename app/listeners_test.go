package app

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ethicsbot/app/apptest"
)

// TestSlackOnItsOwnAddress: with ETHICSBOT_SLACK_ADDR, Slack's endpoints are served there
// and not on the board's address, which a reverse proxy may then publish whole.
func TestSlackOnItsOwnAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := apptest.NewRecordingSlack(t)
	_, env := apptest.ChildEnv(t, t.TempDir(), slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	slackAddr := apptest.FreeAddr(t)
	srv := apptest.StartServer(t, append(env, "ETHICSBOT_SLACK_ADDR="+slackAddr), apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()
	if _, ok := srv.Slash("own-1", "docket"); ok {
		t.Error("the board's address answers Slack's commands")
	}
	if resp, err := http.Post("http://"+srv.Addr+"/slack/commands", "application/x-www-form-urlencoded",
		nil); err != nil || resp.StatusCode != 404 && resp.StatusCode != 405 {
		t.Errorf("POST /slack/commands on the board's address: %v %v, want the board's 404 or 405", resp, err)
	}
	board := srv.Addr
	srv.Addr = slackAddr
	if _, ok := srv.Slash("own-2", "docket"); !ok {
		t.Errorf("Slack's address does not answer:\n%s", srv.Stderr.String())
	}
	for _, path := range []string{"/", "/healthz", "/metrics"} {
		if resp, err := http.Get("http://" + slackAddr + path); err != nil || resp.StatusCode != 404 {
			t.Errorf("GET %s on Slack's address: %v %v, want 404", path, resp, err)
		}
	}
	if resp, err := http.Get("http://" + board + "/"); err != nil || resp.StatusCode != 200 {
		t.Errorf("the board: %v %v", resp, err)
	}
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	<-srv.Exited
}

// TestAdminAddressTaken: an admin address that is set but cannot be used stops the start,
// naming the setting; nothing is left listening.
func TestAdminAddressTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	env := apptest.WriteConfig(t, apptest.SlackConfig)
	env["ETHICSBOT_DB"], env["ETHICSBOT_ADDR"] = filepath.Join(t.TempDir(), "ethicsbot.db"), "127.0.0.1:0"
	env["ETHICSBOT_ADMIN_ADDR"] = taken.Addr().String()
	env["SLACK_BOT_TOKEN"], env["SLACK_SIGNING_SECRET"], env["SLACK_API_URL"] = "xoxb-1", "s", "http://127.0.0.1:1/api"
	code, _, errOut := run(t, env, "")
	if code != 1 || !strings.Contains(errOut, "cannot listen on "+taken.Addr().String()+" (ETHICSBOT_ADMIN_ADDR)") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	// In a Slack mode, a public_url that leads only to this machine is warned about.
	if !strings.Contains(errOut,
		`level=WARN msg="configuration: public_url is http://127.0.0.1:0 (the default when it is not set)`) {
		t.Errorf("no warning of the missing public_url: %q", errOut)
	}
}
