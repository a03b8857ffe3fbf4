package letters

import (
	"context"
	"testing"
	"time"
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
