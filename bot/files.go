package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/slack-go/slack"
)

// SlackFiles fetches the files shared in Slack that /ethics attach adds to a case file
// (commands.Files), with the bot's token and the files:read scope: files.info gives the
// name, size and private download address, and the file is downloaded from there. slack-go
// sends the token only to Slack's own hosts (or the API's, in tests).
type SlackFiles struct {
	API *slack.Client
}

// Info gives the name and size Slack records for file id.
func (f SlackFiles) Info(ctx context.Context, id string) (string, int64, error) {
	info, _, _, err := f.API.GetFileInfoContext(ctx, id, 0, 0)
	if err != nil {
		return "", 0, errors.New(slackError(err))
	}
	return info.Name, int64(info.Size), nil
}

// Download gives file id's bytes, and fails once more than limit have come: the size
// files.info gave is Slack's word, the bytes are what is kept.
func (f SlackFiles) Download(ctx context.Context, id string, limit int64) ([]byte, error) {
	info, _, _, err := f.API.GetFileInfoContext(ctx, id, 0, 0)
	if err != nil {
		return nil, errors.New(slackError(err))
	}
	w := &capped{limit: limit}
	if err := f.API.GetFileContext(ctx, info.URLPrivateDownload, w); err != nil {
		return nil, err
	}
	return w.data, nil
}

// capped keeps what is written to it, up to limit bytes.
type capped struct {
	data  []byte
	limit int64
}

func (c *capped) Write(p []byte) (int, error) {
	if int64(len(c.data)+len(p)) > c.limit {
		return 0, fmt.Errorf("the file is larger than the limit of %d bytes", c.limit)
	}
	c.data = append(c.data, p...)
	return len(p), nil
}

// LocalFiles stands, in the console, for the files shared in Slack: the "file ids" that
// `/ethics attach <case> files=...` gives are paths of files on this machine, relative to
// the console's folder, as a clerk at the console would share scans from the scanner's
// folder. Only regular files are read, and no more than the limit: the case file keeps
// what it is given, judged by its content as any document is.
type LocalFiles struct{}

// Info gives the file's base name and size; a path that is not a regular file is refused.
func (LocalFiles) Info(_ context.Context, path string) (string, int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, fmt.Errorf("no file %s here: %w", path, errors.Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return "", 0, fmt.Errorf("%s is not a file", path)
	}
	return filepath.Base(path), st.Size(), nil
}

// Download reads the file, and fails once more than limit bytes have come.
func (LocalFiles) Download(_ context.Context, path string, limit int64) ([]byte, error) {
	// Not blocking: a named pipe put where the file was would otherwise hold the console
	// at open; it is then refused as not a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	w := &capped{limit: limit}
	if _, err := io.Copy(w, f); err != nil {
		return nil, err
	}
	return w.data, nil
}
