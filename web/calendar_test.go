package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/store"
	"ethicsbot/web"
)

// Who is who in these tests.
const (
	comm     = "U_COMM1"
	comm2    = "U_COMM2"
	clerk    = "U_CLERK"
	attorney = "U_ATTY"
)

// Text that must never reach a calendar: the parties' names and the summary.
const (
	respondent  = `Roe, Jane; "Janie" \ Smith & Partners <Ltd>`
	complainant = "John Q. Complainant"
	summary     = "CONFIDENTIAL-ALLEGATION: used the city's email to campaign."
	// hostileICSPlace is a place a clerk could type: commas, semicolons, quotes, a colon and a
	// backslash that iCalendar must escape, and more than 75 octets of accented text that
	// must be folded without splitting a character.
	hostileICSPlace = `Salle des délibérations, Hôtel de Ville; "Annex": 2nd floor \ rear — entrée côté jardin`
)

// calFixture is a record of two cases and the feed that serves it.
type calFixture struct {
	db       *store.Store
	engine   *docket.Engine
	svc      *commands.Service
	feed     *web.CalendarFeed
	now      time.Time
	sched    time.Time // the sufficiency meeting of 2026-001
	recused  string    // the case comm recused from
	ordinary string    // the case nobody recused from
}

func chicago(t *testing.T, s string) time.Time {
	t.Helper()
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	v, err := time.ParseInLocation("2006-01-02T15:04", s, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// violation is the alleged violation's date: confidential, and never in a feed.
var violation = docket.NewDate(2026, time.October, 14)

func newCalFixture(t *testing.T) *calFixture {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{Zone: "America/Chicago"})
	if err != nil {
		t.Fatal(err)
	}
	e := &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	db, err := store.Open(filepath.Join(t.TempDir(), "ethicsbot.db"), e)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &calFixture{db: db, engine: e, now: chicago(t, "2026-12-04T10:30"), sched: chicago(t, "2026-12-08T17:00")}
	f.svc = &commands.Service{Record: db, Engine: e, Now: func() time.Time { return f.now }, Calendars: db}
	f.svc.Configure(commands.Settings{
		Roles:     commands.Roles{Commissioners: []string{comm, comm2}, Clerks: []string{clerk}, Attorney: attorney},
		PublicURL: "https://ethics.example.gov",
	})
	file := func(received string) string {
		res, err := db.File(ctx, docket.Act{By: clerk, At: chicago(t, received)}, docket.File{
			Complainant: docket.Person{Name: complainant}, Respondent: docket.Person{Name: respondent},
			Sections: []string{"103.10"}, Received: chicago(t, received), Summary: summary, ViolationDate: violation,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.Case.Number
	}
	f.ordinary, f.recused = file("2026-12-04T10:00"), file("2026-12-04T10:15")
	apply := func(number string, a ...docket.Action) {
		if _, err := db.Apply(ctx, docket.Act{By: clerk, At: f.now}, number, a...); err != nil {
			t.Fatal(err)
		}
	}
	apply(f.ordinary, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: f.sched, Place: hostileICSPlace})
	apply(f.recused,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: f.sched.Add(time.Hour),
			Place: "City Hall, Room 201"},
		docket.Recuse{User: comm, Reason: "knows the complainant"})
	f.feed = &web.CalendarFeed{Tokens: db, Cases: db, Engine: e, Now: func() time.Time { return f.now },
		Member:    func(user string) bool { return f.svc.Settings().Roles.Of(user) != commands.Nobody },
		PublicURL: func() string { return f.svc.Settings().PublicURL },
		Tasks:     func(user string) bool { return f.svc.Settings().Roles.Of(user) == commands.Clerk }}
	return f
}

// token issues user a calendar token through /ethics calendar and returns it.
func (f *calFixture) token(t *testing.T, user string, text string) string {
	t.Helper()
	resp := f.svc.Handle(ctx, commands.Request{User: user, Text: text})
	reply := string(resp.Messages[0].Text)
	const prefix = "https://ethics.example.gov/calendar/"
	i := strings.Index(reply, prefix)
	if i < 0 {
		t.Fatalf("/ethics %s: no feed address in %q", text, reply)
	}
	rest := reply[i+len(prefix):]
	token, _, ok := strings.Cut(rest, ".ics")
	if !ok {
		t.Fatalf("/ethics %s: address without .ics in %q", text, reply)
	}
	return token
}

// get fetches path from the feed and returns the status and body.
func (f *calFixture) get(t *testing.T, method, path string) (int, string, http.Header) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("GET /calendar/{token}", f.feed)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b), res.Header
}

// fetch gets user's feed with token and parses it with the library's own parser.
func (f *calFixture) fetch(t *testing.T, token string) (*ics.Calendar, string) {
	t.Helper()
	status, body, h := f.get(t, http.MethodGet, "/calendar/"+token+".ics")
	if status != http.StatusOK {
		t.Fatalf("GET feed: %d %q", status, body)
	}
	if got := h.Get("Content-Type"); got != web.ContentType {
		t.Errorf("Content-Type %q, want %q", got, web.ContentType)
	}
	cal, err := ics.ParseCalendar(strings.NewReader(body))
	if err != nil {
		t.Fatalf("the feed does not parse: %v\n%s", err, body)
	}
	return cal, body
}

func uids(cal *ics.Calendar) []string {
	var out []string
	for _, e := range cal.Events() {
		out = append(out, e.Id())
	}
	return out
}

func prop(e *ics.VEvent, p ics.ComponentProperty) *ics.IANAProperty { return e.GetProperty(p) }

func summaryOf(e *ics.VEvent) string {
	if p := prop(e, ics.ComponentPropertySummary); p != nil {
		return p.Value
	}
	return ""
}

// eventsOf returns the events of case number.
func eventsOf(cal *ics.Calendar, number string) []*ics.VEvent {
	var out []*ics.VEvent
	for _, e := range cal.Events() {
		if strings.HasPrefix(summaryOf(e), number+" · ") {
			out = append(out, e)
		}
	}
	return out
}

func TestCalendarFeed(t *testing.T) {
	f := newCalFixture(t)
	token := f.token(t, clerk, "calendar")
	cal, body := f.fetch(t, token)

	t.Run("OnlyTheCommissionsDeadlines", func(t *testing.T) {
		// The (I) filing limit and the (F) demand window bind the parties; the first would
		// carry the alleged violation's date to the calendar's host.
		for _, e := range cal.Events() {
			if strings.Contains(summaryOf(e), "(I)") || strings.Contains(summaryOf(e), "demand") {
				t.Errorf("a party's period is in the feed: %q", summaryOf(e))
			}
		}
		for _, date := range []string{"2026-10-14", "14 Oct", "20261014", "2027-10-14", "20271014"} {
			if strings.Contains(body, date) {
				t.Errorf("the feed holds %q, the alleged violation's date or its year later", date)
			}
		}
	})

	t.Run("OutlookFields", func(t *testing.T) {
		if len(cal.Events()) == 0 {
			t.Fatal("no events")
		}
		for _, e := range cal.Events() {
			if e.Id() == "" || !strings.HasSuffix(e.Id(), "@ethics.example.gov") {
				t.Errorf("event %q: UID %q, want one at the commission's host", summaryOf(e), e.Id())
			}
			if _, err := e.GetDtStampTime(); err != nil {
				t.Errorf("event %q: DTSTAMP: %v", summaryOf(e), err)
			}
			start := prop(e, ics.ComponentPropertyDtStart)
			if start == nil {
				t.Fatalf("event %q has no DTSTART", summaryOf(e))
			}
			if v := start.ICalParameters["VALUE"]; len(v) == 1 && v[0] == "DATE" {
				continue
			}
			if tz := start.ICalParameters["TZID"]; len(tz) != 1 || tz[0] != "America/Chicago" {
				t.Errorf("timed event %q: DTSTART %v has no TZID America/Chicago", summaryOf(e), start)
			}
		}
		tzs := cal.Timezones()
		if len(tzs) != 1 || tzs[0].GetProperty(ics.ComponentPropertyTzid).Value != "America/Chicago" {
			t.Errorf("VTIMEZONE: %d, want one for America/Chicago", len(tzs))
		}
	})

	t.Run("UIDStableAcrossFetches", func(t *testing.T) {
		f.now = f.now.Add(3 * time.Hour)
		again, _ := f.fetch(t, token)
		first, second := uids(cal), uids(again)
		if !slices.Equal(first, second) {
			t.Errorf("UIDs changed between fetches:\n%v\n%v", first, second)
		}
		sorted := slices.Sorted(slices.Values(first))
		if len(slices.Compact(sorted)) != len(first) {
			t.Errorf("duplicate UIDs: %v", first)
		}
	})

	t.Run("AllDayDeadlines", func(t *testing.T) {
		var found bool
		for _, e := range eventsOf(cal, f.ordinary) {
			if !strings.Contains(summaryOf(e), "(B) respondent notice by certified mail due") {
				continue
			}
			found = true
			start := prop(e, ics.ComponentPropertyDtStart)
			if v := start.ICalParameters["VALUE"]; len(v) != 1 || v[0] != "DATE" || start.Value != "20261209" {
				t.Errorf("(B) deadline DTSTART %v, want VALUE=DATE 20261209 (3 business days after Fri 4 Dec)", start)
			}
			if end := prop(e, ics.ComponentPropertyDtEnd); end == nil || end.Value != "20261210" {
				t.Errorf("(B) deadline DTEND %v, want the next day, exclusive", end)
			}
		}
		if !found {
			t.Errorf("no (B) deadline in %v", uids(cal))
		}
	})

	t.Run("TimedMeetingAndNotice", func(t *testing.T) {
		var meeting, notice *ics.VEvent
		for _, e := range eventsOf(cal, f.ordinary) {
			switch s := summaryOf(e); {
			case strings.HasSuffix(s, "(C)(1) sufficiency meeting"):
				meeting = e
			case strings.Contains(s, "public notice of the sufficiency meeting"):
				notice = e
			}
		}
		if meeting == nil || notice == nil {
			t.Fatalf("meeting %v, notice %v", meeting, notice)
		}
		if start, err := meeting.GetStartAt(); err != nil || !start.Equal(f.sched) {
			t.Errorf("meeting starts %v (%v), want %v", start, err, f.sched)
		}
		if end, err := meeting.GetEndAt(); err != nil || !end.Equal(f.sched.Add(web.MeetingLength)) {
			t.Errorf("meeting ends %v (%v)", end, err)
		}
		if loc := prop(meeting, ics.ComponentPropertyLocation); loc == nil || loc.Value != hostileICSPlace {
			t.Errorf("LOCATION %v, want %q back", loc, hostileICSPlace)
		}
		// (C)(1): the notice is due 48 hours before the meeting.
		if start, err := notice.GetStartAt(); err != nil || !start.Equal(f.sched.Add(-48*time.Hour)) {
			t.Errorf("notice instant %v (%v), want %v", start, err, f.sched.Add(-48*time.Hour))
		}
		if prop(notice, ics.ComponentPropertyDtEnd) != nil {
			t.Error("the notice instant has a DTEND")
		}
	})

	t.Run("NothingConfidential", func(t *testing.T) {
		unfolded := strings.ReplaceAll(body, "\r\n ", "")
		for _, secret := range []string{"Roe", "Janie", "Complainant", "CONFIDENTIAL", "campaign"} {
			if strings.Contains(unfolded, secret) {
				t.Errorf("the feed holds %q", secret)
			}
		}
	})

	t.Run("LinesFolded", func(t *testing.T) {
		for _, line := range strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n") {
			if len(line) > 75 {
				t.Errorf("line of %d octets: %q", len(line), line)
			}
			if strings.ContainsAny(line, "\r\n") {
				t.Errorf("bare line break in %q", line)
			}
		}
	})

	t.Run("ClerkSeesEveryCase", func(t *testing.T) {
		if len(eventsOf(cal, f.recused)) == 0 || len(eventsOf(cal, f.ordinary)) == 0 {
			t.Errorf("clerk's feed: %v", uids(cal))
		}
	})
}

// TestCalendarFeedByReader: a commissioner's feed holds the meetings and the acts the
// commission owes (the ruling, the hearing), not the clerk's mailings and notices, which
// filled it; the clerk's feed keeps everything. An event in both has one UID.
func TestCalendarFeedByReader(t *testing.T) {
	f := newCalFixture(t)
	mine, _ := f.fetch(t, f.token(t, comm2, "calendar"))
	theirs, _ := f.fetch(t, f.token(t, clerk, "calendar"))
	summaries := func(cal *ics.Calendar) map[string]string {
		out := map[string]string{}
		for _, e := range eventsOf(cal, f.ordinary) {
			out[summaryOf(e)] = e.Id()
		}
		return out
	}
	commissioner, clerks := summaries(mine), summaries(theirs)
	for _, want := range []string{f.ordinary + " · (C)(1) sufficiency meeting",
		f.ordinary + " · (C)(1) sufficiency and probable-cause ruling due"} {
		if _, ok := commissioner[want]; !ok {
			t.Errorf("the commissioner's feed lacks %q: %v", want, commissioner)
		}
	}
	for s := range commissioner {
		if strings.Contains(s, "certified mail") || strings.Contains(s, "notice") {
			t.Errorf("the commissioner's feed holds the clerk's task %q", s)
		}
		if clerks[s] != commissioner[s] {
			t.Errorf("%q has UID %q in the commissioner's feed, %q in the clerk's", s, commissioner[s], clerks[s])
		}
	}
	for _, want := range []string{"(B) respondent notice by certified mail due",
		"public notice of the sufficiency meeting"} {
		found := false
		for s := range clerks {
			found = found || strings.Contains(s, want)
		}
		if !found {
			t.Errorf("the clerk's feed lacks %q: %v", want, clerks)
		}
	}
}

func TestCalendarFeedRecused(t *testing.T) {
	f := newCalFixture(t)
	cal, _ := f.fetch(t, f.token(t, comm, "calendar"))
	if got := eventsOf(cal, f.recused); len(got) != 0 {
		t.Errorf("a recused commissioner's feed shows case %s: %d events", f.recused, len(got))
	}
	if len(eventsOf(cal, f.ordinary)) == 0 {
		t.Errorf("case %s missing from the commissioner's feed", f.ordinary)
	}
	other, _ := f.fetch(t, f.token(t, comm2, "calendar"))
	if len(eventsOf(other, f.recused)) == 0 {
		t.Errorf("case %s missing for a commissioner who did not recuse", f.recused)
	}
}

func TestCalendarFeedRefused(t *testing.T) {
	f := newCalFixture(t)
	token := f.token(t, comm, "calendar")

	t.Run("UnknownToken", func(t *testing.T) {
		for _, path := range []string{"/calendar/nope.ics", "/calendar/" + token, "/calendar/.ics",
			"/calendar/" + strings.ToUpper(token) + ".ics"} {
			status, body, _ := f.get(t, http.MethodGet, path)
			if status != http.StatusNotFound || body != "404 page not found\n" {
				t.Errorf("GET %s: %d %q, want a bare 404", path, status, body)
			}
		}
	})

	t.Run("Method", func(t *testing.T) {
		if status, _, _ := f.get(t, http.MethodHead, "/calendar/"+token+".ics"); status != http.StatusOK {
			t.Errorf("HEAD: %d", status)
		}
		rec := httptest.NewRecorder()
		f.feed.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/calendar/"+token+".ics", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("POST: %d", rec.Code)
		}
	})

	t.Run("ResetInvalidatesOld", func(t *testing.T) {
		next := f.token(t, comm, "calendar reset")
		if next == token {
			t.Fatal("reset gave the same address")
		}
		if status, _, _ := f.get(t, http.MethodGet, "/calendar/"+token+".ics"); status != http.StatusNotFound {
			t.Errorf("old address after reset: %d, want 404", status)
		}
		f.fetch(t, next)
		token = next
	})

	t.Run("RoleLost", func(t *testing.T) {
		st := *f.svc.Settings()
		st.Roles.Commissioners = []string{comm2} // comm leaves the commission
		f.svc.Configure(st)
		status, body, _ := f.get(t, http.MethodGet, "/calendar/"+token+".ics")
		if status != http.StatusNotFound || strings.Contains(body, "BEGIN:VCALENDAR") {
			t.Errorf("feed of a member without a role: %d, want 404", status)
		}
	})
}

// TestMeetingEventsSessions: a recessed hearing's sessions keep their UIDs when the
// hearing recesses again, a rescheduled meeting keeps its UID, and a cancelled one leaves
// the feed.
func TestMeetingEventsSessions(t *testing.T) {
	at := func(s string) time.Time { return chicago(t, s) }
	c := &docket.Case{Number: "2026-007"}
	c.Hearing = docket.Meeting{Start: at("2026-12-28T10:00"), Place: "Council Chambers", Closed: true,
		Authority: "5 ILCS 120/2(c)(4)"}
	c.Reconvened = docket.Meeting{Start: at("2027-01-04T10:00"), Place: "Council Chambers",
		ScheduledAt: at("2026-12-28T12:00")}
	before := web.MeetingEvents(c, "h")
	wantBefore := []string{"2026-007-meeting-hearing@h", "2026-007-meeting-recessed_hearing-1@h"}
	if got := eventUIDs(before); !slices.Equal(got, wantBefore) {
		t.Errorf("UIDs %v, want %v", got, wantBefore)
	}
	if !strings.Contains(before[0].Description, "Closed to the public under 5 ILCS 120/2(c)(4).") {
		t.Errorf("closed hearing: %q", before[0].Description)
	}
	if before[1].Summary != "2026-007 · (D) recessed hearing, session 1" ||
		!before[1].Modified.Equal(at("2026-12-28T12:00")) {
		t.Errorf("session: %+v", before[1])
	}

	// (E): it recesses again; session 1 is now held, session 2 is scheduled.
	c.Sessions = []docket.Meeting{c.Reconvened}
	c.Reconvened = docket.Meeting{Start: at("2027-01-11T10:00"), Place: "Council Chambers"}
	want := append(wantBefore, "2026-007-meeting-recessed_hearing-2@h")
	if got := eventUIDs(web.MeetingEvents(c, "h")); !slices.Equal(got, want) {
		t.Errorf("after a second recess: %v, want %v", got, want)
	}

	// Rescheduled: same UID, new time; cancelled: gone.
	c.Reconvened.Start = at("2027-01-12T10:00")
	if got := web.MeetingEvents(c, "h"); got[2].UID != want[2] || !got[2].Start.Equal(at("2027-01-12T10:00")) {
		t.Errorf("rescheduled: %+v", got[2])
	}
	c.Reconvened = docket.Meeting{}
	if got := eventUIDs(web.MeetingEvents(c, "h")); len(got) != 2 {
		t.Errorf("cancelled session still listed: %v", got)
	}
}

func eventUIDs(es []web.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.UID)
	}
	return out
}
