package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"ethicsbot/outbox"
)

// Start-up waits while Slack cannot be reached: the first, then twice as long each time, up
// to the longest.
const (
	authRetryFirst   = time.Second
	authRetryLongest = 30 * time.Second
)

// authWait waits d, or until ctx ends; tests replace it so as not to sleep.
var authWait = outbox.Sleep

// CheckAuth calls auth.test until Slack answers, so that a bot started during a network or
// Slack outage comes up when it ends instead of exiting. While Slack cannot be reached or
// answers with a server error, it logs each failure with the wait before the next attempt:
// 1 s, doubling up to 30 s. A fatal answer (a bad token, a missing scope) is returned at
// once as an error that says what to do, in tok's terms, as is any other answer retrying
// cannot change. If ctx ends first, it returns ctx's error.
func CheckAuth(ctx context.Context, api *slack.Client, tok Token, log *slog.Logger) error {
	if log == nil {
		log = slog.Default()
	}
	wait := authRetryFirst
	for attempt := 1; ; attempt++ {
		_, err := api.AuthTestContext(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var se slack.SlackErrorResponse
		if errors.As(err, &se) {
			if err := startRefusal(se.Err, tok); err != nil {
				return err
			}
		}
		pause, ok := authRetryable(err, wait)
		if !ok {
			return fmt.Errorf("checking the %s with Slack (auth.test): %w", tok.Name, err)
		}
		log.Warn("Slack is unavailable; trying again", "token", tok.Name, "attempt", attempt, "err", err.Error(),
			"retry_in", pause)
		if err := authWait(ctx, pause); err != nil {
			return err
		}
		wait = min(wait*2, authRetryLongest)
	}
}

// authRetryable says whether auth.test's err may pass with time, and how long to wait
// first: wait, or longer if Slack asked for it. A network failure, a timeout, a server
// error or a rate limit may; a 404 from a wrong SLACK_API_URL or a Slack error code will not.
func authRetryable(err error, wait time.Duration) (time.Duration, bool) {
	var rl *slack.RateLimitedError
	var sc slack.StatusCodeError
	var ue *url.Error
	switch {
	case errors.As(err, &rl):
		return max(wait, rl.RetryAfter), true
	case errors.As(err, &sc):
		return wait, sc.Code >= http.StatusInternalServerError || sc.Code == http.StatusTooManyRequests
	}
	return wait, isNetwork(err) || errors.As(err, &ue) && ue.Timeout()
}

// SocketHandler routes Socket Mode events to the app. Every path acks at once; the work
// follows. It is separate from running the connection so tests can drive it with
// DispatchEvent.
func (a *App) SocketHandler(client *socketmode.Client) *socketmode.SocketmodeHandler {
	h := socketmode.NewSocketmodeHandler(client)
	// Every handler counts as in-flight work, so shutdown waits for it.
	tracked := func(f socketmode.SocketmodeHandlerFunc) socketmode.SocketmodeHandlerFunc {
		return func(evt *socketmode.Event, c *socketmode.Client) {
			a.wg.Add(1)
			defer a.wg.Done()
			f(evt, c)
		}
	}
	h.HandleSlashCommand("/ethics", tracked(func(evt *socketmode.Event, c *socketmode.Client) {
		cmd, ok := evt.Data.(slack.SlashCommand)
		c.Ack(*evt.Request)
		if ok {
			a.Go(func() { a.Slash(context.Background(), cmd) })
		}
	}))
	// A button, and the message shortcut "Add to a case file": acked at once, answered after.
	for _, t := range []slack.InteractionType{slack.InteractionTypeBlockActions, slack.InteractionTypeMessageAction} {
		h.HandleInteraction(t, tracked(func(evt *socketmode.Event, c *socketmode.Client) {
			cb, ok := evt.Data.(slack.InteractionCallback)
			c.Ack(*evt.Request)
			if ok {
				a.Go(func() { a.Interaction(context.Background(), cb) })
			}
		}))
	}
	h.HandleInteraction(slack.InteractionTypeViewSubmission, tracked(func(evt *socketmode.Event, c *socketmode.Client) {
		cb, ok := evt.Data.(slack.InteractionCallback)
		if !ok {
			c.Ack(*evt.Request)
			return
		}
		// The modal waits for the ack, within Slack's 3 s: errors keep it open, an update
		// shows what was done in its place.
		ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
		defer cancel()
		if answer := a.Interaction(ctx, cb); answer != nil {
			if err := c.Ack(*evt.Request, answer); err != nil {
				a.logger().Error("form answer not sent", "err", err)
			}
			return
		}
		c.Ack(*evt.Request)
	}))
	h.HandleEvents(slackevents.AppHomeOpened, tracked(func(evt *socketmode.Event, c *socketmode.Client) {
		c.Ack(*evt.Request)
		api, ok := evt.Data.(slackevents.EventsAPIEvent)
		if !ok || (evt.Request != nil && evt.Request.RetryAttempt > 0) {
			return
		}
		if home, ok := api.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent); ok && home.Tab == "home" {
			a.Go(func() { a.PublishHome(context.Background(), home.User) })
		}
	}))
	channelChanged := tracked(func(evt *socketmode.Event, c *socketmode.Client) {
		c.Ack(*evt.Request)
		if api, ok := evt.Data.(slackevents.EventsAPIEvent); ok {
			a.channelEvent(api.InnerEvent.Data)
		}
	})
	for _, t := range []slackevents.EventsAPIType{slackevents.MemberJoinedChannel, slackevents.ChannelUnarchive,
		slackevents.GroupUnarchive} {
		h.HandleEvents(t, channelChanged)
	}
	h.Handle(socketmode.EventTypeConnecting, func(evt *socketmode.Event, c *socketmode.Client) {
		if ce, ok := evt.Data.(*slack.ConnectingEvent); ok {
			a.connection(ce.ConnectionCount, false)
		}
	})
	h.Handle(socketmode.EventTypeConnected, func(evt *socketmode.Event, c *socketmode.Client) {
		if ce, ok := evt.Data.(*socketmode.ConnectedEvent); ok {
			a.connection(ce.ConnectionCount, true)
		}
		a.logger().Info("connected to Slack over Socket Mode")
	})
	h.Handle(socketmode.EventTypeConnectionError, func(evt *socketmode.Event, c *socketmode.Client) {
		if ce, ok := evt.Data.(*slack.ConnectionErrorEvent); ok {
			if err := a.fatal(ce.ErrorObj); err != nil {
				a.stopSocket(err) // reconnecting cannot fix a token or a scope
				return
			}
		}
		a.logger().Warn("Socket Mode connection failed; reconnecting", "detail", fmt.Sprint(evt.Data))
	})
	h.Handle(socketmode.EventTypeDisconnect, func(evt *socketmode.Event, c *socketmode.Client) {
		a.logger().Info("Slack asked to reconnect; reconnecting")
	})
	h.HandleDefault(func(evt *socketmode.Event, c *socketmode.Client) {
		if evt.Request != nil {
			c.Ack(*evt.Request)
		}
	})
	return h
}

// connection tells Connection that Socket Mode's connection number n (0 the first, 1 the
// next, after a reconnection) is being opened, or is open. The handler runs each event on
// its own goroutine, so the events may come out of order: a "connecting" never follows the
// "ok" of the same connection or a later one.
func (a *App) connection(n int, open bool) {
	seq := 2*n + 1 // 0 is before any connection
	state := "connecting"
	if open {
		seq, state = seq+1, "ok"
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if seq <= a.connSeq || a.Connection == nil {
		return
	}
	a.connSeq = seq
	a.Connection(state) // under the lock, so that what it is told keeps the order
}

// fatal returns an error saying what to do if err is one reconnecting cannot fix.
func (a *App) fatal(err error) error {
	var se slack.SlackErrorResponse
	code := ""
	if errors.As(err, &se) {
		code = se.Err
	} else if err != nil {
		code = err.Error()
	}
	tok := a.AppToken
	if tok.Fix == "" {
		tok = AppToken("SLACK_APP_TOKEN")
	}
	return startRefusal(code, tok)
}

// stopSocket ends RunSocketMode with err.
func (a *App) stopSocket(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fatalErr == nil {
		a.fatalErr = err
	}
	if a.cancel != nil {
		a.cancel()
	}
}

// RunSocketMode connects and serves until ctx ends, reconnecting after network loss and
// disconnect messages; it stops with an error on fatal auth errors (invalid_auth,
// token_revoked, missing_scope). In-flight work finishes before it returns.
func (a *App) RunSocketMode(ctx context.Context, client *socketmode.Client) error {
	// One connection attempt first: a bad app token or a missing scope is reported now,
	// not retried for ever.
	if _, _, err := client.OpenContext(ctx); a.fatal(err) != nil {
		return a.fatal(err)
	}
	ctx, cancel := context.WithCancel(ctx)
	a.mu.Lock()
	a.cancel = cancel
	a.mu.Unlock()
	defer cancel()
	err := a.SocketHandler(client).RunEventLoopContext(ctx)
	a.Wait()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fatalErr != nil {
		return a.fatalErr
	}
	if f := a.fatal(err); f != nil {
		return f
	}
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}
