package commands

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
)

// when formats an instant in the commission's zone: "Thu 10 Dec 2026 17:00 CST".
func (s *Service) when(t time.Time) string {
	return t.In(s.Engine.Cal.Location()).Format("Mon 2 Jan 2006 15:04 MST")
}

func (s *Service) expeditedTag(c *docket.Case) string {
	if s.Engine.Schedule(&c.Facts, time.Time{}).Expedited {
		return " EXPEDITED (G)"
	}
	return ""
}

// left says how long is left until a deadline, in the unit its rule counts: "2 business
// days left", "due today", "3 days overdue", "in 30 hours".
func left(e *docket.Engine, d docket.Deadline, now time.Time) string {
	n, unit, late := e.Left(d, now)
	switch {
	case unit == "hour" && late:
		return fmt.Sprintf("%d hours overdue", n)
	case unit == "hour" && n == 0:
		return "within the hour"
	case unit == "hour":
		return fmt.Sprintf("in %d hours", n)
	case late:
		return docket.Count(n, unit) + " overdue"
	case n == 0:
		return "due today"
	}
	return docket.Count(n, unit) + " left"
}

var statusMark = map[docket.Status]string{docket.Met: ":white_check_mark: met", docket.Open: ":hourglass: open", docket.Missed: ":x: missed"}

// DeadlineLine describes one deadline for people: "respondent notice by certified mail
// (B): due Wed 9 Dec 2026, 2 business days left".
func DeadlineLine(e *docket.Engine, d docket.Deadline, now time.Time) string {
	due := ""
	if d.DueAt.IsZero() {
		due = "due " + d.Due.Long()
	} else {
		due = "by " + d.DueAt.In(e.Cal.Location()).Format("Mon 2006-01-02 15:04 MST")
	}
	line := fmt.Sprintf("%s %s: %s", d.Period.Duty, d.Rule, due)
	if d.Status == docket.Open {
		line += ", " + left(e, d, now)
	}
	return line
}

// card renders a case for an authorised user: state, parties, what is public so far,
// deadlines with their status, and buttons for the next steps the state allows.
func (s *Service) card(c *docket.Case, role Role, now time.Time) (string, []slack.Block) {
	e := s.Engine
	sched := e.Schedule(&c.Facts, now)
	var text strings.Builder
	title := fmt.Sprintf("Case %s: %s", c.Number, stateName(c))
	if sched.Expedited {
		title += fmt.Sprintf(" · EXPEDITED (G), election %s", sched.Election.Long())
	}
	if c.EnforcementStayed() {
		title += " · enforcement stayed (F)"
	}
	fmt.Fprintf(&text, "%s\n", title)
	facts := []string{
		"*Respondent:* " + person(c.Respondent),
		"*Complainant:* " + person(c.Complainant),
		"*Section:* §" + strings.Join(c.Sections, ", §"),
		"*Received:* " + s.when(c.Received),
	}
	if !c.ViolationDate.IsZero() {
		barred := ""
		if sched.TimeBarred != nil && *sched.TimeBarred {
			barred = " (time-barred (I))"
		}
		facts = append(facts, "*Violation:* "+c.ViolationDate.Long()+barred)
	}
	for _, el := range c.Elections {
		facts = append(facts, "*Candidate at:* election of "+el.Long())
	}
	fmt.Fprintf(&text, "%s\n*Summary (confidential):* %s\n", strings.Join(facts, "\n"), c.Summary)

	var public []string
	for _, r := range docket.PublicRecords(c, e.Cal.Location()) {
		public = append(public, publicLine(r))
	}
	if len(public) == 0 {
		public = []string{"nothing yet"}
	}
	fmt.Fprintf(&text, "*Public so far:*\n• %s\n", strings.Join(public, "\n• "))

	var lines []string
	for _, d := range sched.Deadlines {
		lines = append(lines, statusMark[d.Status]+" "+DeadlineLine(e, d, now))
	}
	fmt.Fprintf(&text, "*Deadlines:*\n%s", strings.Join(lines, "\n"))

	blocks := []slack.Block{slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, truncate(title, 150), false, false))}
	buttons := s.nextButtons(c, role)
	// Each part runs over as many sections as it needs, leaving each later part one.
	parts := []string{
		strings.Join(facts, "\n"),
		"*Summary (confidential):* " + c.Summary,
		"*Public so far:*\n• " + strings.Join(public, "\n• "),
		"*Deadlines:*\n" + strings.Join(lines, "\n"),
	}
	budget := MaxMessageBlocks - len(blocks) - min(len(buttons), 1)
	for i, p := range parts {
		part := sections(p, budget-(len(parts)-1-i), cardMore)
		blocks = append(blocks, part...)
		budget -= len(part)
	}
	if len(buttons) > 0 {
		blocks = append(blocks, slack.NewActionBlock("next_actions", buttons...))
	}
	return capText(text.String(), MaxMessageText, cardMore), blocks
}

func mrkdwn(s string) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, s, false, false)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func person(p docket.Person) string {
	if p.SlackID != "" {
		return fmt.Sprintf("%s (<@%s>)", p.Name, p.SlackID)
	}
	return p.Name
}

func publicLine(r docket.PublicRecord) string {
	switch r.Record {
	case "meeting_notice":
		return "notice: " + r.Text
	case "dismissal":
		return fmt.Sprintf("dismissed %s on %s: %s", r.Rule, r.On.Long(), strings.ReplaceAll(r.Ruling, "_", " "))
	case "decision":
		return fmt.Sprintf("decision %s on %s: %s%s", r.Rule, r.On.Long(), r.Text, outcomeDetail(r.Findings, r.Recommendation, r.Fine))
	}
	return fmt.Sprintf("final recommendation %s on %s: %s%s", r.Rule, r.On.Long(), r.Text, outcomeDetail("", "", r.Fine))
}

func outcomeDetail(findings, recommendation string, fine int) string {
	var parts []string
	if findings != "" {
		parts = append(parts, "findings: "+findings)
	}
	if recommendation != "" {
		parts = append(parts, "recommendation: "+recommendation)
	}
	if fine > 0 {
		parts = append(parts, "fine: $"+docket.Dollars(fine))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

func stateName(c *docket.Case) string {
	return strings.ReplaceAll(string(c.State), "_", " ")
}

// next lists the subcommands (with their meeting, if any) that the case's state allows.
func next(c *docket.Case) [][2]string {
	var out [][2]string
	add := func(sub, meeting string) { out = append(out, [2]string{sub, meeting}) }
	postIfDue := func(k docket.MeetingKind) {
		if m := c.Meeting(k); m.Scheduled() && m.NoticePosted.IsZero() {
			add("posted", string(k))
		}
	}
	switch c.State {
	case docket.StateReceived, docket.StateNoticesSent:
		add("schedule", "sufficiency")
		postIfDue(docket.SufficiencyMeeting)
		if c.Sufficiency.Scheduled() && c.State == docket.StateReceived {
			add("mail", "")
		}
		if c.Sufficiency.Scheduled() {
			add("rule", "")
		}
		add("candidate", "")
	case docket.StateHearingPending:
		add("schedule", "hearing")
	case docket.StateHearingSet:
		if c.Reconvened.Scheduled() {
			postIfDue(docket.RecessedHearing)
		} else {
			postIfDue(docket.HearingMeeting)
		}
		add("recess", "")
		add("concluded", "")
	case docket.StateHearingRecessed:
		add("schedule", "recessed_hearing")
	case docket.StateHearingDone:
		add("decide", "")
	case docket.StateDecided:
		if c.HearingClosed {
			add("demand", "")
		}
	case docket.StateDemanded:
		add("schedule", "public_hearing")
	case docket.StatePublicSet:
		postIfDue(docket.PublicHearing)
		add("held", "")
	case docket.StatePublicHeld:
		add("final", "")
	case docket.StateDismissed:
		if c.Frivolous == nil {
			add("frivolous", "")
		}
	}
	return out
}

// nextFor is next, keeping only what role may do.
func nextFor(c *docket.Case, role Role) [][2]string {
	var out [][2]string
	for _, n := range next(c) {
		if sub, ok := lookup(n[0]); ok && slices.Contains(sub.roles, role) {
			out = append(out, n)
		}
	}
	return out
}

// nextButtons are the card's buttons: each opens the subcommand's form for this case.
func (s *Service) nextButtons(c *docket.Case, role Role) []slack.BlockElement {
	var out []slack.BlockElement
	for _, n := range nextFor(c, role) {
		label := n[0]
		if n[1] != "" {
			label += " " + strings.ReplaceAll(n[1], "_", " ")
		}
		value := strings.TrimSpace(n[0] + " " + c.Number + " " + n[1])
		out = append(out, slack.NewButtonBlockElement(ActionPrefix+n[0], value, slack.NewTextBlockObject(slack.PlainTextType, label, false, false)))
	}
	return out
}

// ActionPrefix starts the action_id of every button on a case card.
const ActionPrefix = "ethics:"

// nextStep is a hint for the reply after an action.
func (s *Service) nextStep(c *docket.Case, role Role) string {
	n := nextFor(c, role)
	if len(n) == 0 {
		return ""
	}
	var forms []string
	for _, x := range n {
		sub, _ := lookup(x[0])
		forms = append(forms, "`"+strings.TrimSpace(fmt.Sprintf("/ethics %s %s %s", sub.name, c.Number, x[1]))+"`")
	}
	return "\nNext: " + strings.Join(forms, " or ")
}

// DocketLimit is how many cases the docket lists: a Slack message holds about 40,000
// characters, and the nearest deadlines are the ones that matter.
const DocketLimit = 50

// docketList lists the open cases by their nearest open deadline. Only the cases shown
// are written out; the rest are counted.
func (s *Service) docketList(cases []*docket.Case, now time.Time) string {
	type row struct {
		c    *docket.Case
		next docket.Deadline
		has  bool
		when time.Time
	}
	rows := make([]row, 0, len(cases))
	var buf []docket.Deadline
	for _, c := range cases {
		sched := s.Engine.ScheduleInto(buf, &c.Facts, now)
		buf = sched.Deadlines
		r := row{c: c, when: time.Unix(1<<40, 0)}
		for _, d := range sched.Deadlines {
			if d.Status == docket.Met || d.Period.Party == docket.Respondent || d.Status == docket.Missed && d.ID == docket.FilingLimit {
				continue
			}
			if w := dueInstant(s.Engine, d); !r.has || w.Before(r.when) {
				r.next, r.has, r.when = d, true, w
			}
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return "No open cases."
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].when.Before(rows[j].when) })
	shown := min(len(rows), DocketLimit)
	lines := make([]string, shown)
	for i, r := range rows[:shown] {
		line := fmt.Sprintf("• *%s*%s · %s", r.c.Number, s.expeditedTag(r.c), stateName(r.c))
		switch {
		case !r.has:
			line += " · no open deadline"
		case r.next.Status == docket.Missed:
			line += " · next: " + DeadlineLine(s.Engine, r.next, now) + " (MISSED)"
		default:
			line += " · next: " + DeadlineLine(s.Engine, r.next, now)
		}
		lines[i] = line
	}
	more := ""
	if len(rows) > shown {
		more = fmt.Sprintf("\n…and %d more; `/ethics case <number>` shows any case.", len(rows)-shown)
	}
	return fmt.Sprintf("Open cases (%d), nearest deadline first:\n%s%s", len(rows), strings.Join(lines, "\n"), more)
}

// dueInstant is when a deadline falls: a notice's instant, or the end of its due date.
func dueInstant(e *docket.Engine, d docket.Deadline) time.Time {
	if !d.DueAt.IsZero() {
		return d.DueAt
	}
	return d.Due.AddDays(1).In(e.Cal.Location())
}

// publicNotices are the posts to the public channel that a change from before to after
// calls for: meeting notices and cancellations, and the outcomes the ordinance makes
// public. Nothing else about a case is ever posted there.
func (s *Service) publicNotices(before, after *docket.Case) []Message {
	if s.Channels.Notices == "" {
		return nil
	}
	loc := s.Engine.Cal.Location()
	var out []Message
	post := func(text string) { out = append(out, Message{Channel: s.Channels.Notices, Text: text}) }
	for _, k := range docket.MeetingKinds {
		b, a := before.Meeting(k), after.Meeting(k)
		switch {
		case a.Scheduled() && !b.Scheduled():
			post(fmt.Sprintf("PUBLIC NOTICE. Ethics Commission, case %s: %s.", after.Number, docket.MeetingNotice(k, a, loc)))
		case a.Scheduled() && (!a.Start.Equal(b.Start) || a.Place != b.Place || a.Closed != b.Closed || a.Authority != b.Authority):
			post(fmt.Sprintf("PUBLIC NOTICE, RESCHEDULED. Ethics Commission, case %s: the %s set for %s is moved to: %s.",
				after.Number, k.Name(), b.Start.In(loc).Format("Mon 2 Jan 2006 at 15:04 MST"), docket.MeetingNotice(k, a, loc)))
		case b.Scheduled() && !a.Scheduled():
			post(fmt.Sprintf("PUBLIC NOTICE, CANCELLED. Ethics Commission, case %s: the %s set for %s is cancelled.",
				after.Number, k.Name(), b.Start.In(loc).Format("Mon 2 Jan 2006 at 15:04 MST")))
		}
	}
	var newRecords []docket.PublicRecord
	already := docket.PublicRecords(before, loc)
	for _, r := range docket.PublicRecords(after, loc) {
		if r.Record != "meeting_notice" && !slices.Contains(already, r) {
			newRecords = append(newRecords, r)
		}
	}
	for _, r := range newRecords {
		parties := fmt.Sprintf("complaint of %s against %s", r.Complainant, r.Respondent)
		switch r.Record {
		case "dismissal":
			post(fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission has dismissed case %s, the %s: %s.", r.Rule, r.Case, parties, rulingWords(r.Ruling)))
		case "decision":
			post(fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission's decision in case %s, the %s, on %s: %s%s.", r.Rule, r.Case, parties, r.On.Long(), r.Text, outcomeDetail(r.Findings, r.Recommendation, r.Fine)))
		case "final_recommendation":
			post(fmt.Sprintf("PUBLIC NOTICE %s. The Ethics Commission's final recommendation in case %s, the %s, on %s: %s%s.", r.Rule, r.Case, parties, r.On.Long(), r.Text, outcomeDetail("", "", r.Fine)))
		}
	}
	return out
}

func rulingWords(r string) string {
	if r == string(docket.Insufficient) {
		return "the complaint does not sufficiently allege a violation"
	}
	return "there is no probable cause to proceed"
}
