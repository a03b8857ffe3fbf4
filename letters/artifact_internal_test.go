package letters

import (
	"strings"
	"testing"
)

// TestMarkArtifacts: text shown and paths painted outside the tags become artifacts, with
// a path's construction and its clip; what the tags hold, a clipping path and the graphics
// state stay as they were; a string with parentheses and escapes is read as one operand.
func TestMarkArtifacts(t *testing.T) {
	content := []byte("q 1 0 0 1 0 0 cm\n/P <</MCID 0>> BDC BT /F1 12 Tf (tagged \\) \\( text) Tj ET EMC\n" +
		"0 0 10 10 re W n\nBT /F1 8 Tf 1 0 0 1 5 5 Tm <0041> Tj [(page) -250 (1)] TJ ET\n0 0 5 5 re f Q\n")
	if n, err := UnmarkedPaint(content); err != nil || n != 3 {
		t.Fatalf("before: %d unmarked, %v; want 3", n, err)
	}
	out, changed, err := markArtifacts(content)
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	if n, err := UnmarkedPaint(out); err != nil || n != 0 {
		t.Errorf("after: %d unmarked, %v:\n%s", n, err, out)
	}
	for _, want := range []string{"/Artifact BMC BT", "/Artifact BMC <0041> Tj\nEMC",
		"/Artifact BMC [(page) -250 (1)] TJ\nEMC",
		"/Artifact BMC\n0 0 5 5 re f\nEMC", "(tagged \\) \\( text) Tj ET EMC", "0 0 10 10 re W n\n"} {
		if want == "/Artifact BMC BT" {
			if strings.Contains(string(out), want) {
				t.Errorf("a text object's BT is inside an artifact:\n%s", out)
			}
			continue
		}
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if _, _, err := markArtifacts([]byte("BI /W 1 /H 1 ID x EI")); err == nil {
		t.Error("an inline image is not refused")
	}
}
