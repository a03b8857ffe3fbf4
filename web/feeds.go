package web

import (
	"bytes"
	"context"
	"html"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"ethicsbot/docket"
)

// feedSize is how many of the latest notices the Atom feed carries.
const feedSize = 50

// feedTime is how the feeds write a meeting's start: "Mon 7 Dec 2026 17:00 CST".
const feedTime = "Mon 2 Jan 2006 15:04 MST"

// atom is the board's Atom feed: its latest notices and decisions, newest first, each
// dated when it was posted on the board: a case's notices and outcomes, and each posting,
// amendment, move and cancellation of a recorded meeting (meetingItems), which tells the
// case steps on its agenda.
func (b *Board) atom(ctx context.Context, now time.Time) ([]byte, string, error) {
	recs, err := b.Records.LatestPosted(ctx, feedSize)
	if err != nil {
		return nil, "", err
	}
	v, err := b.windowView(ctx, recs, now, "", time.Time{}, nil)
	if err != nil {
		return nil, "", err
	}
	base := b.base("", "", "", now)
	f := &feeds.Feed{
		Title:       base.Commission + ": public notices",
		Link:        &feeds.Link{Href: b.url()},
		Description: "Notices of the commission's meetings and the decisions the ethics ordinance makes public.",
		Author:      &feeds.Author{Name: base.Commission},
		Updated:     now,
	}
	for _, e := range v.entries {
		if e.Held != "" || e.Of != "" {
			continue // the meeting's own entries tell it
		}
		link := b.url() + "cases/" + e.Case + ".html#" + e.Anchor
		f.Items = append(f.Items, &feeds.Item{
			Title:       e.Title + ", case " + e.Case + summaryOf(e),
			Link:        &feeds.Link{Href: link},
			Id:          link,
			Created:     e.Posted,
			Updated:     e.Posted,
			Description: html.EscapeString(describe(e)), // Atom's summary is HTML: the text is escaped as data
		})
	}
	for i := range v.meetings {
		f.Items = append(f.Items, b.meetingItems(&v.meetings[i])...)
	}
	slices.SortStableFunc(f.Items, func(a, c *feeds.Item) int { return c.Updated.Compare(a.Updated) })
	f.Items = f.Items[:min(len(f.Items), feedSize)]
	if len(f.Items) > 0 {
		f.Updated = f.Items[0].Updated
	}
	out, err := f.ToAtom()
	if err != nil {
		return nil, "", err
	}
	return []byte(out), "application/atom+xml; charset=utf-8", nil
}

// meetingItems are the Atom entries of recorded meeting m once its agenda was posted: one
// for each posting of its agenda (the first, then each amended one), each move after the
// first posting, and its cancellation, each dated when it happened and linked to its line
// on the meeting's page.
func (b *Board) meetingItems(m *docket.CommissionMeeting) []*feeds.Item {
	if !isPublic(m) {
		return nil
	}
	name := meetingTitle(m) + " " + m.Name
	page := b.url() + meetingPage(m.Name)
	var out []*feeds.Item
	add := func(id string, at time.Time, title, text string) {
		out = append(out, &feeds.Item{Title: name + ": " + title, Link: &feeds.Link{Href: page + "#" + id},
			Id: page + "#" + id, Created: at.In(b.Loc), Updated: at.In(b.Loc), Description: html.EscapeString(text)})
	}
	history := b.history(m)
	for i := len(history) - 1; i >= 0; i-- { // newest first, as the feed is
		add(history[i].ID, history[i].At, history[i].Title, history[i].Text)
	}
	return out
}

// meetingsICS is the board's iCalendar feed of public meetings: those to come and those of
// the last year within a bounded window (window.go), each as its public notice gives it. A meeting keeps its event through its
// moves, and a cancelled one stays, marked cancelled: each change raises the event's
// SEQUENCE and its LAST-MODIFIED, so a subscribed calendar changes the event it has.
func (b *Board) meetingsICS(ctx context.Context, now time.Time) ([]byte, string, error) {
	from, _, err := b.windowFrom(ctx, now, now.Add(-recentOutcomes), calendarRecords)
	if err != nil {
		return nil, "", err
	}
	recs, err := b.Records.PublicBetween(ctx, from, time.Time{})
	if err != nil {
		return nil, "", err
	}
	v, err := b.windowView(ctx, recs, now, "", from, nil)
	if err != nil {
		return nil, "", err
	}
	base := b.base("", "", "", now)
	host := uidHost(b.url())
	feed := &Feed{Name: base.Commission + ": public meetings", Zone: b.Loc, Stamp: now, Texts: &b.texts}
	// One event per meeting, as the board has one card: the same grouping.
	p := base
	b.sort(&p, v.entries, false)
	b.group(&p, v, now, from, time.Time{})
	at := map[string]int{}
	for _, e := range slices.Concat(p.Past, p.Upcoming, p.Changed) {
		if e.Withdrawn != "" && e.Withdrawn != "cancelled" {
			continue // moved: its event is the notice it moved to; an item withdrawn: its meeting's
		}
		access := capitalize(docket.Access(e.Closed, e.Authority)) + "."
		ev := Event{
			UID:         e.Case + "-" + anchorOf(e.SeriesKey()) + "@" + host,
			Summary:     base.Commission + ": " + strings.ToLower(e.Title[:1]) + e.Title[1:] + ", case " + e.Case,
			Description: access + " Agenda: " + strings.Join(e.Agenda, " ") + " " + b.url() + "cases/" + e.Case + ".html",
			Location:    e.Place,
			Start:       e.Start,
			End:         e.Start.Add(MeetingLength),
			Modified:    e.Modified,
			Sequence:    e.Seq,
			Cancelled:   e.Withdrawn == "cancelled",
		}
		if e.Cases != nil || e.Name != "" {
			ev.UID = e.UID + "@" + host
			ev.Summary = base.Commission + ": " + strings.ToLower(e.Title[:1]) + e.Title[1:]
			if len(e.Cases) > 0 {
				ev.Summary += ", cases " + strings.Join(e.Cases, ", ")
			}
			link := "#" + e.Anchor
			if e.Page != "" {
				link = e.Page
			}
			ev.Description = "Agenda: " + strings.Join(slices.Concat(e.Opening, e.Agenda, e.Closing), " ") + " " + b.url() + link
		}
		if n := len(e.Moves); n > 0 {
			ev.Description = "Moved from " + e.Moves[n-1].Start.Format(feedTime) + ", " + e.Moves[n-1].Place + ". " +
				ev.Description
		}
		if ev.Cancelled {
			ev.Summary = "Cancelled: " + ev.Summary
		}
		// A notice cancelled, then given again as it was, has the same UID: it is one event,
		// the one that stands (or the last cancelled), counting the changes of both.
		if i, dup := at[ev.UID]; dup {
			old, keep := feed.Events[i], ev
			if !old.Cancelled && ev.Cancelled || old.Cancelled == ev.Cancelled && old.Modified.After(ev.Modified) {
				keep = old
			}
			keep.Sequence, keep.Modified = old.Sequence+ev.Sequence+1, later(old.Modified, ev.Modified)
			feed.Events[i] = keep
			continue
		}
		at[ev.UID] = len(feed.Events)
		feed.Events = append(feed.Events, ev)
	}
	feed.Events = b.regularEvents(feed.Events, host, from, base.Commission, v.meetings)
	var buf bytes.Buffer
	if err := feed.Encode(&buf); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), ContentType, nil
}

// summaryOf is the rest of an entry's title: when a meeting is, or that it was withdrawn.
func summaryOf(e entry) string {
	if e.Record != "meeting_notice" {
		return ""
	}
	var s strings.Builder
	s.WriteString(": " + e.Start.Format(feedTime))
	switch e.Withdrawn {
	case "cancelled":
		s.WriteString(", cancelled")
	case itemWithdrawn:
		s.WriteString(", withdrawn from the agenda of the meeting, which is held")
	case "moved":
		s.WriteString(", moved to " + e.MovedTo.Format(feedTime))
	}
	return s.String()
}

// describe says in a line or a few what a record is, as plain text.
func describe(e entry) string {
	var lines []string
	add := func(label, s string) {
		if s != "" {
			lines = append(lines, label+s)
		}
	}
	switch e.Record {
	case "meeting_notice":
		add("", e.Text+".")
	case "dismissal":
		add("Dismissed: ", strings.ReplaceAll(e.Ruling, "_", " ")+".")
		if e.Ground == string(docket.GroundTimeBarred) {
			add("Ground: ", docket.DismissalWords(docket.Ruling(e.Ruling), docket.GroundTimeBarred)+".")
		}
	default:
		add("", e.Text)
		add("Findings: ", e.Findings)
		add("Recommendation: ", e.Recommendation)
		if e.Fine > 0 {
			add("Fine: ", dollars(e.Fine))
		}
	}
	if e.Complainant != "" {
		add("Complaint of ", e.Complainant+" against "+e.Respondent+".")
	}
	add("By roll call: ", e.Tally)
	return strings.Join(lines, "\n")
}
