package bot

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/outbox"
)

// metadataEvent tags each message's Slack metadata with its outbox key, so that after a
// crash between sending and recording, the deliverer can find whether it went out. (The
// name dates from when only reminders carried it; messages sent then are still found.)
const metadataEvent = "ethicsbot_reminder"

// Sender says the outbox's messages in Slack; it is an outbox.Sender.
type Sender struct {
	API *slack.Client
}

// Send posts text to d with its key in the message metadata.
func (r *Sender) Send(ctx context.Context, d outbox.Dest, text outbox.Markup, key outbox.Key) (string, string, error) {
	to := d.Channel
	if to == "" {
		to = d.User // a user id posts to the app's direct messages with that user
	}
	var ch, ts string
	start, tried := time.Now(), false
	err := retry(ctx, func() error {
		if tried {
			// The last attempt may have been posted even though its answer was lost.
			if c, t, found, err := r.Find(ctx, d, key, start.Add(-time.Minute)); err == nil && found {
				ch, ts = c, t
				return nil
			}
		}
		tried = true
		var err error
		ch, ts, err = r.API.PostMessageContext(ctx, to, slack.MsgOptionText(string(text), false),
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metadataEvent, EventPayload: map[string]any{"key": key.String()}}))
		return err
	})
	return ch, ts, deliveryError(err, d)
}

// Find looks through d's history since since for a message tagged key.
func (r *Sender) Find(ctx context.Context, d outbox.Dest, key outbox.Key, since time.Time) (string, string, bool, error) {
	ch, ts, found, err := r.find(ctx, d, key, since)
	return ch, ts, found, deliveryError(err, d)
}

func (r *Sender) find(ctx context.Context, d outbox.Dest, key outbox.Key, since time.Time) (string, string, bool, error) {
	ch := d.Channel
	if ch == "" {
		c, _, _, err := r.API.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{d.User}, ReturnIM: true})
		if err != nil {
			return "", "", false, fmt.Errorf("opening the direct messages with %s: %w", d.User, err)
		}
		ch = c.ID
	}
	want := key.String()
	params := &slack.GetConversationHistoryParameters{ChannelID: ch, Oldest: strconv.FormatInt(since.Unix(), 10), Limit: 200, IncludeAllMetadata: true}
	for {
		h, err := r.API.GetConversationHistoryContext(ctx, params)
		if err != nil {
			return "", "", false, err
		}
		for _, m := range h.Messages {
			if m.Metadata.EventType == metadataEvent && m.Metadata.EventPayload["key"] == want {
				return ch, m.Timestamp, true, nil
			}
		}
		if !h.HasMore || h.ResponseMetaData.NextCursor == "" {
			return ch, "", false, nil
		}
		params.Cursor = h.ResponseMetaData.NextCursor
	}
}

// Probe checks that Slack still takes the bot token (auth.test), saying nothing.
func (r *Sender) Probe(ctx context.Context) error {
	_, err := r.API.AuthTestContext(ctx)
	return deliveryError(err, outbox.Dest{})
}
