package commands_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/commands"
)

// TestHelpGolden compares every help text, `/ethics help` as each role asks it and `/ethics
// help <subcommand>` for each row of the table as a commissioner and a clerk ask it, with
// and without votes required of the clerk, with testdata/help.golden, byte for byte. Help is
// built once and kept (TestHelpBuiltOnce): this pins what is kept.
func TestHelpGolden(t *testing.T) {
	s, _, _ := MustService(t)
	var out strings.Builder
	for _, required := range []bool{false, true} {
		reconfigure(s, func(st *commands.Settings) { st.Voting.Required = required })
		for _, user := range []string{comm, clerk, attorney, stranger} {
			ask := func(text string) {
				fmt.Fprintf(&out, "> %s: %s\n%s\n\n", user, text, replyText(do(s, user, text)))
			}
			fmt.Fprintf(&out, "## %s, votes required of the clerk: %v\n\n", user, required)
			ask("help")
			if user != comm && user != clerk {
				continue
			}
			for _, sub := range commands.SubcommandsForTest() {
				ask("help " + sub.Name)
			}
		}
	}
	golden(t, filepath.Join("testdata", "help.golden"), out.String())
}
