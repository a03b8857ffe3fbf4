package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordOfThePreviousRelease: a record made by an earlier ethicsbot verifies, migrates
// and verifies again with this one. testdata/records/6318221.db was made by main at
// 6318221 (the release before meetings and letters kept as sent) from the console script
// beside it: a case taken to its (F) final recommendation after a public hearing, and one
// dismissed under (E)(1) after a recessed hearing. Both closed then. The papers this
// version added for those steps (the recessed and public hearings' notices, the demand's
// acknowledgement) are moot once the hearing is held (docket.Period.Moot), so the cases
// stay closed, and the record's columns still agree with its events: without that, verify
// called the file tampered with and migrate refused it.
func TestRecordOfThePreviousRelease(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "records", "6318221.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "ethicsbot.db")
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ETHICSBOT_DB": db}
	for _, step := range [][]string{{"verify"}, {"migrate"}, {"verify"}} {
		code, out, errOut := runCLI(t, env, "", step...)
		if code != 0 {
			t.Fatalf("ethicsbot %s: exit %d\n%s%s", step[0], code, out, errOut)
		}
		if step[0] == "verify" && !strings.Contains(out, "38 events in 2 cases; the chain is intact") {
			t.Errorf("ethicsbot verify: %s", out)
		}
	}
}
