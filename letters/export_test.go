package letters

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
)

// ReadBounds are the bounds of a reading, which a test may lower.
type ReadBounds = readBounds

// WithBounds changes the bounds of reading for the rest of the test.
func WithBounds(tb testing.TB, change func(*ReadBounds)) {
	was := bounds
	change(&bounds)
	tb.Cleanup(func() { bounds = was })
}

// Bounds are the bounds in force.
func Bounds() ReadBounds { return bounds }

// ReadCost reads one document as CheckUploads does and returns what its reading process
// cost: processor time and its largest resident size in bytes.
func ReadCost(ctx context.Context, media string, data []byte) (time.Duration, int64, error) {
	f, err := read(ctx, readJob{Bounds: bounds, Docs: []readDoc{{Media: media, Data: data}}})
	return f.cpu, f.maxRSS, err
}

// HostileFile reads a document of the hostile corpus, testdata/hostile (its README.md says
// what each is), inflating one kept gzipped.
func HostileFile(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", name))
	if err == nil && strings.HasSuffix(name, ".gz") {
		var r *gzip.Reader
		if r, err = gzip.NewReader(bytes.NewReader(data)); err == nil {
			data, err = io.ReadAll(r)
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// EnclosingLetter is document k made as its packet makes its letter: the complaint as
// received enclosed, so its text not printed.
func (m *Maker) EnclosingLetter(c *docket.Case, k Kind, today docket.Date) (Document, error) {
	return m.make(c, k, today, true, "")
}
