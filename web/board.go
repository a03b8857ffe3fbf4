package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/singleflight"

	"ethicsbot/docket"
)

// Records is what the board reads: the public records the store keeps, with when each
// first appeared on the board; store.Store is one.
type Records interface {
	PublicOf(ctx context.Context, number string) ([]docket.Posting, error)
	PublicBetween(ctx context.Context, from, to time.Time) ([]docket.Posting, error)
	LatestPosted(ctx context.Context, n int) ([]docket.Posting, error)
	// PublicVersion changes whenever the record does: the board makes a page again then.
	PublicVersion(ctx context.Context) (int64, error)
	PublicYears(ctx context.Context, loc *time.Location) ([]int, error)
	// PublicCut is when the nth latest record that has happened by before happens (zero if
	// fewer have): where a bounded page's window begins (window.go).
	PublicCut(ctx context.Context, before time.Time, n int) (time.Time, error)
	// PublicWithdrawnBetween are the notices withdrawn (cancelled or moved) of the meetings
	// in [from, to).
	PublicWithdrawnBetween(ctx context.Context, from, to time.Time) ([]docket.Posting, error)
}

// Figures is the public part of a year's annual report, as a year's page shows it;
// report.PublicReport is one. The page's template reads its counts by name: Year,
// Received, Parts, TwoPart, DeadlinesMet, DeadlinesMissed, Outcomes (Name, Rule, Parts),
// Fines (Name, Rule, Count, Total), and the chart's figures month by month, Monthly
// (Columns, and Rows of Month and Counts).
type Figures interface {
	// Empty reports whether the year counted nothing: no complaint, no deadline.
	Empty() bool
	// Chart draws the year's figures, as PNG.
	Chart() ([]byte, error)
}

// Board is the commission's public notice board: the meetings it has noticed, with their
// agendas, and the outcomes the ordinance makes public under (C)(2), (E) and (F).
type Board struct {
	Records    Records
	Commission string // the commission's name, as its letters give it
	Address    string // its principal office, one or more lines
	URL        string // where the board is published, e.g. "https://ethics.example.gov/"; feeds need it absolute
	// URLNow, if set, gives URL as it is now: public_url, which a reload may change.
	URLNow func() string
	Loc    *time.Location   // the commission's time zone
	Now    func() time.Time // the clock that splits upcoming from past
	Log    *slog.Logger
	// Figures, if set, gives the public part of a year's annual report, as of now: the
	// page of a year that has ended shows it, with its chart. It is report.PublicOf, which
	// counts only the complaints the ordinance has made known.
	Figures func(ctx context.Context, year int, now time.Time) (Figures, error)
	// Regular, if set, gives the year's schedule of regular meetings in force (5 ILCS
	// 120/2.03; regular.go), which a reload may change.
	Regular func() docket.RegularSchedule
	// Papers, if set, draws the PDF of a meeting's agenda as posted and of its approved
	// minutes, which the meeting's pages offer (meetingpage.go).
	Papers Papers

	mu     sync.Mutex
	cache  map[string]rendered // by file name
	making singleflight.Group  // the files being made, by name and version: one making serves every reader
	steps  keptSteps           // the case steps the front page and the calendar feed fold (window.go)
	texts  EventTexts          // the calendar feed's events as written
}

// How far back the front page looks; earlier records are in the yearly archive.
const (
	recentMeetings = 90 * 24 * time.Hour
	recentOutcomes = 365 * 24 * time.Hour
	recentChanges  = 30 * 24 * time.Hour
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"day":     func(t time.Time) string { return t.Format("Monday 2 January 2006") },
	"clock":   func(t time.Time) string { return t.Format("15:04 MST") },
	"stamp":   func(t time.Time) string { return t.Format("Mon 2 Jan 2006, 15:04 MST") },
	"iso":     func(t time.Time) string { return t.Format(time.RFC3339) },
	"isoDate": func(d docket.Date) string { return d.String() },
	"long":    func(d docket.Date) string { return d.In(time.UTC).Format("Monday 2 January 2006") },
	"dollars": dollars,
	"words":   func(s string) string { return strings.ReplaceAll(s, "_", " ") },
	"list":    func(es []entry, empty string) listing { return listing{es, empty} },
	"add":     func(a, b int) int { return a + b },
	"cap":     capitalize,
	"access":  docket.Access,
}).ParseFS(templateFS, "templates/*.html"))

// entry is one record as a page shows it.
type entry struct {
	docket.Posting
	Title  string // "Sufficiency meeting", "Decision (E)"
	Anchor string // its id on the case's page
	Past   bool   // a meeting that has begun
	Root   string // the path from the page it is on to the board's root

	// A meeting of the commission: the notices of the case steps held at one
	// start and place are one card, with the meeting's whole agenda. Cases are the cases
	// whose steps it holds, in order; Name is the meeting's name, if recorded.
	Cases []string
	Name  string
	// Opening and Closing are the parts of every meeting its agenda shows, unnumbered,
	// before and after the numbered items that are its business (docket.Frame).
	Opening, Closing []string
	// MinutesApproved and MinutesPublished are when the meeting's open minutes were
	// approved and made public (5 ILCS 120/2.06(b)), zero until then: its minutes' page has
	// them. Closed minutes are never published here.
	MinutesApproved  docket.Date
	MinutesPublished time.Time
	// Corrections are the corrections of the held meeting's own record, its place or its
	// start, made after its minutes were published, each in its words
	// (docket.MeetingCorrection.Words): the minutes as published are not rewritten, so the
	// corrections are shown with them.
	Corrections []string
	// UID is the card's event in the public calendar feed: a recorded meeting's name, which
	// it keeps through its moves; else its first case step's (SeriesKey), so that a
	// calendar keeps the event it had.
	UID string
	// Held names the recorded meeting whose posted agenda holds this case step's notice,
	// which is dated by that posting; Of the recorded meeting whose move or cancellation
	// withdrew it. The meeting's card tells both, outside the case's own page.
	Held, Of string
	// Amended is when a recorded meeting's agenda was last posted again, amended; zero if
	// it was posted once.
	Amended time.Time
	// Seq and Modified are the card's calendar event's SEQUENCE and LAST-MODIFIED (RFC
	// 5545): the changes to the meeting since its first notice, and when it last changed.
	Seq      int
	Modified time.Time
	// Page is a recorded meeting's own page, from the board's root, once its agenda is
	// posted (meetingPage).
	Page string
}

// Meetings is what the board reads of the commission's meetings, if its Records has them
// (store.Store does): the meetings with their whole agendas, folded with the case steps.
type Meetings interface {
	Meetings(ctx context.Context) ([]docket.CommissionMeeting, error)
}

// listing is a list of entries, and what to say when it is empty.
type listing struct {
	Entries []entry
	Empty   string
}

// page is what a template is given.
type page struct {
	Title      string
	Heading    string
	Root       string // the path from this page to the board's root: "" or "../"
	Commission string
	Address    []string
	Generated  time.Time
	Upcoming   []entry // meetings to come
	Changed    []entry // notices of meetings cancelled or moved
	Past       []entry // meetings held
	Outcomes   []entry // (C)(2), (E) and (F) records
	Years      []int   // the archive
	// PastFrom and OutcomesFrom, when not zero, are where the front page's window leaves
	// out earlier past meetings and outcomes of its spans (window.go).
	PastFrom, OutcomesFrom time.Time
	Case                   string // a case's page
	Year                   int    // a year's page
	Figures                Figures
	Regular                []regularYear // the schedules of regular meetings (regular.go)
	// A recorded meeting's pages (meetingpage.go): its card, what happened to its notice,
	// its published minutes, and whether the PDF of its agenda and minutes are offered.
	Meeting    *entry
	History    []change
	Minutes    []minutesBlock
	AgendaPDF  bool
	MinutesPDF bool
	Released   *released // the release of its closed minutes by a review (2.06(d)), if any
}

// Handler returns the board's routes: the front page, a page per case with public
// records, a page per year with its chart, and the feeds; the same files Publish writes.
func (b *Board) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "the board is read-only", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		b.serve(w, r, name)
	})
}

// errNotFound is a page the board does not have. A case with nothing public and a case
// that does not exist get the same answer, so the board reveals nothing of either.
var errNotFound = errors.New("not found")

// rendered is a file as last made, and what it was made from: the record as of an event,
// and the minute (which splits upcoming from past).
type rendered struct {
	made       string
	body, gzip []byte
	ctype      string
}

// serve writes the file name, with headers that keep the page inert: no scripts, no
// framing, no guessing of types. A file is made once per change to the record and per
// minute, and sent compressed to a client that takes gzip.
func (b *Board) serve(w http.ResponseWriter, r *http.Request, name string) {
	h := w.Header()
	h.Set("Content-Security-Policy",
		"default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; "+
			"form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	f, err := b.file(r.Context(), name)
	switch {
	case errors.Is(err, errNotFound):
		root := b.url() // the page may be at any depth: its links start at the board's address
		if root == "" {
			root = "/"
		}
		body, _, _ := b.page("notfound.html",
			page{Title: "Not found", Heading: "Not found", Root: root, Commission: b.base("", "", "", time.Time{}).Commission})
		h.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write(body)
		return
	case err != nil:
		// A making's failure was reported once by the making, for all its readers; a reader
		// who went away (or whose request was otherwise ended) is no failure of the board.
		if !errors.As(err, new(makingError)) && r.Context().Err() == nil {
			b.logger().Error("board: a page could not be made", "path", r.URL.Path, "err", err)
		}
		h.Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "The notice board is unavailable just now; the notices are also posted at the commission's office.")
		return
	}
	body, etag := f.body, `"`+f.made+`"`
	if f.gzip != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body, etag = f.gzip, `"`+f.made+`-gz"` // another representation, another tag
	}
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", etag)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: named, and not with
// q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// file makes name, or gives it as made before from the same record in the same minute.
func (b *Board) file(ctx context.Context, name string) (rendered, error) {
	version, err := b.Records.PublicVersion(ctx)
	if err != nil {
		return rendered{}, err
	}
	made := fmt.Sprintf("%d-%d", version, b.Now().Unix()/60)
	kept := func() (rendered, bool) {
		b.mu.Lock()
		defer b.mu.Unlock()
		f, ok := b.cache[name]
		return f, ok && f.made == made
	}
	if f, ok := kept(); ok {
		return f, nil
	}
	// Readers who ask at once for a file not yet made wait for one making of it: after a
	// change, a crawler's requests for a large year's page would otherwise each make it.
	// A reader who goes away stops waiting; the making goes on for the others, and is kept
	// for the next reader, within makingLimit.
	ch := b.making.DoChan(made+" "+name, func() (any, error) {
		if f, ok := kept(); ok {
			return f, nil // made by a making that ended since this reader looked
		}
		mctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), makingLimit)
		defer cancel()
		return b.makeFile(mctx, name, made)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return rendered{}, res.Err
		}
		return res.Val.(rendered), nil
	case <-ctx.Done():
		return rendered{}, ctx.Err()
	}
}

// makingLimit bounds a making that its readers may all have left: a file is made anew
// each minute anyway.
const makingLimit = time.Minute

// makingError is a making's failure, which the making reported once for all its readers.
type makingError struct{ err error }

func (e makingError) Error() string { return e.err.Error() }
func (e makingError) Unwrap() error { return e.err }

// makeFile makes the file at name, as of made, and keeps it. Its failure is reported here,
// once, whether its readers are still there or not. A making that panics is a failure of
// that file, reported with its stack, and its readers are told the board is unavailable:
// a panic in a making shared by readers (DoChan) would otherwise end the process.
func (b *Board) makeFile(ctx context.Context, name, made string) (f rendered, err error) {
	defer func() {
		if p := recover(); p != nil {
			b.logger().Error("board: making a page panicked", "page", name, "panic", p, "stack", string(debug.Stack()))
			f, err = rendered{}, makingError{fmt.Errorf("making %s failed: %v", name, p)}
		}
	}()
	body, ctype, err := b.render(ctx, name)
	if errors.Is(err, errNotFound) {
		return rendered{}, err
	}
	if err != nil {
		b.logger().Error("board: a page could not be made", "page", name, "err", err)
		return rendered{}, makingError{err}
	}
	f = rendered{made: made, body: body, ctype: ctype}
	if !strings.HasPrefix(ctype, "image/") && ctype != "application/pdf" { // already compressed
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
		zw.Write(body)
		zw.Close()
		f.gzip = z.Bytes()
	}
	b.mu.Lock()
	if b.cache == nil || len(b.cache) >= maxCached {
		b.cache = map[string]rendered{}
	}
	b.cache[name] = f
	b.mu.Unlock()
	return f, nil
}

// maxCached bounds the files kept made: the front page, the feeds and the pages most
// read; past it the cache starts afresh.
const maxCached = 256

// url is where the board is published, ending in "/".
func (b *Board) url() string {
	if b.URLNow != nil {
		return b.URLNow()
	}
	return b.URL
}

func (b *Board) logger() *slog.Logger {
	if b.Log != nil {
		return b.Log
	}
	return slog.Default()
}

var (
	caseFile  = regexp.MustCompile(`^cases/(\d{4}-\d{3,6})\.html$`)
	yearFile  = regexp.MustCompile(`^archive/(\d{4})\.html$`)
	chartFile = regexp.MustCompile(`^archive/(\d{4})\.png$`)
)

// render makes the file at name, relative to the board's root, and gives its content type:
// the one function behind both the live board and `ethicsbot publish`.
func (b *Board) render(ctx context.Context, name string) ([]byte, string, error) {
	now := b.Now().In(b.Loc)
	switch {
	case name == "index.html":
		return b.index(ctx, now)
	case name == "feed.atom":
		return b.atom(ctx, now)
	case name == "meetings.ics":
		return b.meetingsICS(ctx, now)
	case strings.HasPrefix(name, "meetings/"):
		return b.meetingFile(ctx, now, name)
	case caseFile.MatchString(name):
		return b.casePage(ctx, now, caseFile.FindStringSubmatch(name)[1])
	case yearFile.MatchString(name):
		year, _ := strconv.Atoi(yearFile.FindStringSubmatch(name)[1])
		return b.yearPage(ctx, now, year)
	case chartFile.MatchString(name):
		year, _ := strconv.Atoi(chartFile.FindStringSubmatch(name)[1])
		years, err := b.years(ctx, nil)
		if err != nil {
			return nil, "", err
		}
		fig, err := b.figures(ctx, year, years, now)
		if err != nil {
			return nil, "", err
		}
		if fig == nil {
			return nil, "", errNotFound
		}
		png, err := fig.Chart()
		return png, "image/png", err
	}
	return nil, "", errNotFound
}

// index is the front page: the meetings to come, those cancelled or moved in the last 30
// days, and the meetings held and the outcomes made public of a bounded window (window.go)
// within the last 90 days and the last twelve months; the year's page keeps the rest.
func (b *Board) index(ctx context.Context, now time.Time) ([]byte, string, error) {
	from, cut, err := b.windowFrom(ctx, now, now.Add(-recentOutcomes), frontRecords)
	if err != nil {
		return nil, "", err
	}
	recs, err := b.Records.PublicBetween(ctx, from, time.Time{})
	if err != nil {
		return nil, "", err
	}
	// A meeting cancelled or moved stays shown among the cancelled and moved for 30 days
	// (5 ILCS 120/2.02), whatever the window.
	if changed := now.Add(-recentChanges); from.After(changed) {
		withdrawn, err := b.Records.PublicWithdrawnBetween(ctx, changed, from)
		if err != nil {
			return nil, "", err
		}
		recs = append(withdrawn, recs...)
	}
	v, err := b.windowView(ctx, recs, now, "", from, nil)
	if err != nil {
		return nil, "", err
	}
	p := b.base("Public notices", "Public notice board", "", now)
	b.sort(&p, v.entries, false)
	b.group(&p, v, now, now.Add(-recentMeetings), time.Time{})
	// The front page keeps the recent past; the rest is in the archive.
	p.Changed = since(p.Changed, now.Add(-recentChanges))
	p.Past = since(p.Past, now.Add(-recentMeetings))
	if cut {
		p.OutcomesFrom = from
		if from.After(now.Add(-recentMeetings)) {
			p.PastFrom = from
			p.Past = slices.DeleteFunc(p.Past, func(e entry) bool { return e.Start.Before(from) })
		}
	}
	reverse(p.Past)
	reverse(p.Outcomes)
	if p.Years, err = b.years(ctx, v.meetings); err != nil {
		return nil, "", err
	}
	p.Regular = b.regular(&p, now.Year(), v.meetings)
	return b.page("index.html", p)
}

func (b *Board) casePage(ctx context.Context, now time.Time, number string) ([]byte, string, error) {
	recs, err := b.Records.PublicOf(ctx, number)
	if err != nil {
		return nil, "", err
	}
	// The meetings the case's notices stand at, not every meeting: a crawler that reads
	// every case's page after a change would otherwise fold every meeting for each.
	v, err := b.windowView(ctx, recs, now, "../", time.Time{}, nil)
	if err != nil {
		return nil, "", err
	}
	if len(v.entries) == 0 {
		return nil, "", errNotFound
	}
	p := b.base("Case "+number, "Case "+number, "../", now)
	p.Case = number
	b.sort(&p, v.entries, true)
	return b.page("case.html", p)
}

func (b *Board) yearPage(ctx context.Context, now time.Time, year int) ([]byte, string, error) {
	from := time.Date(year, time.January, 1, 0, 0, 0, 0, b.Loc)
	recs, err := b.Records.PublicBetween(ctx, from, from.AddDate(1, 0, 0))
	if err != nil {
		return nil, "", err
	}
	// The meetings the year's notices stand at and the recorded ones, as on a case's page:
	// not every meeting of every year, folded again at each change.
	v, err := b.windowView(ctx, recs, now, "../", time.Time{}, nil)
	if err != nil {
		return nil, "", err
	}
	p := b.base(fmt.Sprintf("%d", year), fmt.Sprintf("Notices and decisions of %d", year), "../", now)
	p.Year = year
	b.sort(&p, v.entries, false)
	b.group(&p, v, now, from, from.AddDate(1, 0, 0))
	if len(p.Outcomes)+len(p.Past)+len(p.Upcoming)+len(p.Changed) == 0 {
		return nil, "", errNotFound
	}
	if p.Years, err = b.years(ctx, v.meetings); err != nil {
		return nil, "", err
	}
	if p.Figures, err = b.figures(ctx, year, p.Years, now); err != nil {
		return nil, "", err
	}
	return b.page("year.html", p)
}

// itemWithdrawn marks a case step's notice withdrawn from the agenda of a meeting that is
// held all the same: the public record says its meeting is cancelled, but the commission's
// meeting at that time and place goes on.
const itemWithdrawn = "withdrawn"

// sort files entries into a page's lists, in the order they happen. own is a case's page,
// which shows each of its records as its own; elsewhere a case step's notice held by a
// recorded meeting, or withdrawn by its move or cancellation, is told by the meeting's card
// (group).
func (b *Board) sort(p *page, es []entry, own bool) {
	// Each list is given its size first: an entry is large, and a year's page has
	// thousands, which growing lists would copy again and again.
	lists := [...]*[]entry{&p.Outcomes, &p.Changed, &p.Past, &p.Upcoming}
	var n [len(lists)]int
	for i := range es {
		if l := listOf(&es[i], own); l >= 0 {
			n[l]++
		}
	}
	for l, c := range n {
		if c > 0 {
			*lists[l] = slices.Grow(*lists[l], c)
		}
	}
	for i := range es {
		if l := listOf(&es[i], own); l >= 0 {
			*lists[l] = append(*lists[l], es[i])
		}
	}
}

// listOf is which of sort's lists e goes to: 0 the outcomes, 1 the cancelled and moved,
// 2 the past meetings, 3 those to come; -1 none, for a case step's notice that its
// meeting's card tells (own: a case's page, where every record is shown as its own).
func listOf(e *entry, own bool) int {
	switch {
	case e.Record != "meeting_notice":
		return 0
	case !own && (e.Held != "" || e.Of != ""):
		return -1
	case e.Withdrawn != "":
		return 1
	case e.Past:
		return 2
	}
	return 3
}

// group makes the notices of the case steps held at one start and place one card: the
// meeting of the commission, with its whole agenda. A recorded meeting has a
// card of its own once its agenda is posted, made from its record (recordedCard), with the
// case steps its posted agenda holds; a cancelled one is among the cancelled and moved.
// Each record is kept, with the time it first reached the board, on its case's page. from
// and to bound the meetings a card is made for (to zero: no bound).
func (b *Board) group(p *page, v view, now, from, to time.Time) {
	merge := func(es []entry) []entry {
		var out []entry
		at := map[string]int{}
		for _, e := range es {
			k := e.Start.UTC().Format(time.RFC3339) + "|" + e.Place
			i, ok := at[k]
			if !ok {
				e.Cases, e.UID = []string{e.Case}, e.Case+"-"+anchorOf(e.SeriesKey())
				out = append(out, e)
				at[k] = len(out) - 1
				continue
			}
			g := &out[i]
			g.Cases = append(g.Cases, e.Case)
			g.Agenda = append(g.Agenda, e.Agenda...)
			g.Closed = g.Closed && e.Closed
			if e.Posted.Before(g.Posted) {
				g.Posted = e.Posted
			}
			g.Seq, g.Modified = max(g.Seq, e.Seq), later(g.Modified, e.Modified)
		}
		for i := range out {
			e := &out[i]
			m := v.at(e.Start, e.Place)
			if len(e.Cases) == 1 {
				e.Cases = nil // a meeting of one case step, as before meetings were kept
				continue
			}
			b.meetingCard(e, m)
		}
		return out
	}
	p.Upcoming, p.Past = merge(p.Upcoming), merge(p.Past)
	for i := range v.meetings {
		m := &v.meetings[i]
		if m.Folded || len(m.Postings) == 0 || m.Start.Before(from) || !to.IsZero() && !m.Start.Before(to) {
			continue
		}
		e := b.recordedCard(m, now, p.Root)
		switch {
		case e.Withdrawn != "":
			p.Changed = append(p.Changed, e)
		case e.Past:
			p.Past = append(p.Past, e)
		default:
			p.Upcoming = append(p.Upcoming, e)
		}
	}
	byStart := func(a, c entry) int { return a.Start.Compare(c.Start) }
	slices.SortStableFunc(p.Upcoming, byStart)
	slices.SortStableFunc(p.Past, byStart)
	slices.SortStableFunc(p.Changed, byStart)
}

// meetingCard makes e the card of meeting m of the commission (nil: a record without the
// meetings): its title, its anchor, and its one order of business: the agenda as last
// posted (postedAgenda).
func (b *Board) meetingCard(e *entry, m *docket.CommissionMeeting) {
	e.Title = "Meeting of the commission"
	e.Anchor = "meeting-" + e.Start.In(b.Loc).Format("2006-01-02-1504")
	e.Rule = docket.OMANotice
	if m == nil {
		return
	}
	e.Name, e.Anchor, e.Title = m.Name, "meeting-"+m.Name, meetingTitle(m)
	if isPublic(m) {
		e.Page = meetingPage(m.Name)
	}
	e.Agenda, e.Closed = postedAgenda(m), false
	e.Opening, e.Closing = agendaFrame(lastPosted(m))
	if !m.Published.IsZero() {
		e.MinutesApproved, e.MinutesPublished = m.Minutes.Approved, m.Published.In(b.Loc)
		for _, c := range m.Corrections {
			if c.At.After(m.Published) { // one made before is in the minutes as published
				e.Corrections = append(e.Corrections, c.Words(b.Loc))
			}
		}
	}
	if len(m.Postings) > 0 {
		if p := m.Postings[0].At.In(b.Loc); len(e.Cases) == 0 || p.Before(e.Posted) {
			e.Posted = p
		}
	}
}

func (b *Board) base(title, heading, root string, now time.Time) page {
	name := b.Commission
	if name == "" {
		name = "Ethics Commission"
	}
	var address []string
	for _, line := range strings.Split(b.Address, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			address = append(address, line)
		}
	}
	return page{Title: title + " · " + name, Heading: heading, Root: root, Commission: name, Address: address,
		Generated: now}
}

// years lists the years with public records or a meeting whose agenda was posted, newest
// first.
func (b *Board) years(ctx context.Context, meetings []docket.CommissionMeeting) ([]int, error) {
	years, err := b.Records.PublicYears(ctx, b.Loc)
	if err != nil {
		return nil, err
	}
	for i := range meetings {
		if y := meetings[i].Start.In(b.Loc).Year(); isPublic(&meetings[i]) && !slices.Contains(years, y) {
			years = append(years, y)
		}
	}
	slices.SortFunc(years, func(a, c int) int { return c - a })
	return years, nil
}

// figures is the public part of year's annual report, when the board shows it: for a year
// with public records that has ended, so that no count moves when a confidential
// complaint is filed.
func (b *Board) figures(ctx context.Context, year int, years []int, now time.Time) (Figures, error) {
	if b.Figures == nil || year >= now.In(b.Loc).Year() || !slices.Contains(years, year) {
		return nil, nil
	}
	fig, err := b.Figures(ctx, year, now)
	if err != nil || fig == nil || fig.Empty() {
		return nil, err
	}
	return fig, nil
}

// entry names a record for a page.
func (b *Board) entry(r docket.Posting, now time.Time, root string) entry {
	r.Start, r.MovedTo, r.Posted = r.Start.In(b.Loc), r.MovedTo.In(b.Loc), r.Posted.In(b.Loc)
	r.WithdrawnAt, r.Moves = r.WithdrawnAt.In(b.Loc), b.inZone(r.Moves)
	e := entry{Posting: r, Title: title(r.PublicRecord), Anchor: anchor(r.PublicRecord), Root: root,
		Seq: r.Sequence(), Modified: r.Posted}
	e.Past = r.Record == "meeting_notice" && !r.Start.After(now)
	return e
}

// inZone gives moves in the commission's zone, as a page prints them.
func (b *Board) inZone(moves []docket.Moved) []docket.Moved {
	out := slices.Clone(moves)
	for i := range out {
		out[i].Start, out[i].At = out[i].Start.In(b.Loc), out[i].At.In(b.Loc)
	}
	return out
}

// title is a record's heading: "Sufficiency meeting", "Decision (E)".
func title(r docket.PublicRecord) string {
	switch r.Record {
	case "meeting_notice":
		return capitalize(r.Meeting.Name())
	case "dismissal":
		if r.Section != "" {
			return "Dismissal of the §" + r.Section + " part " + r.Rule
		}
		return "Dismissal " + r.Rule
	case "decision":
		return "Decision " + r.Rule
	case "final_recommendation":
		return "Final recommendation " + r.Rule
	}
	return r.Record
}

// capitalize puts a capital to the first letter of s: "Sufficiency meeting".
func capitalize(s string) string {
	if s == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// anchor is a record's id on its case's page, from its key: stable, and safe in a URL.
func anchor(r docket.PublicRecord) string {
	return anchorOf(r.Key())
}

// anchorOf is a key as an id, safe in a URL.
func anchorOf(key string) string {
	return strings.TrimSuffix(strings.NewReplacer(":", "-", ".", "-").Replace(key), "-")
}

func (b *Board) page(name string, p page) ([]byte, string, error) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, p); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), "text/html; charset=utf-8", nil
}

// since keeps the meetings that start after from.
func since(es []entry, from time.Time) []entry {
	return slices.DeleteFunc(es, func(e entry) bool { return !e.Start.After(from) })
}

func reverse(es []entry) {
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
}

// dollars writes a whole-dollar amount as "$1,001".
func dollars(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return "$" + s
}
