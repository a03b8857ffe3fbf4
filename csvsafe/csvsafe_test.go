package csvsafe_test

import (
	"strings"
	"testing"

	"ethicsbot/csvsafe"
)

func TestWriteNeutralisesFormulas(t *testing.T) {
	var b strings.Builder
	w := csvsafe.NewWriter(&b)
	w.Write([]string{"=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "\tx", "\rx", "plain", "", "2026-001", "a=b"})
	w.Flush()
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	want := "'=HYPERLINK(\"http://x\")" // csv quotes the cell for its quote marks
	if got := b.String(); !strings.Contains(got,
		`"'=HYPERLINK(""http://x"")",'+1,'-2,'@SUM(A1),'`+"\tx,\"'\rx\",plain,,2026-001,a=b\n") {
		t.Errorf("got %q, want cells like %q", got, want)
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{"": "", "=1": "'=1", "1=1": "1=1", "-": "'-", "Jane Roe": "Jane Roe"} {
		if got := csvsafe.Cell(in); got != want {
			t.Errorf("Cell(%q) = %q, want %q", in, got, want)
		}
	}
}
