package cli

import (
	"runtime"
	"strings"
	"testing"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
)

func TestVersionCommand(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-V"} {
		code, out, errOut := runCLI(t, apptest.Defaults(t), "", arg)
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
	if code, _, errOut := runCLI(t, apptest.Defaults(t), "", "version", "extra"); code != app.ExitUsage ||
		!strings.Contains(errOut, `"extra"`) {
		t.Errorf("version extra: exit %d, %q", code, errOut)
	}
}
