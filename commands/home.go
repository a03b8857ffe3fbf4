package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The App Home tab is the clerk's desk: a button to file a complaint, what
// needs the user's attention, the next meeting with its agenda, and a row per open case
// with its next deadline and a menu of the steps its state allows now. Each menu item and
// button opens that step's form, filled in, through Service.Action, as a card's buttons do.

// MaxOverflowOptions is how many options Slack's overflow menu holds (Block Kit
// reference, overflow menu element: 2 to 5).
const MaxOverflowOptions = 5

// FileButton is the value of the Home tab's "File a complaint" button: the subcommand
// whose form it opens.
const FileButton = "file"

// HomeBlocks is the App Home tab for user. Someone with no role sees the commands they may
// use. Everyone else sees the desk above them; the cases they are recused from are left
// out everywhere, not even counted. The whole stays within the blocks a view holds
// (MaxViewBlocks): when the cases do not all fit, the most urgent are shown, then how many
// more there are.
func (s *Service) HomeBlocks(ctx context.Context, user string) []slack.Block {
	help := sections(replyText(s.Handle(ctx, Request{User: user, Text: "help"})), MaxViewBlocks/4,
		func(n int) outbox.Markup {
			return outbox.Format("…and %d more; `/ethics help` lists every command.", n)
		})
	role := s.Settings().Roles.Of(user)
	if role == Nobody {
		return help
	}
	var top []slack.Block
	if sub, ok := lookup(FileButton); ok && s.allowed(sub, role) {
		top = append(top, slack.NewActionBlock("desk",
			slack.NewButtonBlockElement(ActionPrefix+FileButton, FileButton,
				slack.NewTextBlockObject(slack.PlainTextType, "File a complaint", false, false)).WithStyle(slack.StylePrimary)))
	}
	now := s.Now()
	unread := func(err error) []slack.Block {
		s.logger().Error("home: open cases", "err", err)
		top = append(top,
			slack.NewSectionBlock(mrkdwn("The docket could not be read just now; `/ethics docket` tries again."), nil, nil))
		return append(append(top, slack.NewDividerBlock()), help...)
	}
	d, err := s.deskOf(ctx, user, now)
	if err != nil {
		return unread(err)
	}
	// What needs attention comes first, then the next meeting, each laid out in as few
	// sections as hold it: together at most half the view, the meeting at most 3 blocks,
	// so that a long list of what needs attention never hides it.
	room := MaxViewBlocks - len(top) - len(help) - 1
	more := func(n int) outbox.Markup {
		return outbox.Format("…and %d more lines; `/ethics docket` lists the open cases.", n)
	}
	var meeting []slack.Block
	if m := s.nextMeeting(ctx, d, now); m != "" {
		meeting = sections(m, 3, more)
	}
	limit := room/2 - len(meeting)
	lines, all, err := d.attention(ctx, max(limit, 0)*MaxSectionText)
	if err != nil {
		return unread(err)
	}
	var head []slack.Block
	if text := s.homeUndelivered(ctx, user) + attentionText(lines, all); text != "" {
		head = sectionsOf(text, all-len(lines), limit, more)
	}
	room = MaxViewBlocks - len(top) - len(head) - len(meeting) - 1 - len(help) - 1 // the header, the divider
	rows, total, err := d.page(ctx, max(room, 1))
	if err != nil {
		return unread(err)
	}
	top = append(append(top, head...), meeting...)
	top = append(top,
		slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, fmt.Sprintf("Open cases (%d)", total),
			false, false)))
	if total == 0 {
		top = append(top, slack.NewSectionBlock(mrkdwn("No open cases."), nil, nil))
	}
	if total > room {
		rows = rows[:room-1]
	}
	for _, r := range rows {
		top = append(top, s.caseRow(r, role, now))
	}
	if n := total - len(rows); n > 0 {
		top = append(top,
			slack.NewContextBlock("more",
				mrkdwn(outbox.Format("…and %d more, with later deadlines; `/ethics cases open` lists every open case.", n))))
	}
	return append(append(top, slack.NewDividerBlock()), help...)
}

// deskReader is what the App Home tab reads of the open cases a user may see (not recused
// from), in the desk's order: nearest deadline first (docket.Engine.Nearest), then oldest.
type deskReader interface {
	// shows reports whether the case numbered is open and the user may see it.
	shows(ctx context.Context, number string) bool
	// attention gives the lines of what needs attention on the cases (attentionLines),
	// the first of them, at least as many as take more than budget characters, and how
	// many there are in all.
	attention(ctx context.Context, budget int) (lines []outbox.Markup, all int, err error)
	// page gives the first limit cases, and how many there are in all.
	page(ctx context.Context, limit int) (rows []deskRow, total int, err error)
}

// HomeRecord is a Record that reads what the App Home tab shows itself: the page of the
// docket (DocketRecord), and the cases that something needs attention on, without reading
// every open case; store.Store is one.
type HomeRecord interface {
	DocketRecord
	// Attention hands each, in the docket's order, the open cases viewer is not recused
	// from that something needs attention on at now (docket.Engine.Attention), until each
	// returns false, and returns how many lines of what needs attention all of those cases
	// list at now.
	Attention(ctx context.Context, viewer string, now time.Time, each func(*docket.Case) bool) (lines int, err error)
}

// deskOf is the desk of user at now: read through the record's indexes when it reads the
// Home tab's cases itself (HomeRecord), otherwise from every open case.
func (s *Service) deskOf(ctx context.Context, user string, now time.Time) (deskReader, error) {
	if r, ok := s.Record.(HomeRecord); ok {
		return storedDesk{s: s, r: r, user: user, now: now}, nil
	}
	open, err := s.Record.OpenCases(ctx)
	if err != nil {
		return nil, err
	}
	return s.desk(open, user, now), nil
}

// deskRow is one open case on the desk, with its nearest open deadline.
type deskRow struct {
	c       *docket.Case
	sched   docket.Schedule
	next    docket.Deadline
	hasNext bool
	when    time.Time
}

// row is c's row on the desk at now.
func (s *Service) row(c *docket.Case, now time.Time) deskRow {
	r := deskRow{c: c, sched: s.Engine.Schedule(&c.Facts, now)}
	if r.next, r.when, r.hasNext = s.Engine.Nearest(&r.sched); !r.hasNext {
		r.when = time.Unix(1<<40, 0) // after every case with a step
	}
	return r
}

// desk is the open cases a user may see, most urgent first, all read.
type desk struct {
	rows []deskRow
	seen map[string]bool
	e    *docket.Engine
	now  time.Time
}

// desk reads the open cases user is not recused from, each with its schedule, nearest
// deadline first (docket.Engine.Nearest).
func (s *Service) desk(cases []*docket.Case, user string, now time.Time) desk {
	d := desk{e: s.Engine, now: now, seen: map[string]bool{}}
	for _, c := range cases {
		if _, recused := c.Recused(user); recused {
			continue
		}
		d.rows = append(d.rows, s.row(c, now))
		d.seen[c.Number] = true
	}
	sort.SliceStable(d.rows, func(i, j int) bool { return d.rows[i].when.Before(d.rows[j].when) })
	return d
}

func (d desk) shows(_ context.Context, number string) bool { return d.seen[number] }

// attention is every line of what needs attention on the desk's cases.
func (d desk) attention(context.Context, int) ([]outbox.Markup, int, error) {
	var lines []outbox.Markup
	for _, r := range d.rows {
		lines = append(lines, attentionLines(d.e, r.c, &r.sched, d.now)...)
	}
	return lines, len(lines), nil
}

func (d desk) page(_ context.Context, limit int) ([]deskRow, int, error) {
	return d.rows[:min(limit, len(d.rows))], len(d.rows), nil
}

// storedDesk is the desk read through the record's indexes (HomeRecord): only the cases
// shown are decoded.
type storedDesk struct {
	s    *Service
	r    HomeRecord
	user string
	now  time.Time
}

func (d storedDesk) shows(ctx context.Context, number string) bool {
	c, err := d.s.Record.Case(ctx, number)
	if err != nil {
		return false
	}
	_, recused := c.Recused(d.user)
	return !c.Closed() && !recused
}

// attention reads the cases that something needs attention on, case by case, until their
// lines take more than budget characters; the record counts the rest.
func (d storedDesk) attention(ctx context.Context, budget int) ([]outbox.Markup, int, error) {
	var lines []outbox.Markup
	used := 0
	all, err := d.r.Attention(ctx, d.user, d.now, func(c *docket.Case) bool {
		sched := d.s.Engine.Schedule(&c.Facts, d.now)
		for _, l := range attentionLines(d.s.Engine, c, &sched, d.now) {
			lines = append(lines, l)
			used += textLen(string(l)) + 1
		}
		return used <= budget
	})
	return lines, all, err
}

func (d storedDesk) page(ctx context.Context, limit int) ([]deskRow, int, error) {
	cases, total, err := d.r.Docket(ctx, d.user, limit)
	rows := make([]deskRow, len(cases))
	for i, c := range cases {
		rows[i] = d.s.row(c, d.now)
	}
	return rows, total, err
}

// attentionText is the list of what needs attention: its head, with how many lines there
// are in all, then lines, the first of them. "" when there are none.
func attentionText(lines []outbox.Markup, all int) outbox.Markup {
	if all == 0 {
		return ""
	}
	return outbox.Format("*Needs your attention (%d)*\n", all) + outbox.Join(lines, "\n") + "\n"
}

// attentionLines are the lines of what needs attention on c, whose schedule counted at now
// is sched: a line per step (steps overdue, 5 ILCS 70/1.11, docs/deadlines.md, and the
// certified mailings that came back), then one of the papers owed, (B), (C), (E), (F), (H),
// that none of those names.
func attentionLines(e *docket.Engine, c *docket.Case, sched *docket.Schedule, now time.Time) []outbox.Markup {
	var lines []outbox.Markup
	steps, owed := e.Attention(c, sched).At(now)
	for _, dl := range steps {
		if _, _, ok := e.ResendOf(c, dl); ok {
			lines = append(lines, outbox.Format("• :envelope: *%s* came back: %s", c.Number, DeadlineLine(e, dl, now)))
		} else {
			lines = append(lines, outbox.Format("• :warning: *%s* overdue: %s", c.Number, DeadlineLine(e, dl, now)))
		}
	}
	if len(owed) > 0 {
		names := make([]string, 0, len(owed))
		for _, p := range owed {
			if info, ok := p.Info(); ok {
				names = append(names, info.Name)
			} else {
				names = append(names, string(p))
			}
		}
		lines = append(lines, outbox.Format("• :page_facing_up: *%s* papers owed: %s", c.Number, strings.Join(names, "; ")))
	}
	return lines
}

// nextMeeting is the next meeting of the commission: its start, place and name,
// whether regular or special, how many items its agenda holds and whether it is posted
// (5 ILCS 120/2.02), then its items: each case step by its case and step, with its access,
// and the other business in words. A regular meeting of the year's schedule (2.03) that
// nothing is recorded of yet is the next meeting too, with no items. The cases the user is
// recused from are left out, and not counted. "" when no meeting is coming.
func (s *Service) nextMeeting(ctx context.Context, d deskReader, now time.Time) outbox.Markup {
	all, err := s.comingMeetings(ctx, now)
	if err != nil {
		s.logger().Error("home: meetings", "err", err)
		return ""
	}
	for i := range all {
		m := &all[i]
		if !m.Cancelled.IsZero() || !m.Start.After(now) {
			continue
		}
		var lines []outbox.Markup
		for _, it := range m.Agenda() {
			switch {
			case it.Kind != docket.CaseItem:
				lines = append(lines, outbox.Format("• %s", it.Title()))
			case d.shows(ctx, it.Case):
				lines = append(lines,
					outbox.Format("• *%s*: %s, %s", it.Case, it.Step.Name(), docket.Access(it.Closed, it.Authority)))
			}
		}
		kind := "regular meeting"
		if m.Special {
			kind = "special meeting"
		}
		head := outbox.Format("*Next meeting: %s*, %s: %s %s", s.when(m.Start), m.Place, kind, m.Name)
		switch {
		case len(lines) == 0:
			return head + outbox.Format(", no items yet.\n")
		case !m.Posted().IsZero():
			head += outbox.Format(", %s; agenda posted %s.\n", count(len(lines), "item"), s.when(m.Posted()))
		default:
			head += outbox.Format(", %s; agenda not yet posted: due by %s (%s).\n", count(len(lines), "item"),
				s.when(m.AgendaDue()), docket.OMANotice)
		}
		return head + outbox.Join(lines, "\n") + "\n"
	}
	return ""
}

// ComingRecord is a record that reads the commission's next meeting without folding every
// meeting ever scheduled: ComingMeetings gives the meetings as MeetingRecord.Meetings does
// up to the day of the next one after now, that one among them as Meetings gives it;
// store.Store is one.
type ComingRecord interface {
	ComingMeetings(ctx context.Context, now time.Time) ([]docket.CommissionMeeting, error)
}

// comingMeetings is the commission's meetings with the regular meetings of the schedule
// (allMeetings), enough to find the next after now in: those up to its day alone when the
// record can read them (ComingRecord).
func (s *Service) comingMeetings(ctx context.Context, now time.Time) ([]docket.CommissionMeeting, error) {
	r, ok := s.Record.(ComingRecord)
	if !ok {
		return s.allMeetings(ctx)
	}
	ms, err := r.ComingMeetings(ctx, now)
	return s.withRegular(ms), err
}

// caseRow is a case's row on the desk: its number, parties, state and next deadline, and a
// menu of the steps role may take on it now (nextFor, from the state's table in next),
// each opening that step's form for the case.
func (s *Service) caseRow(r deskRow, role Role, now time.Time) slack.Block {
	c := r.c
	line := outbox.Format("*%s*%s: %s v. %s · %s%s", c.Number, s.expeditedTag(c), c.Complainant.Name, c.Respondent.Name,
		stateName(c), mailOutcomes(c))
	switch {
	case !r.hasNext:
		line += " · no open deadline"
	case r.next.Status == docket.Missed:
		line += outbox.Format("\nNext: %s (MISSED)", DeadlineLine(s.Engine, r.next, now))
	default:
		line += outbox.Format("\nNext: %s", DeadlineLine(s.Engine, r.next, now))
	}
	var accessory *slack.Accessory
	if menu := StepMenu(ActionPrefix+"case:"+c.Number, s.stepActions(c, role)); menu != nil {
		accessory = slack.NewAccessory(menu)
	}
	return slack.NewSectionBlock(mrkdwn(capText(line, MaxSectionText, cardMore)), nil, accessory,
		slack.SectionBlockOptionBlockID("case:"+c.Number))
}

// MaxOptionValue is how many characters an option's value takes (Block Kit reference,
// option object: 150).
const MaxOptionValue = 150

// StepMenu is the overflow menu, with action id id, of the steps actions offer, each
// opening its form (Service.Action): the menu of a case's row on the App Home tab and of
// its card in the docket channel. It holds the first MaxOverflowOptions steps, in the
// order of the steps table (next); nil if there are none. A step whose form is longer than
// an option's value may be is left out: its button would open the wrong form.
func StepMenu(id string, actions []outbox.Action) *slack.OverflowBlockElement {
	var opts []*slack.OptionBlockObject
	for _, a := range actions {
		if len(opts) == MaxOverflowOptions {
			break
		}
		if a.Form == "" || textLen(a.Form) > MaxOptionValue {
			continue
		}
		opts = append(opts,
			slack.NewOptionBlockObject(a.Form,
				slack.NewTextBlockObject(slack.PlainTextType, truncate(a.Label, MaxOptionText), false, false), nil))
	}
	if len(opts) == 0 {
		return nil
	}
	return slack.NewOverflowBlockElement(id, opts...)
}
