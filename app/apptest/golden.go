package apptest

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Golden compares got with the golden file at path, byte for byte, and names the first
// line that differs; with update it writes got there instead. A test package passes its
// own -update flag.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if msg := differs(got, want); msg != "" {
		t.Errorf("%s differs %s", path, msg)
	}
}

// GoldenDir compares files (names relative to dir, with forward slashes, and their
// contents) with the golden files under dir: the same names, each the same bytes. With
// update it makes dir hold exactly files instead.
func GoldenDir(t testing.TB, dir string, files map[string][]byte, update bool) {
	t.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	if update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			Golden(t, filepath.Join(dir, filepath.FromSlash(name)), files[name], true)
		}
		return
	}
	var want []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		want = append(want, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("%s: the files made are not the golden ones (run the test with -update if the change is meant)\n"+
			"made   %s\ngolden %s", dir, strings.Join(names, " "), strings.Join(want, " "))
	}
	for _, name := range names {
		if slices.Contains(want, name) {
			Golden(t, filepath.Join(dir, filepath.FromSlash(name)), files[name], false)
		}
	}
}

// differs says where got first differs from want: at a line of text, or at a byte of a
// file that is not text. It is empty when the two are the same.
func differs(got, want []byte) string {
	if bytes.Equal(got, want) || samePixels(got, want) {
		return ""
	}
	if !isText(got) || !isText(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		return fmt.Sprintf("at byte %d (%d bytes made, %d golden)", i, len(got), len(want))
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			return fmt.Sprintf("at line %d:\nmade   %q\ngolden %q", i+1, g, w)
		}
	}
	return "in bytes the lines do not show"
}

// pixelsArch is the architecture the golden charts were drawn on. Elsewhere a chart's
// anti-aliased edges may come out a shade apart (arm64, for one, fuses a multiply and an add
// into one instruction, rounded once), so there only its size is compared.
const pixelsArch = "amd64"

// samePixels reports whether got and want are both PNG images with the same pixels: a chart
// is what it shows, whatever compression a Go release's encoder chooses for it.
func samePixels(got, want []byte) bool {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return false
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil || g.Bounds() != w.Bounds() {
		return false
	}
	if runtime.GOARCH != pixelsArch {
		return true
	}
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.NRGBA64Model.Convert(g.At(x, y)) != color.NRGBA64Model.Convert(w.At(x, y)) {
				return false
			}
		}
	}
	return true
}

// isText reports whether b reads as text: UTF-8 without a NUL.
func isText(b []byte) bool { return utf8.Valid(b) && !bytes.ContainsRune(b, 0) }

// Files reads the files names under dir (names relative to dir, with forward slashes, as
// web.Board.Publish gives them), for GoldenDir.
func Files(t testing.TB, dir string, names []string) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte, len(names))
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}
