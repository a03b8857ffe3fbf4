package letters

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// TestLeadInKeepsWithItsList: a line that leads into a list ("Enclosures:") and a heading
// never stand alone at the foot of a page, wherever the text above them ends: with
// however many lines before it, the page that has the lead-in has the list's first item.
func TestLeadInKeepsWithItsList(t *testing.T) {
	for _, lead := range []block{{kind: "text", text: "Enclosures:"}, {kind: "heading", text: "The complaint"}} {
		for n := 30; n < 60; n++ {
			var blocks []block
			for i := range n {
				blocks = append(blocks, block{kind: "text", text: fmt.Sprintf("Line %d of the letter.", i)})
			}
			blocks = append(blocks, block{kind: "space"}, lead, block{kind: "text", text: "  - FIRSTITEM"},
				block{kind: "text", text: "  - second item"})
			data, err := render(blocks, "Test", "")
			if err != nil {
				t.Fatal(err)
			}
			r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= r.NumPage(); i++ {
				text, _ := r.Page(i).GetPlainText(nil)
				if strings.Contains(text, lead.text) && !strings.Contains(text, "FIRSTITEM") {
					t.Errorf("after %d lines, %q ends page %d without the list's first item", n, lead.text, i)
				}
			}
		}
	}
}
