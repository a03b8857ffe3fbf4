package app

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
)

// defaultAdminAddr is where /healthz and /metrics listen in the Slack modes when
// ETHICSBOT_ADMIN_ADDR is not set: this machine only, never the public address.
const defaultAdminAddr = "127.0.0.1:3001"

// siteConfig is what ethicsbot serves over HTTP, and where.
type siteConfig struct {
	mode       string
	getenv     func(string) string
	publicAddr string       // ETHICSBOT_ADDR
	publicLn   net.Listener // listening on publicAddr; nil where the console could not
	public     http.Handler // the board and its feeds
	health     http.Handler // GET /healthz
	metrics    http.Handler // GET /metrics
	publicURL  string       // where the board is reached from outside, for the log
	log        *slog.Logger
}

// sites are ethicsbot's HTTP listeners. The public address (ETHICSBOT_ADDR) serves the
// board and its feeds. /healthz and /metrics are served on ETHICSBOT_ADMIN_ADDR (default
// 127.0.0.1:3001 in the Slack modes; the console, which is for this machine, serves them
// beside the board); Slack's endpoints, /slack/*, on ETHICSBOT_SLACK_ADDR if set, else on
// the public address. An address equal to ETHICSBOT_ADDR shares its listener, which is how
// /healthz is put back on the public address where a load balancer probes it there.
type sites struct {
	slack     handlerSwap     // /slack/*: 503 while ethicsbot starts, then Slack's routes
	slackDown <-chan struct{} // closed if the listener of /slack/* stops by itself
	stops     []func() error
}

// startSites listens and serves. An address that cannot be listened on is an error naming
// its setting, except the default admin address, which is only warned about: a second
// ethicsbot on the machine, or a test, must not fail to start for want of /metrics.
func startSites(c siteConfig) (*sites, error) {
	s := &sites{}
	s.slack.Set(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "ethicsbot is starting", http.StatusServiceUnavailable)
	}))
	adminAddr, adminSet := c.getenv("ETHICSBOT_ADMIN_ADDR"), true
	if adminAddr == "" {
		adminAddr, adminSet = defaultAdminAddr, false
		if c.mode == "console" {
			adminAddr = c.publicAddr
		}
	}
	slackAddr := c.getenv("ETHICSBOT_SLACK_ADDR")
	if slackAddr != "" && c.mode != "http" {
		c.log.Warn("ETHICSBOT_SLACK_ADDR is for HTTP mode; Slack's endpoints are not served", "mode", c.mode)
		slackAddr = ""
	}
	if slackAddr == "" {
		slackAddr = c.publicAddr
	}

	type site struct {
		addr, setting string
		mux           *http.ServeMux
		what          []string
		slack         bool
	}
	var order []*site
	at := func(addr, setting string) *site {
		for _, st := range order {
			if st.addr == addr {
				return st
			}
		}
		st := &site{addr: addr, setting: setting, mux: http.NewServeMux()}
		order = append(order, st)
		return st
	}
	pub := at(c.publicAddr, "ETHICSBOT_ADDR")
	pub.mux.Handle("/", c.public)
	pub.what = append(pub.what, "the public notice board")
	admin := at(adminAddr, "ETHICSBOT_ADMIN_ADDR")
	admin.mux.Handle("GET /healthz", c.health)
	admin.mux.Handle("GET /metrics", c.metrics)
	admin.what = append(admin.what, "/healthz", "/metrics")
	sl := at(slackAddr, "ETHICSBOT_SLACK_ADDR")
	sl.mux.Handle("/slack/", &s.slack)
	sl.slack = true
	if c.mode == "http" {
		sl.what = append(sl.what, "Slack's endpoints /slack/*")
	}

	for _, st := range order {
		ln := c.publicLn
		if st != pub {
			var err error
			ln, err = net.Listen("tcp", st.addr)
			switch {
			case err != nil && st.setting == "ETHICSBOT_ADMIN_ADDR" && !adminSet:
				c.log.Warn("/healthz and /metrics are not served: the default address cannot be used; set ETHICSBOT_ADMIN_ADDR",
					"addr", st.addr, "err", err)
				continue
			case err != nil:
				s.stop()
				return nil, fmt.Errorf("cannot listen on %s (%s): %v", st.addr, st.setting, err)
			}
		}
		stop, down := serveSite(ln, st.mux, c.log)
		s.stops = append(s.stops, stop)
		if st.slack {
			s.slackDown = down
		}
		if ln != nil && c.mode != "console" {
			attrs := []any{"addr", ln.Addr().String()}
			if st == pub {
				attrs = append(attrs, "url", c.publicURL)
			}
			c.log.Info("serving "+strings.Join(st.what, ", "), attrs...)
		}
	}
	return s, nil
}

// stop lets in-flight requests finish on every listener, and returns the first failure.
func (s *sites) stop() error {
	var first error
	for _, stop := range s.stops {
		if err := stop(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
