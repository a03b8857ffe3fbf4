package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	// RateLimited, if set, is told when Slack answers 429 to a message to a destination,
	// with its Retry-After: the outbox's Pacer holds the destination that long, and
	// /metrics counts it. The message itself is tried again after that wait.
	RateLimited func(to outbox.Dest, wait time.Duration)
	// Token is the bot token as this install keeps it: a refusal of it says what to do in
	// its terms (BotToken("SLACK_BOT_TOKEN") if unset).
	Token Token
}

// limited is retryLimited's hook for messages to d.
func (r *Sender) limited(d outbox.Dest) func(time.Duration) {
	if r.RateLimited == nil {
		return nil
	}
	return func(wait time.Duration) { r.RateLimited(d, wait) }
}

// Send posts text to d with its key in the message metadata.
func (r *Sender) Send(ctx context.Context, d outbox.Dest, text outbox.Markup, key outbox.Key) (string, string, error) {
	return r.send(ctx, d, key, slack.MsgOptionText(string(text), false))
}

// SendActions posts text to d as Send does, with its actions as buttons
// (commands.PostBlocks); the text stays the message's text, which notifications show.
func (r *Sender) SendActions(ctx context.Context, d outbox.Dest, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) (string, string, error) {
	return r.send(ctx, d, key, slack.MsgOptionText(string(text), false),
		slack.MsgOptionBlocks(commands.PostBlocks(text, actions)...))
}

// send posts a message to d, made of opts, with key in its metadata; after a failure it
// looks for the message before it posts again.
func (r *Sender) send(ctx context.Context, d outbox.Dest, key outbox.Key,
	opts ...slack.MsgOption) (string, string, error) {
	to := d.Channel
	if to == "" {
		to = d.User // a user id posts to the app's direct messages with that user
	}
	var ch, ts string
	start, tried := time.Now(), false
	err := retryLimited(ctx, func() error {
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
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metadataEvent,
				EventPayload: map[string]any{"key": key.String()}}))...)
		return err
	}, r.limited(d))
	return ch, ts, deliveryError(err, d, r.Token)
}

// Find looks through d's history since since for a message tagged key.
func (r *Sender) Find(ctx context.Context, d outbox.Dest, key outbox.Key,
	since time.Time) (string, string, bool, error) {
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
	return ch, ts, ts != "", deliveryError(err, d, r.Token)
}

// Said returns every message in d's history since since that ethicsbot tagged with its
// key: what Slack shows ethicsbot said there, replies in the cases' threads included. The
// channel's history holds only the threads' parents, so the replies are read from the
// thread of each case's card found there, and of each in threads (the cards posted
// before since, which the record knows: store.Store.CardThreads).
func (r *Sender) Said(ctx context.Context, d outbox.Dest, since time.Time, threads ...string) ([]outbox.Said, error) {
	var out []outbox.Said
	tagged := func(ch string, m slack.Message) (outbox.Key, bool) {
		if m.Metadata.EventType != metadataEvent {
			return outbox.Key{}, false
		}
		s, _ := m.Metadata.EventPayload["key"].(string)
		k, err := outbox.ParseKey(s)
		if err == nil {
			out = append(out, outbox.Said{Key: k, Text: outbox.Markup(m.Text), Channel: ch, TS: m.Timestamp})
		}
		return k, err == nil
	}
	channel := ""
	err := r.history(ctx, d, since, func(ch string, m slack.Message) bool {
		channel = ch
		if k, ok := tagged(ch, m); ok && k.Series == outbox.CardSeries && !slices.Contains(threads, m.Timestamp) {
			threads = append(threads, m.Timestamp)
		}
		return true
	})
	if err != nil || d.Channel == "" {
		return out, deliveryError(err, d, r.Token)
	}
	for _, th := range threads {
		err := r.replies(ctx, channel, th, func(m slack.Message) bool {
			if m.Timestamp != th && !slackTime(m.Timestamp).Before(since) {
				tagged(channel, m)
			}
			return true
		})
		if err != nil && !errors.Is(threadError(err, d, r.Token), outbox.ErrGone) {
			return out, deliveryError(err, d, r.Token)
		}
	}
	return out, nil
}

// slackTime is a message ts as a time.
func slackTime(ts string) time.Time {
	sec, frac, _ := strings.Cut(ts, ".")
	s, _ := strconv.ParseInt(sec, 10, 64)
	us, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
	return time.Unix(s, us*1000)
}

// history calls each with every message of d's history since since, newest first, until it
// returns false.
func (r *Sender) history(ctx context.Context, d outbox.Dest, since time.Time,
	each func(channel string, m slack.Message) bool) error {
	ch := d.Channel
	if ch == "" {
		c, _, _, err := r.API.OpenConversationContext(ctx,
			&slack.OpenConversationParameters{Users: []string{d.User}, ReturnIM: true})
		if err != nil {
			return fmt.Errorf("opening the direct messages with %s: %w", d.User, err)
		}
		ch = c.ID
	}
	params := &slack.GetConversationHistoryParameters{ChannelID: ch, Oldest: strconv.FormatInt(since.Unix(), 10),
		Limit: 200, IncludeAllMetadata: true}
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
	return deliveryError(err, outbox.Dest{}, r.Token)
}

// goneCodes are Slack's answers that the message a reply or an update belongs to is no
// longer there (chat.update, chat.postMessage with thread_ts, conversations.replies): the
// deliverer posts a new parent in its place.
var goneCodes = map[string]bool{"message_not_found": true, "cant_update_message": true, "thread_not_found": true}

// threadError is deliveryError, but with a parent that Slack no longer has told as
// outbox.ErrGone.
func threadError(err error, d outbox.Dest, tok Token) error {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) && goneCodes[se.Err] {
		return fmt.Errorf("%s: %w", se.Err, outbox.ErrGone)
	}
	return deliveryError(err, d, tok)
}

// Reply posts text to d in the thread of the message thread, with its key in the metadata.
func (r *Sender) Reply(ctx context.Context, d outbox.Dest, thread string, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	var ch, ts string
	tried := false
	err := retryLimited(ctx, func() error {
		if tried {
			// The last attempt may have been posted even though its answer was lost.
			if c, t, found, err := r.FindReply(ctx, d, thread, key); err == nil && found {
				ch, ts = c, t
				return nil
			}
		}
		tried = true
		var err error
		ch, ts, err = r.API.PostMessageContext(ctx, d.Channel, slack.MsgOptionText(string(text), false),
			slack.MsgOptionTS(thread),
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metadataEvent,
				EventPayload: map[string]any{"key": key.String()}}))
		return err
	}, r.limited(d))
	return ch, ts, threadError(err, d, r.Token)
}

// FindReply looks through the thread of the message thread in d for a reply tagged key.
func (r *Sender) FindReply(ctx context.Context, d outbox.Dest, thread string,
	key outbox.Key) (string, string, bool, error) {
	want := key.String()
	var ts string
	err := r.replies(ctx, d.Channel, thread, func(m slack.Message) bool {
		if m.Metadata.EventType == metadataEvent && m.Metadata.EventPayload["key"] == want {
			ts = m.Timestamp
			return false
		}
		return true
	})
	return d.Channel, ts, ts != "", threadError(err, d, r.Token)
}

// Update replaces the text of the message ts in channel, and its blocks (its actions, laid
// out by commands.PostBlocks; a case's card carries its menu of steps), keeping it tagged
// key: an update is said again after a crash rather than looked for, since saying it twice
// changes nothing. The blocks are always sent: chat.update keeps a message's old blocks,
// and their buttons, when it is given none.
func (r *Sender) Update(ctx context.Context, channel, ts string, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) error {
	err := retryLimited(ctx, func() error {
		_, _, _, err := r.API.UpdateMessageContext(ctx, channel, ts, slack.MsgOptionText(string(text), false),
			slack.MsgOptionBlocks(commands.PostBlocks(text, actions)...),
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: metadataEvent,
				EventPayload: map[string]any{"key": key.String()}}))
		return err
	}, r.limited(key.To))
	return threadError(err, key.To, r.Token)
}

// replies calls each with every message of the thread of the message thread in channel,
// the parent first, until it returns false.
func (r *Sender) replies(ctx context.Context, channel, thread string, each func(m slack.Message) bool) error {
	params := &slack.GetConversationRepliesParameters{ChannelID: channel, Timestamp: thread, Limit: 200,
		IncludeAllMetadata: true}
	for {
		msgs, more, cursor, err := r.API.GetConversationRepliesContext(ctx, params)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if !each(m) {
				return nil
			}
		}
		if !more || cursor == "" {
			return nil
		}
		params.Cursor = cursor
	}
}
