package bot

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"ethicsbot/config"
	"ethicsbot/outbox"
)

// Delivery reports where the delivery of the outbox stands; *outbox.Deliverer is one.
type Delivery interface {
	Health(ctx context.Context, now time.Time) (outbox.Health, error)
}

// Health is what GET /healthz answers, in JSON:
//
//   - "status": "ok"; "degraded" while writes to the database fail, while Slack refuses the
//     bot token, while the oldest undelivered message has waited longer than
//     UndeliveredAfter, or while a Part is not ok, with "reason" saying which and what to
//     do; "error" while the database cannot be read or its file was removed or replaced.
//   - HTTP 503 while the database cannot be read or written ("database", "writes" say why)
//     and while Slack refuses the bot token; 200 otherwise, "degraded" included.
//   - "slack": where the connection to Slack stands ("connecting", "ok"), in the Slack modes;
//     "refused" while Slack refuses the bot token.
//   - "undelivered", "oldest_undelivered", "last_slack_error", "last_slack_error_at": the
//     outbox, once delivery runs.
//   - each Part's field: "sweep", "backup".
//
// It never shows a path or the API's URL.
type Health struct {
	DB Pinger
	// Slack, if not nil, says where the connection to Slack stands: "connecting", "ok".
	Slack func() string
	// UndeliveredAfter is how long the oldest undelivered message may wait
	// (config.DefaultUndeliveredAfter).
	UndeliveredAfter time.Duration
	// Now is the clock the age of undelivered messages is measured by (time.Now).
	Now func() time.Time
	// Token is the bot token as this install keeps it, for what to do when Slack refuses
	// it (BotToken("SLACK_BOT_TOKEN") if unset).
	Token Token
	// Parts are the parts of ethicsbot's health that /healthz reports beside these: the
	// reminder sweep and the last backup, in the Slack modes.
	Parts []Part

	delivery atomic.Pointer[Delivery] // see SetDelivery
}

// SetDelivery makes /healthz report d's delivery from now on: delivery starts only once
// Slack has answered, after /healthz is up.
func (h *Health) SetDelivery(d Delivery) { h.delivery.Store(&d) }

// WriteHealth is a Pinger that also says why writes fail, in one word, or "" while they
// succeed; *store.Store is one. A full disk leaves reads working.
type WriteHealth interface {
	WriteHealth() string
}

// ServeHTTP answers GET /healthz.
func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	reply, code := h.Check(ctx)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	writeJSON(w, reply)
}

// Check is /healthz's answer and HTTP status.
func (h *Health) Check(ctx context.Context) (map[string]string, int) {
	r := h.check(ctx)
	return r.reply, r.code
}

// Component is how one part of ethicsbot stands, as /healthz judges it; /metrics shows
// each as ethicsbot_health{component}, so that each can be alerted on by itself.
type Component struct {
	// Name is "record" (the database can be read), "disk" (written), "slack" (connected,
	// and the bot token taken), "delivery" (no message has waited too long), or a Part's.
	Name string
	OK   bool
}

// Components is how each part of ethicsbot stands now. A part that cannot be judged is
// left out: the disk and the outbox while the database cannot be read, delivery before it
// starts, Slack in the console.
func (h *Health) Components(ctx context.Context) []Component { return h.check(ctx).parts }

// Part is a part of ethicsbot's health that /healthz reports beside the database, Slack and
// the outbox: the reminder sweep, the last backup. A part that is not ok makes /healthz
// "degraded", with a 200.
type Part struct {
	Name string // its field in /healthz, and its component in /metrics
	// Check says how the part stands at now: "ok", or a word for what is wrong ("failed",
	// "late") with the reason a person reads and what to do; "" while it has nothing to say.
	Check func(now time.Time) (state, reason string)
}

// report is /healthz's answer as check builds it, with each component's standing.
type report struct {
	reply   map[string]string
	code    int
	reasons []string
	parts   []Component
}

// fail notes a component that is not ok, why, and the HTTP status it calls for.
func (r *report) fail(reason string, code int) {
	r.reasons = append(r.reasons, reason)
	r.code = max(r.code, code)
}

func (r *report) part(name string, ok bool) { r.parts = append(r.parts, Component{Name: name, OK: ok}) }

func (h *Health) check(ctx context.Context) report {
	r := report{reply: map[string]string{"status": "ok", "database": "ok"}, code: http.StatusOK}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	at := now()
	if h.Slack != nil {
		r.reply["slack"] = h.Slack()
	}
	if err := h.DB.Ping(ctx); err != nil {
		// The store may name the fault in one word ("removed", "replaced"); the error's
		// text stays out of the reply, since it names paths.
		database := "unreachable"
		var fault interface{ Health() string }
		if errors.As(err, &fault) {
			database = fault.Health()
		}
		r.reply["status"], r.reply["database"] = "error", database
		r.part("record", false)
		h.slackPart(&r)
		h.otherParts(&r, at)
		r.code = http.StatusServiceUnavailable
		return r
	}
	r.part("record", true)
	if wh, ok := h.DB.(WriteHealth); ok {
		r.reply["writes"] = "ok"
		why := wh.WriteHealth()
		r.part("disk", why == "")
		if why != "" {
			r.reply["writes"] = why
			r.fail("writes to the database fail ("+why+"): nothing new can be recorded", http.StatusServiceUnavailable)
		}
	}
	if d := h.delivery.Load(); d != nil {
		after := h.UndeliveredAfter
		if after <= 0 {
			after = config.DefaultUndeliveredAfter
		}
		dh, err := (*d).Health(ctx, at)
		if err != nil {
			r.part("delivery", false)
			r.fail("the outbox cannot be read", http.StatusServiceUnavailable)
		} else {
			r.reply["undelivered"] = strconv.Itoa(dh.Pending)
			r.reply["oldest_undelivered"] = dh.Oldest.Round(time.Second).String()
			if dh.LastError != "" {
				r.reply["last_slack_error"] = dh.LastError
				r.reply["last_slack_error_at"] = dh.LastErrorAt.UTC().Format(time.RFC3339)
			}
			if dh.TokenRefused != "" {
				h.tokenRefused(&r, dh.TokenRefused)
			}
			r.part("delivery", dh.Oldest <= after)
			if dh.Oldest > after {
				r.fail("the oldest undelivered message has waited "+outbox.Minutes(dh.Oldest.Round(time.Minute))+
					", longer than "+outbox.Minutes(after), http.StatusOK)
			}
		}
	}
	h.slackPart(&r)
	h.otherParts(&r, at)
	if len(r.reasons) > 0 {
		r.reply["status"], r.reply["reason"] = "degraded", strings.Join(r.reasons, "; ")
	}
	return r
}

// tokenRefused notes that Slack refuses the bot token with code: nothing can be said in
// Slack until a person renews it, a failure, not a delay, whatever else works.
func (h *Health) tokenRefused(r *report, code string) {
	tok := h.Token
	if tok.Fix == "" {
		tok = BotToken("SLACK_BOT_TOKEN")
	}
	r.reply["slack"] = "refused"
	r.fail("Slack refuses the "+tok.Name+" ("+code+": "+refusals[code].why+"): "+tok.Fix, http.StatusServiceUnavailable)
}

// slackPart judges Slack, in the Slack modes: connected, and the bot token not refused.
func (h *Health) slackPart(r *report) {
	if h.Slack != nil {
		r.part("slack", r.reply["slack"] == "ok")
	}
}

// otherParts judges the Parts at at.
func (h *Health) otherParts(r *report, at time.Time) {
	for _, p := range h.Parts {
		state, reason := p.Check(at)
		if state == "" {
			continue
		}
		r.reply[p.Name] = state
		r.part(p.Name, state == "ok")
		if state != "ok" {
			r.fail(reason, http.StatusOK)
		}
	}
}
