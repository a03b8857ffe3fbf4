package bot

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
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
	return r.send(ctx, d, key, slack.MsgOptionText(string(text), false))
}

// SendActions posts text to d as Send does, with its actions as buttons
// (commands.PostBlocks); the text stays the message's text, which notifications show.
func (r *Sender) SendActions(ctx context.Context, d outbox.Dest, text outbox.Markup, actions []outbox.Action, key outbox.Key) (string, string, error) {
	return r.send(ctx, d, key, slack.MsgOptionText(string(text), false), slack.MsgOptionBlocks(commands.PostBlocks(text, actions)...))
}

// send posts a message to d, made of opts, with key in its metadata; after a failure it
// looks for the message before it posts again.
func (r *Sender) send(ctx context.Context, d outbox.Dest, key outbox.Key, opts ...slack.MsgOption) (string, string, error) {
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
		ch, ts, err = r.API.PostMessageContext(ctx, to, append(opts,
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metadataEvent, EventPayload: map[string]any{"key": key.String()}}))...)
		return err
	})
	return ch, ts, deliveryError(err, d)
}

// Find looks through d's history since since for a message tagged key.
func (r *Sender) Find(ctx context.Context, d outbox.Dest, key outbox.Key, since time.Time) (string, string, bool, error) {
	want := key.String()
	var ch, ts string
	err := r.history(ctx, d, since, func(c string, m slack.Message) bool {
		if m.Metadata.EventType == metadataEvent && m.Metadata.EventPayload["key"] == want {
			ch, ts = c, m.Timestamp
			return false
		}
		ch = c
		return true
	})
	return ch, ts, ts != "", deliveryError(err, d)
}

// Said returns every message in d's history since since that ethicsbot tagged with its
// key: what Slack shows ethicsbot said there.
func (r *Sender) Said(ctx context.Context, d outbox.Dest, since time.Time) ([]outbox.Said, error) {
	var out []outbox.Said
	err := r.history(ctx, d, since, func(ch string, m slack.Message) bool {
		if m.Metadata.EventType != metadataEvent {
			return true
		}
		s, _ := m.Metadata.EventPayload["key"].(string)
		if k, err := outbox.ParseKey(s); err == nil {
			out = append(out, outbox.Said{Key: k, Text: outbox.Markup(m.Text), Channel: ch, TS: m.Timestamp})
		}
		return true
	})
	return out, deliveryError(err, d)
}

// history calls each with every message of d's history since since, newest first, until it
// returns false.
func (r *Sender) history(ctx context.Context, d outbox.Dest, since time.Time, each func(channel string, m slack.Message) bool) error {
	ch := d.Channel
	if ch == "" {
		c, _, _, err := r.API.OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{d.User}, ReturnIM: true})
		if err != nil {
			return fmt.Errorf("opening the direct messages with %s: %w", d.User, err)
		}
		ch = c.ID
	}
	params := &slack.GetConversationHistoryParameters{ChannelID: ch, Oldest: strconv.FormatInt(since.Unix(), 10), Limit: 200, IncludeAllMetadata: true}
	for {
		h, err := r.API.GetConversationHistoryContext(ctx, params)
		if err != nil {
			return err
		}
		for _, m := range h.Messages {
			if !each(ch, m) {
				return nil
			}
		}
		if !h.HasMore || h.ResponseMetaData.NextCursor == "" {
			return nil
		}
		params.Cursor = h.ResponseMetaData.NextCursor
	}
}

// Probe checks that Slack still takes the bot token (auth.test), saying nothing.
func (r *Sender) Probe(ctx context.Context) error {
	_, err := r.API.AuthTestContext(ctx)
	return deliveryError(err, outbox.Dest{})
}
