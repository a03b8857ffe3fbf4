package config

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// previousSample is deploy/ethicsbot.example.yml as the release before this one shipped it
// (at commit 58abd74, before the envelope's window was checked at load): the officer's and
// the attorney's addresses on one line each.
const previousSample = "../testdata/previous-release/ethicsbot.example.yml"

// TestPreviousSampleAccepted: the sample configuration of the previous release is accepted,
// with a warning at the line of each address that the next release refuses, saying what to
// change. This release refused it, and the bot installed from it stayed down after the
// upgrade.
func TestPreviousSampleAccepted(t *testing.T) {
	b, err := os.ReadFile(previousSample)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse(b)
	if err != nil {
		t.Fatalf("the previous release's sample is refused: %v", err)
	}
	want := []string{
		`line 111: letters.officer.address: the line "Office of the Mayor, 100 Main Street, Springfield, IL 62701" is ` +
			`too wide for the window of a No. 10 envelope and would wrap: break the address into its lines`,
		`line 117: letters.attorney.address: the line "Law Department, 100 Main Street, Springfield, IL 62701" is too ` +
			`wide`,
	}
	if len(cfg.Deprecated) != len(want) {
		t.Fatalf("warnings %q, want %d", cfg.Deprecated, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(cfg.Deprecated[i], w) || !strings.HasSuffix(cfg.Deprecated[i], "the next refuses it") {
			t.Errorf("warning %q, want %q... the next refuses it", cfg.Deprecated[i], w)
		}
	}
	if got := cfg.Letters.Officer.Address; got != "Office of the Mayor, 100 Main Street, Springfield, IL 62701" {
		t.Errorf("the officer's address is read as %q", got)
	}
}

// TestRenamedSetting: a setting renamed by a row of the table is read under its new name
// with a warning naming it, at its line; given under both names, or in quotes, it is refused
// at its line. The table has no rename today: the test gives it one.
func TestRenamedSetting(t *testing.T) {
	defer func(d []Deprecation) { deprecations = d }(deprecations)
	deprecations = []Deprecation{{Settings: []string{"healthz.stuck_after"}, Renamed: "undelivered_after",
		Since: "Unreleased"}}
	cfg, err := Parse([]byte("timezone: America/Chicago\nhealthz:\n  stuck_after: 20m # the old name\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "line 3: healthz.stuck_after is now called healthz.undelivered_after: rename it. This release accepts " +
		"the old name, with this warning; the next refuses it"
	if len(cfg.Deprecated) != 1 || cfg.Deprecated[0] != want || cfg.UndeliveredAfter.Minutes() != 20 {
		t.Errorf("warnings %q, undelivered_after %v; want %q and 20m", cfg.Deprecated, cfg.UndeliveredAfter, want)
	}
	for _, tc := range []struct{ body, want string }{
		{"healthz:\n  undelivered_after: 1h\n  stuck_after: 20m\n",
			"line 3: healthz.stuck_after is the old name of healthz.undelivered_after, which line 2 sets too"},
		{"healthz:\n  \"stuck_after\": 20m\n", "line 2: healthz.stuck_after is now called healthz.undelivered_after"},
		{"healthz:\n  stuck_after: forever\n", "undelivered_after \"forever\" is not a duration"},
	} {
		if _, err := Parse([]byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
	deprecations = nil // the release after
	if _, err := Parse([]byte("healthz:\n  stuck_after: 20m\n")); err == nil ||
		!strings.Contains(err.Error(), "line 2: field stuck_after not found") {
		t.Errorf("the old name in the release after: %v", err)
	}
}

// TestDeprecationsLastOneRelease holds the table to its schedule: a form deprecated in a
// release is accepted, with a warning, in that release only. Each row's Since heads a
// section of CHANGELOG.md that lists its settings under "Deprecated"; a row whose release is
// out, with a later section begun above it, has outlived its one release and must go, so
// that the next release refuses the form.
func TestDeprecationsLastOneRelease(t *testing.T) {
	b, err := os.ReadFile("../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`(?m)^## \[([^\]]+)\]`)
	// The [Unreleased] heading kept above the newest release, for the work after it, is no
	// release: a row Since the newest release is due its one release until the next is made.
	var at [][]int
	for _, h := range heading.FindAllSubmatchIndex(b, -1) {
		if string(b[h[2]:h[3]]) != "Unreleased" {
			at = append(at, h)
		}
	}
	for _, d := range deprecations {
		i := 0
		for i < len(at) && string(b[at[i][2]:at[i][3]]) != d.Since {
			i++
		}
		if i == len(at) {
			t.Errorf("%s: Since %q heads no section of CHANGELOG.md", d.Settings, d.Since)
			continue
		}
		if i > 0 {
			t.Errorf("%s: deprecated in %s, so refused in the release after it, %s: remove the row (deprecated.go), "+
				"and say under \"Removed\" that the form is refused", d.Settings, d.Since, b[at[0][2]:at[0][3]])
		}
		end := len(b)
		if i+1 < len(at) {
			end = at[i+1][0]
		}
		section := string(b[at[i][0]:end])
		_, deprecated, ok := strings.Cut(section, "\n### Deprecated\n")
		deprecated, _, _ = strings.Cut(deprecated, "\n### ")
		for _, s := range d.Settings {
			if !ok || !strings.Contains(deprecated, "`"+s+"`") {
				t.Errorf("CHANGELOG.md, %s: \"### Deprecated\" does not name `%s`", d.Since, s)
			}
		}
	}
}
