package main

import (
	"go/format"
	"strings"
	"testing"
)

// TestWrap: a long call is broken between its arguments and a long message inside its
// string at a space, keeping the program's tokens; a heading in escaped quotes stays whole
// with the words before it; a raw string and a comment are left as they are.
func TestWrap(t *testing.T) {
	// The space before the heading falls just inside the limit: the cut must not be there.
	words := strings.Repeat("a", 92) + " "
	raw := "`" + strings.Repeat("x ", 70) + "`"
	comment := "// " + strings.TrimSpace(strings.Repeat("c ", 70))
	src := "package p\n\nfunc f() {\n\tg(\"" + words + "see docs/setup.md, \\\"Connecting to Slack\\\"\", 1, 2)\n" +
		"\th(" + raw + ")\n\t" + comment + "\n" +
		// a string that ends inside the limit, but what follows it does not
		"\tv = m(\"" + strings.Repeat("b", 50) + " " + strings.Repeat("c", 60) + "\", x, y)\n}\n"
	out := src
	for {
		next, changed := fix([]byte(out))
		if !changed {
			break
		}
		b, err := format.Source(next)
		if err != nil {
			t.Fatalf("%v:\n%s", err, next)
		}
		out = string(b)
	}
	a, _ := folded([]byte(src))
	b, _ := folded([]byte(out))
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("the tokens changed:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > limit && !strings.Contains(line, raw) && !strings.Contains(line, comment) {
			t.Errorf("a line is still long: %q", line)
		}
	}
	if !strings.Contains(out, `docs/setup.md, \"Connecting to Slack\"`) {
		t.Errorf("the heading was split from what names it:\n%s", out)
	}
	if !strings.Contains(out, raw) || !strings.Contains(out, comment) {
		t.Errorf("a raw string or a comment was changed:\n%s", out)
	}
	if strings.Count(out, "\n") == strings.Count(src, "\n") {
		t.Errorf("nothing was broken:\n%s", out)
	}
}
