package version

import (
	"strings"
	"testing"
)

func TestVersionStamped(t *testing.T) {
	defer func(v, c, ct, d string) { version, commit, commitTime, buildDate = v, c, ct, d }(
		version, commit, commitTime, buildDate)
	version, buildDate = "v1.2.3", "2026-12-03T12:00:00Z"
	out := Read().String()
	if !strings.HasPrefix(out, "ethicsbot v1.2.3\n") || !strings.Contains(out, "built:       2026-12-03T12:00:00Z\n") {
		t.Errorf("stamped version: %q", out)
	}
	// A release stamps its commit and its time (deploy/release.sh): they are printed as
	// stamped, whatever the Go command recorded of the machine that built it.
	commit, commitTime = "f4daafd168ca0d82ee5e9dcd1e479f0fb616ad76", "2026-12-03T17:26:45Z"
	out = Read().String()
	if !strings.Contains(out, "commit:      f4daafd168ca0d82ee5e9dcd1e479f0fb616ad76\n") ||
		!strings.Contains(out, "commit time: 2026-12-03T17:26:45Z\n") {
		t.Errorf("stamped commit: %q", out)
	}
}
