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
	defer func(v, d string) { version, buildDate = v, d }(version, buildDate)
	version, buildDate = "v1.2.3", "2026-12-03T12:00:00Z"
	_, out, _ := runCLI(t, defaults(t), "", "version")
	if !strings.HasPrefix(out, "ethicsbot v1.2.3\n") || !strings.Contains(out, "built:       2026-12-03T12:00:00Z\n") {
		t.Errorf("stamped version: %q", out)
	}
}
