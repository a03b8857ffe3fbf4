package reminders

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The news media's annual requests for the meeting notices lapse with their year (5 ILCS
// 120/2.02(b) asks for an "annual request"): the clerk is told on 1 December, while the
// medium can still file for the coming year and get its schedule of regular meetings, and
// again on 1 January, once the request has lapsed, unless the same medium's request for a
// later year is on record by then.

// MediaRequests gives the sweep the news media's requests; store.Store is one.
type MediaRequests interface {
	MediaRequests(ctx context.Context) ([]docket.MediaRequest, error)
}

// MediaLapseSeries is the series of the reminders that a news medium's request lapses.
const MediaLapseSeries = "media_lapse"

// mediaLapseSaid is how long after it falls due a lapse reminder is still said: a sweep
// that first runs later (a new install, a long outage) does not tell of a year long gone.
const mediaLapseSaid = 31 * 24 * time.Hour

// mediaLapse is one request's lapse, as a reminder says it.
type mediaLapse struct {
	r      docket.MediaRequest
	lapsed bool // said after the lapse, not ahead of it
}

// mediaReminders returns the clerks' reminders that a request among reqs lapses (on 1
// December of its year) or has lapsed (on 1 January after), for each request that stands
// and that no later request of the same medium renews; skip leaves out one already said.
func (p *Planner) mediaReminders(reqs []docket.MediaRequest, now time.Time, skip func(outbox.Key) bool) []Reminder {
	loc := p.Engine.Cal.Location()
	var out []Reminder
	for _, r := range reqs {
		if !r.Standing() || renewed(r, reqs) {
			continue
		}
		for _, step := range []struct {
			name   string
			day    docket.Date
			lapsed bool
		}{{"ahead", docket.NewDate(r.Year, time.December, 1), false},
			{"lapsed", docket.NewDate(r.Year+1, time.January, 1), true}} {
			at := wall(step.day, p.Policy.At, loc)
			if now.Before(at) || !now.Before(at.Add(mediaLapseSaid)) {
				continue
			}
			for _, to := range p.dests(ClerkTasks, p.People.Clerks) {
				rem := Reminder{Series: MediaLapseSeries, Step: strconv.FormatInt(r.ID, 10) + "." + step.name, At: at, To: to,
					msg: message{p: p, kind: 'l', now: now, media: &mediaLapse{r: r, lapsed: step.lapsed}}}
				if skip != nil && skip(rem.Key()) {
					continue
				}
				out = append(out, rem)
			}
		}
	}
	return out
}

// renewed reports whether a request among reqs renews r for a later year.
func renewed(r docket.MediaRequest, reqs []docket.MediaRequest) bool {
	for _, n := range reqs {
		if n.ID != r.ID && n.Renews(r) {
			return true
		}
	}
	return false
}

// mediaLapseText is what a lapse reminder says.
func (p *Planner) mediaLapseText(m message) outbox.Markup {
	r := m.media.r
	how := fmt.Sprintf("name=%q", r.Name)
	if r.Email != "" {
		how += " email=" + r.Email
	}
	add := fmt.Sprintf("/ethics media add %s year=%d", how, r.Year+1)
	if m.media.lapsed {
		return outbox.Format("The request of %s (%s) for the notices of the commission's meetings in %d lapsed after 31 "+
			"Dec %d (%s: the request is annual): it gets no more copies, and no request of its for %d is on record. If it "+
			"files one, record it with `%s`.", r.Name, r.Where(), r.Year, r.Year, docket.OMAMedia, r.Year+1, add)
	}
	return outbox.Format("The request of %s (%s) for the notices of the commission's meetings in %d lapses after 31 Dec "+
		"%d (%s: the request is annual). If it files one for %d, record it with `%s`: it then gets the %d schedule of "+
		"regular meetings too.", r.Name, r.Where(), r.Year, r.Year, docket.OMAMedia, r.Year+1, add, r.Year+1)
}
