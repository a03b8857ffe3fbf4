package docket

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The Open Meetings Act's clocks and checks for a meeting of the commission as a body.
// Each is pure: it is given the dates and instants it needs and the record as
// it stands, and changes nothing. The meeting entity calls them before it records an
// action, and the reminders read the dates they return.
//
// The ordinance (Ord. O-16-04, (A) to (I)) says nothing of agendas, quorums or minutes: it
// only lets a meeting "be closed to the public to the extent authorized by the Open Meetings
// Act" ((C)(1), (D)). So the Act governs all of it, and each rule here cites its section.

// The sections of the Open Meetings Act (5 ILCS 120) that a refusal or a deadline names.
const (
	OMANotice    = "5 ILCS 120/2.02"    // public notice and agenda, 48 hours ahead
	OMAClose     = "5 ILCS 120/2a"      // closing a meeting or a part of it, by a recorded vote
	OMAFinal     = "5 ILCS 120/2(e)"    // no final action at a closed meeting
	OMAQuorum    = "5 ILCS 120/2.01"    // a quorum physically present at an open meeting
	OMARecord    = "5 ILCS 120/2.06(a)" // what minutes record: time, place, members present and absent, votes
	OMAMinutes   = "5 ILCS 120/2.06(b)" // approval of the minutes, and their publication
	OMARecording = "5 ILCS 120/2.06(c)" // the verbatim recording of a closed meeting
	OMAReview    = "5 ILCS 120/2.06(d)" // the semi-annual review of closed minutes
	OMAHoliday   = "5 ILCS 120/2.01"    // no meeting on a legal holiday, unless the regular meeting day falls on it
	OMAAgenda    = "5 ILCS 120/2.02(c)" // final action only on a matter the posted agenda sets forth
)

// onPostedAgenda reports whether a posting of m's agenda gave the item that holds is: "The
// agenda ... shall set forth the general subject matter of any resolution or ordinance that
// will be the subject of final action at the meeting" (5 ILCS 120/2.02(c)). A posting from
// a record that did not keep the agenda posted, or of a meeting folded from its cases,
// gave what the meeting held then.
func (m *CommissionMeeting) onPostedAgenda(is func(AgendaItem) bool, added time.Time) bool {
	for _, p := range m.Postings {
		if p.At.Before(added) {
			continue
		}
		if p.Agenda == nil || slices.ContainsFunc(p.Agenda.Items, is) {
			return true
		}
	}
	return false
}

// CheckFinalOnAgenda refuses final action of kind on case number at meeting m unless an
// item of the case was on m's agenda as posted (5 ILCS 120/2.02(c)). An emergency meeting,
// which no agenda preceded (2.02(a)), is not refused.
func (m *CommissionMeeting) CheckFinalOnAgenda(kind, number string) error {
	words, final := finalActions[kind]
	if !final || m.Minutes.Emergency != "" {
		return nil
	}
	for _, it := range m.Cases {
		if it.Case == number && m.onPostedAgenda(func(a AgendaItem) bool {
			return a.Kind == CaseItem && a.Case == number && a.Step == it.Step
		}, it.Added) {
			return nil
		}
	}
	return Conflict(OMAAgenda, "", fmt.Sprintf("%s on case %s is final action, and its matter was not on the agenda "+
		"of meeting %s as posted: the commission may discuss it, and take the vote at a later meeting whose posted agenda "+
		"sets it forth", words, number, m.Name))
}

// AgendaNotice is how long before a meeting its agenda must stand as posted: "An agenda
// for each regular meeting shall be posted at the principal office of the public body and
// at the location where the meeting is to be held at least 48 hours in advance of the
// holding of the meeting" (5 ILCS 120/2.02(a)); a special meeting's notice likewise gives
// "an agenda for that special meeting" 48 hours ahead (2.02(a)), and 2.02(c) has it
// "continuously available for public review during the entire 48-hour period preceding the
// meeting". The hours are elapsed hours, counted back from the start as the ordinance's own
// 48 hours' notice is (notice.go): across a change of clocks they span 47 or 49 hours of
// wall-clock time.
const AgendaNotice = 48 * time.Hour

// AgendaCutoff is the last instant at which a meeting starting at start may still change
// its agenda: 48 hours before it.
func AgendaCutoff(start time.Time) time.Time { return start.Add(-AgendaNotice) }

// CheckAgendaChange refuses a change to the agenda of the meeting starting at start, made
// at now, once the 48 hours before the meeting have begun (5 ILCS 120/2.02): what says
// what the change is ("adding an item", "closing item 3 to the public"). Adding an item and
// closing an open one are such changes: the agenda as posted 48 hours ahead is what the
// public was told. ethicsbot refuses closing an open item in those 48 hours too, though
// 5 ILCS 120/2a lets the commission vote at the meeting itself to close a part of it
// "without additional notice under Section 2.02": that vote is taken at the meeting and
// recorded there (ClosedSession), not by re-posting the agenda. A refusal names the cutoff
// and changes nothing.
//
// The times are printed in the commission's zone, loc (the engine calendar's), by its
// abbreviation, CST. advice says what the clerk may do instead.
func CheckAgendaChange(start, now time.Time, loc *time.Location, what, advice string) error {
	if start.IsZero() {
		return Invalid(OMANotice, "meeting",
			"the meeting has no start, so its agenda cannot be checked against the 48 hours' notice")
	}
	if loc == nil {
		loc = start.Location()
	}
	cutoff := AgendaCutoff(start)
	when := start.In(loc).Format("Mon 2 Jan 2006 15:04 MST")
	if !now.Before(start) {
		return Conflict(OMANotice, "meeting",
			fmt.Sprintf("%s is refused: the meeting of %s has begun or is past, and its agenda is what was posted", what, when))
	}
	if !now.Before(cutoff) {
		return Conflict(OMANotice, "meeting", fmt.Sprintf(
			"%s is refused: the agenda of the meeting of %s had to stand as posted from %s, 48 hours before it; %s",
			what, when, cutoff.In(loc).Format("Mon 2 Jan 15:04 MST"), advice))
	}
	return nil
}

// CheckNewMeeting refuses to create, at now, a meeting starting at start that its agenda
// could not be posted 48 hours ahead of (5 ILCS 120/2.02(a), AgendaNotice): the same rule
// a case step's schedule keeps (EarliestMeeting), and the refusal gives the earliest lawful
// start as that one does. The times are printed in the commission's zone, loc. The Act has
// no exception for a regular or special meeting (2.02(a) requires 48 hours for both; only
// an emergency meeting may have less, and ethicsbot does not record those), so there is no
// override.
func CheckNewMeeting(start, now time.Time, loc *time.Location) error {
	if earliest := roundUpMinute(now.Add(AgendaNotice)); start.Before(earliest) {
		return Invalid(OMANotice, "start", fmt.Sprintf(
			"a meeting's agenda must be posted at least 48 hours before it; the earliest lawful start is %s",
			earliest.In(loc).Format("Mon 2 Jan 2006 15:04 MST")))
	}
	return nil
}

// CheckHoliday refuses a meeting starting at start on a legal holiday, unless regular
// says it is a regular meeting of the adopted schedule (5 ILCS 120/2.03) on its day: "No
// meeting required by this Act to be public shall be held on a legal holiday unless the
// regular meeting day falls on that holiday" (5 ILCS 120/2.01). The legal holidays are the
// statutory holidays the calendar keeps (StatutoryHolidays, the days 5 ILCS 490 and 205
// ILCS 630/17 fix, and those the Governor proclaims), not the office's own closures. A
// special, emergency or rescheduled meeting, and a case step's own meeting, is no regular
// meeting: the refusal suggests another day, or the regular meeting on the holiday.
func (e *Engine) CheckHoliday(start time.Time, regular bool) error {
	d := e.Cal.DateOf(start)
	name := e.Cal.StatutoryHoliday(d)
	if name == "" || regular {
		return nil
	}
	return Conflict(OMAHoliday, "start", fmt.Sprintf(
		"%s is %s, a legal holiday, and no meeting may be held on a legal holiday unless the regular meeting day falls on "+
			"it: choose another day, or take the business up at a regular meeting of the year's schedule (meeting=next)",
		d.Long(), name))
}

// roundUpMinute rounds t up to the minute, as a start is given.
func roundUpMinute(t time.Time) time.Time {
	if r := t.Truncate(time.Minute); !r.Equal(t) {
		return r.Add(time.Minute)
	}
	return t
}

// The advice a refusal of CheckAgendaChange gives.
const (
	AdviseLaterMeeting = "take the item up at a later meeting, or move the meeting"
	AdviseLaterStart   = "choose a start more than 48 hours from now"
)

// QuorumPresent refuses business when fewer than quorum members are present: the
// ordinance does not fix a quorum, so it is a majority of the seated commissioners
// (DefaultQuorum) unless the configuration sets another; 5 ILCS 120/2.01 requires "a
// quorum of members of a public body" to be "physically present at the location of an
// open meeting", so members present by audio or video conference do not make it up.
func QuorumPresent(quorum, physical int) error {
	if quorum < 1 {
		return Invalid(OMAQuorum, "quorum", fmt.Sprintf("a quorum of %d is impossible", quorum))
	}
	if physical < quorum {
		return Conflict(OMAQuorum, "present",
			fmt.Sprintf("no quorum: %d member%s physically present, and %d are needed to act", physical,
				plural(physical), quorum))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// PresentAt lists the members present at instant t of meeting r, in the order of r.Seated:
// those present at the call to order or arrived by t, and not left by t. It is the roll a
// roll call at t defaults to.
func (r MinutesRecord) PresentAt(t time.Time) []string {
	in := map[string]bool{}
	for _, m := range r.Present {
		in[m] = true
	}
	for _, mv := range r.Arrived {
		if !mv.At.After(t) {
			in[mv.Member] = true
		}
	}
	for _, mv := range r.Left {
		if !mv.At.After(t) {
			in[mv.Member] = false
		}
	}
	var out []string
	for _, m := range r.Seated {
		if in[m] {
			out = append(out, m)
		}
	}
	return out
}

// CheckRollCall refuses roll call v, taken at instant t of the meeting record r holds, that
// lists as voting yes, no or abstaining a member the meeting's roll records absent then
// (PresentAt: not present at the call to order, not yet arrived, or left), or as absent one
// it records present: the minutes record the members present and absent (5 ILCS
// 120/2.06(a)), and a roll call taken at the meeting cannot say otherwise. An arrival or a
// departure is recorded first. Who is not seated is left to the roll call's own check.
func (e *Engine) CheckRollCall(r MinutesRecord, v *Vote, t time.Time) error {
	present := r.PresentAt(t)
	when := e.shortTime(t)
	for _, list := range []struct {
		name  string
		users []string
	}{{"yes", v.Yes}, {"no", v.No}, {"abstain", v.Abstain}} {
		for _, u := range list.users {
			if slices.Contains(r.Seated, u) && !slices.Contains(present, u) {
				return Invalid(OMARecord, list.name,
					fmt.Sprintf("%s is recorded absent from meeting %s at %s, and takes no part in its roll calls; if they "+
						"arrived, record it first: /ethics convene %s late=%s", u, r.Meeting, when, r.Meeting, u))
			}
		}
	}
	for _, u := range v.Absent {
		if slices.Contains(present, u) {
			return Invalid(OMARecord, "absent",
				fmt.Sprintf("%s is recorded present at meeting %s at %s: a member present who does not vote abstains "+
					"(abstain=); if they left, record it first: /ethics convene %s left=%s", u, r.Meeting, when, r.Meeting, u))
		}
	}
	return nil
}

// QuorumAt refuses business at instant t of meeting r without a quorum physically present
// (QuorumPresent): members who joined by audio or video conference are not counted.
func (r MinutesRecord) QuorumAt(t time.Time) error {
	n := 0
	for _, m := range r.PresentAt(t) {
		if !slices.Contains(r.Remote, m) {
			n++
		}
	}
	return QuorumPresent(r.Quorum, n)
}

// SessionAt is the closed session meeting r is in at instant t, 1-based into r.Sessions,
// or 0 when it is in open session: from the instant it entered up to, not including, the
// instant it returned (a session not yet returned from lasts on).
func (r MinutesRecord) SessionAt(t time.Time) int {
	for i, s := range r.Sessions {
		if !t.Before(s.Entered) && (s.Returned.IsZero() || t.Before(s.Returned)) {
			return i + 1
		}
	}
	return 0
}

// finalActions are the case actions that are the commission's final action on a matter:
// the (C) ruling, the (E) decision, the (F) final recommendation and the (H) finding that a
// complaint was knowingly frivolous, by their kinds, with the words a refusal uses.
var finalActions = map[string]string{
	Rule{}.Kind():          "a ruling",
	Decide{}.Kind():        "a decision",
	IssueFinal{}.Kind():    "a final recommendation",
	FindFrivolous{}.Kind(): "a finding that the complaint was knowingly frivolous",
	SettleFine{}.Kind():    "a waiver of a fine",
}

// IsFinalAction reports whether a case action of kind is final action of the commission,
// which 5 ILCS 120/2(e) keeps out of closed session.
func IsFinalAction(kind string) bool { _, ok := finalActions[kind]; return ok }

// CheckOpenForAction refuses a case action of kind that is final action while the meeting
// is in closed session (session > 0): "No final action may be taken at a closed meeting.
// Final action shall be preceded by a public recital of the nature of the matter being
// considered" (5 ILCS 120/2(e)). The commission may deliberate in closed session, then
// return to open session and vote there.
func CheckOpenForAction(kind string, session int) error {
	words, final := finalActions[kind]
	if !final || session == 0 {
		return nil
	}
	return Conflict(OMAFinal, "",
		fmt.Sprintf("%s is final action and may not be taken in closed session: record the return to open session, recite "+
			"the matter, and take the vote there", words))
}

// exceptionRE reads a citation of an exception of 5 ILCS 120/2(c) as a clerk may type it:
// "5 ILCS 120/2(c)(4)", "2(c)(4)" or "(c)(4)".
var exceptionRE = regexp.MustCompile(`^(?:5 ILCS 120/)?(?:2)?\(c\)\((\d{1,2})\)$`)

// Exceptions words the exceptions of 5 ILCS 120/2(c) that an ethics commission's business
// meets, by number: the others are accepted by number without words.
var Exceptions = map[int]string{
	1: "the employment, discipline, performance or dismissal of specific employees, including testimony on a complaint " +
		"against an employee",
	3: "the discipline, performance or removal of the occupant of a public office, when the public body has power to " +
		"remove them",
	4:  "evidence or testimony presented to a quasi-adjudicative body, which makes its written decision public",
	11: "litigation against, affecting or on behalf of the public body, pending or probable",
	21: "the approval or semi-annual review of the minutes of meetings lawfully closed",
}

// maxException is the highest subsection of 5 ILCS 120/2(c) ethicsbot accepts. The list
// grows with amendments; a number above it is far more likely a typing mistake.
const maxException = 40

// ParseException reads a citation of an exception of 5 ILCS 120/2(c), which 5 ILCS
// 120/2a requires the vote to close to give, and returns it in full: "5 ILCS 120/2(c)(4)".
func ParseException(s string) (string, error) {
	m := exceptionRE.FindStringSubmatch(strings.ReplaceAll(strings.TrimSpace(s), " (", "("))
	if m == nil {
		return "", Invalid(OMAClose, "exception",
			fmt.Sprintf("%q is not an exception of the Open Meetings Act: cite it as 5 ILCS 120/2(c)(4), or (c)(4)", s))
	}
	n, _ := strconv.Atoi(m[1])
	if n < 1 || n > maxException {
		return "", Invalid(OMAClose, "exception",
			fmt.Sprintf("5 ILCS 120/2(c)(%d) is not an exception of the Open Meetings Act", n))
	}
	return fmt.Sprintf("5 ILCS 120/2(c)(%d)", n), nil
}

// ExceptionWords says what exception cite (as ParseException returns it) is about, or ""
// for one the table does not word.
func ExceptionWords(cite string) string {
	m := exceptionRE.FindStringSubmatch(cite)
	if m == nil {
		return ""
	}
	n, _ := strconv.Atoi(m[1])
	return Exceptions[n]
}

// CheckCloseVote refuses to enter a closed session on roll call v: 5 ILCS 120/2a allows it
// "upon a majority vote of a quorum present, taken at a meeting open to the public", and
// requires "a citation to the specific exception". The Act does not say whether the
// majority is of the quorum or of those present; ethicsbot takes the stricter reading, more
// yes votes than half of the members present, abstainers included, whatever majority the
// commission's other motions carry by.
func CheckCloseVote(v *Vote, exception string, session int) error {
	if session > 0 {
		return Conflict(OMAClose, "", "the meeting is already in closed session: the vote to close is taken in open session")
	}
	if _, err := ParseException(exception); err != nil {
		return err
	}
	if v == nil {
		return Invalid(OMAClose, "yes",
			"the vote to close a part of the meeting is a roll call: the vote of each member is recorded and entered into "+
				"the minutes")
	}
	p := v.Present()
	if p < v.Quorum {
		return Conflict(OMAClose, "yes",
			fmt.Sprintf("no quorum: %d member%s voting, and %d are needed to act", p, plural(p), v.Quorum))
	}
	if 2*len(v.Yes) <= p {
		return Conflict(OMAClose, "yes",
			fmt.Sprintf("the vote to close carries only with a majority of the members present: %d of %d voted yes",
				len(v.Yes), p))
	}
	return nil
}

// AddMonths returns the same day n months later, or the last day of that month when it is
// shorter: 31 August and 18 months is 28 (or 29) February. It counts months as AddYears
// counts a leap day, to the end of the shorter month.
func (d Date) AddMonths(n int) Date {
	y, m, day := d.Parts()
	first := NewDate(y, m+time.Month(n), 1)
	fy, fm, _ := first.Parts()
	last := NewDate(fy, fm+1, 1).AddDays(-1)
	if _, _, ld := last.Parts(); day > ld {
		return last
	}
	return NewDate(fy, fm, day)
}

// MinutesApprovalDue is the day by which the minutes of the meeting held on held must be
// approved: "within 30 days after that meeting or at the public body's second subsequent
// regular meeting, whichever is later" (5 ILCS 120/2.06(b)). The 30 days are counted as
// the ordinance's periods in days are, the last rolled past a Saturday, Sunday or statutory
// holiday (5 ILCS 70/1.11). regular are the days of the year's regular meetings (2.03), in
// any order. known is false when fewer than two regular meetings are scheduled after held:
// due is then the 30-day mark, which the later second meeting can only postpone, so a
// reminder is never late.
func (c *Calendar) MinutesApprovalDue(held Date, regular []Date) (due Date, known bool) {
	due = c.RollForward(held.AddDays(30))
	after := slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(regular), func(d Date) bool { return d <= held })))
	after = slices.Compact(after)
	if len(after) < 2 {
		return due, false
	}
	return max(due, after[1]), true
}

// MinutesPublicDue is the day by which minutes of an open meeting approved on approved
// must be available for public inspection, and on the commission's website if its staff
// keeps one: "within 10 days after the approval of such minutes" (5 ILCS 120/2.06(b)),
// rolled as MinutesApprovalDue's days are. Closed minutes are not made public by approval:
// only by the 2.06(d) review.
func (c *Calendar) MinutesPublicDue(approved Date) Date {
	return c.RollForward(approved.AddDays(10))
}

// RecordingRetention is how long the verbatim recording of a closed meeting is kept at
// least: "no less than 18 months after the completion of the meeting recorded" (5 ILCS
// 120/2.06(c)). Eighteen calendar months from the day of the meeting, a month's end to the
// shorter month's end, rather than 18 × 30 days or a year and a half of 548 days: the
// longer count where they differ, since destroying early cannot be undone
// (docs/deadlines.md, "Where the law leaves a choice").
const RecordingRetention = 18 // months

// RecordingDestroyable is the earliest day the verbatim recording of a closed session of a
// meeting completed on held may be destroyed (5 ILCS 120/2.06(c)): the day after the 18
// months after it have fully passed (not the anniversary itself, when the meeting's hour has
// not yet come), and
// not before the commission approves the minutes of the closed meeting, on minutesApproved.
// ok is false while those minutes are not approved (minutesApproved is zero): there is no
// such day yet. The commission must also approve the destruction of the particular
// recording (2.06(c)(1)): CheckRecordingDestruction checks both. It is the first day an act
// is allowed, not the last day for one, so it is not rolled (5 ILCS 70/1.11).
func RecordingDestroyable(held, minutesApproved Date) (Date, bool) {
	if minutesApproved.IsZero() {
		return 0, false
	}
	// "After 18 months have passed": the months end on their day at the hour the meeting
	// ended, so the first whole day on which they have passed is the day after.
	return max(held.AddMonths(RecordingRetention).AddDays(1), minutesApproved), true
}

// CheckRecordingDestruction refuses to record the destruction, on today, of the verbatim
// recording of a closed session of the meeting completed on held, unless 5 ILCS 120/2.06(c)
// allows it: 18 months have passed, the commission has approved the closed minutes
// (minutesApproved) and the destruction of this recording (destructionApproved).
func CheckRecordingDestruction(held, minutesApproved, destructionApproved, today Date) error {
	earliest, ok := RecordingDestroyable(held, minutesApproved)
	switch {
	case !ok:
		return Conflict(OMARecording, "",
			fmt.Sprintf("the recording of the closed session of %s may not be destroyed: the commission has not approved the "+
				"minutes of that closed session", held))
	case today < earliest:
		return Conflict(OMARecording, "",
			fmt.Sprintf("the recording of the closed session of %s may not be destroyed before %s, the first day after 18 "+
				"months have fully passed since the meeting",
				held, earliest.Long()))
	case destructionApproved.IsZero() || destructionApproved > today:
		return Conflict(OMARecording, "",
			fmt.Sprintf("the recording of the closed session of %s may be destroyed only once the commission approves the "+
				"destruction of that recording, by a vote at a meeting", held))
	}
	return nil
}

// ReviewInterval is the longest time between two reviews of the closed minutes: "Each
// public body shall periodically, but no less than semi-annually, meet to review minutes
// of all closed meetings" (5 ILCS 120/2.06(d)).
const ReviewInterval = 6 // months

// ClosedMinutesReviewDue is the day by which the commission must next meet to review the
// minutes of its closed meetings (5 ILCS 120/2.06(d)): six months after the last review,
// or, before any review, six months after the first meeting with a closed session
// (firstClosed). It is zero when there has been no closed session. "Semi-annually" sets a
// frequency, not a period after an event within which an act is done, so the date is not
// rolled past a weekend (5 ILCS 70/1.11): ethicsbot takes the earlier day, as it does where
// the law leaves a doubt about a deadline (Good Friday, calendar.go). It is a rolling six
// months from the last review, not the calendar's half-years (by 30 June and by 31
// December): with half-years two reviews could stand nearly a year apart (January, then
// December), which "no less than semi-annually" does not allow (docs/deadlines.md, "Where
// the law leaves a choice").
func ClosedMinutesReviewDue(lastReview, firstClosed Date) Date {
	switch {
	case !lastReview.IsZero():
		return lastReview.AddMonths(ReviewInterval)
	case !firstClosed.IsZero():
		return firstClosed.AddMonths(ReviewInterval)
	}
	return 0
}
