package main

import (
	"fmt"
	"io"

	"ethicsbot/version"
)

// runVersion is `ethicsbot version` (also --version and -V).
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		return failer(stderr, "version")(exitUsage, "unexpected argument %q", args[0])
	}
	fmt.Fprint(stdout, version.Read())
	return exitOK
}
