package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ethicsbot/app"
	"ethicsbot/store"
)

// backupToStdout is `ethicsbot backup -`: the copy goes to standard output, for a pipe to
// compression, encryption or another machine (`ethicsbot backup - | gzip > copy.db.gz`).
// SQLite's online backup writes only to a file, so the copy is made in a private temporary
// folder (0700, under TMPDIR), verified, streamed, and removed: nothing reaches standard
// output unless the copy's chain is intact. What the command says goes to standard error.
// A scheduled backup is noted for /metrics and /healthz (app.NoteBackup).
func backupToStdout(ctx context.Context, db *store.Store, database string, scheduled bool, stdout, stderr io.Writer,
	getenv func(string) string) int {
	fail := failer(stderr, "backup")
	if f, ok := stdout.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return fail(app.ExitUsage,
				"standard output is a terminal; send the copy to a file or a pipe: ethicsbot backup - > copy.db")
		}
	}
	dir, err := os.MkdirTemp(getenv("TMPDIR"), "ethicsbot-backup-")
	if err != nil {
		return fail(app.ExitFailure, "cannot make a temporary folder for the copy (TMPDIR): %v", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "ethicsbot.db")
	r, err := db.Backup(ctx, path)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	if r.Broken != nil {
		fmt.Fprintf(stderr, "backup -: BROKEN at %s; nothing was written to standard output\n", r.Broken)
		return app.ExitFailure
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer f.Close()
	n, err := io.Copy(stdout, f)
	if err != nil {
		return fail(app.ExitFailure, "writing the copy to standard output: %v; what was written is incomplete", err)
	}
	fmt.Fprintf(stderr, "backup -: %d events in %d cases; the chain is intact; %d bytes written to standard output\n",
		r.Events, r.Cases, n)
	if scheduled {
		warnUnnoted(app.NoteBackup(database, "-", time.Now()), stderr)
	}
	return app.ExitOK
}

// warnUnnoted says that a backup that succeeded could not be noted for /metrics.
func warnUnnoted(err error, stderr io.Writer) {
	if err != nil {
		fmt.Fprintf(stderr, "ethicsbot backup: the copy is good, but /metrics will not show it: %v\n", err)
	}
}
