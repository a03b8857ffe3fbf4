package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"ethicsbot/app"
	"ethicsbot/docket"
	"ethicsbot/privatefile"
)

// runDocuments is `ethicsbot documents CASE [--out DIR]`: it writes the case file's
// documents, each as its bytes were added (checked against its SHA-256), mode 0640 in a
// 0750 folder, and prints each path, kind, SHA-256 and title. It reads the record only.
func runDocuments(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fail := failer(stderr, "documents")
	form := usageOf("documents")
	fs := flag.NewFlagSet("documents", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "the folder to write to")
	number, err := caseArgument(fs, args, form)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	_, _, db, err := openStore(getenv)
	if err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Case(ctx, number)
	if err != nil {
		return fail(app.ExitUsage, "%v", err)
	}
	dir := *out
	if dir == "" {
		dir = c.Number + "-documents"
	}
	if len(c.Documents) == 0 {
		fmt.Fprintf(stdout, "case %s has no documents\n", c.Number)
		return app.ExitOK
	}
	if err := privatefile.MkdirAll(dir, 0o750); err != nil {
		return fail(app.ExitFailure, "%v", err)
	}
	for i, d := range c.Documents {
		data, err := db.DocumentData(ctx, c.Number, d.SHA256)
		if err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%02d-%s%s", c.Number, i+1, slug(d.Title), extensions[d.MediaType]))
		if err := privatefile.WriteFile(path, data, 0o640); err != nil {
			return fail(app.ExitFailure, "%v", err)
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", path, d.Kind, d.SHA256, d.Title)
	}
	return app.ExitOK
}

// extensions are the file name endings of the case file's media types.
var extensions = map[string]string{docket.MediaPDF: ".pdf", docket.MediaPNG: ".png", docket.MediaJPEG: ".jpg"}

// slug is a title as a safe part of a file name: letters and digits, other runs as "-",
// at most 60 characters. The title itself is printed beside the path.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return "document"
	}
	return s
}
