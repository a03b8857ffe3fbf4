package web

import (
	"context"
	"regexp"
	"time"

	"ethicsbot/docket"
)

// Papers draws a recorded meeting's papers as PDF for its pages on the board: the agenda as
// a posting gave it (letters.Maker.AgendaPDF), and the approved open minutes
// (letters.Maker.MinutesPDF, drawn from the same record as the minutes published). main
// wires letters; a Board without Papers offers no PDF.
type Papers interface {
	AgendaPDF(a docket.Agenda) ([]byte, error)
	MinutesPDF(ctx context.Context, m docket.CommissionMeeting, all []docket.CommissionMeeting) ([]byte, error)
}

// The pages of a recorded meeting whose agenda was posted: the meeting (its notice, what
// happened to it, its agenda as posted), its approved open minutes once published, and the
// PDF of each.
var (
	meetingFile    = regexp.MustCompile(`^meetings/(\d{4}-\d{2}-\d{2}[b-z]?)\.html$`)
	minutesFile    = regexp.MustCompile(`^meetings/(\d{4}-\d{2}-\d{2}[b-z]?)-minutes\.html$`)
	agendaPDFFile  = regexp.MustCompile(`^meetings/(\d{4}-\d{2}-\d{2}[b-z]?)-agenda\.pdf$`)
	minutesPDFFile = regexp.MustCompile(`^meetings/(\d{4}-\d{2}-\d{2}[b-z]?)-minutes\.pdf$`)
	closedFile     = regexp.MustCompile(`^meetings/(\d{4}-\d{2}-\d{2}[b-z]?)-closed-minutes\.html$`)
)

// meetingFiles are the files of recorded meeting m's pages, from the board's root.
func (b *Board) meetingFiles(m *docket.CommissionMeeting, all []docket.CommissionMeeting) []string {
	if !isPublic(m) {
		return nil
	}
	out := []string{meetingPage(m.Name)}
	if b.Papers != nil && lastPosted(m) != nil {
		out = append(out, "meetings/"+m.Name+"-agenda.pdf")
	}
	if !m.Published.IsZero() {
		out = append(out, "meetings/"+m.Name+"-minutes.html")
		if b.Papers != nil {
			out = append(out, "meetings/"+m.Name+"-minutes.pdf")
		}
	}
	if _, ok := docket.ReleasedClosed(all, m.Name); ok {
		out = append(out, "meetings/"+m.Name+"-closed-minutes.html")
	}
	return out
}

// meetingFile makes the file name of a recorded meeting's pages; errNotFound if it is none.
func (b *Board) meetingFile(ctx context.Context, now time.Time, name string) ([]byte, string, error) {
	for _, f := range []struct {
		re   *regexp.Regexp
		make func(context.Context, time.Time, *docket.CommissionMeeting, []docket.CommissionMeeting) ([]byte, string,
			error)
	}{{meetingFile, b.meetingHTML}, {minutesFile, b.minutesHTML}, {agendaPDFFile, b.agendaPDF},
		{minutesPDFFile, b.minutesPDF}, {closedFile, b.closedMinutesHTML}} {
		match := f.re.FindStringSubmatch(name)
		if match == nil {
			continue
		}
		ms, ok := b.Records.(Meetings)
		if !ok {
			return nil, "", errNotFound
		}
		all, err := ms.Meetings(ctx)
		if err != nil {
			return nil, "", err
		}
		for i := range all {
			if all[i].Name == match[1] && isPublic(&all[i]) {
				return f.make(ctx, now, &all[i], all)
			}
		}
		return nil, "", errNotFound
	}
	return nil, "", errNotFound
}

// meetingHTML is the meeting's page: its card, what happened to its notice (history), and
// where its agenda as posted and its minutes are.
func (b *Board) meetingHTML(_ context.Context, now time.Time, m *docket.CommissionMeeting,
	all []docket.CommissionMeeting) ([]byte, string, error) {
	e := b.recordedCard(m, now, "../")
	e.Page = "" // the card is on the page itself
	p := b.base(e.Title+" "+m.Name, e.Title+" "+m.Name, "../", now)
	p.Meeting, p.History = &e, b.history(m)
	p.AgendaPDF = b.Papers != nil && lastPosted(m) != nil
	p.MinutesPDF = b.Papers != nil
	if r, ok := docket.ReleasedClosed(all, m.Name); ok {
		p.Released = &released{By: r.By, At: r.At.In(b.Loc)}
	}
	return b.page("meeting.html", p)
}

// released is the release of a meeting's closed minutes, as its pages say it.
type released struct {
	By string    // the meeting whose review released them
	At time.Time // when the review was recorded
}

// closedMinutesHTML is the page of the meeting's closed minutes, once the commission's
// semi-annual review found they no longer need confidential treatment (5 ILCS
// 120/2.06(d)): as the review made them public.
func (b *Board) closedMinutesHTML(_ context.Context, now time.Time, m *docket.CommissionMeeting,
	all []docket.CommissionMeeting) ([]byte, string, error) {
	r, ok := docket.ReleasedClosed(all, m.Name)
	if !ok {
		return nil, "", errNotFound
	}
	e := b.recordedCard(m, now, "../")
	title := "Minutes of the closed session of the meeting of " + m.Name
	p := b.base(title, title, "../", now)
	p.Meeting, p.Minutes = &e, minutesBlocks(r.Text)
	p.Released = &released{By: r.By, At: r.At.In(b.Loc)}
	return b.page("closed-minutes.html", p)
}

// minutesHTML is the page of the meeting's approved open minutes, as published.
func (b *Board) minutesHTML(_ context.Context, now time.Time, m *docket.CommissionMeeting,
	_ []docket.CommissionMeeting) ([]byte, string, error) {
	if m.Published.IsZero() {
		return nil, "", errNotFound
	}
	e := b.recordedCard(m, now, "../")
	p := b.base("Minutes of the meeting of "+m.Name, "Minutes of the meeting of "+m.Name, "../", now)
	p.Meeting, p.Minutes, p.MinutesPDF = &e, minutesBlocks(m.PublishedText), b.Papers != nil
	return b.page("minutes.html", p)
}

// agendaPDF is the agenda as last posted, as PDF: the agenda the posting kept.
func (b *Board) agendaPDF(_ context.Context, _ time.Time, m *docket.CommissionMeeting,
	_ []docket.CommissionMeeting) ([]byte, string, error) {
	a := lastPosted(m)
	if b.Papers == nil || a == nil {
		return nil, "", errNotFound
	}
	pdf, err := b.Papers.AgendaPDF(*a)
	return pdf, "application/pdf", err
}

// minutesPDF is the approved open minutes, as PDF, once published.
func (b *Board) minutesPDF(ctx context.Context, _ time.Time, m *docket.CommissionMeeting,
	all []docket.CommissionMeeting) ([]byte, string, error) {
	if b.Papers == nil || m.Published.IsZero() {
		return nil, "", errNotFound
	}
	pdf, err := b.Papers.MinutesPDF(ctx, *m, all)
	return pdf, "application/pdf", err
}
