package apptest_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ethicsbot/app/apptest"
)

// recorder is a testing.TB that keeps what a check reports instead of failing the test.
type recorder struct {
	testing.TB
	said   []string
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.said = append(r.said, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs a golden check against a recorder on a goroutine of its own, as a Fatal ends
// it, and returns what it reported.
func check(t *testing.T, f func(tb testing.TB)) (bool, string) {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed, strings.Join(r.said, "\n")
}

func pngOf(t *testing.T, level png.CompressionLevel, c color.Color) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for y := range 30 {
		for x := range 40 {
			img.Set(x, y, color.NRGBA{uint8(x * 6), uint8(y * 8), 90, 255})
		}
	}
	img.Set(39, 29, c)
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: level}).Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGoldenDir: the check fails on a changed line (naming it), a file missing or made in
// excess, and a chart whose pixels changed; it passes on the same files, and on a chart
// compressed otherwise with the same pixels; -update writes exactly the files made.
func TestGoldenDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	white := color.NRGBA{255, 255, 255, 255}
	files := map[string][]byte{"index.html": []byte("<p>one</p>\n<p>two</p>\n"),
		"archive/2026.png": pngOf(t, png.DefaultCompression, white)}
	os.MkdirAll(filepath.Join(dir, "stale"), 0o755)
	os.WriteFile(filepath.Join(dir, "stale", "old.html"), []byte("left from before"), 0o644)
	if failed, said := check(t, func(tb testing.TB) { apptest.GoldenDir(tb, dir, files, true) }); failed {
		t.Fatalf("update: %s", said)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale", "old.html")); !os.IsNotExist(err) {
		t.Errorf("update left a file that was not made: %v", err)
	}
	same := func(name string, b []byte) map[string][]byte {
		out := map[string][]byte{}
		for k, v := range files {
			out[k] = v
		}
		if b == nil {
			delete(out, name)
		} else {
			out[name] = b
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		fails string // what the report says, or "" for a pass
	}{
		{"same", files, ""},
		{"a chart compressed otherwise", same("archive/2026.png", pngOf(t, png.BestSpeed, white)), ""},
		{"a line changed", same("index.html", []byte("<p>one</p>\n<p>too</p>\n")),
			"index.html differs at line 2:\nmade   \"<p>too</p>\"\ngolden \"<p>two</p>\""},
		{"a pixel changed", same("archive/2026.png", pngOf(t, png.DefaultCompression, color.NRGBA{0, 0, 0, 255})),
			"2026.png differs at byte"},
		{"a file missing", same("index.html", nil), "made   archive/2026.png\ngolden archive/2026.png index.html"},
		{"a file in excess", same("cases/2026-001.html", []byte("x")),
			"made   archive/2026.png cases/2026-001.html index.html\ngolden archive/2026.png index.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "a pixel changed" && runtime.GOARCH != "amd64" {
				t.Skip("charts are compared by their pixels only where they were drawn, on amd64")
			}
			if bytes.Equal(tc.files["archive/2026.png"], files["archive/2026.png"]) && tc.name == "a chart compressed otherwise" {
				t.Fatal("the chart compressed otherwise has the same bytes: the case tests nothing")
			}
			failed, said := check(t, func(tb testing.TB) { apptest.GoldenDir(tb, dir, tc.files, false) })
			switch {
			case tc.fails == "" && failed:
				t.Errorf("failed: %s", said)
			case tc.fails != "" && !failed:
				t.Errorf("passed, want a failure saying %q", tc.fails)
			case tc.fails != "" && !strings.Contains(said, tc.fails):
				t.Errorf("said %q, want it to say %q", said, tc.fails)
			}
		})
	}
}
