// Package bot is ethicsbot's Slack transport: Socket Mode, HTTP with signature checks, and
// the console. It acks Slack at once, runs /ethics through commands, and delivers what
// commands says, retrying when Slack is busy.
package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"ethicsbot/commands"
	"ethicsbot/outbox"
)

// Waker wakes the outbox's deliverer after a request put posts in the outbox;
// outbox.Deliverer is one.
type Waker interface {
	Kick()
}

// Retrier is a Waker that can also try again at once the destinations that refused a
// post; outbox.Deliverer is one.
type Retrier interface {
	Retry()
}

// channelEvent handles Slack's word that a channel may now take posts: a member (ethicsbot
// among them) joined one of ethicsbot's channels, or a channel was unarchived. The outbox
// then tries at once what Slack refused, instead of at its next slow retry. It reports
// whether data was such an event.
func (a *App) channelEvent(data any) bool {
	switch data.(type) {
	case *slackevents.MemberJoinedChannelEvent, *slackevents.ChannelUnarchiveEvent, *slackevents.GroupUnarchiveEvent,
		slackevents.MemberJoinedChannelEvent, slackevents.ChannelUnarchiveEvent, slackevents.GroupUnarchiveEvent:
		if r, ok := a.Outbox.(Retrier); ok {
			r.Retry()
		}
		return true
	}
	return false
}

// App connects commands to the Slack Web API. Both transports use it.
type App struct {
	Service *commands.Service
	API     *slack.Client
	Log     *slog.Logger
	// Outbox, if set, is woken when a request has put posts in the outbox (meeting
	// notices, docket lines), which were committed with the request's events. The app
	// never posts them itself.
	Outbox Waker
	// Client posts replies to response_urls; nil is a client with a 10 s timeout.
	Client *http.Client
	// AppToken is Socket Mode's app-level token as this install keeps it, for what to do
	// when Slack refuses it (AppToken("SLACK_APP_TOKEN") if unset).
	AppToken Token
	// Connection, if set, is told where the Socket Mode connection stands, in order:
	// "connecting" while one is opened (at start, and again after Slack asked to reconnect
	// or the connection was lost), "ok" once it is open. /healthz and /metrics show it.
	Connection func(state string)

	wg sync.WaitGroup // work started after an ack

	home homes // who has the Home tab open, for RefreshHomes

	mu       sync.Mutex
	cancel   context.CancelFunc // stops a running Socket Mode loop
	fatalErr error              // why it was stopped
	connSeq  int                // the last connection state told: see connection
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
	// The manifest sets should_escape: Slack sends mentions as <@U024BE7LH|ann>.
	return commands.Request{User: cmd.UserID, Text: cmd.Text, RequestID: key, Escaped: true}
}

// Answer opens the response's form, if any, wakes the outbox for the posts the request
// committed, and delivers its replies. With inline, the first reply is not delivered but
// returned, for the caller to put in the HTTP response itself.
func (a *App) Answer(ctx context.Context, cmd slack.SlashCommand, resp commands.Response,
	inline bool) *commands.Message {
	if resp.Modal != nil {
		// trigger_id expires about 3 s after the user acted: open the form first.
		commands.WithChannel(resp.Modal, cmd.ChannelID)
		vctx, cancel := context.WithTimeout(ctx, 2500*time.Millisecond) // the trigger is dead after 3 s
		_, err := a.API.OpenViewContext(vctx, cmd.TriggerID, *resp.Modal)
		cancel()
		if err != nil {
			a.logger().Error("views.open failed", "err", err)
			resp.Messages = append(resp.Messages,
				commands.Message{Text: outbox.Format("The form could not be opened (%s). Type the one-line form instead: "+
					"`/ethics help %s`.", slackError(err), strings.Fields(cmd.Text + " file")[0])})
		}
	}
	a.wake(resp)
	reply := Reply{ResponseURL: cmd.ResponseURL, Channel: cmd.ChannelID, User: cmd.UserID}
	msgs := resp.Messages
	if len(resp.Files) > 0 {
		// Uploads take longer than an inline answer may: they go after the ack, and the
		// reply follows, saying where the files went.
		sub := strings.Fields(cmd.Text + " help")[0] // the subcommand, to try again
		a.Go(func() {
			ctx := context.WithoutCancel(ctx)
			a.Deliver(ctx, append(msgs, a.upload(ctx, resp.Files, resp.FilesNote, sub)), reply)
		})
		return nil
	}
	if !inline || len(msgs) == 0 {
		a.Deliver(ctx, msgs, reply)
		return nil
	}
	if rest := msgs[1:]; len(rest) > 0 {
		a.Go(func() { a.Deliver(context.WithoutCancel(ctx), rest, reply) })
	}
	return &msgs[0]
}

// upload puts files in the private docket channel, where the case's papers belong, in one
// share with note, the message that names them, by files.uploadV2's three steps: each
// file is uploaded (files.getUploadURLExternal, with an image's alt text, then the upload
// itself), and once all are, files.completeUploadExternal shares them together. It says
// what became of them; sub is the /ethics subcommand that made them, to try again. If one
// cannot be uploaded, none is shared: a share is all of a case's papers or nothing, and
// Slack discards an upload that is never completed.
func (a *App) upload(ctx context.Context, files []commands.File, note outbox.Markup, sub string) commands.Message {
	channel := a.Service.Settings().Channels.Docket
	var failed []outbox.Markup
	var done []slack.FileSummary
	for _, f := range files {
		var id string
		err := retry(ctx, func() error {
			u, err := a.API.GetUploadURLExternalContext(ctx,
				slack.GetUploadURLExternalParameters{FileName: f.Name, FileSize: len(f.Data), AltTxt: f.Alt})
			if err != nil {
				return err
			}
			id = u.FileID
			return a.API.UploadToURL(ctx,
				slack.UploadToURLParameters{UploadURL: u.UploadURL, Filename: f.Name, Reader: bytes.NewReader(f.Data)})
		})
		if err != nil {
			a.logger().Error("file not uploaded", "file", f.Name, "channel", channel, "err", slackError(err))
			failed = append(failed, outbox.Format("%s (%s)", f.Name, slackError(err)))
			continue
		}
		done = append(done, slack.FileSummary{ID: id, Title: f.Title})
	}
	if len(failed) == 0 && len(done) > 0 {
		err := retry(ctx, func() error {
			_, err := a.API.CompleteUploadExternalContext(ctx,
				slack.CompleteUploadExternalParameters{Files: done, Channel: channel, InitialComment: string(note)})
			return err
		})
		if err != nil {
			a.logger().Error("files not shared", "files", len(done), "channel", channel, "err", slackError(err))
			for _, f := range files {
				failed = append(failed, outbox.Format("%s (%s)", f.Name, slackError(err)))
			}
		}
	}
	if len(failed) > 0 {
		return commands.Message{Text: outbox.Format("Not uploaded to the docket channel: %s. Nothing was shared there; try "+
			"`/ethics %s` again.", outbox.Join(failed, ", "), sub)}
	}
	return commands.Message{Text: outbox.Format("Uploaded %d file(s) to the docket channel, in one message that "+
		"names them.", len(files))}
}

// wake tells the outbox that resp's posts are waiting, and refreshes the Home tabs: a
// request that put posts in the outbox recorded something, which the desk may show.
func (a *App) wake(resp commands.Response) {
	if len(resp.Posts) > 0 && a.Outbox != nil {
		a.Outbox.Kick()
	}
	if len(resp.Posts) > 0 {
		a.RefreshHomes()
	}
}

// Interaction handles a button click or a modal submission. For a submission it returns
// the answer to the modal: the field errors to show in it, or the form updated to show
// what was done; nil closes it.
func (a *App) Interaction(ctx context.Context, cb slack.InteractionCallback) *slack.ViewSubmissionResponse {
	switch cb.Type {
	case slack.InteractionTypeBlockActions:
		for _, act := range cb.ActionCallback.BlockActions {
			if !strings.HasPrefix(act.ActionID, commands.ActionPrefix) {
				continue
			}
			// A button carries its form in its value; a menu (the Home tab's rows), in
			// the option chosen.
			value := act.Value
			if act.SelectedOption.Value != "" {
				value = act.SelectedOption.Value
			}
			var resp commands.Response
			if strings.HasPrefix(act.ActionID, commands.OpenCasePrefix) {
				// A card's "Open case": the case, to the one who clicked.
				resp = a.Service.OpenCase(ctx, cb.User.ID, value)
			} else {
				resp = a.Service.Action(ctx, cb.User.ID, value, cb.Channel.ID)
			}
			if resp.Modal != nil {
				if _, err := a.API.OpenViewContext(ctx, cb.TriggerID, *resp.Modal); err != nil {
					a.logger().Error("views.open failed", "err", err)
					resp.Messages = append(resp.Messages,
						commands.Message{Text: outbox.Format("The form could not be opened (%s).", slackError(err))})
				}
			}
			a.Deliver(ctx, resp.Messages, Reply{ResponseURL: cb.ResponseURL, Channel: cb.Channel.ID, User: cb.User.ID})
		}
	case slack.InteractionTypeMessageAction:
		// The shortcut "Add to a case file" on a message that shares files.
		if cb.CallbackID != commands.AttachShortcut {
			break
		}
		var ids []string
		for _, f := range cb.Message.Files {
			ids = append(ids, f.ID)
		}
		resp := a.Service.Shortcut(ctx, cb.User.ID, cb.Channel.ID, ids)
		if resp.Modal != nil {
			if _, err := a.API.OpenViewContext(ctx, cb.TriggerID, *resp.Modal); err != nil {
				a.logger().Error("views.open failed", "err", err)
				resp.Messages = append(resp.Messages,
					commands.Message{Text: outbox.Format("The form could not be opened (%s).", slackError(err))})
			}
		}
		a.Deliver(ctx, resp.Messages, Reply{ResponseURL: cb.ResponseURL, Channel: cb.Channel.ID, User: cb.User.ID})
	case slack.InteractionTypeViewSubmission:
		sub := a.Service.Submit(ctx, cb.User.ID, ViewRequestID(cb.View), cb.View)
		if len(sub.Errors) > 0 {
			return slack.NewErrorsViewSubmissionResponse(sub.Errors)
		}
		// As for a slash command: the posts it caused were committed with it, before the
		// modal shows what was done; the outbox sends them.
		a.wake(sub.Response)
		if len(sub.Response.Messages) > 0 {
			a.Go(func() {
				a.Deliver(context.WithoutCancel(ctx), sub.Response.Messages, Reply{Channel: sub.Channel, User: cb.User.ID})
			})
		}
		if sub.View != nil {
			return slack.NewUpdateViewSubmissionResponse(sub.View)
		}
	}
	return nil
}

// Deliver sends replies to the user who asked, as r says: through the response_url, as an
// ephemeral message, or else as a direct message.
func (a *App) Deliver(ctx context.Context, msgs []commands.Message, r Reply) {
	for _, m := range msgs {
		opts := []slack.MsgOption{slack.MsgOptionText(string(m.Text), false)}
		if len(m.Blocks) > 0 {
			opts = append(opts, slack.MsgOptionBlocks(m.Blocks...))
		}
		var err error
		switch {
		case r.ResponseURL != "":
			body := replyBody{ResponseType: slack.ResponseTypeEphemeral, Text: string(m.Text), Blocks: m.Blocks}
			err = retry(ctx, func() error { return a.respond(ctx, r.ResponseURL, body) })
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
			a.logger().Error("reply not delivered", "user", r.User, "err", slackError(err))
		}
	}
}

// replyBody is a reply to a slash command or an interaction, in the HTTP response or
// through its response_url, with no null or empty field: slack-go's response_url sender
// writes "blocks": null and an empty "metadata" object, which Slack's own types
// (@slack/types) do not allow.
type replyBody struct {
	ResponseType string        `json:"response_type"`
	Text         string        `json:"text"`
	Blocks       []slack.Block `json:"blocks,omitempty"`
}

// respond posts body to a response_url. A refusal is a slack.StatusCodeError, as
// slack-go reports one, so that retry tells a 404 from an expired URL (final) from a
// server error (tried again).
func (a *App) respond(ctx context.Context, responseURL string, body replyBody) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, responseURL, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	client := a.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return slack.StatusCodeError{Code: resp.StatusCode, Status: resp.Status}
	}
	return nil
}

// retry calls fn until it succeeds, honouring Slack's Retry-After on 429 and backing off
// on server and network errors, for at most five attempts.
func retry(ctx context.Context, fn func() error) error { return retryLimited(ctx, fn, nil) }

// retryLimited is retry, telling limited (if set) of each wait that Slack's 429
// Retry-After asks for.
func retryLimited(ctx context.Context, fn func() error, limited func(wait time.Duration)) error {
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
			if limited != nil {
				limited(wait)
			}
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

// slackError says why a call to Slack failed in words fit to show a user: Slack's error
// code, or a plain phrase for a failure on the way. Never the error's own text for a
// transport failure: that names the API URL, which may be an internal proxy's
// (SLACK_API_URL). An error that did not come from Slack keeps its text.
func slackError(err error) string {
	var se slack.SlackErrorResponse
	var rl *slack.RateLimitedError
	var sc slack.StatusCodeError
	var ue *url.Error
	switch {
	case errors.As(err, &se):
		return se.Err
	case errors.As(err, &rl):
		return "Slack asked ethicsbot to slow down"
	case errors.As(err, &sc):
		return fmt.Sprintf("Slack answered with an error, HTTP %d", sc.Code)
	case errors.Is(err, context.Canceled):
		return "ethicsbot stopped before Slack answered"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ue) && ue.Timeout():
		return "Slack did not answer in time"
	case errors.As(err, &ue), isNetwork(err):
		return "Slack could not be reached"
	}
	return err.Error()
}
