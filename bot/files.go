package bot

import (
	"context"
	"errors"
	"fmt"

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
