package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-V"} {
		code, out, errOut := runCLI(t, defaults(t), "", arg)
		if code != 0 || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", arg, code, errOut)
		}
		// The test binary has no stamped version and no module version: it says so.
		for _, want := range []string{"ethicsbot devel\n", "commit:", "built:       unknown\n",
			"go:          " + runtime.Version()} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q lacks %q", arg, out, want)
			}
		}
	}
	if code, _, errOut := runCLI(t, defaults(t), "", "version", "extra"); code != exitUsage ||
		!strings.Contains(errOut, `"extra"`) {
		t.Errorf("version extra: exit %d, %q", code, errOut)
	}
}

func TestVersionStamped(t *testing.T) {
	defer func(v, c, ct, d string) { version, commit, commitTime, buildDate = v, c, ct, d }(
		version, commit, commitTime, buildDate)
	version, buildDate = "v1.2.3", "2026-12-03T12:00:00Z"
	_, out, _ := runCLI(t, defaults(t), "", "version")
	if !strings.HasPrefix(out, "ethicsbot v1.2.3\n") || !strings.Contains(out, "built:       2026-12-03T12:00:00Z\n") {
		t.Errorf("stamped version: %q", out)
	}
	// A release stamps its commit and its time (deploy/release.sh): they are printed as
	// stamped, whatever the Go command recorded of the machine that built it.
	commit, commitTime = "f4daafd168ca0d82ee5e9dcd1e479f0fb616ad76", "2026-12-03T17:26:45Z"
	_, out, _ = runCLI(t, defaults(t), "", "version")
	if !strings.Contains(out, "commit:      f4daafd168ca0d82ee5e9dcd1e479f0fb616ad76\n") ||
		!strings.Contains(out, "commit time: 2026-12-03T17:26:45Z\n") {
		t.Errorf("stamped commit: %q", out)
	}
}
