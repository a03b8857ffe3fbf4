package app

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// quarterCases is how many cases the clerk's quarter runs: the load the reminders
// are judged by, "one quarter of seven cases".
const quarterCases = 7

// commissionBusiness are the walk-through's lines about the commission's meetings as such,
// which the quarter leaves out: the case steps held at them stay.
var commissionBusiness = regexp.MustCompile(`^/ethics (agenda|convene|session|adjourn|minutes) `)

// ownMeeting matches a line that creates or posts a meeting by its date: the quarter keeps
// those of the meetings a case step joins (meeting=...), and leaves out the others.
var ownMeeting = regexp.MustCompile(`^/ethics (?:meeting|posted) (\d{4}-\d\d-\d\d)`)

// quarterCounts is what a quarter said, by destination: direct messages, messages in the
// docket channel itself (the cases' cards among them), replies in its threads, updates of
// its cards in place (chat.update, no new message), and posts to the notices channel.
type quarterCounts struct {
	DMs, Docket, Replies, Updates, Notices int
	Folded                                 int // reminders said in a catch-up message, not on their own
	// RestartDMs and RestartPosts are the messages the first sweep after downtime said:
	// direct messages, and channel posts (replies included).
	RestartDMs, RestartPosts int
	// BySeries counts them by destination kind and series: "@ digest", "# event".
	BySeries map[string]int
}

func (q quarterCounts) String() string {
	return fmt.Sprintf("%d direct messages, %d docket channel posts and %d replies in its threads (%d card updates), %d "+
		"notices channel posts; %d reminders folded into catch-ups; at the restart after downtime %d direct messages and "+
		"%d channel posts",
		q.DMs, q.Docket, q.Replies, q.Updates, q.Notices, q.Folded, q.RestartDMs, q.RestartPosts)
}

// runQuarter runs the clerk's quarter: the clerk's guide's walk-through ("A case in the
// console", docs/clerk.md) for seven cases, the k-th filed 2k weeks after the first, in the
// demo console, with the clock moved an hour at a time (each move sweeps the reminders and
// drains the outbox) from the first filing for 13 weeks; down, if set, is a stretch in
// which ethicsbot is not running (the clock jumps over it). It returns what the outbox
// said, counted by destination.
//
// neglected keeps only the filings: seven cases nobody acts on, every deadline reminded
// daily once overdue, as in a catch-up after downtime.
func runQuarter(t *testing.T, down [2]time.Time, neglected bool) quarterCounts {
	t.Helper()
	section := apptest.DocSection(t, "docs/clerk.md", "A case in the console")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	// The walk-through as (time, lines) segments, each opened by its :clock.
	type segment struct {
		at    time.Time
		lines []string
	}
	var walk []segment
	joined := map[string]bool{}
	for _, m := range regexp.MustCompile(`meeting=(\d{4}-\d\d-\d\d)`).FindAllStringSubmatch(block, -1) {
		joined[m[1]] = true
	}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if at, ok := strings.CutPrefix(line, ":clock "); ok {
			tm, err := time.Parse(time.RFC3339, at)
			if err != nil {
				t.Fatal(err)
			}
			walk = append(walk, segment{at: tm})
			continue
		}
		if len(walk) == 0 {
			t.Fatalf("the walk-through does not start with :clock: %q", line)
		}
		// The quarter repeats case 2026-001's story: the walk-through's other case, which
		// shows a meeting of several items, would take the next repetition's number, and the
		// commission's own business (its roll, closed session, minutes and the later
		// meeting that approves them) would meet the next repetition's meetings.
		if strings.Contains(line, "2026-002") || strings.HasPrefix(line, "/ethics file ") &&
			!strings.Contains(line, "Jane Roe") ||
			commissionBusiness.MatchString(line) {
			continue
		}
		if m := ownMeeting.FindStringSubmatch(line); m != nil && !joined[m[1]] {
			continue
		}
		walk[len(walk)-1].lines = append(walk[len(walk)-1].lines, line)
	}
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	// Dates and times in the commands move with the case: 2026-12-07T17:00, 2027-02-23.
	stamp := regexp.MustCompile(`\b20\d\d-\d\d-\d\d(T\d\d:\d\d(:\d\d-06:00)?)?\b`)
	shift := func(line string, days int) string {
		return stamp.ReplaceAllStringFunc(line, func(s string) string {
			if strings.HasPrefix(line, "/ethics file") && strings.Contains(line, "violation="+s) {
				return s // the violation stays: (A)'s year counts back from receipt
			}
			for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
				if tm, err := time.ParseInLocation(layout, s, loc); err == nil {
					return tm.AddDate(0, 0, days).Format(layout)
				}
			}
			return s
		})
	}
	type step struct {
		at    time.Time
		lines []string
	}
	var steps []step
	filed := map[int]int{} // cases filed in each year: numbers start again each year
	holidays, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	// onHoliday reports whether, shifted by days, a line that sets a meeting's start sets
	// it on a legal holiday, where 5 ILCS 120/2.01 allows no meeting but the regular one.
	meetingLine := regexp.MustCompile(`^/ethics (meeting|schedule|rule) `)
	onHoliday := func(days int) bool {
		for _, s := range walk {
			for _, l := range s.lines {
				if !meetingLine.MatchString(l) {
					continue
				}
				for _, st := range stamp.FindAllString(shift(l, days), -1) {
					if tm, err := time.ParseInLocation("2006-01-02", st[:10], loc); err == nil &&
						holidays.StatutoryHoliday(holidays.DateOf(tm)) != "" {
						return true
					}
				}
			}
		}
		return false
	}
	for k := 0; k < quarterCases; k++ {
		// Each case two weeks after the last; one whose meetings would fall on a legal holiday
		// is filed a few days later, on a weekday, as a clerk would set its meetings on
		// another day.
		days := 14 * k
		for _, d := range []int{0, 3, 4, 5, 6} {
			if !onHoliday(14*k + d) {
				days = 14*k + d
				break
			}
		}
		year := walk[0].at.AddDate(0, 0, days).Year()
		filed[year]++
		number := fmt.Sprintf("%d-%03d", year, filed[year])
		for _, s := range walk {
			var lines []string
			for _, l := range s.lines {
				if neglected && !strings.HasPrefix(l, "/ethics file ") {
					continue
				}
				l = strings.ReplaceAll(shift(l, days), "2026-001", number)
				// Each piece of certified mail has its own article number: the k-th case's
				// replace the walk-through's "...54321" with "...5432k", check digit and all.
				if mail, ok := strings.CutPrefix(l, "/ethics mail "); ok {
					fields := strings.Fields(mail)
					body := strings.Join(fields[2:], "")
					body = body[:len(body)-1]
					body = body[:14] + strconv.Itoa(k) + body[15:]
					l = fmt.Sprintf("/ethics mail %s %s %s%d", fields[0], fields[1], body, docket.ArticleCheckDigit(body))
				}
				lines = append(lines, l)
			}
			at := s.at.AddDate(0, 0, days)
			if len(lines) == 0 {
				continue
			}
			if !down[0].IsZero() && at.After(down[0]) && at.Before(down[1]) {
				t.Fatalf("a step of case %s falls while ethicsbot is down: %v", number, at)
			}
			steps = append(steps, step{at: at, lines: lines})
		}
	}
	start := walk[0].at
	end := start.AddDate(0, 0, 7*13)
	for now := start.Truncate(time.Hour).Add(time.Hour); now.Before(end); now = now.Add(time.Hour) {
		if !down[0].IsZero() && now.After(down[0]) && now.Before(down[1]) {
			continue
		}
		steps = append(steps, step{at: now})
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].at.Before(steps[j].at) })
	var script strings.Builder
	for _, s := range steps {
		fmt.Fprintf(&script, ":clock %s\n", s.at.In(loc).Format(time.RFC3339))
		for _, l := range s.lines {
			script.WriteString(l + "\n")
		}
	}
	t.Chdir(t.TempDir())
	apptest.WriteScan(t, "complaint.pdf", "COMPLAINT OF JOHN DOE, SIGNED") // the guide's scan, attached to each case
	code, out, errOut := run(t, map[string]string{}, script.String())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "[ephemeral] Not done") || strings.HasPrefix(line, "[ephemeral] Only ") ||
			strings.HasPrefix(line, "[ephemeral] There is no") {
			t.Errorf("a step of the quarter was refused: %s", line)
		}
	}
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open("ethicsbot-demo.db", &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Outbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	q := quarterCounts{BySeries: map[string]int{}}
	for _, r := range rows {
		q.BySeries[r.Key.To.String()[:1]+" "+r.Key.Series]++
		if r.Sent.IsZero() {
			t.Errorf("not delivered by the end of the quarter: %s", r.Key)
			continue
		}
		if !down[1].IsZero() && r.Sent.Equal(down[1]) && !strings.HasPrefix(r.LastError, "folded into ") && !r.Edit {
			if r.Key.To.User != "" {
				q.RestartDMs++
			} else {
				q.RestartPosts++
			}
		}
		switch {
		case strings.HasPrefix(r.LastError, "folded into "):
			q.Folded++
			continue
		case r.Edit:
			q.Updates++
		case r.Thread != (outbox.Key{}):
			q.Replies++
		case r.Key.To.User != "":
			q.DMs++
		case r.Key.To.Channel == "ethics-docket":
			q.Docket++
		default:
			q.Notices++
		}
	}
	return q
}

// TestClerksQuarter counts what the clerk's quarter says (once "176 direct
// messages and 162 docket lines in one quarter of seven cases", too many to read), and a catch-up after two days down.
// Run with -v to see the counts.
func TestClerksQuarter(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a quarter of hourly sweeps")
	}
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	var q, qd quarterCounts
	t.Run("steady", func(t *testing.T) { q = runQuarter(t, [2]time.Time{}, false) })
	t.Logf("the clerk's quarter: %s; by series %v", q, q.BySeries)
	// ethicsbot down from Monday 11 January 2027 21:00 to Friday 15 January 10:00, between
	// two cases' steps.
	down := [2]time.Time{time.Date(2027, 1, 11, 21, 0, 0, 0, loc), time.Date(2027, 1, 15, 10, 0, 0, 0, loc)}
	t.Run("down", func(t *testing.T) { qd = runQuarter(t, down, false) })
	t.Logf("the same quarter with ethicsbot down from Mon 11 Jan 21:00 to Fri 15 Jan 10:00: %s; by series %v", qd,
		qd.BySeries)
	// Seven cases nobody acts on, and ethicsbot down from Tuesday 5 January 07:00 to
	// Friday 15 January 10:00: the catch-up after downtime.
	var qn quarterCounts
	long := [2]time.Time{time.Date(2027, 1, 5, 7, 0, 0, 0, loc), time.Date(2027, 1, 15, 10, 0, 0, 0, loc)}
	t.Run("neglected", func(t *testing.T) { qn = runQuarter(t, long, true) })
	t.Logf("seven cases nobody acts on, ethicsbot down from Tue 5 Jan 07:00 to Fri 15 Jan 10:00: %s; by series %v", qn,
		qn.BySeries)
	if qn.RestartDMs > 2 || qn.RestartPosts > 2 {
		// One catch-up to the clerk, one to the channel (and one to each commissioner with a
		// meeting reminder due, none here: nobody scheduled one).
		t.Errorf("the restart after downtime said %d direct messages and %d channel posts, want one catch-up each",
			qn.RestartDMs, qn.RestartPosts)
	}
	if os.Getenv("ETHICSBOT_QUARTER") != "" {
		fmt.Println("quarter:", q, q.BySeries)
		fmt.Println("quarter with downtime:", qd, qd.BySeries)
		fmt.Println("neglected quarter with downtime:", qn, qn.BySeries)
	}
}
