package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// axeResult is one page's result as testdata/axe/axe.js prints it.
type axeResult struct {
	URL        string `json:"url"`
	Passes     int    `json:"passes"`
	Incomplete int    `json:"incomplete"`
	Violations []struct {
		ID, Impact, Help string
		Nodes            []string
	} `json:"violations"`
}

// runAxe runs testdata/axe/axe.js over urls in the Chromium at exe.
func runAxe(t *testing.T, dir, exe string, urls []string) []axeResult {
	t.Helper()
	cmd := exec.Command("node", append([]string{filepath.Join(dir, "axe.js"), exe}, urls...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("axe.js: %v\n%s", err, out)
	}
	var results []axeResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("axe.js printed %s: %v", out, err)
	}
	if len(results) != len(urls) {
		t.Fatalf("axe.js checked %d pages of %d", len(results), len(urls))
	}
	return results
}

// TestBoardAxe: axe-core, pinned in testdata/axe/package.json, finds no violation of WCAG
// 2.0 and 2.1 at levels A and AA (its tags wcag2a, wcag2aa, wcag21a, wcag21aa), the level
// ADA Title II asks of a city's web content (28 CFR 35.200), on a page of each of the
// board's templates, in Chromium. It needs node and `npm install` in testdata/axe (as .ci/run does):
// without them it is skipped, unless ETHICSBOT_BROWSER=require.
func TestBoardAxe(t *testing.T) {
	exe := browser(t)
	dir, _ := filepath.Abs(filepath.Join("testdata", "axe"))
	_, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")); err != nil || serr != nil {
		if os.Getenv("ETHICSBOT_BROWSER") == "require" {
			t.Fatalf("ETHICSBOT_BROWSER=require, but node or axe-core is missing (%v, %v): npm install in %s", err, serr, dir)
		}
		t.Skipf("skipping axe-core: node or axe-core is missing (%v, %v): npm install in %s", err, serr, dir)
	}
	srv := boardOfAnEndedYear(t)
	// A page of each template: the front page, a case's, a year's, a meeting's, its
	// minutes', its closed minutes' as a review released them, and the page of a file the
	// board does not have.
	pages := []string{"/", "/cases/2026-001.html", "/archive/2026.html", "/meetings/2026-12-15.html",
		"/meetings/2026-12-15-minutes.html", "/meetings/2026-12-15-closed-minutes.html", "/cases/2099-999.html"}
	var urls []string
	for _, p := range pages {
		urls = append(urls, srv.URL+p)
	}
	results := runAxe(t, dir, exe, urls)
	// The check finds what it looks for: a page without a language and an image without
	// alternative text has those violations.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!DOCTYPE html><html><head><title>Bad</title></head><body><main><img src="x.png"></main></body></html>`))
	}))
	defer bad.Close()
	found := map[string]bool{}
	for _, v := range runAxe(t, dir, exe, []string{bad.URL})[0].Violations {
		found[v.ID] = true
	}
	if !found["html-has-lang"] || !found["image-alt"] {
		t.Errorf("axe-core missed the violations of a bad page: found %v", found)
	}
	for _, r := range results {
		path := strings.TrimPrefix(r.URL, srv.URL)
		t.Logf("%s: %d violations, %d rules passed, %d to review by hand", path, len(r.Violations), r.Passes, r.Incomplete)
		if r.Passes == 0 {
			t.Errorf("%s: axe-core passed no rule: it did not run", path)
		}
		for _, v := range r.Violations {
			t.Errorf("%s: %s (%s): %s at %s", path, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
		}
	}
}
