package docs_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestToolchainNamedOnce: the Go release is go.mod's toolchain line, and the README's two
// commands name the same one, so that an older Go fetches it rather than building with
// itself (an older Go ignores the line unless GOTOOLCHAIN names the release).
func TestToolchainNamedOnce(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^toolchain (go\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod names no toolchain")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"go run .", "go test ./..."} {
		want := "GOTOOLCHAIN=" + string(m[1]) + " " + cmd + "\n"
		if !strings.Contains(string(readme), "\n"+want) {
			t.Errorf("README.md's command %q does not name go.mod's toolchain: want %q", cmd, want)
		}
	}
	for _, f := range []string{".ci/run", "deploy/build-static.sh"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `sed -n 's/^toolchain //p' go.mod`) {
			t.Errorf("%s does not take GOTOOLCHAIN from go.mod", f)
		}
	}
}
