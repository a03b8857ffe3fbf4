package cli

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/docket"
)

// TestVerifyAnchorCoversMeetings: a meeting action alone
// changes the anchor verify prints, and a backup taken before it does not hold the live
// anchor: verify --anchor exits 1 on it, naming the missing meeting event.
func TestVerifyAnchorCoversMeetings(t *testing.T) {
	env := apptest.RecordEnv(t)
	anchorLine := regexp.MustCompile(`(?m)^anchor (\S+)\n\z`)
	verify := func(args ...string) (int, string) {
		t.Helper()
		code, out, errOut := runCLI(t, env, "", append([]string{"verify"}, args...)...)
		return code, out + errOut
	}
	code, out := verify()
	before := anchorLine.FindStringSubmatch(out)
	if code != 0 || before == nil {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
	backup := filepath.Join(t.TempDir(), "before.db")
	if code, out, errOut := runCLI(t, env, "", "backup", backup); code != 0 {
		t.Fatalf("backup: exit %d\n%s%s", code, out, errOut)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	if _, err := db.ChangeMeeting(context.Background(), docket.Act{By: "U_CLERK", At: time.Date(2026, 12, 20, 16, 0, 0, 0, time.UTC)}, docket.MeetingChange{
		Create: &docket.CreateMeeting{Start: time.Date(2027, 1, 12, 23, 0, 0, 0, time.UTC), Place: "City Hall"},
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, out = verify()
	after := anchorLine.FindStringSubmatch(out)
	if code != 0 || after == nil || after[1] == before[1] || !strings.HasPrefix(after[1], before[1]+"+1:") {
		t.Fatalf("verify after a meeting action alone: exit %d\n%s", code, out)
	}
	if code, out := verify("--anchor", before[1]); code != 0 || !strings.Contains(out, "holds anchor "+before[1]) {
		t.Errorf("an anchor of the old form on the record after it: exit %d\n%s", code, out)
	}
	env["ETHICSBOT_DB"] = backup
	if code, out := verify("--anchor", after[1]); code != 1 || !strings.Contains(out, "meeting events 1 to 1") {
		t.Errorf("the backup without the meeting, checked against the live anchor: exit %d\n%s", code, out)
	}
}
