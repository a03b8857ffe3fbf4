package letters

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A reading that ended in the runtime's fault, not a panic, met the memory limit: the Go
// runtime refused memory under RLIMIT_DATA may fault instead of saying "out of memory". A
// panic of the reading's own code is reported as it is.
func TestDiedNamesTheLimit(t *testing.T) {
	b := readBounds{Memory: 256 << 20, Stack: 64 << 20, Time: time.Minute}
	exit := errors.New("exit status 2")
	for _, tc := range []struct{ stderr, want string }{
		{"SIGSEGV: segmentation violation\nPC=0x4 m=0 sigcode=1", "it needed more than 256 MB of memory"},
		{"fatal error: runtime: out of memory", "it needed more than 256 MB of memory"},
		{"runtime: goroutine stack exceeds 67108864-byte limit", "it needed more than 64 MB of stack"},
		{"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation " +
			"violation]", "the reading failed (exit status 2: panic: runtime error"},
	} {
		if got := died(exit, false, false, tc.stderr, b).Error(); !strings.Contains(got, tc.want) {
			t.Errorf("%q: %s, want %q", tc.stderr, got, tc.want)
		}
	}
}
