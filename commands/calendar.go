package commands

import (
	"context"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Calendars keeps the secret tokens of the members' private calendar feeds; store.Store
// is one. Only a hash of each token is kept, so a token is shown once, when it is issued.
type Calendars interface {
	// IssueCalendarToken makes user a new token, replacing any earlier one.
	IssueCalendarToken(ctx context.Context, user string, at time.Time) (string, error)
	// CalendarIssued reports whether user has a token, and since when.
	CalendarIssued(ctx context.Context, user string) (time.Time, bool, error)
}

// runCalendar gives the user the address of their private calendar feed: a new one the
// first time and on `reset`, which stops the old address at once. The address is a
// secret, so it goes only to the user who asked, and only when it is made: ethicsbot keeps
// no copy it could show again.
func runCalendar(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if s.Calendars == nil {
		return Response{}, docket.Conflict("", "",
			"calendar feeds are not set up here; see docs/commissioners.md, \"Calendar feeds\"")
	}
	reset := a.str("action") == "reset"
	if !reset {
		since, ok, err := s.Calendars.CalendarIssued(ctx, req.User)
		if err != nil {
			return Response{}, err
		}
		if ok {
			return reply(outbox.Format("You have had a calendar feed since %s. Its address was shown to you then and is not "+
				"kept (only a hash of it is), so it cannot be shown again. If you have lost it, or someone else may have it, "+
				"`/ethics calendar reset` gives you a new address and the old one stops working at once.",
				s.when(since))), nil
		}
	}
	token, err := s.Calendars.IssueCalendarToken(ctx, req.User, s.Now())
	if err != nil {
		return Response{}, err
	}
	url := s.Settings().PublicURL + "/calendar/" + token + ".ics"
	text := outbox.Format("Your private calendar feed of the deadlines and meetings of the cases you may "+
		"see:\n`%s`\n", url)
	if reset {
		text = outbox.Format("Your calendar feed has a new address; the old one no longer works. Subscribe again with this "+
			"one:\n`%s`\n", url)
	}
	text += outbox.Markup("Keep it to yourself: anyone with it sees your feed. In Outlook: Add calendar, Subscribe from " +
		"web. In Google Calendar: Other calendars, +, From URL. It is shown only now; `/ethics calendar reset` " +
		"gives a new one.")
	return reply(text), nil
}
