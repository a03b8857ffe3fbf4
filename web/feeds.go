package web

import (
	"bytes"
	"context"
	"html"
	"strings"
	"time"

	"github.com/gorilla/feeds"

	"ethicsbot/docket"
)

// feedSize is how many of the latest notices the Atom feed carries.
const feedSize = 50

// atom is the board's Atom feed: its latest notices and decisions, newest first, each
// dated when it was first posted on the board.
func (b *Board) atom(ctx context.Context, now time.Time) ([]byte, string, error) {
	recs, err := b.Records.LatestPosted(ctx, feedSize)
	if err == nil {
		err = b.itemsWithdrawn(ctx, recs)
	}
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
	if len(recs) > 0 {
		f.Updated = recs[0].Posted
	}
	for _, r := range recs {
		e := b.entry(r, now, "")
		link := b.url() + "cases/" + r.Case + ".html#" + e.Anchor
		f.Items = append(f.Items, &feeds.Item{
			Title:       e.Title + ", case " + r.Case + summaryOf(e),
			Link:        &feeds.Link{Href: link},
			Id:          link,
			Created:     e.Posted,
			Updated:     e.Posted,
			Description: html.EscapeString(describe(e)), // Atom's summary is HTML: the text is escaped as data
		})
	}
	out, err := f.ToAtom()
	if err != nil {
		return nil, "", err
	}
	return []byte(out), "application/atom+xml; charset=utf-8", nil
}

// meetingsICS is the board's iCalendar feed of public meetings: those to come and those of
// the last year, each as its public notice gives it. A cancelled or moved meeting leaves
// the feed, so a subscribed calendar drops it at its next fetch.
func (b *Board) meetingsICS(ctx context.Context, now time.Time) ([]byte, string, error) {
	recs, err := b.Records.PublicBetween(ctx, now.Add(-recentOutcomes), time.Time{})
	if err != nil {
		return nil, "", err
	}
	base := b.base("", "", "", now)
	host := uidHost(b.url())
	feed := &Feed{Name: base.Commission + ": public meetings", Zone: b.Loc, Stamp: now}
	// One event per meeting (issue 19 §2), as the board has one card: the same grouping.
	p := base
	b.sort(&p, recs, now)
	if err := b.group(ctx, &p, now, now.Add(-recentOutcomes), time.Time{}); err != nil {
		return nil, "", err
	}
	for _, e := range append(p.Past, p.Upcoming...) {
		access := capitalize(docket.Access(e.Closed, e.Authority)) + "."
		ev := Event{
			UID:         e.Case + "-" + e.Anchor + "@" + host,
			Summary:     base.Commission + ": " + strings.ToLower(e.Title[:1]) + e.Title[1:] + ", case " + e.Case,
			Description: access + " Agenda: " + strings.Join(e.Agenda, " ") + " " + b.url() + "cases/" + e.Case + ".html",
			Location:    e.Place,
			Start:       e.Start,
			End:         e.Start.Add(MeetingLength),
			Modified:    e.Posted,
		}
		if e.Cases != nil || e.Name != "" {
			ev.UID = e.UID + "@" + host
			ev.Summary = base.Commission + ": " + strings.ToLower(e.Title[:1]) + e.Title[1:]
			if len(e.Cases) > 0 {
				ev.Summary += ", cases " + strings.Join(e.Cases, ", ")
			}
			ev.Description = "Agenda: " + strings.Join(e.Agenda, " ") + " " + b.url() + "#" + e.Anchor
		}
		feed.Events = append(feed.Events, ev)
	}
	if feed.Events, err = b.regularEvents(ctx, feed.Events, host, now.Add(-recentOutcomes), base.Commission); err != nil {
		return nil, "", err
	}
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
	s.WriteString(": " + e.Start.Format("Mon 2 Jan 2006 15:04 MST"))
	switch e.Withdrawn {
	case "cancelled":
		s.WriteString(", cancelled")
	case itemWithdrawn:
		s.WriteString(", withdrawn from the agenda of the meeting, which is held")
	case "moved":
		s.WriteString(", moved to " + e.MovedTo.Format("Mon 2 Jan 2006 15:04 MST"))
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
