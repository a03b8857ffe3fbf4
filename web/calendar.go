package web

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"ethicsbot/docket"
)

// CalendarTokens finds whose private calendar feed a token opens; store.Store is one.
type CalendarTokens interface {
	// CalendarUser returns the user token was issued to; ok is false for a token never
	// issued, or replaced since.
	CalendarUser(ctx context.Context, token string) (user string, ok bool, err error)
}

// CalendarCases is the part of the commission's record a calendar feed reads; store.Store
// is one.
type CalendarCases interface {
	AllCases(ctx context.Context) ([]docket.Case, error)
}

// CalendarFeed serves each member's private calendar at GET /calendar/{token}.ics: the
// deadlines and meetings of every case the member may see at the time of the request.
// Who may see what is read from the settings in force at each request, so a member who
// loses their role, or recuses from a case, stops seeing it at the next fetch. A token
// that opens nothing (never issued, replaced by `/ethics calendar reset`, or its member no
// longer has a role) is answered 404 with no detail, so an address reveals nothing about
// why it does not work.
//
// It serves whatever path it is given whose last segment is {token}.ics; mount it as
// mux.Handle("GET /calendar/{token}", feed). The token is never logged.
type CalendarFeed struct {
	Tokens CalendarTokens
	Cases  CalendarCases
	Engine *docket.Engine
	// Member reports whether user holds a role in the settings in force (main reads
	// commands.Service.Settings): only a member has a feed.
	Member func(user string) bool
	// PublicURL gives the public URL in force, whose host makes the events' UIDs.
	PublicURL func() string
	// Tasks reports whether user's feed holds the clerk's tasks too (the papers to mail,
	// the notices to post: docket.Period.Clerical), as a clerk's does; a commissioner's
	// holds the meetings and the acts the commission owes. Nil: every feed holds them.
	Tasks func(user string) bool
	Now   func() time.Time
	Log   *slog.Logger
}

// ServeHTTP implements http.Handler.
func (h *CalendarFeed) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	token, ok := strings.CutSuffix(path.Base(r.URL.Path), ".ics")
	if !ok || token == "" {
		http.NotFound(w, r)
		return
	}
	ctx := r.Context()
	user, ok, err := h.Tokens.CalendarUser(ctx, token)
	if err != nil {
		h.fail(w, "", err)
		return
	}
	if !ok || !h.Member(user) {
		http.NotFound(w, r)
		return
	}
	cases, err := h.Cases.AllCases(ctx)
	if err != nil {
		h.fail(w, user, err)
		return
	}
	var buf bytes.Buffer
	tasks := h.Tasks == nil || h.Tasks(user)
	if err := PrivateCalendar(h.Engine, cases, user, tasks, h.PublicURL(), h.Now()).Encode(&buf); err != nil {
		h.fail(w, user, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", ContentType)
	hd.Set("Content-Disposition", `inline; filename="ethics-commission.ics"`)
	// The feed is the member's own: no shared cache may keep it, and no page it is
	// opened from may pass its address on.
	hd.Set("Cache-Control", "private, no-cache")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Robots-Tag", "noindex")
	hd.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(buf.Bytes())
}

// fail answers with the status of err's code (see statuses) and logs why, with the user
// if known, never the token.
func (h *CalendarFeed) fail(w http.ResponseWriter, user string, err error) {
	log := h.Log
	if log == nil {
		log = slog.Default()
	}
	log.Error("calendar feed failed", "user", user, "err", err)
	status := statusOf(err)
	http.Error(w, statusText(status), status)
}

// PrivateCalendar is the calendar of what user may see of cases at now: for each case
// user is not recused from (see docket.Case.Recused), its dated deadlines and its
// meetings; without tasks, only the deadlines of the commission's own acts (the ruling,
// the hearing, the decision), not the clerk's papers and notices, which would fill a
// commissioner's calendar with mailings. user "" is the whole docket, every case, as the
// clerk sees it (`ethicsbot calendar`). Events name the case number and the rule, never the summary nor a party:
// a subscribed calendar is copied to third-party services. publicURL's host makes the
// UIDs (see Event.UID).
func PrivateCalendar(e *docket.Engine, cases []docket.Case, user string, tasks bool, publicURL string,
	now time.Time) *Feed {
	host := uidHost(publicURL)
	f := &Feed{Name: "Ethics Commission docket", Zone: e.Cal.Location(), Stamp: now}
	var meetings []Event
	for i := range cases {
		c := &cases[i]
		if _, recused := c.Recused(user); recused {
			continue
		}
		f.Events = append(f.Events, DeadlineEvents(e, c, tasks, now, host)...)
		meetings = append(meetings, MeetingEvents(c, host)...)
	}
	f.Events = append(f.Events, oneEventPerMeeting(meetings)...)
	return f
}

// oneEventPerMeeting makes the events of the case steps held at one start and place one
// event, as they are one meeting of the commission: it keeps the first
// one's UID, so a calendar keeps that event, and names every step.
func oneEventPerMeeting(es []Event) []Event {
	var out []Event
	at := map[string]int{}
	for _, ev := range es {
		k := ev.Start.UTC().Format(time.RFC3339) + "|" + ev.Location
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, ev)
			continue
		}
		g := &out[i]
		if !strings.HasPrefix(g.Summary, "Meeting: ") {
			g.Summary, g.Description = "Meeting: "+g.Summary, "Ethics Commission meeting. "+g.Description
		}
		g.Summary += "; " + ev.Summary
		g.Description += " " + ev.Description
		if ev.Modified.After(g.Modified) {
			g.Modified = ev.Modified
		}
	}
	return out
}

// DeadlineEvents returns c's dated deadlines at now, from the docket engine's schedule
// (without tasks, the clerk's tasks left out: see PrivateCalendar):
// each date deadline as an all-day event on its due date, and each 48-hour notice
// ((C)(1), (D), (F)) as an instant at the latest time its notice may be posted. Undated
// papers (the ordinance sets them no time) are left out. The summary is the case number,
// the rule and what is due; the description how it was counted and where it stands. Each
// UID is the case number, the deadline's id and its occurrence (a hearing's sessions each
// have a (D) notice), at host.
func DeadlineEvents(e *docket.Engine, c *docket.Case, tasks bool, now time.Time, host string) []Event {
	var out []Event
	seen := map[docket.DeadlineID]int{}
	for _, d := range e.Schedule(&c.Facts, now).Deadlines {
		// Only the commission's own dated deadlines: the (I) filing limit and the (F) demand
		// window bind the parties, and would carry the alleged violation's date into a
		// calendar kept by a third party.
		if !d.Dated() || d.Period.Party != docket.Commission {
			continue
		}
		seen[d.ID]++ // counted in every feed, so that an event's UID is the same in each
		if !tasks && d.Period.Clerical() {
			continue
		}
		ev := Event{
			UID:     fmt.Sprintf("%s-deadline-%s-%d@%s", c.Number, d.ID, seen[d.ID], host),
			Summary: fmt.Sprintf("%s · %s %s due", c.Number, d.Rule, d.Period.Duty),
			Description: fmt.Sprintf("Ethics Commission, case %s, rule %s: %s. Status: %s.", c.Number, d.Rule,
				d.Period.Duty, d.Status),
			Free: true,
		}
		if d.DueAt.IsZero() {
			ev.Day = d.Due
		} else {
			ev.Start = d.DueAt
		}
		out = append(out, ev)
	}
	return out
}

// uidHost is the host of the public URL, which makes the events' UIDs unique to this
// commission; "ethicsbot" without one.
func uidHost(publicURL string) string {
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "ethicsbot"
}
