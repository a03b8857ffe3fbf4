package commands

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// when formats an instant in the commission's zone: "Thu 10 Dec 2026 17:00 CST".
func (s *Service) when(t time.Time) string {
	return whenIn(t, s.Engine.Cal.Location())
}

// whenIn formats an instant in loc as when does.
func whenIn(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("Mon 2 Jan 2006 15:04 MST")
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

var statusMark = map[docket.Status]string{docket.Met: ":white_check_mark: met", docket.Open: ":hourglass: open",
	docket.Missed: ":x: missed"}

// DeadlineLine describes one deadline for people: "respondent notice by certified mail
// (B): due Wed 9 Dec 2026, 2 business days left".
func DeadlineLine(e *docket.Engine, d docket.Deadline, now time.Time) string {
	if !d.Dated() {
		// A paper the ordinance requires without a time limit.
		if d.Done {
			return fmt.Sprintf("%s %s: done %s", d.Period.Duty, d.Rule, d.DoneOn.Long())
		}
		return fmt.Sprintf("%s %s: no time limit, not yet recorded", d.Period.Duty, d.Rule)
	}
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
// posted gives when each public record first appeared on the public notice board; stuck
// are the case's messages that Slack has not yet taken, marked undelivered first.
func (s *Service) card(c *docket.Case, role Role, now time.Time, posted map[string]time.Time,
	stuck []outbox.Row) (outbox.Markup, []slack.Block) {
	e := s.Engine
	sched := e.Schedule(&c.Facts, now)
	title := fmt.Sprintf("Case %s: %s", c.Number, stateName(c))
	if sched.Expedited {
		title += fmt.Sprintf(" · EXPEDITED (G), election %s", sched.Election.Long())
	}
	stay := e.Stay(c, now)
	if stay.Stayed {
		title += " · enforcement stayed (F)"
	}
	facts := append(s.undelivered(stuck), []outbox.Markup{
		"*Respondent:* " + partyCard(c.Respondent),
		"*Complainant:* " + partyCard(c.Complainant),
		outbox.Format("*Section:* §%s", strings.Join(c.Sections, ", §")),
		outbox.Format("*Received:* %s", s.when(c.Received)),
	}...)
	if !c.ViolationDate.IsZero() {
		barred := ""
		if sched.TimeBarred != nil && *sched.TimeBarred {
			barred = " (time-barred (I))"
		}
		facts = append(facts, outbox.Format("*Violation:* %s%s", c.ViolationDate.Long(), barred))
	}
	for _, el := range c.Elections {
		facts = append(facts, outbox.Format("*Candidate at:* election of %s", el.Long()))
	}
	if c.Officer != "" {
		// (E)(2), (F): named with /ethics officer; the mayor otherwise, and not said.
		facts = append(facts, outbox.Format("*Officer with authority to discipline:* %s", c.Officer))
	}
	if recused := recusals(c, s.Settings().Roles.Commissioners); recused != "" {
		facts = append(facts, "*Recused:* "+recused)
	}
	if c.Ruling != "" {
		facts = append(facts, "*Ruling:* "+s.rulingText(c))
	}
	for _, m := range c.Mailings {
		facts = append(facts, "*Sent:* "+mailingText(m))
	}
	if stay.Why != "" {
		facts = append(facts, outbox.Format("*Enforcement:* %s", stay.Why))
	}
	for _, en := range c.Enforced {
		facts = append(facts, outbox.Format("*Enforced:* %s, %s", en.What, en.On.Long()))
	}
	for _, v := range c.Votes {
		facts = append(facts, outbox.Format("*Vote:* %s %s, %s on %s", v.What, v.Rule, v.Vote.Tally(), v.On.Long()))
	}
	for _, m := range c.Motions {
		facts = append(facts, outbox.Format("*Motion failed:* %s %s, %s on %s", m.What, m.Rule, m.Vote.Tally(), m.On.Long()))
	}
	for _, am := range c.Amendments {
		if am.Void {
			facts = append(facts,
				outbox.Format("*Voided:* event %d (%s) on %s by %s: %s", am.Event, docket.KindWords(am.Kind), am.On.Long(),
					outbox.Mention(am.By), am.Reason))
			continue
		}
		facts = append(facts,
			outbox.Format("*Corrected:* event %d, %s %s → %s, on %s by %s: %s", am.Event, am.Field, docket.Quoted(am.From),
				docket.Quoted(am.To), am.On.Long(), outbox.Mention(am.By), am.Reason))
	}
	if f := c.Frivolous; f != nil {
		// (H): the fine for a knowingly frivolous complaint falls on the complainant.
		line := outbox.Format("*Frivolous (H):* found knowingly frivolous on %s", f.On.Long())
		if f.Fine > 0 {
			line += outbox.Format("; the complainant, %s, fined $%s", c.Complainant.Name, docket.Dollars(f.Fine))
		}
		facts = append(facts, line)
	}
	for _, l := range e.FineLines(c) {
		facts = append(facts, outbox.Format("*Fine* %s", l))
	}
	for _, l := range e.ReferralLines(c) {
		facts = append(facts, outbox.Format("*Referral:* %s", l))
	}
	for _, r := range c.OfficerResponses {
		facts = append(facts, outbox.Format("*Officer's response:* %s, %s", docket.Quoted(r.Response), r.On.Long()))
	}
	if c.OfficerAwaited() {
		facts = append(facts, outbox.Format("*Officer:* the response to the recommendation sent %s is awaited",
			c.AwaitingOfficer.Long()))
	}
	facts = append(facts, overrideLines(c)...)
	for _, l := range c.Late {
		// (E), (F), (G): recorded late, and kept so.
		facts = append(facts, outbox.Format("*Late:* %s", l.String()))
	}
	summary := "*Summary (confidential):*" + outbox.Quote(c.Summary)

	var public []outbox.Markup
	for _, r := range docket.PublicRecords(c, e.Cal.Location()) {
		var where outbox.Markup
		if r.Record == "meeting_notice" && r.Withdrawn == "" {
			// The Open Meetings Act asks for both: the physical posting and the website.
			if p := c.Meeting(r.Meeting).NoticePosted; !p.IsZero() && r.Start.Equal(c.Meeting(r.Meeting).Start) {
				where += outbox.Format(" · posted at the meeting place %s", s.when(p))
			}
		}
		if t, ok := posted[r.Key()]; ok {
			where += outbox.Format(" · on the board since %s", s.when(t))
		}
		// On the record's first line, before any quoted findings or text.
		line := publicLine(r)
		first, rest, _ := strings.Cut(string(line), "\n")
		if rest != "" {
			rest = "\n" + rest
		}
		public = append(public, outbox.Markup(first)+where+outbox.Markup(rest))
	}
	if len(public) == 0 {
		public = []outbox.Markup{"nothing yet"}
	}
	publicText := "*Public so far:*\n• " + outbox.Join(public, "\n• ")

	var lines []outbox.Markup
	for _, d := range sched.Deadlines {
		lines = append(lines, outbox.Format("%s %s", statusMark[d.Status], DeadlineLine(e, d, now)))
	}
	deadlines := "*Deadlines:*\n" + outbox.Join(lines, "\n")

	text := outbox.Escape(title) + "\n" + outbox.Join(facts, "\n") + "\n" + summary + "\n" + publicText + "\n" + deadlines
	blocks := []slack.Block{slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, truncate(title, 150),
		false, false))}
	buttons := s.nextButtons(c, role)
	// Each part runs over as many sections as it needs, leaving each later part one.
	parts := []outbox.Markup{outbox.Join(facts, "\n"), summary, publicText, deadlines}
	budget := MaxMessageBlocks - len(blocks) - min(len(buttons), 1)
	for i, p := range parts {
		part := sections(p, budget-(len(parts)-1-i), cardMore)
		blocks = append(blocks, part...)
		budget -= len(part)
	}
	if len(buttons) > 0 {
		blocks = append(blocks, slack.NewActionBlock("next_actions", buttons...))
	}
	return capText(text, MaxMessageText, cardMore), blocks
}

// rulingText is the (C) ruling, one disposition per part when the complaint alleges both
// sections and each part had its own: "§103.10: probable cause; §103.05: attorney referral".
func (s *Service) rulingText(c *docket.Case) outbox.Markup {
	words := func(r docket.Ruling) string { return strings.ReplaceAll(string(r), "_", " ") }
	ground := ""
	if g := c.DismissalGround(); g != "" {
		ground = "; dismissed: " + g
	}
	if c.ReferralRuling == "" {
		return outbox.Format("%s, %s%s", words(c.Ruling), c.RulingDate.Long(), ground)
	}
	o := s.Engine.Ord
	return outbox.Format("§%s part: %s; §%s part: %s (C)(3); %s%s", o.HearingSection, words(c.Ruling), c.ReferralSection,
		words(c.ReferralRuling), c.RulingDate.Long(), ground)
}

// mailingText is a paper as sent: "notice of the complaint to the respondent (B),
// certified mail 9407…, mailed Mon 7 Dec 2026, receipt returned Wed 9 Dec 2026".
func mailingText(m docket.Mailing) outbox.Markup {
	what := "certified mail to the " + string(m.Recipient)
	if info, ok := m.Paper.Info(); ok {
		what = info.Name + " " + info.Rule
	}
	if m.Article == "" {
		return outbox.Format("%s, delivered %s", what, m.Mailed.Long())
	}
	text := outbox.Format("%s, certified mail %s, mailed %s", what, m.Article, m.Mailed.Long())
	switch o := m.Outcome(); o {
	case docket.Delivered:
		text += outbox.Format(", receipt returned %s", m.Returned.Long())
		if m.SignedBy != "" {
			text += outbox.Format(", signed by %s", m.SignedBy)
		}
	case "":
		text += ", awaiting its receipt"
	default:
		text += outbox.Format(", came back %s %s", o, m.FailedOn.Long())
	}
	return text
}

// mailOutcomes says, for the docket, how each certified mailing of c stands: "mail:
// respondent signed, complainant unclaimed"; "" without one.
func mailOutcomes(c *docket.Case) string {
	var out []string
	for _, m := range c.Mailings {
		if m.Article == "" {
			continue
		}
		word := map[docket.MailOutcome]string{docket.Delivered: "signed", "": "out"}[m.Outcome()]
		if word == "" {
			word = string(m.Outcome())
		}
		out = append(out, string(m.Recipient)+"'s "+word)
		if m.Paper != "" {
			out[len(out)-1] = string(m.Paper) + " " + word
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " · mail: " + strings.Join(out, ", ")
}

// mrkdwn is a Block Kit text object of ethicsbot's markup.
func mrkdwn(m outbox.Markup) *slack.TextBlockObject {
	return slack.NewTextBlockObject(slack.MarkdownType, string(m), false, false)
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// recusals lists who is recused from c, and why: the commissioners among the parties, and
// every declared recusal.
func recusals(c *docket.Case, commissioners []string) outbox.Markup {
	var out []outbox.Markup
	for _, u := range commissioners {
		if p := c.PartyOf(u); p != "" {
			out = append(out, outbox.Format("%s (the %s)", outbox.Mention(u), p))
		}
	}
	for _, r := range c.Recusals {
		why := "since " + r.On.Long()
		if r.Reason != "" {
			why += ": " + r.Reason
		}
		out = append(out, outbox.Format("%s (%s)", outbox.Mention(r.User), why))
	}
	return outbox.Join(out, ", ")
}

// person is a party's name, with a mention if they have a Slack id.
func person(p docket.Person) outbox.Markup {
	if p.SlackID != "" {
		return outbox.Format("%s (%s)", p.Name, outbox.Mention(p.SlackID))
	}
	return outbox.Escape(p.Name)
}

func publicLine(r docket.PublicRecord) outbox.Markup {
	switch r.Record {
	case "meeting_notice":
		switch r.Withdrawn {
		case "cancelled":
			return outbox.Format("notice, now cancelled: %s", r.Text)
		case "moved":
			return outbox.Format("notice, now moved to %s: %s", r.MovedTo.Format("Mon 2 Jan 2006 15:04 MST"), r.Text)
		}
		return outbox.Format("notice: %s", r.Text)
	case "dismissal":
		return outbox.Format("dismissed %s on %s: %s", r.Rule, r.On.Long(), strings.ReplaceAll(r.Ruling, "_", " "))
	case "decision":
		return outbox.Format("decision %s on %s: %s%s", r.Rule, r.On.Long(), r.Text,
			outcomeDetail(r.Findings, r.Recommendation, r.Fine))
	}
	return outbox.Format("final recommendation %s on %s:%s%s", r.Rule, r.On.Long(), labelled("Text", r.Text),
		fineLine(r.Fine))
}

// outcomeDetail writes the public parts of an (E) outcome. Each text a commissioner wrote
// is quoted as a block of its own, so none of it can pass for a line of ethicsbot's own.
func outcomeDetail(findings, recommendation string, fine int) outbox.Markup {
	return labelled("Findings", findings) + labelled("Recommendation", recommendation) + fineLine(fine)
}

// labelled is text under a label, quoted as a block on lines of its own; "" for no text.
func labelled(label, text string) outbox.Markup {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return outbox.Format("\n*%s:*", label) + outbox.Quote(text)
}

// fineLine is the fine on a line of its own; "" for none.
func fineLine(fine int) outbox.Markup {
	if fine <= 0 {
		return ""
	}
	return outbox.Format("\nFine: $%s.", docket.Dollars(fine))
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
		// (H): the complainant is heard at a noticed meeting before any finding.
		if c.Frivolous == nil && !c.FrivolousHearing.Scheduled() {
			add("schedule", string(docket.FrivolousMeeting))
		} else if c.Frivolous == nil {
			postIfDue(docket.FrivolousMeeting)
			add("frivolous", "")
		}
	}
	if c.Ruling != "" {
		// The papers the ruling, decision or final recommendation call for.
		certified, other := false, false
		for _, p := range c.PapersOwed() {
			info, _ := p.Info()
			certified = certified || info.Certified
			other = other || !info.Certified
		}
		if certified || other {
			add("mail", "")
		}
		if other {
			add("delivered", "")
		}
	}
	if (c.State == docket.StateDecided || c.State == docket.StateFinal) && c.Decision != nil && !c.Decision.Dismissed {
		add("enforced", "")
	}
	for _, f := range c.Fines {
		if f.Settled.IsZero() {
			add("fine", "paid")
			break
		}
	}
	if slices.ContainsFunc(c.Referrals, func(r docket.Referral) bool { return r.Closed.IsZero() }) {
		add("referral", "")
	}
	if c.OfficerAwaited() {
		add("response", "")
	}
	return out
}

// nextFor is next, keeping only what one of roles may do.
func (s *Service) nextFor(c *docket.Case, roles ...Role) [][2]string {
	var out [][2]string
	for _, n := range next(c) {
		if sub, ok := lookup(n[0]); ok && slices.ContainsFunc(roles, func(r Role) bool { return s.allowed(sub, r) }) {
			out = append(out, n)
		}
	}
	return out
}

// stepActions are the steps one of roles may take on case c now (nextFor), each as the
// action that opens its form for the case: the buttons of /ethics case, the menu of the
// case's row on the App Home tab and of its card in the docket channel.
func (s *Service) stepActions(c *docket.Case, roles ...Role) []outbox.Action {
	var out []outbox.Action
	for _, n := range s.nextFor(c, roles...) {
		label := n[0]
		if n[1] != "" {
			label += " " + strings.ReplaceAll(n[1], "_", " ")
		}
		out = append(out, outbox.Action{Label: label, Form: strings.TrimSpace(n[0] + " " + c.Number + " " + n[1])})
	}
	return out
}

// nextButtons are the card's buttons: each opens the subcommand's form for this case.
func (s *Service) nextButtons(c *docket.Case, role Role) []slack.BlockElement {
	var out []slack.BlockElement
	for _, a := range s.stepActions(c, role) {
		sub, _, _ := strings.Cut(a.Form, " ")
		out = append(out,
			slack.NewButtonBlockElement(ActionPrefix+sub, a.Form,
				slack.NewTextBlockObject(slack.PlainTextType, a.Label, false, false)))
	}
	return out
}

// ActionPrefix starts the action_id of every button on a case card.
const ActionPrefix = "ethics:"

// nextStep is a hint for the reply after an action.
func (s *Service) nextStep(c *docket.Case, role Role) outbox.Markup {
	n := s.nextFor(c, role)
	if len(n) == 0 {
		return ""
	}
	var forms []string
	for _, x := range n {
		sub, _ := lookup(x[0])
		forms = append(forms, "`"+strings.TrimSpace(fmt.Sprintf("/ethics %s %s %s", sub.name, c.Number, x[1]))+"`")
	}
	return outbox.Format("\nNext: %s", strings.Join(forms, " or "))
}

// DocketLimit is how many cases the docket lists: a Slack message holds about 40,000
// characters, and the nearest deadlines are the ones that matter.
const DocketLimit = 50

// docketList lists the open cases by their nearest open deadline. Only the cases shown
// are written out; the rest are counted. The cases viewer is recused from are left out,
// not listed by number: the list would tell them that the case is open, its state and,
// by its place, how near its deadline is. cases are every open case, or, with total not
// -1, the page DocketRecord read of total.
func (s *Service) docketList(cases []*docket.Case, total int, viewer string, now time.Time) outbox.Markup {
	rows := s.desk(cases, viewer, now).rows
	if total < 0 {
		total = len(rows)
	}
	if total == 0 {
		return "No open cases."
	}
	shown := min(len(rows), DocketLimit)
	lines := make([]string, shown)
	for i, r := range rows[:shown] {
		line := fmt.Sprintf("• *%s*%s · %s%s", r.c.Number, s.expeditedTag(r.c), stateName(r.c), mailOutcomes(r.c))
		switch {
		case !r.hasNext:
			line += " · no open deadline"
		case r.next.Status == docket.Missed:
			line += " · next: " + DeadlineLine(s.Engine, r.next, now) + " (MISSED)"
		default:
			line += " · next: " + DeadlineLine(s.Engine, r.next, now)
		}
		lines[i] = line
	}
	more := ""
	if total > shown {
		more = fmt.Sprintf("\n…and %d more, with later deadlines; `/ethics cases open` lists every open case, 50 a page, "+
			"and `/ethics case <number>` shows any case.", total-shown) // escaped below
	}
	return outbox.Format("Open cases (%d), nearest deadline first:\n%s%s", total, strings.Join(lines, "\n"), more)
}

// stuckOf are the rows of stuck about case number.
func stuckOf(stuck []outbox.Row, number string) []outbox.Row {
	var out []outbox.Row
	for _, r := range stuck {
		if r.Key.Case == number {
			out = append(out, r)
		}
	}
	return out
}

// undelivered marks each message Slack has not yet taken, until it goes: where it is to
// go, since when it has been failing, and why. The clerks were told what to do by direct
// message when Slack refused it.
func (s *Service) undelivered(stuck []outbox.Row) []outbox.Markup {
	out := make([]outbox.Markup, 0, len(stuck))
	for _, r := range stuck {
		out = append(out, outbox.Format(":warning: *Undelivered:* a message to %s, due %s, failing since %s: %s",
			r.Key.To.Markup(), s.when(r.Due), s.when(r.Failing), r.LastError))
	}
	return out
}
