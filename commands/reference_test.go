package commands

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var codeSpan = regexp.MustCompile("`([^`]+)`")

// TestReferenceListsEveryCommand: the reference's `/ethics` table (docs/reference.md) has
// a row for each subcommand of the table that drives parsing and help, and none besides.
func TestReferenceListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## `/ethics`\n")
	if !ok {
		t.Fatal("docs/reference.md has no \"## `/ethics`\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		// The first cell; a row may hold two commands (`recess ...`, `concluded ...`).
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), "` | ")
		for _, span := range codeSpan.FindAllStringSubmatch(cell+"`", -1) {
			name, _, _ := strings.Cut(span[1], " ")
			if _, known := lookup(name); !known {
				t.Errorf("docs/reference.md has a row for /ethics %s, which is no command", name)
			}
			rows[name] = true
		}
	}
	for _, sub := range table {
		if !rows[sub.name] {
			t.Errorf("docs/reference.md has no row for /ethics %s", sub.name)
		}
	}
}
