package letters

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
)

// The documents of a meeting of the commission as a body: its agenda, posted
// with the public notice (5 ILCS 120/2.02), and its minutes (5 ILCS 120/2.06), the open
// and the closed as separate documents. They are drawn from agenda.tmpl and minutes.tmpl,
// overridable as the letters are, in the same layout and fonts.

// The kinds of a meeting's documents. They are not among Kinds: no case calls for them.
const (
	AgendaDoc  Kind = "agenda"
	MinutesDoc Kind = "minutes"
)

// bodyKinds are the documents of a meeting as a body, each with its template.
var bodyKinds = []Kind{AgendaDoc, MinutesDoc}

// AgendaData is what agenda.tmpl is given: only what the agenda makes public.
type AgendaData struct {
	From    Party  // the commission
	Meeting string // its name, "2027-01-12"
	Kind    string // "Regular meeting" or "Special meeting"
	// KindWords is Kind within a sentence: "regular meeting".
	KindWords string
	Date      string // "Tuesday 12 January 2027"
	Time      string // "18:00 CST"
	Place     Text
	Amended   bool
	Posted    string // the day the agenda was posted; for a draft, the day it is drawn
	Draft     bool   // not yet posted
	Items     []AgendaLine
	Closed    bool // some item is closed to the public
	// Opening and Closing are the parts of every meeting the agenda shows, unnumbered,
	// before and after its items where they are not items of their own (docket.Frame).
	Opening, Closing []Text
}

// AgendaLine is one numbered item of an agenda.
type AgendaLine struct {
	Number    int
	Words     Text   // the item as docket words it; a business item in the clerk's words
	Closed    bool   // closed to the public under Exception
	Exception string // "5 ILCS 120/2(c)(4)"
	About     string // what that exception is about, or ""
}

// MinutesData is what minutes.tmpl is given: the open minutes or the closed ones.
type MinutesData struct {
	From      Party
	Meeting   string
	Kind      string // "Regular meeting" or "Special meeting"
	Date      string
	Place     Text
	Closed    bool   // the closed minutes: confidential (5 ILCS 120/2.06)
	Released  string // "Tuesday 13 July 2027" when a review made the closed minutes public (2.06(d)); "" otherwise
	Draft     bool   // not approved yet
	Approved  string // "Tuesday 9 February 2027, at the meeting of 2027-02-09"; "" for a draft
	Convened  string // "18:00 CST"
	Adjourned string // "" when not recorded
	// Emergency is the nature of the emergency that called the meeting without 48 hours'
	// notice (5 ILCS 120/2.02(a)); empty for a meeting noticed in time.
	Emergency Text
	Present   Text // names, joined: "Ann Alder, Chair; Bob Birch"
	Absent    Text
	Remote    Text // present by video or audio conference
	Arrived   []MovementLine
	Left      []MovementLine
	Quorum    string // "A quorum was present: 3 members, of 5 seated; 3 are needed."
	Steps     []MinutesStep
	Notes     []Text   // the clerk's narrative on the whole meeting (open minutes only)
	Gaps      []string // what the draft still lacks, for the clerk
	// Corrections are the corrections of the meeting's own record made after it was held
	// (docket.CorrectMeeting), each in its words.
	Corrections []Text
}

// MovementLine is a member arriving or leaving during the meeting.
type MovementLine struct {
	Name Text
	Time string
}

// MinutesStep is one step of the minutes in the order of the meeting: an agenda item, the
// vote to enter a closed session, or the return from one. Exactly one of its parts is set.
type MinutesStep struct {
	Item   *MinutesItemLine
	Enter  *SessionLine
	Return *SessionLine
}

// MinutesItemLine is what happened on one agenda item.
type MinutesItemLine struct {
	Number  int
	Words   Text
	Closed  bool // taken in closed session; the open minutes say only that
	Session int  // its closed session, 1-based; 0 when open
	// Resumed is a closed item's votes taken after the return to open session, as final
	// action must be (5 ILCS 120/2(e)): a line of the open minutes after the return.
	Resumed bool
	Motions []MotionLine
	Notes   []Text
}

// SessionLine is a closed session: the vote to enter it (5 ILCS 120/2a), in open session,
// and the return to open session.
type SessionLine struct {
	Number    int
	Exception string
	About     string
	Time      string // entered or returned
	Motion    *MotionLine
	Present   Text // members present when it was entered (closed minutes)
}

// MotionLine is a motion with its roll call by name.
type MotionLine struct {
	Time     string
	Text     Text
	Mover    Text
	Seconder Text
	Roll     []RollLine // by vote, each with the members who voted so, in the roll's order
	Result   string     // "Adopted 3–1, 1 abstaining."; "" without a roll call
}

// RollLine is the members who voted one way on a roll call: "Yes", "Ann Alder; Bob Birch".
type RollLine struct {
	Vote    string
	Members Text
}

func (m *Maker) from() Party {
	from := m.cfg.Commission
	if strings.TrimSpace(from.Name) == "" {
		from.Name = "Ethics Commission"
	}
	return party(from)
}

func meetingKind(special bool) string {
	if special {
		return "Special meeting"
	}
	return "Regular meeting"
}

// AgendaPDF draws the agenda of a meeting as its public notice posts it (5 ILCS 120/2.02),
// on the commission's letterhead, dated the day it was posted (a.Posted); an agenda not
// yet posted is a draft, dated today and marked not yet posted. An agenda that no notice may post (see
// docket.Agenda.Check) is refused with the rule it breaks.
func (m *Maker) AgendaPDF(a docket.Agenda, today docket.Date) (Document, error) {
	if err := a.Check(); err != nil {
		return Document{}, err
	}
	if strings.TrimSpace(m.cfg.Commission.Address) == "" {
		return Document{}, missing("letters.commission.address", AgendaDoc)
	}
	start := a.Start.In(m.loc)
	d := AgendaData{From: m.from(), Meeting: string(a.Meeting), Kind: meetingKind(a.Special),
		KindWords: strings.ToLower(meetingKind(a.Special)), Date: start.Format(longDate),
		Time: start.Format(clock), Place: T(a.Place), Amended: a.Amended, Posted: m.day(today), Draft: a.Posted.IsZero()}
	if !d.Draft {
		d.Posted = a.Posted.In(m.loc).Format(longDate)
	}
	opening, closing := docket.Frame(a.Items)
	for _, w := range opening {
		d.Opening = append(d.Opening, T(w))
	}
	for _, w := range closing {
		d.Closing = append(d.Closing, T(w))
	}
	for i, it := range a.Items {
		line := AgendaLine{Number: i + 1, Words: T(it.Words()), Closed: it.Closed}
		if it.Closed {
			line.Exception, _ = docket.ParseException(it.Exception) // Check has refused a bad one
			line.About = docket.ExceptionWords(line.Exception)
			d.Closed = true
		}
		d.Items = append(d.Items, line)
	}
	title := fmt.Sprintf("Agenda of the meeting of %s", a.Meeting)
	if a.Amended {
		title = "Amended agenda of the meeting of " + string(a.Meeting)
	}
	pdf, err := m.draw(AgendaDoc, d, title)
	if err != nil {
		return Document{}, err
	}
	return Document{Kind: AgendaDoc, Rule: docket.OMANotice, Title: title,
		Name: "meeting-" + string(a.Meeting) + "-agenda.pdf", Data: pdf}, nil
}

// Minutes draws every part of the minutes of a meeting, each as PDF then Markdown: the
// open minutes, and the confidential closed minutes if it had a closed session. Part says
// which part each document is.
func (m *Maker) Minutes(r docket.MinutesRecord, names docket.Names) (docs []Document, parts []docket.Part, err error) {
	all := []docket.Part{docket.OpenPart}
	if len(r.Sessions) > 0 {
		all = append(all, docket.ClosedPart)
	}
	for _, part := range all {
		for _, draw := range []func(docket.MinutesRecord, docket.Part, docket.Names) (Document, error){m.MinutesPDF,
			m.MinutesMarkdown} {
			d, err := draw(r, part, names)
			if err != nil {
				return nil, nil, err
			}
			docs, parts = append(docs, d), append(parts, part)
		}
	}
	return docs, parts, nil
}

// MinutesPDF draws one part of the minutes of a meeting (5 ILCS 120/2.06): the open
// minutes, or the closed minutes, marked confidential. Minutes not yet approved are marked
// as a draft. names turns a member's id into their name and title. A record the minutes
// cannot truthfully be drafted from (docket.MinutesRecord.Check) is refused with the rule.
func (m *Maker) MinutesPDF(r docket.MinutesRecord, part docket.Part, names docket.Names) (Document, error) {
	d, title, err := m.minutes(r, part, names)
	if err != nil {
		return Document{}, err
	}
	pdf, err := m.draw(MinutesDoc, d, title)
	if err != nil {
		return Document{}, err
	}
	return Document{Kind: MinutesDoc, Rule: minutesRule(part), Title: title, Name: minutesFile(r.Meeting, part, ".pdf"),
		Data: pdf}, nil
}

// MinutesMarkdown writes the same minutes as MinutesPDF as Markdown, from the same
// template: every text is data, escaped for Markdown.
func (m *Maker) MinutesMarkdown(r docket.MinutesRecord, part docket.Part, names docket.Names) (Document, error) {
	d, title, err := m.minutes(r, part, names)
	if err != nil {
		return Document{}, err
	}
	blocks, err := m.layout(MinutesDoc, d)
	if err != nil {
		return Document{}, err
	}
	return Document{Kind: MinutesDoc, Rule: minutesRule(part), Title: title, Name: minutesFile(r.Meeting, part, ".md"),
		Data: []byte(markdown(blocks))}, nil
}

func minutesRule(part docket.Part) string {
	if part == docket.ClosedPart {
		return "5 ILCS 120/2.06(a)"
	}
	return docket.OMAMinutes
}

func minutesFile(name docket.MeetingName, part docket.Part, ext string) string {
	return "meeting-" + string(name) + "-minutes-" + string(part) + ext
}

// minutes gathers what minutes.tmpl is given for part of record r, and the document's
// title.
func (m *Maker) minutes(r docket.MinutesRecord, part docket.Part, names docket.Names) (MinutesData, string, error) {
	if part != docket.OpenPart && part != docket.ClosedPart {
		return MinutesData{}, "", docket.Invalid(docket.OMAMinutes, "part",
			fmt.Sprintf("%q is not a part of the minutes: open or closed", part))
	}
	if err := r.Check(); err != nil {
		return MinutesData{}, "", err
	}
	closed := part == docket.ClosedPart
	if closed && len(r.Sessions) == 0 {
		return MinutesData{}, "", docket.Conflict("5 ILCS 120/2.06(a)", "part",
			fmt.Sprintf("the meeting of %s had no closed session, so it has no closed minutes", r.Meeting))
	}
	hm := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(m.loc).Format(clock)
	}
	// A member the configuration gives no name is printed by their Slack id, and minutes
	// that read "Motion by U024BE7LH" are not approved as printed: the draft says so.
	var unnamed []string
	given := names
	names = func(id string) string {
		if n := given.Name(id); n != id {
			return n
		}
		if !slices.Contains(unnamed, id) {
			unnamed = append(unnamed, id)
		}
		return ""
	}
	who := func(ids []string) Text {
		var out []string
		for _, id := range ids {
			out = append(out, names.Name(id))
		}
		if len(out) == 0 {
			return T("none")
		}
		return T(strings.Join(out, "; "))
	}
	motion := func(mo docket.MeetingMotion) MotionLine {
		l := MotionLine{Time: hm(mo.At), Text: T(mo.Text)}
		if len(mo.Words) > 0 {
			l.Text = T(m.said(mo.Words, names))
		}
		if mo.Mover != "" {
			l.Mover = T(names.Name(mo.Mover))
		}
		if mo.Seconder != "" {
			l.Seconder = T(names.Name(mo.Seconder))
		}
		if v := mo.Roll; v != nil {
			for _, g := range []struct {
				vote string
				ids  []string
			}{{"Yes", v.Yes}, {"No", v.No}, {"Abstaining", v.Abstain}, {"Absent", v.Absent}, {"Recused", v.Recused}} {
				if len(g.ids) > 0 {
					l.Roll = append(l.Roll, RollLine{Vote: g.vote, Members: who(inOrder(v.Seated, g.ids))})
				}
			}
			tally := v.Tally()
			l.Result = strings.ToUpper(tally[:1]) + tally[1:] + "."
		}
		return l
	}
	held := r.Convened.In(m.loc)
	d := MinutesData{From: m.from(), Meeting: string(r.Meeting), Kind: meetingKind(r.Special), Date: held.Format(longDate),
		Place: T(r.Place), Closed: closed, Draft: r.Approved.IsZero(), Convened: hm(r.Convened), Adjourned: hm(r.Adjourned),
		Present: who(r.Present), Absent: who(r.Absent), Emergency: T(r.Emergency)}
	if closed && !r.Released.IsZero() {
		d.Released = r.Released.In(m.loc).Format(longDate)
	}
	if len(r.Remote) > 0 {
		d.Remote = who(r.Remote)
	}
	if !d.Draft {
		d.Approved = m.day(r.Approved)
		if r.ApprovedAt != "" {
			d.Approved += ", at the meeting of " + string(r.ApprovedAt)
		}
	}
	for _, c := range r.Corrections {
		d.Corrections = append(d.Corrections, T(c.Words(m.loc)))
	}
	for _, mv := range r.Arrived {
		d.Arrived = append(d.Arrived, MovementLine{Name: T(names.Name(mv.Member)), Time: hm(mv.At)})
	}
	for _, mv := range r.Left {
		d.Left = append(d.Left, MovementLine{Name: T(names.Name(mv.Member)), Time: hm(mv.At)})
	}
	physical := 0
	for _, id := range r.Present {
		if !slices.Contains(r.Remote, id) {
			physical++
		}
	}
	if err := docket.QuorumPresent(r.Quorum, physical); err == nil {
		d.Quorum = fmt.Sprintf("A quorum was present: %d members physically present, of %d seated; %d are needed (5 "+
			"ILCS 120/2.01).", physical, len(r.Seated), r.Quorum)
	} else {
		d.Quorum = fmt.Sprintf("No quorum was present at the call to order: %d members physically present, of %d seated; "+
			"%d are needed (5 ILCS 120/2.01).", physical, len(r.Seated), r.Quorum)
	}
	session := func(n int) SessionLine {
		s := r.Sessions[n-1]
		ex, _ := docket.ParseException(s.Exception) // Check has refused a bad one
		return SessionLine{Number: n, Exception: ex, About: docket.ExceptionWords(ex)}
	}
	// The steps in the order of the meeting: a closed session is entered before its first
	// item and left after its last.
	last := map[int]int{}
	for i, e := range r.Entries {
		if e.Session > 0 {
			last[e.Session] = i
		}
	}
	entered := map[int]bool{}
	// resumed holds, by closed session, the items taken in it whose votes were taken after
	// the return to open session (5 ILCS 120/2(e)): the open minutes record those votes
	// after the return.
	resumed := map[int][]*MinutesItemLine{}
	for i, e := range r.Entries {
		if e.Session > 0 && !entered[e.Session] {
			entered[e.Session] = true
			s := session(e.Session)
			mo := motion(r.Sessions[e.Session-1].Motion)
			s.Motion, s.Time = &mo, hm(r.Sessions[e.Session-1].Entered)
			// A member recused from the case the session is closed for leaves the room:
			// the roll call to close records them as recused, and they are not present.
			present := slices.Clone(r.PresentAt(r.Sessions[e.Session-1].Entered))
			if v := r.Sessions[e.Session-1].Motion.Roll; v != nil {
				present = slices.DeleteFunc(present, func(id string) bool { return slices.Contains(v.Recused, id) })
			}
			s.Present = who(present)
			d.Steps = append(d.Steps, MinutesStep{Enter: &s})
		}
		// The call to order, the roll call and the adjournment have their own sections;
		// they are items of the minutes only when something was moved or noted on them.
		routine := e.Item.Kind == docket.CallToOrder || e.Item.Kind == docket.RollCallItem ||
			e.Item.Kind == docket.Adjournment
		if (!closed || e.Session > 0) && !(routine && len(e.Motions) == 0 && len(e.Notes) == 0) {
			it := &MinutesItemLine{Number: i + 1, Words: T(e.Item.Words()), Closed: e.Session > 0, Session: e.Session}
			// The open minutes say only that a closed item was taken in closed session:
			// its discussion and votes are in the closed minutes.
			var after *MinutesItemLine
			for _, mo := range e.Motions {
				switch inClosed := r.MotionSession(e, mo) > 0; {
				case inClosed && closed, !inClosed && e.Session == 0:
					it.Motions = append(it.Motions, motion(mo))
				case !inClosed && !closed:
					if after == nil {
						after = &MinutesItemLine{Number: i + 1, Words: it.Words, Session: e.Session, Resumed: true}
						resumed[e.Session] = append(resumed[e.Session], after)
					}
					after.Motions = append(after.Motions, motion(mo))
				}
			}
			if closed || e.Session == 0 {
				for _, n := range e.Notes {
					it.Notes = append(it.Notes, T(n))
				}
			}
			d.Steps = append(d.Steps, MinutesStep{Item: it})
		}
		if e.Session > 0 && last[e.Session] == i {
			s := session(e.Session)
			s.Time = hm(r.Sessions[e.Session-1].Returned)
			d.Steps = append(d.Steps, MinutesStep{Return: &s})
			for _, it := range resumed[e.Session] {
				d.Steps = append(d.Steps, MinutesStep{Item: it})
			}
		}
	}
	if !closed {
		for _, n := range r.Notes {
			d.Notes = append(d.Notes, T(n))
		}
	}
	if d.Draft {
		d.Gaps = r.Gaps(part)
		unnamed = inOrder(r.Seated, unnamed)
		switch len(unnamed) {
		case 0:
		case 1:
			d.Gaps = append(d.Gaps, fmt.Sprintf("the name of %s, printed as a Slack id: give it in ethicsbot.yml "+
				"(commissioners, with name:)", unnamed[0]))
		default:
			d.Gaps = append(d.Gaps, fmt.Sprintf("the names of %s, printed as Slack ids: give them in ethicsbot.yml "+
				"(commissioners, with name:)", strings.Join(unnamed, ", ")))
		}
	}
	title := "Minutes of the meeting of " + string(r.Meeting)
	if closed {
		title = "Closed session minutes of the meeting of " + string(r.Meeting)
	}
	return d, title, nil
}

// said is an act's words as a document prints them: a member by name and title, the
// officer with authority to discipline as the configuration names them ("the Mayor").
func (m *Maker) said(words docket.Words, names docket.Names) string {
	var b strings.Builder
	for _, w := range words {
		switch {
		case w.Member != "":
			b.WriteString(names.Name(w.Member))
		case w.Officer != "":
			b.WriteString(m.cfg.officerNamed(w.Officer, w.Text))
		default:
			b.WriteString(w.Text)
		}
	}
	return b.String()
}

// inOrder returns the members of some in the order of all.
func inOrder(all, some []string) []string {
	var out []string
	for _, id := range all {
		if slices.Contains(some, id) {
			out = append(out, id)
		}
	}
	for _, id := range some {
		if !slices.Contains(all, id) {
			out = append(out, id)
		}
	}
	return out
}

// layout executes kind's template with data into the layout's blocks, within the limits of
// one document.
func (m *Maker) layout(k Kind, data any) ([]block, error) {
	out := capped{max: MaxOutput}
	if err := m.sets[k].ExecuteTemplate(&out, string(k)+".tmpl", data); errors.Is(err, errTooLong) {
		return nil, tooBig(k, fmt.Sprintf("more than %d characters of text, the limit for one document", MaxOutput))
	} else if err != nil {
		return nil, fmt.Errorf("letters template %s.tmpl: %w", k, err)
	}
	blocks, err := parseLayout(out.String())
	if err != nil {
		return nil, fmt.Errorf("letters template %s.tmpl: %w", k, err)
	}
	return blocks, nil
}

// draw executes kind's template with data and renders it as a PDF titled title.
func (m *Maker) draw(k Kind, data any, title string) ([]byte, error) {
	blocks, err := m.layout(k, data)
	if err != nil {
		return nil, err
	}
	pdf, err := m.render(blocks, title, "")
	if errors.Is(err, errTooManyPages) {
		return nil, tooBig(k, fmt.Sprintf("more than %d pages long, the limit for one document", MaxPages))
	}
	return pdf, err
}

// markdown writes the layout's blocks as Markdown: the title and headings as headings,
// bold lines in bold, every other line a paragraph, a rule as a thematic break. Every
// character of text that Markdown could read as markup is escaped, so no name, place or
// note can make a heading, a link or a table.
func markdown(blocks []block) string {
	var b strings.Builder
	para := func(prefix, text, suffix string) {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = mdEscape(l)
		}
		b.WriteString(prefix + strings.Join(lines, "  \n") + suffix + "\n\n")
	}
	for _, bl := range blocks {
		switch bl.kind {
		case "title":
			para("# ", bl.text, "")
		case "heading":
			para("## ", bl.text, "")
		case "bold":
			if strings.TrimSpace(bl.text) != "" {
				para("**", strings.TrimSpace(bl.text), "**")
			}
		case "text", "center", "right", "item", "row":
			if strings.TrimSpace(bl.text) != "" {
				para("", strings.TrimSpace(bl.text), "")
			}
		case "rule", "page":
			b.WriteString("---\n\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// mdEscape escapes one line of text for Markdown: the characters that make inline markup
// anywhere, and those that make a block at the start of a line (a heading, a list, a
// quote, a numbered item, a break).
func mdEscape(s string) string {
	s = regular.printable(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~&!{}", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	out := b.String()
	trimmed := strings.TrimLeft(out, " ")
	if trimmed != "" && strings.ContainsRune("#+-=>", rune(trimmed[0])) {
		return strings.Repeat(" ", len(out)-len(trimmed)) + `\` + trimmed
	}
	// "1. " or "1) " begins a numbered list.
	if i := strings.IndexFunc(trimmed, func(r rune) bool { return r < '0' || r > '9' }); i > 0 &&
		(trimmed[i] == '.' || trimmed[i] == ')') {
		return strings.Repeat(" ", len(out)-len(trimmed)) + trimmed[:i] + `\` + trimmed[i:]
	}
	return out
}
