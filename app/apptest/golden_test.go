package apptest_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
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
// excess, and a chart whose pixels changed (naming the pixel); it passes on the same files,
// on a chart compressed otherwise with the same pixels, and on one whose pixel is a level
// apart; -update writes exactly the files made.
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
		out := maps.Clone(files)
		if b == nil {
			delete(out, name)
		} else {
			out[name] = b
		}
		return out
	}
	otherwise := pngOf(t, png.BestSpeed, white)
	if bytes.Equal(otherwise, files["archive/2026.png"]) {
		t.Fatal("the chart compressed otherwise has the same bytes: its case would test nothing")
	}
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		fails string // what the report says, or "" for a pass
	}{
		{"same", files, ""},
		{"a chart compressed otherwise", same("archive/2026.png", otherwise), ""},
		{"a pixel a level apart", same("archive/2026.png", pngOf(t, png.DefaultCompression, color.NRGBA{255, 254, 255, 255})),
			""},
		{"a line changed", same("index.html", []byte("<p>one</p>\n<p>too</p>\n")),
			"index.html differs at line 2:\nmade   \"<p>too</p>\"\ngolden \"<p>two</p>\""},
		{"a line added", same("index.html", []byte("<p>one</p>\n<p>two</p>\n<p>three</p>")),
			"index.html differs at line 3:\nmade   \"<p>three</p>\"\ngolden \"\""},
		{"a pixel changed", same("archive/2026.png", pngOf(t, png.DefaultCompression, color.NRGBA{0, 0, 0, 255})),
			"2026.png differs at pixel (39, 29)"},
		{"a file missing", same("index.html", nil), "not made [index.html], made but not golden []"},
		{"a file in excess", same("cases/2026-001.html", []byte("x")),
			"not made [], made but not golden [cases/2026-001.html]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed, said := check(t, func(tb testing.TB) { apptest.GoldenDir(tb, dir, tc.files, false) })
			switch {
			case tc.fails == "" && failed:
				t.Errorf("failed: %s", said)
			case tc.fails != "" && !failed:
				t.Errorf("passed, want a failure saying %q", tc.fails)
			case tc.fails != "" && !strings.Contains(said, tc.fails):
				t.Errorf("said %q, want it to say %q", said, tc.fails)
			case tc.fails != "" && !strings.Contains(said, "-update"):
				t.Errorf("said %q, without how to update the files if the change is meant", said)
			}
		})
	}
}
