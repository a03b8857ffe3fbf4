package docket_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestClerksGuideListsThePapers reads the table of papers in the clerk's guide
// (docs/clerk.md, "Papers") against docket's papers and the steps they meet: every
// paper is listed once, under its rule, as going by certified mail exactly when the
// ordinance sends it so, with the step it meets, an open task when that step has no time
// limit. A paper added to docket, or a rule changed, fails here until the guide says so.
func TestClerksGuideListsThePapers(t *testing.T) {
	b, err := os.ReadFile("../docs/clerk.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Papers\n")
	if !ok {
		t.Fatal(`docs/clerk.md has no "## Papers" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	steps := map[docket.Paper]docket.Period{}
	for _, p := range docket.DefaultOrdinance().Periods() {
		for _, pp := range p.Papers {
			steps[pp] = p
		}
	}
	code := regexp.MustCompile("`([a-z_]+)`")
	listed := map[docket.Paper]bool{}
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) != 5 {
			continue
		}
		rows++
		names := code.FindAllStringSubmatch(cells[0], -1)
		for i, m := range names {
			p := docket.Paper(m[1])
			info, ok := p.Info()
			if !ok {
				t.Errorf("the guide lists %s, which is not one of docket's papers", p)
				continue
			}
			if listed[p] {
				t.Errorf("the guide lists %s twice", p)
			}
			listed[p] = true
			if cells[1] != info.Rule {
				t.Errorf("%s: the guide says rule %s, docket %s", p, cells[1], info.Rule)
			}
			if certified := cells[3] == "certified mail"; certified != info.Certified {
				t.Errorf("%s: the guide says it goes by %q; docket: certified %v", p, cells[3], info.Certified)
			}
			step := steps[p]
			ids := code.FindAllStringSubmatch(cells[4], -1)
			if len(ids) != len(names) || ids[i][1] != string(step.ID) {
				t.Errorf("%s: the guide's deadline column %q does not name the step it meets, %s, in its place", p,
					cells[4], step.ID)
			}
			if task := strings.Contains(cells[4], "open task"); task != (step.Unit == docket.Task) {
				t.Errorf("%s: the guide's deadline column %q; step %s counts in %s", p, cells[4], step.ID, step.Unit)
			}
		}
	}
	if rows == 0 {
		t.Fatal("no rows read from the guide's table of papers")
	}
	for _, pi := range docket.Papers() {
		if !listed[pi.Paper] {
			t.Errorf("the guide's table of papers lacks %s %s", pi.Paper, pi.Rule)
		}
	}
}
