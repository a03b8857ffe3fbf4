package bot

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"ethicsbot/commands"
)

// MaxBody bounds a request from Slack. Slash commands and interactions are a few KB; a
// modal's full state stays well under this.
const MaxBody = 256 << 10

// Pinger reports whether the database can be read.
type Pinger interface {
	Ping(ctx context.Context) error
}

// HTTP serves Slack's HTTP endpoints: /slack/commands, /slack/interactivity and
// /slack/events, each signature-checked, beside what Site serves.
type HTTP struct {
	App    *App
	Secret string           // the app's signing secret
	Now    func() time.Time // the clock signatures are checked against
	DB     Pinger
	Public http.Handler // the public notice board, if any
	// Health, if set, is /healthz; else it reports DB alone, with Slack "ok".
	Health *Health
}

// Handler returns the routes.
func (h *HTTP) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /slack/commands", h.signed(h.commands))
	mux.HandleFunc("POST /slack/interactivity", h.signed(h.interactivity))
	mux.HandleFunc("POST /slack/events", h.signed(h.events))
	health := h.Health
	if health == nil {
		health = &Health{DB: h.DB, Slack: func() string { return "ok" }}
	}
	mux.Handle("/", health.Site(h.Public))
	return mux
}

// Site is what ethicsbot serves over HTTP in every mode: /healthz, and the public pages
// (the notice board) if public is not nil. slack, if not nil, says where the connection to
// Slack stands ("connecting", "ok"), for /healthz to tell: the process is healthy while
// its database is, and an outage of Slack is not a reason to restart it.
func Site(db Pinger, public http.Handler, slack func() string) http.Handler {
	return (&Health{DB: db, Slack: slack}).Site(public)
}

// Site is what ethicsbot serves over HTTP, as the function Site, with h as /healthz.
func (h *Health) Site(public http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", h)
	if public != nil {
		mux.Handle("/", public)
	}
	return mux
}

// signed reads a bounded body and checks its signature before anything else happens.
// A request that fails gets 401 or 413, and changes and posts nothing.
func (h *HTTP) signed(next func(w http.ResponseWriter, r *http.Request, body []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			http.Error(w, "cannot read request", http.StatusBadRequest)
			return
		}
		if err := Verify(r.Header, body, h.Secret, h.Now()); err != nil {
			h.App.logger().Warn("rejected unsigned or forged request", "path", r.URL.Path, "reason", err, "remote", r.RemoteAddr)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		next(w, r, body)
	}
}

func (h *HTTP) commands(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	if err == nil && form.Get("ssl_check") == "1" {
		w.WriteHeader(http.StatusOK) // Slack checking the certificate
		return
	}
	if err != nil || form.Get("command") == "" {
		http.Error(w, "not a slash command", http.StatusBadRequest)
		return
	}
	cmd := slack.SlashCommand{
		Command: form.Get("command"), Text: form.Get("text"), UserID: form.Get("user_id"), UserName: form.Get("user_name"),
		ChannelID: form.Get("channel_id"), TeamID: form.Get("team_id"), ResponseURL: form.Get("response_url"),
		TriggerID: form.Get("trigger_id"),
	}
	if cmd.Command != "/ethics" {
		writeJSON(w, map[string]string{"response_type": "ephemeral", "text": "ethicsbot answers /ethics only."})
		return
	}
	// Most commands take a few milliseconds, including the durable commit: the reply goes
	// in the response itself, so a 200 means the action is on disk. One that takes longer
	// is acked at 2 s, well inside Slack's 3, and answered through response_url after.
	ctx := context.WithoutCancel(r.Context())
	result := make(chan commands.Response, 1)
	h.App.Go(func() { result <- h.App.Service.Handle(ctx, SlashRequest(cmd)) })
	select {
	case resp := <-result:
		if m := h.App.Answer(ctx, cmd, resp, true); m != nil {
			writeJSON(w, replyBody{ResponseType: slack.ResponseTypeEphemeral, Text: string(m.Text), Blocks: m.Blocks})
			return
		}
		w.WriteHeader(http.StatusOK)
	case <-time.After(SlashInline):
		w.WriteHeader(http.StatusOK)
		h.App.Go(func() { h.App.Answer(ctx, cmd, <-result, false) })
	}
}

// SlashInline is how long a slash command may run before it is acked without its answer.
var SlashInline = 2 * time.Second

func (h *HTTP) interactivity(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	var cb slack.InteractionCallback
	if err == nil {
		err = json.Unmarshal([]byte(form.Get("payload")), &cb)
	}
	if err != nil {
		http.Error(w, "not an interaction payload", http.StatusBadRequest)
		return
	}
	if cb.Type == slack.InteractionTypeViewSubmission {
		// The modal waits for our answer: errors keep it open, an update shows what was
		// done in its place; an empty 200 closes it.
		ctx, cancel := context.WithTimeout(r.Context(), 2500*time.Millisecond)
		defer cancel()
		if answer := h.App.Interaction(ctx, cb); answer != nil {
			writeJSON(w, answer)
			return
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusOK)
	h.App.Go(func() { h.App.Interaction(context.WithoutCancel(r.Context()), cb) })
}

func (h *HTTP) events(w http.ResponseWriter, r *http.Request, body []byte) {
	ev, err := slackevents.ParseEvent(json.RawMessage(body), slackevents.OptionNoVerifyToken())
	if err != nil {
		http.Error(w, "not an event", http.StatusBadRequest)
		return
	}
	if ev.Type == slackevents.URLVerification {
		var ch slackevents.ChallengeResponse
		json.Unmarshal(body, &ch)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, ch.Challenge)
		return
	}
	w.WriteHeader(http.StatusOK)
	if r.Header.Get("X-Slack-Retry-Num") != "" {
		return // already acked once; the home tab needs no second publish
	}
	if home, ok := ev.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent); ok && home.Tab == "home" {
		h.App.Go(func() { h.App.PublishHome(context.WithoutCancel(r.Context()), home.User) })
	}
	h.App.channelEvent(ev.InnerEvent.Data)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// PublishHome shows the user the App Home tab: their commands, and the clerk's desk if
// they may see it (commands.Service.HomeBlocks). The user is remembered, so that
// RefreshHomes publishes it again after an action changes what it shows.
func (a *App) PublishHome(ctx context.Context, user string) {
	a.home.opened(user)
	a.publishHome(ctx, user)
}

func (a *App) publishHome(ctx context.Context, user string) {
	view := slack.HomeTabViewRequest{Type: slack.VTHomeTab,
		Blocks: slack.Blocks{BlockSet: a.Service.HomeBlocks(ctx, user)}}
	if err := retry(ctx, func() error {
		_, err := a.API.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: user, View: view})
		return err
	}); err != nil {
		a.logger().Error("views.publish failed", "err", slackError(err))
	}
}

// Serve serves handler on ln until ctx ends, then gives in-flight requests up to 20 s to
// finish.
func Serve(ctx context.Context, ln net.Listener, handler http.Handler) error {
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}
