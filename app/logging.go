package app

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// newLogger is the log the environment asks for: ETHICSBOT_LOG_LEVEL (debug, info, warn or
// error; default info) and ETHICSBOT_LOG_FORMAT (logfmt, the default, or json, for a log
// collector). A value it does not know is an error naming the setting and its choices.
func newLogger(w io.Writer, getenv func(string) string) (*slog.Logger, error) {
	var level slog.Level
	switch v := strings.ToLower(getenv("ETHICSBOT_LOG_LEVEL")); v {
	case "", "info":
		level = slog.LevelInfo
	case "debug":
		level = slog.LevelDebug
	case "warn", "warning":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		return nil, fmt.Errorf("ETHICSBOT_LOG_LEVEL %q is not one of debug, info, warn, error", getenv("ETHICSBOT_LOG_LEVEL"))
	}
	opts := &slog.HandlerOptions{Level: level}
	switch v := strings.ToLower(getenv("ETHICSBOT_LOG_FORMAT")); v {
	case "", "logfmt", "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		opts.ReplaceAttr = secondsAttr
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("ETHICSBOT_LOG_FORMAT %q is not logfmt or json", getenv("ETHICSBOT_LOG_FORMAT"))
}

// secondsAttr writes a duration in the JSON log as seconds, a number (1.5): slog would
// write nanoseconds (1500000000), which a log collector cannot tell from a count, and
// every other duration ethicsbot reports, in /metrics, is in seconds.
func secondsAttr(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.Float64Value(a.Value.Duration().Seconds())
	}
	return a
}

// proxies are the reverse proxies whose X-Forwarded-For is believed: ETHICSBOT_TRUSTED_PROXIES,
// a comma-separated list of addresses or CIDR ranges (127.0.0.1, 10.0.0.0/8). Unset, no
// header is believed: anyone can send one, so a client's address is the connection's.
type proxies []netip.Prefix

// parseProxies reads ETHICSBOT_TRUSTED_PROXIES.
func parseProxies(s string) (proxies, error) {
	var out proxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return nil, fmt.Errorf("ETHICSBOT_TRUSTED_PROXIES: %q is not an IP address or a CIDR range such as 127.0.0.1 "+
					"or 10.0.0.0/8", f)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func (ps proxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// client is the address of whoever sent r: the connection's peer, or, where the peer is a
// trusted proxy, the right-most address in X-Forwarded-For that is not itself a trusted
// proxy (the left-most entries are whatever the client chose to send).
func (ps proxies) client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !ps.trusts(peer) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return host // a malformed list: believe only the connection
		}
		if !ps.trusts(a) {
			return a.Unmap().String()
		}
	}
	return host
}

// logPath is r's path as the access log writes it: a member's calendar feed address is a
// secret (web.CalendarFeed), so its token is never written; nor is any query.
func logPath(path string) string {
	if rest, ok := strings.CutPrefix(path, "/calendar/"); ok && rest != "" {
		return "/calendar/[token]"
	}
	return path
}

// accessLog logs one line for each request to next: the board and the feeds.
func accessLog(logger *slog.Logger, ps proxies, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		logger.Info("http", "method", r.Method, "path", logPath(r.URL.Path), "status", rec.status,
			"bytes", rec.bytes, "duration", time.Since(start).Round(time.Microsecond), "client", ps.client(r))
	})
}

// statusRecorder notes the status and the size of a response.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wrote {
		s.status, s.wrote = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.wrote = true
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the writer beneath.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
