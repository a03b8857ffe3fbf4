package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishCommand: `ethicsbot publish` writes the board of the database as files, and
// refuses bad input with exit 2 and one line.
func TestPublishCommand(t *testing.T) {
	t.Chdir(t.TempDir())
	env := map[string]string{"ETHICSBOT_DB": "board.db", "ETHICSBOT_ADDR": "127.0.0.1:0"}
	code, _, errOut := runCLI(t, env, `:clock 2026-12-04T10:30:00-06:00
/ethics file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="CONFIDENTIAL-WORDS"
/ethics schedule 2026-001 sufficiency 2026-12-10T17:00 place="Council Chambers"
`)
	if code != 0 {
		t.Fatalf("console exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, env, "", "publish", "--out", "site", "--url", "https://ethics.example.gov/board")
	if code != 0 || !strings.Contains(out, "Wrote the public notice board to site") {
		t.Fatalf("publish exit %d: %s %s", code, out, errOut)
	}
	index, err := os.ReadFile(filepath.Join("site", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "Council Chambers") || strings.Contains(string(index), "CONFIDENTIAL-WORDS") {
		t.Errorf("the published board:\n%s", index)
	}
	atom, err := os.ReadFile(filepath.Join("site", "feed.atom"))
	if err != nil || !strings.Contains(string(atom), "https://ethics.example.gov/board/cases/2026-001.html") {
		t.Errorf("the feed's links do not start at --url: %v\n%s", err, atom)
	}
	for _, args := range [][]string{{"publish"}, {"publish", "--out"}, {"publish", "--out", "x", "extra"},
		{"publish", "--bogus"},
		{"publish", "--out", "x"}, // no --url and no public_url: the feeds would link to localhost
		{"publish", "--out", "x", "--url", "ftp://example.gov"}} {
		if code, out, errOut := runCLI(t, env, "", args...); code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
