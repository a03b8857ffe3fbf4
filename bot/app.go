// Package bot is ethicsbot's Slack transport: Socket Mode, HTTP with signature checks, and
// the console. It acks Slack at once, runs /ethics through commands, and delivers what
// commands says, retrying when Slack is busy.
package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/reminders"
)

// Poster delivers a message that must not be lost: it keeps it until Slack takes it, and
// says it once. reminders.Sweeper is one.
type Poster interface {
	Queue(ctx context.Context, caseNumber, id string, to reminders.Dest, text string, now time.Time) (reminders.Post, error)
	DeliverPost(ctx context.Context, p reminders.Post, now time.Time) error
}

// App connects commands to the Slack Web API. Both transports use it.
type App struct {
	Service *commands.Service
	API     *slack.Client
	Log     *slog.Logger
	// Posts, if set, carries posts to channels and direct messages (meeting notices,
	// docket lines) through the outbox, so an outage delays them but loses none.
	Posts Poster

	wg sync.WaitGroup // work started after an ack

	mu       sync.Mutex
	cancel   context.CancelFunc // stops a running Socket Mode loop
	fatalErr error              // why it was stopped
}

// Reply says where a command's ephemeral replies go.
type Reply struct {
	ResponseURL string // preferred: needs no scope and works in any channel
	Channel     string // else an ephemeral post here, to User
	User        string // with neither, a direct message to User
}

// Go runs fn after the ack, and Wait waits for it: shutdown lets in-flight work finish.
func (a *App) Go(fn func()) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		fn()
	}()
}

// Wait blocks until all work started with Go has finished.
func (a *App) Wait() { a.wg.Wait() }

func (a *App) logger() *slog.Logger {
	if a.Log == nil {
		return slog.Default()
	}
	return a.Log
}

// Slash runs one /ethics command. The caller has already acked it.
func (a *App) Slash(ctx context.Context, cmd slack.SlashCommand) {
	a.Answer(ctx, cmd, a.Service.Handle(ctx, SlashRequest(cmd)), false)
}

// SlashRequest is the commands request for a slash command. Its idempotency key is one
// that a retry of the same invocation repeats and no other invocation shares, so a retry
// is recognised and not recorded twice: the trigger_id, else the response_url. With
// neither there is no key, rather than one that two different commands would share.
func SlashRequest(cmd slack.SlashCommand) commands.Request {
	key := ""
	switch {
	case cmd.TriggerID != "":
		key = "slash:" + cmd.TriggerID
	case cmd.ResponseURL != "":
		key = "slash-response:" + cmd.ResponseURL
	}
	return commands.Request{User: cmd.UserID, Text: cmd.Text, RequestID: key}
}

// Answer opens the response's form, if any, and delivers its messages. With inline, the
// first reply to the user is not delivered but returned, for the caller to put in the
// HTTP response itself; the other messages are delivered after.
func (a *App) Answer(ctx context.Context, cmd slack.SlashCommand, resp commands.Response, inline bool) *commands.Message {
	if resp.Modal != nil {
		// trigger_id expires about 3 s after the user acted: open the form first.
		commands.WithChannel(resp.Modal, cmd.ChannelID)
		vctx, cancel := context.WithTimeout(ctx, 2500*time.Millisecond) // the trigger is dead after 3 s
		_, err := a.API.OpenViewContext(vctx, cmd.TriggerID, *resp.Modal)
		cancel()
		if err != nil {
			a.logger().Error("views.open failed", "err", err)
			resp.Messages = append(resp.Messages, commands.Message{Text: "The form could not be opened (" + slackError(err) + "). Type the one-line form instead: `/ethics help " + strings.Fields(cmd.Text + " file")[0] + "`."})
		}
	}
	var first *commands.Message
	msgs := resp.Messages
	if inline {
		for i, m := range msgs {
			if m.Channel == "" && m.User == "" {
				first = &msgs[i]
				msgs = append(append([]commands.Message(nil), msgs[:i]...), msgs[i+1:]...)
				break
			}
		}
	}
	reply := Reply{ResponseURL: cmd.ResponseURL, Channel: cmd.ChannelID, User: cmd.UserID}
	if !inline {
		a.Deliver(ctx, msgs, reply)
		return first
	}
	// The answer goes back once the posts it caused are in the outbox: a crash after the
	// 200 cannot lose a public notice.
	queued, msgs := a.queueCaused(ctx, msgs)
	a.Go(func() {
		ctx := context.WithoutCancel(ctx)
		a.post(ctx, queued...)
		a.Deliver(ctx, msgs, reply)
	})
	return first
}

// Interaction handles a button click or a modal submission. For a submission it returns
// the field errors to show in the modal; nil closes it.
func (a *App) Interaction(ctx context.Context, cb slack.InteractionCallback) map[string]string {
	switch cb.Type {
	case slack.InteractionTypeBlockActions:
		for _, act := range cb.ActionCallback.BlockActions {
			if !strings.HasPrefix(act.ActionID, commands.ActionPrefix) {
				continue
			}
			resp := a.Service.Action(ctx, cb.User.ID, act.Value, cb.Channel.ID)
			if resp.Modal != nil {
				if _, err := a.API.OpenViewContext(ctx, cb.TriggerID, *resp.Modal); err != nil {
					a.logger().Error("views.open failed", "err", err)
					resp.Messages = append(resp.Messages, commands.Message{Text: "The form could not be opened (" + slackError(err) + ")."})
				}
			}
			a.Deliver(ctx, resp.Messages, Reply{ResponseURL: cb.ResponseURL, Channel: cb.Channel.ID, User: cb.User.ID})
		}
	case slack.InteractionTypeViewSubmission:
		sub := a.Service.Submit(ctx, cb.User.ID, ViewRequestID(cb.View), cb.View)
		if len(sub.Errors) > 0 {
			return sub.Errors
		}
		// As for a slash command: the posts it caused are in the outbox before the modal
		// closes, then sent.
		queued, rest := a.queueCaused(ctx, sub.Response.Messages)
		a.Go(func() {
			ctx := context.WithoutCancel(ctx)
			a.post(ctx, queued...)
			a.Deliver(ctx, rest, Reply{Channel: sub.Channel, User: cb.User.ID})
		})
	}
	return nil
}

// queueCaused puts the channel posts and direct messages among msgs in the outbox, if
// there is one, and returns them queued, with the messages left to deliver.
func (a *App) queueCaused(ctx context.Context, msgs []commands.Message) ([]reminders.Post, []commands.Message) {
	if a.Posts == nil {
		return nil, msgs
	}
	var queued []reminders.Post
	var rest []commands.Message
	for _, m := range msgs {
		if (m.Channel != "" || m.User != "") && len(m.Blocks) == 0 {
			queued = append(queued, a.queue(ctx, m)...)
		} else {
			rest = append(rest, m)
		}
	}
	return queued, rest
}

// Deliver sends messages: posts to channels and users, and replies as r says.
func (a *App) Deliver(ctx context.Context, msgs []commands.Message, r Reply) {
	for _, m := range msgs {
		opts := []slack.MsgOption{slack.MsgOptionText(m.Text, false)}
		if len(m.Blocks) > 0 {
			opts = append(opts, slack.MsgOptionBlocks(m.Blocks...))
		}
		var err error
		if a.Posts != nil && (m.Channel != "" || m.User != "") && len(m.Blocks) == 0 {
			a.post(ctx, a.queue(ctx, m)...)
			continue
		}
		switch {
		case m.Channel != "":
			err = retry(ctx, func() error { _, _, err := a.API.PostMessageContext(ctx, m.Channel, opts...); return err })
		case m.User != "":
			err = retry(ctx, func() error { _, _, err := a.API.PostMessageContext(ctx, m.User, opts...); return err })
		case r.ResponseURL != "":
			o := append(opts, slack.MsgOptionResponseURL(r.ResponseURL, slack.ResponseTypeEphemeral))
			err = retry(ctx, func() error { _, _, err := a.API.PostMessageContext(ctx, r.Channel, o...); return err })
		case r.Channel != "":
			err = retry(ctx, func() error { _, err := a.API.PostEphemeralContext(ctx, r.Channel, r.User, opts...); return err })
			if err != nil {
				// Not in that channel (a DM between people, a private channel): the user
				// must still see the answer, so it goes to their direct messages.
				err = retry(ctx, func() error { _, _, err := a.API.PostMessageContext(ctx, r.User, opts...); return err })
			}
		default: // a form submitted from nowhere in particular: a direct message
			err = retry(ctx, func() error { _, _, err := a.API.PostMessageContext(ctx, r.User, opts...); return err })
		}
		if err != nil {
			// Never log message text: it may hold complaint details.
			a.logger().Error("delivery failed", "channel", m.Channel, "user", m.User, "err", slackError(err))
		}
	}
}

// queue puts the channel posts and direct messages among msgs in the outbox, durably.
func (a *App) queue(ctx context.Context, msgs ...commands.Message) []reminders.Post {
	var out []reminders.Post
	for _, m := range msgs {
		to := reminders.Dest{Channel: m.Channel, User: m.User}
		p, err := a.Posts.Queue(ctx, "", postID(), to, m.Text, time.Now())
		if err != nil {
			a.logger().Error("post could not be queued", "to", to.String(), "err", err)
			continue
		}
		out = append(out, p)
	}
	return out
}

// post sends queued posts; one Slack refuses stays queued for the next sweep.
func (a *App) post(ctx context.Context, posts ...reminders.Post) {
	for _, p := range posts {
		if err := a.Posts.DeliverPost(ctx, p, time.Now()); err != nil {
			a.logger().Warn("post not delivered; it stays queued and will be retried", "err", slackError(err))
		}
	}
}

var postSeq atomic.Int64

// postID is unique for each message this process posts.
func postID() string {
	return fmt.Sprintf("%d.%d", time.Now().UnixNano(), postSeq.Add(1))
}

// retry calls fn until it succeeds, honouring Slack's Retry-After on 429 and backing off
// on server and network errors, for at most five attempts.
func retry(ctx context.Context, fn func() error) error {
	const attempts = 5
	delay := 500 * time.Millisecond
	var err error
	for attempt := 1; ; attempt++ {
		if err = fn(); err == nil {
			return nil
		}
		wait := delay
		var rl *slack.RateLimitedError
		var sc slack.StatusCodeError
		switch {
		case errors.As(err, &rl):
			wait = rl.RetryAfter
		case errors.As(err, &sc):
			if sc.Code < http.StatusInternalServerError {
				return err // 404 from an expired response_url, 403...: retrying will not help
			}
		case isNetwork(err):
		default:
			return err // a Slack error such as channel_not_found: retrying will not help
		}
		if attempt == attempts {
			return err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay = min(delay*2, 8*time.Second)
	}
}

// isNetwork reports whether err is a failure to reach Slack that may pass: a refused or
// reset connection, a DNS failure, a timeout, a connection cut mid-answer. A malformed URL
// or a bad answer is not: it would fail the same way again.
func isNetwork(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	var ne net.Error
	return errors.As(err, &op) || errors.As(err, &dns) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.As(err, &ne) && ne.Timeout() && !errors.Is(err, context.DeadlineExceeded)
}

// slackError is an error's text without anything but Slack's code or the transport's
// failure.
func slackError(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return err.Error()
}
