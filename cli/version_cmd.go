package cli

import (
	"fmt"
	"io"

	"ethicsbot/app"
	"ethicsbot/version"
)

// runVersion is `ethicsbot version` (also --version and -V).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		return failer(stderr, "version")(app.ExitUsage, "unexpected argument %q", args[0])
	}
	fmt.Fprint(stdout, version.Read())
	return app.ExitOK
}
