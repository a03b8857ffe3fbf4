// Package docs_test checks the documentation against the code and the repository: links
// and anchors, the reference's tables, the README's first session, the layout of the
// packages, the toolchain, the changelog and the release.
package docs_test

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests from the repository's root, where the documents they check name
// their files from (docs/clerk.md, deploy/README.md, go.mod).
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}
