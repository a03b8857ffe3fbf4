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
//     bot token, or while the oldest undelivered message has waited longer than
//     UndeliveredAfter, with "reason" saying which and what to do; "error" while the
//     database cannot be read or its file was removed or replaced.
//   - HTTP 503 while the database cannot be read or written ("database", "writes" say why)
//     and while Slack refuses the bot token; 200 otherwise, "degraded" included.
//   - "slack": where the connection to Slack stands ("connecting", "ok"), in the Slack modes;
//     "refused" while Slack refuses the bot token.
//   - "undelivered", "oldest_undelivered", "last_slack_error", "last_slack_error_at": the
//     outbox, once delivery runs.
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
	reply := map[string]string{"status": "ok", "database": "ok"}
	if h.Slack != nil {
		reply["slack"] = h.Slack()
	}
	if err := h.DB.Ping(ctx); err != nil {
		// The store may name the fault in one word ("removed", "replaced"); the error's
		// text stays out of the reply, since it names paths.
		database := "unreachable"
		var fault interface{ Health() string }
		if errors.As(err, &fault) {
			database = fault.Health()
		}
		reply["status"], reply["database"] = "error", database
		return reply, http.StatusServiceUnavailable
	}
	code := http.StatusOK
	var reasons []string
	if wh, ok := h.DB.(WriteHealth); ok {
		reply["writes"] = "ok"
		if why := wh.WriteHealth(); why != "" {
			reply["writes"] = why
			reasons = append(reasons, "writes to the database fail ("+why+"): nothing new can be recorded")
			code = http.StatusServiceUnavailable
		}
	}
	if d := h.delivery.Load(); d != nil {
		now := time.Now
		if h.Now != nil {
			now = h.Now
		}
		after := h.UndeliveredAfter
		if after <= 0 {
			after = config.DefaultUndeliveredAfter
		}
		dh, err := (*d).Health(ctx, now())
		if err != nil {
			reasons = append(reasons, "the outbox cannot be read")
			code = http.StatusServiceUnavailable
		} else {
			reply["undelivered"] = strconv.Itoa(dh.Pending)
			reply["oldest_undelivered"] = dh.Oldest.Round(time.Second).String()
			if dh.LastError != "" {
				reply["last_slack_error"] = dh.LastError
				reply["last_slack_error_at"] = dh.LastErrorAt.UTC().Format(time.RFC3339)
			}
			if dh.TokenRefused != "" {
				// Nothing can be said in Slack until a person renews the token: a failure, not
				// a delay, whatever else works.
				tok := h.Token
				if tok.Fix == "" {
					tok = BotToken("SLACK_BOT_TOKEN")
				}
				reply["slack"] = "refused"
				reasons = append(reasons, "Slack refuses the "+tok.Name+" ("+dh.TokenRefused+": "+
					refusals[dh.TokenRefused].why+"): "+tok.Fix)
				code = http.StatusServiceUnavailable
			}
			if dh.Oldest > after {
				reasons = append(reasons, "the oldest undelivered message has waited "+outbox.Minutes(dh.Oldest.Round(time.Minute))+
					", longer than "+outbox.Minutes(after))
			}
		}
	}
	if len(reasons) > 0 {
		reply["status"], reply["reason"] = "degraded", strings.Join(reasons, "; ")
	}
	return reply, code
}
