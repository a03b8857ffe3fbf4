package apptest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// ifMeant is what a failed golden check tells its reader to do when the change is meant.
const ifMeant = "if the change is meant, run the test again with -update and read the diff of its " +
	"testdata (docs/record.md, \"Layout\")"

// Golden compares got with the golden file at path, byte for byte (a PNG by its pixels),
// and names the first line or pixel that differs; with update it writes got there
// instead. A test package passes its own -update flag.
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
		t.Fatalf("%v (%s)", err, ifMeant)
	}
	if msg := differs(got, want); msg != "" {
		t.Errorf("%s differs %s\n(%s)", path, msg, ifMeant)
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
	want := filesUnder(t, dir)
	var missing, extra []string
	for _, name := range want {
		if _, ok := files[name]; !ok {
			missing = append(missing, name)
		}
	}
	for _, name := range names {
		if !slices.Contains(want, name) {
			extra = append(extra, name)
		} else {
			Golden(t, filepath.Join(dir, filepath.FromSlash(name)), files[name], false)
		}
	}
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("%s: the files made are not the golden ones: not made %v, made but not golden %v\n(%s)",
			dir, missing, extra, ifMeant)
	}
}

// Written calls write with a new, empty folder and returns every file it wrote there, by
// its name relative to the folder with forward slashes, for GoldenDir: what write wrote,
// not only what it says it wrote.
func Written(t testing.TB, write func(dir string) error) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	names := filesUnder(t, dir)
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

// filesUnder lists the files under dir, sorted, by their names relative to dir with
// forward slashes.
func filesUnder(t testing.TB, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		names = append(names, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatalf("%v (%s)", err, ifMeant)
	}
	slices.Sort(names)
	return names
}

// differs says where got first differs from want: at a pixel of a PNG, at a line of text,
// or at a byte of another file. It is empty when the two are the same.
func differs(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	if g, w, ok := bothPNG(got, want); ok {
		return pixelsDiffer(g, w)
	}
	if !isText(got) || !isText(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		return fmt.Sprintf("at byte %d (%d bytes made, %d golden)", i, len(got), len(want))
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
		i++
	}
	// The bytes differ, so some line does: i is the first, where one file may have ended.
	var g, w string
	if i < len(gl) {
		g = gl[i]
	}
	if i < len(wl) {
		w = wl[i]
	}
	return fmt.Sprintf("at line %d:\nmade   %q\ngolden %q", i+1, g, w)
}

// shade is how far apart a colour's channel may be in a chart made and its golden copy
// (of 65,535): a chart's anti-aliased edges come out a level apart where the compiler
// fuses a multiply and an add into one instruction, rounded once (arm64; amd64 from
// GOAMD64=v3). A changed bar, label or colour moves pixels much further.
const shade = 8 * 257

// bothPNG decodes got and want if both are PNG images.
func bothPNG(got, want []byte) (image.Image, image.Image, bool) {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return nil, nil, false
	}
	w, err := png.Decode(bytes.NewReader(want))
	return g, w, err == nil
}

// pixelsDiffer names the first pixel of g more than a shade from w's, or says the two are
// not the same size; it is empty when every pixel is within a shade, whatever compression
// a Go release's encoder chose.
func pixelsDiffer(g, w image.Image) string {
	if g.Bounds() != w.Bounds() {
		return fmt.Sprintf("in size: made %v, golden %v", g.Bounds(), w.Bounds())
	}
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			gc := color.NRGBA64Model.Convert(g.At(x, y)).(color.NRGBA64)
			wc := color.NRGBA64Model.Convert(w.At(x, y)).(color.NRGBA64)
			if apart(gc.R, wc.R) || apart(gc.G, wc.G) || apart(gc.B, wc.B) || apart(gc.A, wc.A) {
				return fmt.Sprintf("at pixel (%d, %d): made %v, golden %v", x, y, gc, wc)
			}
		}
	}
	return ""
}

func apart(a, b uint16) bool { return max(a, b)-min(a, b) > shade }

// isText reports whether b reads as text: UTF-8 without a NUL.
func isText(b []byte) bool { return utf8.Valid(b) && !bytes.ContainsRune(b, 0) }
