package docs_test

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ethicsbot/app/apptest"
)

// module is this repository's module path, as go.mod names it.
const module = "ethicsbot"

// imports returns, for every package of the module (by directory, "." for the root), what
// its non-test files import, as go/build reads them for this platform.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." &&
			(name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return err
		}
		out[filepath.ToSlash(path)] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// layoutRow is a row of docs/record.md's layout table: what a package may import.
type layoutRow struct {
	any     bool     // "everything"
	ours    []string // the module's packages, by directory
	outside []string // outside modules, by path prefix
}

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	modulePath = regexp.MustCompile(`\b[a-z0-9-]+(\.[a-z0-9-]+)+(/[A-Za-z0-9._~-]+)+`)
)

// layoutTable reads the table under docs/record.md's "## Layout": each row's package (its first
// code span, "docket/" or "ethicsbot" for the root) and its imports column.
func layoutTable(t *testing.T) map[string]layoutRow {
	t.Helper()
	section := apptest.DocSection(t, "docs/record.md", "Layout")
	rows := map[string]layoutRow{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) != 3 {
			continue
		}
		first := codeSpan.FindStringSubmatch(cells[0])
		dir := strings.TrimSuffix(first[1], "/")
		if dir == module {
			dir = "."
		}
		var row layoutRow
		col := cells[2]
		row.any = strings.TrimSpace(col) == "everything"
		for _, m := range codeSpan.FindAllStringSubmatch(col, -1) {
			row.ours = append(row.ours, m[1])
		}
		row.outside = modulePath.FindAllString(codeSpan.ReplaceAllString(col, ""), -1)
		if _, dup := rows[dir]; dup {
			t.Errorf("docs/record.md's layout table has two rows for %s", dir)
		}
		rows[dir] = row
	}
	return rows
}

// stdlib reports whether path is the standard library's: its first element has no dot.
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// TestLayout: every package is a row of docs/record.md's layout table, every row a package, and
// each package imports only what its row allows, so that the table is the import graph.
func TestLayout(t *testing.T) {
	pkgs := imports(t)
	rows := layoutTable(t)
	for dir := range rows {
		if _, ok := pkgs[dir]; !ok {
			t.Errorf("docs/record.md's layout table has a row for %s, which is no package", dir)
		}
	}
	for dir, imps := range pkgs {
		row, ok := rows[dir]
		if !ok {
			t.Errorf("package %s has no row in docs/record.md's layout table", dir)
			continue
		}
		if row.any {
			continue
		}
		for _, imp := range imps {
			switch {
			case imp == module || strings.HasPrefix(imp, module+"/"):
				if !slices.Contains(row.ours, strings.TrimPrefix(imp, module+"/")) {
					t.Errorf("%s imports %s, which its row of docs/record.md's layout table does not allow", dir, imp)
				}
			case stdlib(imp):
			case !slices.ContainsFunc(row.outside, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }):
				t.Errorf("%s imports %s, which its row of docs/record.md's layout table does not allow", dir, imp)
			}
		}
	}
}

// TestLayoutFloor: the rules of the layout that the table must never loosen, whatever it
// says (the house style, STYLE.md): docket, the ordinance as code, imports only the standard
// library and rickar/cal; web reads the record through interfaces of its own, not the
// store, commands or report; the store knows nothing of commands and transports; nothing
// but the wiring, the command line and the tests' harness imports a transport or the store.
func TestLayoutFloor(t *testing.T) {
	wiring := map[string]bool{"app": true, "cli": true, "app/apptest": true}
	pkgs := imports(t)
	for dir, imps := range pkgs {
		for _, imp := range imps {
			dep := strings.TrimPrefix(imp, module+"/")
			var why string
			switch {
			case dir == "docket" && !stdlib(imp) && !strings.HasPrefix(imp, "github.com/rickar/cal/"):
				why = "docket imports only the standard library and rickar/cal"
			case dir == "web" && (dep == "store" || dep == "commands" || dep == "report"):
				why = "web declares the interfaces it reads"
			case dir == "store" && (dep == "commands" || dep == "bot" || dep == "web"):
				why = "the store knows nothing of commands or transports"
			case !wiring[dir] && (dep == "store" || dep == "bot" || dep == "web"):
				why = "only the wiring (app), the command line (cli) and the tests' harness use the store and the transports"
			}
			if why != "" {
				t.Errorf("%s imports %s: %s", dir, imp, why)
			}
		}
	}
	for _, dir := range []string{"docket", "web", "store"} {
		if _, ok := pkgs[dir]; !ok {
			t.Errorf("no package %s", dir)
		}
	}
}
