package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
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

	fixed fixedReplies // the encoded answers of fixed replies (help)
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
	// What reads no record (help, a refusal) is answered here and now; only what reads or
	// writes the record runs beside the timer.
	ctx := context.WithoutCancel(r.Context())
	resp, run := h.App.Service.Prepare(ctx, SlashRequest(cmd))
	if run == nil {
		h.answer(ctx, w, cmd, resp)
		return
	}
	result := make(chan commands.Response, 1)
	h.App.Go(func() { result <- run(ctx) })
	timer := time.NewTimer(SlashInline)
	defer timer.Stop()
	select {
	case resp := <-result:
		h.answer(ctx, w, cmd, resp)
	case <-timer.C:
		w.WriteHeader(http.StatusOK)
		h.App.Go(func() { h.App.Answer(ctx, cmd, <-result, false) })
	}
}

// answer puts a slash command's first reply in the HTTP response, and has the App deliver
// the rest.
func (h *HTTP) answer(ctx context.Context, w http.ResponseWriter, cmd slack.SlashCommand, resp commands.Response) {
	m := h.App.Answer(ctx, cmd, resp, true)
	if m == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	body := replyBody{ResponseType: slack.ResponseTypeEphemeral, Text: string(m.Text), Blocks: m.Blocks}
	if resp.Fixed && len(m.Blocks) == 0 {
		h.fixed.write(w, body)
		return
	}
	writeJSON(w, body)
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

// writeJSON answers v as JSON in one write with its length: a reply of more than 2 KB
// written through an encoder would go out chunked, in more writes.
func writeJSON(w http.ResponseWriter, v any) {
	if err := encoded(v, func(b []byte) { writeEncoded(w, b) }); err != nil {
		http.Error(w, "cannot encode the reply", http.StatusInternalServerError)
	}
}

// encoded calls use with v encoded as a reply is sent, in a buffer kept between requests:
// use must copy what it keeps.
func encoded(v any, use func([]byte)) error {
	buf := jsonBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuffer {
			jsonBuffers.Put(buf)
		}
	}()
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return err
	}
	use(buf.Bytes())
	return nil
}

// jsonBuffers keeps the buffers replies are encoded in between requests; one grown past
// maxPooledBuffer by a long reply is let go rather than kept.
var jsonBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuffer = 64 << 10

// fixedReplies keeps the JSON of each reply that depends on nothing but the command table
// and the settings (commands.Response.Fixed), keyed by its text, so that help, the command
// asked most, is not encoded again for every request. Its text is the key, so a reply
// changed by a reload of the settings is a new entry, never a stale one; about
// maxFixedReplies are kept (the help texts are one per command and per role, under each
// voting setting: about a hundred), and past that a reply is encoded as any other.
type fixedReplies struct {
	m sync.Map // text → []byte
	n atomic.Int32
}

const maxFixedReplies = 256

func (f *fixedReplies) write(w http.ResponseWriter, body replyBody) {
	b, ok := f.m.Load(body.Text)
	if !ok {
		if f.n.Load() >= maxFixedReplies {
			writeJSON(w, body)
			return
		}
		var enc []byte
		if err := encoded(body, func(b []byte) { enc = bytes.Clone(b) }); err != nil {
			http.Error(w, "cannot encode the reply", http.StatusInternalServerError)
			return
		}
		f.n.Add(1)
		b, _ = f.m.LoadOrStore(body.Text, enc)
	}
	writeEncoded(w, b.([]byte))
}

// writeEncoded answers a reply already encoded as JSON, in one write with its length.
func writeEncoded(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
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
