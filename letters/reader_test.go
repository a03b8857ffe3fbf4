package letters

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestMergeNamesThePart: a merge that fails, or whose process dies, names the part it was
// merging, so that a packet's refusal names the document: the reading process says which
// part it starts on before it starts.
func TestMergeNamesThePart(t *testing.T) {
	part := func(name string) []byte { return HostileFile(t, name) }
	readable := part("readable.pdf")
	for _, tc := range []struct {
		name  string
		parts [][]byte
		at    int
		want  string
	}{
		{"Refused", [][]byte{readable, readable, part("garbage.pdf")}, 2, "pdfcpu: "},
		{"Died", [][]byte{readable, part("objstm-hex-arrays.pdf.gz"), readable}, 1, "it needed more than 64 MB of stack"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := merge(context.Background(), tc.parts)
			var u *unreadable
			if !errors.As(err, &u) || u.at != tc.at || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v (%+v), want part %d refused, saying %q", err, u, tc.at, tc.want)
			}
		})
	}
	if merged, err := merge(context.Background(), [][]byte{readable, readable}); err != nil || len(merged) == 0 {
		t.Fatalf("two readable parts: %v", err)
	}
}
