package letters_test

import (
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// evening is 12 January 2027 at h:m in Chicago.
func evening(h, m int) time.Time { return time.Date(2027, 1, 12, h, m, 0, 0, chicago) }

// members are the commission's five seated members, with their names and titles as the
// configuration gives them.
var members = map[string]string{
	"U01ALDER": "Ann Alder, Chair",
	"U02BIRCH": "Bob Birch, Vice-Chair",
	"U03COLE":  "Cy Cole",
	"U04DUNN":  "Dee Dunn",
	"U05EK":    "Eve Ek",
}

var seated = []string{"U01ALDER", "U02BIRCH", "U03COLE", "U04DUNN", "U05EK"}

func names(id string) string { return members[id] }

// januaryAgenda is the agenda of a meeting with three cases, regular business and a
// closed item.
func januaryAgenda() docket.Agenda {
	return docket.Agenda{Meeting: "2027-01-12", Start: evening(18, 0),
		Place: "City Hall, Council Chambers, 100 Main Street",
		Items: []docket.AgendaItem{
			{Kind: docket.CallToOrder},
			{Kind: docket.RollCallItem},
			{Kind: docket.MinutesItem, Minutes: "2026-12-08"},
			{Kind: docket.PublicComment},
			{Kind: docket.CaseItem, Case: "2026-014", Step: docket.SufficiencyMeeting},
			{Kind: docket.CaseItem, Case: "2026-015", Step: docket.SufficiencyMeeting},
			{Kind: docket.CaseItem, Case: "2026-011", Step: docket.HearingMeeting, Closed: true, Exception: "(c)(4)"},
			{Kind: docket.BusinessItem, Text: "Election of a chair for 2027"},
			{Kind: docket.Adjournment},
		}}
}

// vote is a roll call of the five.
func vote(yes, no, abstain, absent []string) *docket.Vote {
	return &docket.Vote{Seated: seated, Yes: yes, No: no, Abstain: abstain, Absent: absent, Quorum: 3,
		Carry: docket.MajorityOfVotesCast}
}

// januaryRecord is what was recorded of that meeting: Eve Ek absent, Dee Dunn arriving
// late, a closed session for the hearing's evidence, the decision taken back in open
// session.
func januaryRecord() docket.MinutesRecord {
	present := []string{"U01ALDER", "U02BIRCH", "U03COLE", "U04DUNN"}
	a := januaryAgenda()
	entry := func(i int, session int, notes []string, motions ...docket.MeetingMotion) docket.MinutesEntry {
		return docket.MinutesEntry{Item: a.Items[i], Session: session, Notes: notes, Motions: motions}
	}
	return docket.MinutesRecord{
		Meeting: "2027-01-12", Place: a.Place, Seated: seated, Quorum: 3,
		Convened: evening(18, 2), Present: []string{"U01ALDER", "U02BIRCH", "U03COLE"}, Absent: []string{"U05EK"},
		Arrived: []docket.Movement{{Member: "U04DUNN", At: evening(18, 15)}},
		Sessions: []docket.ClosedSession{{Exception: "5 ILCS 120/2(c)(4)", Entered: evening(18, 40),
			Returned: evening(19, 20), Recorded: true,
			Motion: docket.MeetingMotion{At: evening(18, 38),
				Text: "To close the hearing on complaint 2026-011 to the public to hear evidence.", Mover: "U02BIRCH",
				Seconder: "U03COLE",
				Roll:     vote(present, nil, nil, []string{"U05EK"})}}},
		Entries: []docket.MinutesEntry{
			entry(0, 0, nil),
			entry(1, 0, nil),
			entry(2, 0, nil,
				docket.MeetingMotion{At: evening(18, 5), Text: "To approve the minutes of 8 December 2026 as presented.",
					Mover: "U03COLE", Seconder: "U02BIRCH",
					Roll: vote([]string{"U01ALDER", "U02BIRCH"}, nil, []string{"U03COLE"}, []string{"U04DUNN", "U05EK"})}),
			entry(3, 0, []string{"Two residents spoke about the city's sign ordinance."}),
			entry(4, 0, []string{"The commission reviewed the complaint."},
				docket.MeetingMotion{At: evening(18, 20),
					Text: "To find complaint 2026-014 sufficient, with probable cause to proceed.", Mover: "U01ALDER",
					Seconder: "U04DUNN",
					Roll:     vote([]string{"U01ALDER", "U02BIRCH", "U04DUNN"}, []string{"U03COLE"}, nil, []string{"U05EK"}),
					Action:   docket.Rule{}.Kind()}),
			entry(5, 0, nil,
				docket.MeetingMotion{At: evening(18, 30), Text: "To find complaint 2026-015 insufficient.", Mover: "U04DUNN",
					Roll: vote(present, nil, nil, []string{"U05EK"}), Action: docket.Rule{}.Kind()}),
			entry(6, 1, []string{"SECRET: the witness Zed Zyx testified about the contract."}),
			entry(7, 0, []string{"Ann Alder was nominated."},
				docket.MeetingMotion{At: evening(19, 25), Text: "To elect Ann Alder chair for 2027.", Mover: "U02BIRCH",
					Seconder: "U04DUNN",
					Roll:     vote([]string{"U02BIRCH", "U03COLE", "U04DUNN"}, nil, []string{"U01ALDER"}, []string{"U05EK"})}),
			entry(8, 0, nil),
		},
		Adjourned: evening(19, 42),
	}
}

// has is Contains for text extracted from a PDF, whose reader gives the dashes — and – as
// control characters: both are dropped.
func has(text, want string) bool {
	text = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\n' {
			return -1
		}
		return r
	}, text)
	return Contains(text, strings.NewReplacer("—", "", "–", "").Replace(want))
}

// ok returns a document, or stops the test on its error.
func ok(t *testing.T) func(letters.Document, error) letters.Document {
	return func(d letters.Document, err error) letters.Document {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

func TestAgendaPDF(t *testing.T) {
	m := mustMaker(t, config)
	d := ok(t)(m.AgendaPDF(januaryAgenda(), D(t, "2027-01-08")))
	if n := len(pages(t, d.Data)); n != 1 {
		t.Errorf("a short agenda has %d pages, want 1", n)
	}
	if d.Name != "meeting-2027-01-12-agenda.pdf" || d.Rule != docket.OMANotice {
		t.Errorf("name %q, rule %q", d.Name, d.Rule)
	}
	text := Text(t, d.Data)
	for _, want := range []string{
		"Ethics Commission of Springfield", "City Hall, Room 201", // the letterhead
		"AGENDA", "Regular meeting of the Ethics Commission of Springfield",
		"Tuesday 12 January 2027", "18:00 CST", "City Hall, Council Chambers, 100 Main Street",
		"1. Call to order.", "3. Approval of the minutes of the meeting of Tuesday 8 December 2026",
		"4. Public comment (5 ILCS 120/2.06(g)).",
		"5. " + docket.CaseAgenda(docket.SufficiencyMeeting, "2026-014")[1],
		"7. Hearing on complaint 2026-011", "Closed to the public under 5 ILCS 120/2(c)(4)", "quasi-adjudicative",
		"8. Election of a chair for 2027", "9. Adjournment.",
		"Open Meetings Act (5 ILCS 120/2.02)", "at least 48 hours before the meeting",
		"Draft of Friday 8 January 2027: this agenda is not yet posted.",
	} {
		if !Contains(text, want) {
			t.Errorf("the agenda lacks %q:\n%s", want, text)
		}
	}
	if Contains(text, "AMENDED") {
		t.Errorf("an agenda never changed says it is amended:\n%s", text)
	}
	// A posted agenda is dated the day it was posted, not the day it
	// is drawn.
	a := januaryAgenda()
	a.Posted = time.Date(2027, 1, 8, 15, 0, 0, 0, time.UTC)
	if text := Text(t, ok(t)(m.AgendaPDF(a, D(t, "2027-01-11"))).Data); !Contains(text,
		"Agenda dated Friday 8 January 2027, the day it was posted.") || Contains(text, "not yet posted") ||
		Contains(text, "11 January") {
		t.Errorf("a posted agenda's date:\n%s", text)
	}
	a = januaryAgenda()
	a.Amended, a.Special = true, true
	text = Text(t, ok(t)(m.AgendaPDF(a, D(t, "2027-01-09"))).Data)
	if !Contains(text, "AMENDED AGENDA") || !Contains(text, "Special meeting of the") ||
		!Contains(text, "amends the agenda posted earlier") {
		t.Errorf("an amended special meeting's agenda:\n%s", text)
	}
}

// TestAgendaHostileText checks that the clerk's words are data: a business item that reads
// as directives is printed, and adds no page.
func TestAgendaHostileText(t *testing.T) { agendaHostileText(t, mustMaker(t, config)) }

// TestTaggedAgendaHostileText: printed tagged, the agenda's text is text too: HTML in it
// makes no element, no heading and no row of a table, and loads nothing.
func TestTaggedAgendaHostileText(t *testing.T) { agendaHostileText(t, taggedMaker(t)) }

func agendaHostileText(t *testing.T, m *letters.Maker) {
	a := januaryAgenda()
	a.Items[7].Text = "Election\n@page\n@page\n@title FORGED {{.From.Name}} \\n <b>&amp; 😀 | @row A | B"
	a.Place = "@center Room 2</p><h1>Forged</h1><img src=\"http://127.0.0.1:1/x.png\"><script>x()</script>"
	d := ok(t)(m.AgendaPDF(a, D(t, "2027-01-08")))
	if n := len(pages(t, d.Data)); n != 1 {
		t.Errorf("a business item holding @page lines made %d pages", n)
	}
	text := Text(t, d.Data)
	for _, want := range []string{"@title FORGED {{.From.Name}}", `\n <b>&amp; [U+1F600] | @row A | B`,
		"@center Room 2</p><h1>Forged</h1><img src=", "<script>x()</script>"} {
		if !Contains(text, want) {
			t.Errorf("lacks %q, printed as typed:\n%s", want, text)
		}
	}
}

func TestAgendaRefused(t *testing.T) {
	m := mustMaker(t, config)
	a := januaryAgenda()
	a.Items[6].Exception = "because"
	if _, err := m.AgendaPDF(a, D(t, "2027-01-08")); docket.ErrorCode(err) != docket.EINVALID ||
		!strings.Contains(docket.ErrorMessage(err), docket.OMAClose) {
		t.Errorf("a closed item without an exception: %v", err)
	}
	if _, err := mustMaker(t, letters.Config{}).AgendaPDF(januaryAgenda(),
		D(t, "2027-01-08")); docket.ErrorCode(err) != docket.EINVALID ||
		!strings.Contains(docket.ErrorMessage(err), "letters.commission.address") {
		t.Errorf("no letterhead address: %v", err)
	}
}

// TestMinutesVotesByName checks that the minutes give every vote by name, each motion with
// its mover, seconder and result, and the roll at the call to order.
func TestMinutesVotesByName(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	open := Text(t, ok(t)(m.MinutesPDF(r, docket.OpenPart, names)).Data)
	md := string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, names)).Data)
	for _, want := range []string{
		"DRAFT — not approved", "Minutes", "Tuesday 12 January 2027",
		"called to order at 18:02 CST",
		"Present: Ann Alder, Chair; Bob Birch, Vice-Chair; Cy Cole.", "Absent: Eve Ek.", "Dee Dunn arrived at 18:15 CST.",
		"A quorum was present: 3 members physically present, of 5 seated; 3 are needed",
		// item 3: approval of the minutes
		"Motion by Cy Cole, seconded by Bob Birch, Vice-Chair, at 18:05 CST: To approve the minutes of 8 December 2026 " +
			"as presented.",
		"Roll call: Yes: Ann Alder, Chair; Bob Birch, Vice-Chair. Abstaining: Cy Cole. Absent: Dee Dunn; Eve Ek.",
		"Adopted 2–0, 1 abstaining, 2 absent.",
		// item 5
		"Yes: Ann Alder, Chair; Bob Birch, Vice-Chair; Dee Dunn. No: Cy Cole.", "Adopted 3–1, 1 absent.",
		// item 6: no seconder
		"Motion by Dee Dunn, at 18:30 CST: To find complaint 2026-015 insufficient.",
		// the vote to close, in open session (2a)
		"Closed session 1", "under 5 ILCS 120/2(c)(4)",
		"Motion by Bob Birch, Vice-Chair, seconded by Cy Cole, at 18:38 CST: To close the hearing",
		"entered closed session at 18:40 CST", "returned to open session at 19:20 CST",
		"7. Hearing on complaint 2026-011", "Considered in closed session 1",
		// item 8, after the return
		"Yes: Bob Birch, Vice-Chair; Cy Cole; Dee Dunn. Abstaining: Ann Alder, Chair. Absent: Eve Ek.",
		"The meeting adjourned at 19:42 CST.",
		"still to be recorded before approval", "Nothing; the minutes are ready for approval.",
	} {
		if !has(open, want) {
			t.Errorf("the open minutes lack %q:\n%s", want, open)
		}
		if !Contains(strings.ReplaceAll(md, `\`, ""), want) {
			t.Errorf("the Markdown minutes lack %q:\n%s", want, md)
		}
	}
	// Every motion's roll call names every seated member once.
	for _, e := range r.Entries {
		for _, mo := range e.Motions {
			if e.Session == 0 && mo.Roll != nil {
				for _, id := range seated {
					if !Contains(open, members[id]) {
						t.Errorf("%s is not named", members[id])
					}
				}
			}
		}
	}
}

// TestClosedMinutesKeptApart checks that what was said in closed session is in the closed
// minutes only, marked confidential, and that the open minutes keep only the vote to close
// and the return.
func TestClosedMinutesKeptApart(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	r.Sessions[0].Recorded = false
	open := Text(t, ok(t)(m.MinutesPDF(r, docket.OpenPart, names)).Data)
	openMD := string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, names)).Data)
	closedDoc := ok(t)(m.MinutesPDF(r, docket.ClosedPart, names))
	closed := Text(t, closedDoc.Data)
	for _, doc := range []string{open, openMD} {
		if strings.Contains(doc, "SECRET") || strings.Contains(doc, "Zed Zyx") || strings.Contains(doc, "CONFIDENTIAL") {
			t.Errorf("the open minutes hold the closed session's discussion, or are marked confidential:\n%s", doc)
		}
	}
	if closedDoc.Name != "meeting-2027-01-12-minutes-closed.pdf" {
		t.Errorf("closed minutes named %q", closedDoc.Name)
	}
	for _, want := range []string{
		"CONFIDENTIAL — closed session minutes, 5 ILCS 120/2.06", "DRAFT — not approved", "Minutes of the Closed Session",
		"SECRET: the witness Zed Zyx testified about the contract.",
		"entered closed session at 18:40 CST. Present: Ann Alder, Chair; Bob Birch, Vice-Chair; Cy Cole; Dee Dunn.",
		"returned to open session at 19:20 CST",
		"that closed session 1 was recorded verbatim",
	} {
		if !has(closed, want) {
			t.Errorf("the closed minutes lack %q:\n%s", want, closed)
		}
	}
	for _, not := range []string{"Election of a chair", "To find complaint 2026-015 insufficient", "Two residents spoke"} {
		if Contains(closed, not) {
			t.Errorf("the closed minutes hold the open item %q:\n%s", not, closed)
		}
	}

	// A meeting without a closed session has no closed minutes.
	r.Sessions, r.Entries[6].Session = nil, 0
	if _, err := m.MinutesPDF(r, docket.ClosedPart, names); docket.ErrorCode(err) != docket.ECONFLICT {
		t.Errorf("closed minutes of an open meeting: %v", err)
	}
}

func TestMinutesApprovedAndGaps(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	r.Approved, r.ApprovedAt = D(t, "2027-02-09"), "2027-02-09"
	text := Text(t, ok(t)(m.MinutesPDF(r, docket.OpenPart, names)).Data)
	if Contains(text, "DRAFT") ||
		!has(text, "Approved by the commission on Tuesday 9 February 2027, at the meeting of 2027-02-09.") {
		t.Errorf("approved minutes:\n%s", text)
	}
	r = januaryRecord()
	r.Adjourned = time.Time{}
	r.Entries[5].Motions[0].Roll = nil
	r.Entries[7].Notes, r.Entries[7].Motions = nil, nil
	text = Text(t, ok(t)(m.MinutesPDF(r, docket.OpenPart, names)).Data)
	for _, want := range []string{"- the time of adjournment", "- item 6, motion 1: the roll call",
		"- item 8: a summary of the discussion", "No roll call is recorded.", "The time of adjournment is not recorded."} {
		if !Contains(text, want) {
			t.Errorf("a draft lacking facts does not say %q:\n%s", want, text)
		}
	}
}

// TestMinutesRefused checks that minutes are not drafted from a record that breaks the Act:
// here a ruling recorded while the meeting was in closed session (5 ILCS 120/2(e)).
func TestMinutesRefused(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	r.Entries[6].Motions = []docket.MeetingMotion{{At: evening(19, 0), Text: "To decide", Action: docket.Decide{}.Kind()}}
	for _, part := range []docket.Part{docket.OpenPart, docket.ClosedPart} {
		if _, err := m.MinutesPDF(r, part, names); !strings.Contains(docket.ErrorMessage(err), docket.OMAFinal) {
			t.Errorf("%s minutes with a decision in closed session: %v", part, err)
		}
	}
	if _, err := m.MinutesMarkdown(januaryRecord(), "secret", names); docket.ErrorCode(err) != docket.EINVALID {
		t.Errorf("an unknown part: %v", err)
	}
}

// TestMinutesMarkdownEscapes checks that names and notes cannot make Markdown structure.
func TestMinutesMarkdownEscapes(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	r.Notes = []string{"# Heading\n- list\n1. item\n[link](http://x) <img src=x> *bold* `code` | cell &amp;"}
	hostile := func(id string) string {
		if id == "U03COLE" {
			return "_Cy_ **Cole**"
		}
		return names(id)
	}
	md := string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, hostile)).Data)
	for _, want := range []string{`\# Heading`, `\- list`, `1\. item`,
		`\[link\](http://x) \<img src=x\> \*bold\* \` + "`code\\`" + ` \| cell \&amp;`, `\_Cy\_ \*\*Cole\*\*`} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "# Heading") || strings.HasPrefix(line, "- list") {
			t.Errorf("a note made Markdown structure: %q", line)
		}
	}
}

// D parses a YYYY-MM-DD date or stops the test.
func D(t *testing.T, s string) docket.Date {
	t.Helper()
	d, err := docket.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMinutesNotReadyWithMembersByID: minutes that would print a member by their Slack id,
// for want of a name in the configuration, are not ready for approval: the draft says
// whose name it lacks, once each, and no longer once every member printed has a name.
func TestMinutesNotReadyWithMembersByID(t *testing.T) {
	m := mustMaker(t, config)
	r := januaryRecord()
	noBirch := func(id string) string {
		if id == "U02BIRCH" {
			return ""
		}
		return names(id)
	}
	md := strings.ReplaceAll(string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, noBirch)).Data), `\`, "")
	want := "- the name of U02BIRCH, printed as a Slack id: give it in ethicsbot.yml (commissioners, with name:)"
	if !Contains(md, want) || Contains(md, "ready for approval") {
		t.Errorf("the draft does not ask for the name of U02BIRCH:\n%s", md)
	}
	md = strings.ReplaceAll(string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, nil)).Data), `\`, "")
	if want := "- the names of U01ALDER, U02BIRCH, U03COLE, U04DUNN, U05EK, printed as Slack ids"; !Contains(md, want) {
		t.Errorf("the draft does not ask for the names:\n%s", md)
	}
	r.Approved, r.ApprovedAt = docket.Date(0).AddDays(20000), "2027-02-09"
	md = string(ok(t)(m.MinutesMarkdown(r, docket.OpenPart, noBirch)).Data)
	if Contains(md, "printed as a Slack id") {
		t.Errorf("approved minutes still ask for a name:\n%s", md)
	}
}
