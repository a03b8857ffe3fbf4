package letters

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"ethicsbot/docket"
)

// The bounds of one document. The longest letter the built-in templates make, with every
// field of the case at the docket's limit (a summary, findings, a recommendation and a
// final text of 3,000 characters each), is a few pages and some 20,000 characters; a
// template that makes far more is a mistake, or hostile (a loop over the complaint, a
// summary printed a thousand times), and would hand the clerk a PDF of hundreds of pages
// to print and mail. It is refused instead, naming the limit.
const (
	// MaxOutput is how many characters of layout text a template may write for one
	// document.
	MaxOutput = 200_000
	// MaxPages is how many pages one document may have.
	MaxPages = 20
)

// errTooLong stops a template that writes more than MaxOutput.
var errTooLong = errors.New("the template's output is too long")

// capped is a template's output, refusing to grow past max characters: the template
// stops at once, rather than after it has written all it would.
type capped struct {
	strings.Builder
	max, n int // the limit, and the characters written
}

func (w *capped) Write(p []byte) (int, error) {
	if w.n += utf8.RuneCount(p); w.n > w.max {
		return 0, errTooLong
	}
	return w.Builder.Write(p)
}

// tooBig is the refusal of document k that would pass a limit: what the limit is, and
// where to look.
func tooBig(k Kind, what string) error {
	return docket.Conflict("", "",
		fmt.Sprintf("the %s would be %s; the template %s.tmpl is at fault, as no case's text makes a letter that long: "+
			"check the copy in the letters.templates directory for a loop or a field printed many times", k.Name(), what, k))
}
