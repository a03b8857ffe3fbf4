package docs_test

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ethicsbot/app"
	"ethicsbot/app/apptest"
	"ethicsbot/cli"
)

// The documents a reader moves between: the front door, one document per reader, and the
// administrator's kit.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("docs/ holds no document")
	}
	return append([]string{"README.md", "deploy/README.md"}, docs...)
}

var (
	mdHeading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	mdLink     = regexp.MustCompile(`\]\(([^)\s]*)\)`)
	mdCode     = regexp.MustCompile("`[^`]*`")
	notInSlug  = regexp.MustCompile(`[^\p{L}\p{N}\- _]`)
	linkScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// prose is the document's lines outside fenced code blocks, numbered from 1; a heading or
// a link inside a fence is text, not markup.
func prose(doc string) map[int]string {
	lines := map[int]string{}
	fence := ""
	for i, l := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
		case fence == "":
			lines[i+1] = l
		}
	}
	return lines
}

// anchors are the fragments GitHub makes from a document's headings: lower case, each
// space a hyphen, punctuation dropped (letters, digits, '-' and '_' are kept), and a
// repeated heading numbered -1, -2 and so on.
func anchors(doc string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	lines := prose(doc)
	for n := 1; n <= len(strings.Split(doc, "\n")); n++ {
		m := mdHeading.FindStringSubmatch(lines[n])
		if m == nil {
			continue
		}
		s := strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(m[1]), ""), " ", "-")
		if k := seen[s]; k > 0 {
			set[fmt.Sprintf("%s-%d", s, k)] = true
		} else {
			set[s] = true
		}
		seen[s]++
	}
	return set
}

func TestAnchorsAsGitHubMakesThem(t *testing.T) {
	got := anchors("# ethicsbot\n## `/ethics`\n## Backup, restore and upgrade\n```\n# a comment\n```\n## 5. Reverse " +
		"proxy\n## Notes\n## Notes\n")
	for _, want := range []string{"ethicsbot", "ethics", "backup-restore-and-upgrade", "5-reverse-proxy", "notes",
		"notes-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["a-comment"] {
		t.Error("a comment in a code block became an anchor")
	}
}

// TestDocLinks: every relative link and #anchor between README.md, docs/*.md and
// deploy/README.md leads somewhere: the file (or folder) exists in the repository, and the
// anchor is a heading of the document it names. Links to other sites are not followed.
func TestDocLinks(t *testing.T) {
	text := map[string]string{}
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text[f] = string(b)
	}
	checked := 0
	for f, doc := range text {
		for n, line := range prose(doc) {
			// A code span is text: `[x](y)` in one is not a link. Blank it, keeping the
			// link that may follow a span used as a link's text.
			line = mdCode.ReplaceAllString(line, "code")
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if target == "" || linkScheme.MatchString(target) {
					continue
				}
				checked++
				where := fmt.Sprintf("%s:%d: link %q", f, n, target)
				file, frag, _ := strings.Cut(target, "#")
				dest := f
				if file != "" {
					dest = path.Join(path.Dir(f), file)
					if dest == ".." || strings.HasPrefix(dest, "../") {
						t.Errorf("%s leads out of the repository", where)
						continue
					}
					if _, err := os.Stat(filepath.FromSlash(dest)); err != nil {
						t.Errorf("%s: no such file", where)
						continue
					}
				}
				if frag == "" {
					continue
				}
				destText, ok := text[dest]
				if !ok {
					b, err := os.ReadFile(filepath.FromSlash(dest))
					if err != nil || !strings.HasSuffix(dest, ".md") {
						t.Errorf("%s: an anchor into %s, which is no Markdown document", where, dest)
						continue
					}
					destText = string(b)
				}
				if !anchors(destText)[frag] {
					t.Errorf("%s: %s has no heading whose anchor is #%s", where, dest, frag)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link was found to check")
	}
}

// docPointer is how code, messages and the deployment kit send a reader to a section:
// docs/setup.md, "Connecting to Slack" (the quotes may be escaped in a Go string).
var docPointer = regexp.MustCompile(`\b((?:docs/[a-z]+|deploy/README|README)\.md),? \\?"([^"\\]+)\\?"`)

// TestDocPointers: every file of ours that names a document's section by its heading
// names a heading that document has, and every docs/*.md it names exists, so a message that
// says where to read on stays true when the documents move.
func TestDocPointers(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") || strings.HasPrefix(filepath.ToSlash(p), "deploy/") ||
			strings.HasPrefix(filepath.ToSlash(p), ".ci/") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, ".gitignore")
	docName := regexp.MustCompile(`\bdocs/[a-z]+\.md\b`)
	pointers := 0
	for _, f := range files {
		if f == "docs_test.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range docName.FindAllString(string(b), -1) {
			if _, err := os.Stat(filepath.FromSlash(name)); err != nil {
				t.Errorf("%s names %s, which does not exist", f, name)
			}
		}
		for _, m := range docPointer.FindAllStringSubmatch(string(b), -1) {
			doc, err := os.ReadFile(filepath.FromSlash(m[1]))
			if err != nil {
				t.Errorf("%s points at %s: %v", f, m[0], err)
				continue
			}
			pointers++
			heading := strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(m[2]), ""), " ", "-")
			if !anchors(string(doc))[heading] {
				t.Errorf("%s points at %s, which has no heading %q", f, m[1], m[2])
			}
		}
	}
	if pointers == 0 {
		t.Error("no pointer to a document's section was found to check")
	}
}

// usage is what `ethicsbot help` prints.
func usage(t *testing.T) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Run([]string{"help"}, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" },
		time.Now); code != 0 {
		t.Fatalf("ethicsbot help: exit %d: %s", code, stderr.String())
	}
	return stdout.String()
}

// TestReferenceListsSubcommands: the reference's table of command-line subcommands has a
// row for each subcommand `ethicsbot help` lists, and none that it does not.
func TestReferenceListsSubcommands(t *testing.T) {
	section := apptest.DocSection(t, "docs/reference.md", "Command-line subcommands")
	subcommand := func(line, prefix string) (string, bool) {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			return "", false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
		return strings.TrimRight(name, "`"), true
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(usage(t), "\n") {
		if name, ok := subcommand(strings.TrimRight(line, " "), "  ethicsbot"); ok {
			listed[name] = true
		}
	}
	if len(listed) < 10 {
		t.Fatalf("read %d subcommands from the usage text, which lists more: %v", len(listed), listed)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if name, ok := subcommand(line, "| `ethicsbot"); ok {
			if !listed[name] {
				t.Errorf("docs/reference.md has a row for %q, which `ethicsbot help` does not list", "ethicsbot "+name)
			}
			rows[name] = true
		}
	}
	for name := range listed {
		if !rows[name] {
			t.Errorf("docs/reference.md has no row for %q, which `ethicsbot help` lists", strings.TrimSpace("ethicsbot "+name))
		}
	}
}

// TestREADMEIsTheFrontDoor: the README stays short (at most 1,500 words) and
// sends the reader on to every document in docs/.
func TestREADMEIsTheFrontDoor(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(string(b))); n > 1500 {
		t.Errorf("README.md has %d words; the front door has at most 1,500, and the rest goes to the document in docs/ "+
			"for its reader", n)
	}
	for _, f := range docFiles(t) {
		if strings.HasPrefix(f, "docs/") && !strings.Contains(string(b), "]("+f+")") {
			t.Errorf("README.md's \"Where to read on\" does not link to %s", f)
		}
	}
}

// TestREADMEFirstSession: the README's first session runs in the console as it says: no
// step refused, one public notice for the meeting's whole agenda, and the (B) notice
// kept as mailed, with the complaint's own pages after the letter. It must work on any day
// a newcomer tries it: on the machine's clock before its dates, a year after them, and a
// year after today, its :clock line sets the empty record's time.
func TestREADMEFirstSession(t *testing.T) {
	section := apptest.DocSection(t, "README.md", "A first session")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	for _, now := range []time.Time{time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC),
		time.Date(2027, 12, 6, 15, 0, 0, 0, time.UTC), time.Now().AddDate(1, 0, 0)} {
		t.Run(now.Format("2006-01-02"), func(t *testing.T) {
			t.Chdir(t.TempDir())
			apptest.WriteScan(t, "complaint.pdf", "COMPLAINT OF JOHN DOE, SIGNED")
			var stdout, stderr bytes.Buffer
			code := (&app.App{Stdin: strings.NewReader(block), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}).Run()
			out, errOut := stdout.String(), stderr.String()
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "[ephemeral] Not done") || strings.Contains(line, "no copy was kept") ||
					strings.Contains(line, "the clock") && !strings.Contains(line, "the time is now") {
					t.Errorf("a step of the README's first session was refused: %s", line)
				}
			}
			if n := strings.Count(out, "[#ethics-notices] PUBLIC NOTICE"); n != 1 {
				t.Errorf("%d public notices, want one for the meeting:\n%s", n, out)
			}
			for _, want := range []string{"the time is now Fri 2026-12-04 10:30 CST",
				"1. Review of the sufficiency of complaint 2026-001",
				"2. Review of the sufficiency of complaint 2026-002", "3. Election of a chair", "as sent, dated"} {
				if !strings.Contains(out, want) {
					t.Errorf("the first session's output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}
