package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The news media's annual requests for the commission's meeting notices (5 ILCS
// 120/2.02(b)): /ethics media add, list and withdraw. A request on record gets a copy of
// each meeting notice of the year it covers, by e-mail where it gave an address
// (meetingNotice, publicNotices, scheduleNotice ask for the copies; the record derives
// them in the notice's transaction).

// MediaRecord is what /ethics media needs of the record; store.Store is one. A Record
// without it refuses the command.
type MediaRecord interface {
	// AddMediaRequest records request r, filed on or before today, and numbers it; it
	// returns what it queued (the schedule of regular meetings in force, e-mailed to a new
	// address).
	AddMediaRequest(ctx context.Context, by string, now time.Time, today docket.Date,
		r docket.MediaRequest) (docket.MediaRequest, []outbox.Post, error)
	// WithdrawMediaRequest records that request w.ID was withdrawn.
	WithdrawMediaRequest(ctx context.Context, by string, now time.Time, today docket.Date,
		w docket.MediaWithdrawn) (docket.MediaRequest, error)
	// MediaRequests returns every request on record, in the order recorded.
	MediaRequests(ctx context.Context) ([]docket.MediaRequest, error)
}

// clerks are those who keep the news media's requests: they are filed with the clerk.
var clerks = []Role{Clerk}

// mediaCommand is the row of /ethics media in the table.
var mediaCommand = &subcommand{name: "media",
	summary: "record a news medium's annual request for the notices of the commission's meetings, list the requests, " +
		"or withdraw one; each request gets a copy of every meeting notice of its year, by e-mail where it gave an address",
	rule: docket.OMAMedia, roles: clerks, why: "The news media file their requests with the clerk, who keeps them.",
	params: []param{
		{name: "action", kind: kChoice, choices: []string{"add", "list", "withdraw"}, required: true, positional: true,
			help: "add a request, list the requests, or withdraw one"},
		{name: "id", kind: kText, positional: true, help: "with withdraw: the request's number, as media list shows it"},
		{name: "name", kind: kText, oneLine: true, help: "with add: the news medium, e.g. \"Springfield Register\""},
		{name: "email", kind: kText, help: "with add: where its copies are e-mailed, e.g. news@example.org"},
		{name: "address", kind: kText,
			help: "with add: its postal address, lines separated by |, if it gave one; without an e-mail address, the clerk " +
				"is asked to post each copy"},
		{name: "filed", kind: kDate, help: "with add: the day the request was filed; default today"},
		{name: "year", kind: kText, help: "with add: the year whose meetings it covers, the year filed or the next; " +
			"with list: only that year's requests"},
		{name: "on", kind: kDate, help: "with withdraw: the day it was withdrawn; default today"},
		{name: "reason", kind: kText, oneLine: true, help: "with withdraw: why, for the record"},
	},
	example: `media add name="Springfield Register" email=news@example.org filed=2026-12-01 year=2027`,
	run:     runMedia}

func runMedia(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	mr, ok := s.Record.(MediaRecord)
	if !ok {
		return Response{}, docket.Unavailable("this record does not keep the news media's requests")
	}
	now := s.Now()
	today := s.Engine.Cal.DateOf(now)
	only := func(action string, names ...string) error {
		for _, n := range []string{"id", "name", "email", "address", "filed", "year", "on", "reason"} {
			if a.has(n) && !strings.Contains(" "+strings.Join(names, " ")+" ", " "+n+" ") {
				return docket.Invalid(docket.OMAMedia, n, fmt.Sprintf("media %s takes no %s=", action, n))
			}
		}
		return nil
	}
	year := func() (int, error) {
		if !a.has("year") {
			return 0, nil
		}
		y, err := strconv.Atoi(strings.TrimSpace(a.str("year")))
		if err != nil || y < 1970 || y > 9999 {
			return 0, docket.Invalid(docket.OMAMedia, "year", fmt.Sprintf("%q is not a year such as 2027", a.str("year")))
		}
		return y, nil
	}
	switch a.str("action") {
	case "add":
		if err := only("add", "name", "email", "address", "filed", "year"); err != nil {
			return Response{}, err
		}
		y, err := year()
		if err != nil {
			return Response{}, err
		}
		r := docket.MediaRequest{Name: strings.TrimSpace(a.str("name")), Email: strings.TrimSpace(a.str("email")),
			Postal: docket.AddressLines(a.str("address")), Filed: today, Year: y}
		if a.has("filed") {
			r.Filed = a.date("filed")
		}
		if r.Year == 0 {
			r.Year, _, _ = r.Filed.Parts()
		}
		r, posts, err := mr.AddMediaRequest(ctx, req.User, now, today, r)
		if err != nil {
			return Response{}, err
		}
		text := outbox.Format("Recorded request %d: %s, filed %s, for the notices of the commission's meetings in %d (%s). "+
			"It gets a copy of each notice of a meeting in %d, %s, as the notice is posted.",
			r.ID, r.Name, r.Filed.Long(), r.Year, docket.OMAMedia, r.Year, mediaHow(r))
		if len(posts) > 0 {
			text += outbox.Format(" The schedule of regular meetings in force is e-mailed to it now.")
		}
		if r.Email != "" && !s.Settings().MailRelay {
			text += outbox.Format("\n:warning: No SMTP relay is configured (smtp: in ethicsbot.yml): each copy waits in the " +
				"outbox, and you are told to send it by hand, until the city's IT configures one.")
		}
		text += outbox.Format("\nThe request lapses after 31 Dec %d; you are reminded on 1 Dec.", r.Year)
		return Response{Messages: []Message{{Text: text}}, Posts: posts}, nil
	case "withdraw":
		if err := only("withdraw", "id", "on", "reason"); err != nil {
			return Response{}, err
		}
		id, err := strconv.ParseInt(strings.TrimSpace(a.str("id")), 10, 64)
		if err != nil || id < 1 {
			return Response{}, docket.Invalid(docket.OMAMedia, "id",
				"name the request by its number, as /ethics media list shows it: media withdraw 3")
		}
		w := docket.MediaWithdrawn{ID: id, On: today, Reason: a.str("reason")}
		if a.has("on") {
			w.On = a.date("on")
		}
		r, err := mr.WithdrawMediaRequest(ctx, req.User, now, today, w)
		if err != nil {
			return Response{}, err
		}
		return reply(outbox.Format("Request %d of %s (%s, %d) withdrawn on %s: no more copies go to it.", r.ID, r.Name,
			r.Where(), r.Year, r.Withdrawn.Long())), nil
	}
	if err := only("list", "year"); err != nil {
		return Response{}, err
	}
	y, err := year()
	if err != nil {
		return Response{}, err
	}
	all, err := mr.MediaRequests(ctx)
	if err != nil {
		return Response{}, err
	}
	ty, _, _ := today.Parts()
	var lines []outbox.Markup
	for _, r := range all {
		if y != 0 && r.Year != y {
			continue
		}
		state := "standing"
		switch {
		case !r.Standing():
			state = "withdrawn " + r.Withdrawn.String()
			if r.Reason != "" {
				state += " (" + r.Reason + ")"
			}
		case r.Year < ty:
			state = "lapsed"
		case r.Year > ty:
			state = "from 1 Jan " + strconv.Itoa(r.Year)
		}
		lines = append(lines, outbox.Format("• %d. *%s*, %s: for %d, filed %s; %s.", r.ID, r.Name, r.Where(), r.Year,
			r.Filed, state))
	}
	if len(lines) == 0 {
		what := "No news medium has filed a request for the notices of the commission's meetings"
		if y != 0 {
			what += " in " + strconv.Itoa(y)
		}
		return reply(outbox.Format("%s (%s). Record one with `/ethics media add`.", what, docket.OMAMedia)), nil
	}
	return reply(outbox.Format("The news media's requests for the notices of the commission's meetings (%s):\n",
		docket.OMAMedia) + outbox.Join(lines, "\n")), nil
}

// mediaHow says how r's copies go.
func mediaHow(r docket.MediaRequest) string {
	if r.Email != "" {
		return "by e-mail to " + r.Email
	}
	return "by post to " + strings.ReplaceAll(r.Postal, "\n",
		", ") + " (it gave no e-mail address: with each notice the " +
		"docket channel asks you to post it a copy)"
}

// mediaCopies asks for the copies of a meeting's notice for the news media (5 ILCS
// 120/2.02(b)): those whose request covers the year of the meeting at start, or the year
// of the notice (a notice given in December of a January meeting goes to both years'
// media); the docket channel is asked to post a copy to a medium without an e-mail
// address.
func (s *Service) mediaCopies(start time.Time) *outbox.MediaCopies {
	loc := s.Engine.Cal.Location()
	years := []int{s.Now().In(loc).Year()}
	if start.IsZero() {
		return &outbox.MediaCopies{Years: years, Postal: s.docketDest()}
	}
	if y := start.In(loc).Year(); y != years[0] {
		years = append(years, y)
	}
	return &outbox.MediaCopies{Years: years, Postal: s.docketDest()}
}

// docketDest is the docket channel, or none.
func (s *Service) docketDest() outbox.Dest {
	if ch := s.Settings().Channels.Docket; ch != "" {
		return outbox.Dest{Channel: ch}
	}
	return outbox.Dest{}
}
