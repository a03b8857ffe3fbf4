package docs_test

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A release as CHANGELOG.md heads it: `## [1.0.0] - 2026-12-05`, and for every release but
// the newest, the commit it was made from, `(commit f4daafd)`: tags may not travel with
// the repository, so the changelog is where an administrator finds which commit a version is.
type release struct {
	Version, Date, Commit string
	Body                  string // the section's text below its heading
}

var (
	sectionHeading = regexp.MustCompile(`(?m)^## (.*)$`)
	// A release's heading; the version as Semantic Versioning 2.0.0 writes it, without the
	// pre-release and build parts a release of ethicsbot does not use.
	releaseHeading = regexp.MustCompile(`^\[(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)\] - (\d{4}-\d{2}-\d{2})` +
		`(?: \(commit ([0-9a-f]{7,40})\))?$`)
)

// releases reads the changelog's sections: the `## [Unreleased]` heading first, kept for the
// work after the newest release, then each release, newest first, dated, with a version above
// the next one's, every release but the newest naming its commit. The error names the heading
// that breaks a rule.
func releases(changelog string) ([]release, error) {
	at := sectionHeading.FindAllStringSubmatchIndex(changelog, -1)
	if len(at) == 0 || changelog[at[0][2]:at[0][3]] != "[Unreleased]" {
		return nil, fmt.Errorf("the first section is not ## [Unreleased], kept above the newest release for later work")
	}
	var out []release
	var prev [3]int
	for i, a := range at[1:] {
		heading := changelog[a[2]:a[3]]
		m := releaseHeading.FindStringSubmatch(heading)
		if m == nil {
			return nil, fmt.Errorf("## %s: a release is headed ## [MAJOR.MINOR.PATCH] - YYYY-MM-DD (commit HASH)", heading)
		}
		if _, err := time.Parse("2006-01-02", m[4]); err != nil {
			return nil, fmt.Errorf("## %s: the date %s is no day", heading, m[4])
		}
		var v [3]int
		for j := range v {
			v[j], _ = strconv.Atoi(m[1+j])
		}
		if i > 0 && !(prev[0] > v[0] || prev[0] == v[0] && (prev[1] > v[1] || prev[1] == v[1] && prev[2] > v[2])) {
			return nil, fmt.Errorf("## %s: below %d.%d.%d, a release must be older", heading, prev[0], prev[1], prev[2])
		}
		if i > 0 && out[i-1].Date < m[4] {
			return nil, fmt.Errorf("## %s: dated after the release above it, %s", heading, out[i-1].Version)
		}
		if i > 0 && m[5] == "" {
			return nil, fmt.Errorf("## %s: a release before the newest names the commit it was made from, "+
				"(commit HASH)", heading)
		}
		end := len(changelog)
		if i+2 < len(at) {
			end = at[i+2][0]
		}
		out = append(out, release{Version: m[1] + "." + m[2] + "." + m[3], Date: m[4], Commit: m[5],
			Body: changelog[a[1]:end]})
		prev = v
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no release section below ## [Unreleased]")
	}
	return out, nil
}

func TestReleasesRefuseAMalformedChangelog(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"## [1.0.0] - 2026-12-05\n", "first section is not ## [Unreleased]"},
		{"## [Unreleased]\n## [1.0] - 2026-12-05\n", "MAJOR.MINOR.PATCH"},
		{"## [Unreleased]\n## [1.0.0]\n", "MAJOR.MINOR.PATCH"},
		{"## [Unreleased]\n## [1.0.0] - 2026-13-05\n", "is no day"},
		{"## [Unreleased]\n## [1.0.0] - 2026-12-05\n## [0.9.0] - 2026-12-03\n", "names the commit"},
		{"## [Unreleased]\n## [0.9.0] - 2026-12-05\n## [1.0.0] - 2026-12-03 (commit f4daafd)\n", "must be older"},
		{"## [Unreleased]\n## [1.0.0] - 2026-12-01\n## [0.9.0] - 2026-12-03 (commit f4daafd)\n", "dated after"},
		{"## [Unreleased]\n", "no release section"},
	} {
		if _, err := releases(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.text, err, c.want)
		}
	}
	rs, err := releases("## [Unreleased]\n## [1.10.0] - 2027-02-01\nx\n## [1.9.0] - 2027-01-01 (commit f4daafd)\n")
	if err != nil || len(rs) != 2 || rs[0].Version != "1.10.0" || rs[1].Commit != "f4daafd" || rs[0].Body != "\nx\n" {
		t.Errorf("a well-formed changelog: %+v, %v", rs, err)
	}
}

// TestChangelogReleases: CHANGELOG.md is well-formed; each release before the newest names a
// commit of this repository; the newest says, under Upgrading, how to come from the one
// before it, beginning with the preflight; deploy/release.sh releases the newest; and
// deploy/README.md installs it and upgrades to it from the one before.
func TestChangelogReleases(t *testing.T) {
	b, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := releases(string(b))
	if err != nil {
		t.Fatalf("CHANGELOG.md: %v", err)
	}
	newest := rs[0]
	if git, err := exec.LookPath("git"); err == nil && exec.Command(git, "rev-parse", "--git-dir").Run() == nil {
		for _, r := range rs[1:] {
			if out, err := exec.Command(git, "cat-file", "-t", r.Commit).Output(); err != nil ||
				strings.TrimSpace(string(out)) != "commit" {
				t.Errorf("CHANGELOG.md, %s: (commit %s) is no commit of this repository", r.Version, r.Commit)
			}
		}
	}
	_, upgrading, ok := strings.Cut(newest.Body, "\n### Upgrading\n")
	upgrading, _, _ = strings.Cut(upgrading, "\n### ")
	if len(rs) > 1 {
		if !ok || !strings.Contains(upgrading, "From "+rs[1].Version) ||
			!strings.Contains(upgrading, "ethicsbot upgrade --check") {
			t.Errorf("CHANGELOG.md, %s: ### Upgrading does not say how to come from %s (\"From %s\"), "+
				"beginning with the preflight, `ethicsbot upgrade --check`", newest.Version, rs[1].Version, rs[1].Version)
		}
	}

	out, err := exec.Command("bash", "deploy/release.sh", "--version").Output()
	if err != nil {
		t.Fatalf("deploy/release.sh --version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != newest.Version {
		t.Errorf("deploy/release.sh releases %q, CHANGELOG.md's newest release is %s", got, newest.Version)
	}

	readme, err := os.ReadFile("deploy/README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ethicsbot_" + newest.Version + "_amd64.deb", "ethicsbot-" + newest.Version + "-linux-amd64.tar.gz"}
	if len(rs) > 1 {
		want = append(want, "from "+rs[1].Version)
	}
	for _, w := range want {
		if !strings.Contains(string(readme), w) {
			t.Errorf("deploy/README.md does not name %q: it installs the newest release, and upgrades to it "+
				"from the one before", w)
		}
	}
}
