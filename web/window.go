package web

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"ethicsbot/docket"
)

// The front page and the calendar feed are made from a bounded window of the record, so
// that what a change costs them does not grow with the record: at 10,000 complaints a year
// the whole year is 20,000 public records and as many meetings, and making them again at
// each change cost a second. Each lists what happens from the day of its nth latest
// record that has happened (and everything to come); what is older is on its year's page,
// which keeps every record. A commission of a few hundred complaints a year has fewer
// records than that in the window's span, and sees the page as before.

// The windows, counted in the public records that have happened when a page is made: the
// front page lists its past meetings and outcomes from the day of the 100th latest, the
// calendar feed its meetings from the day of the 1,000th latest, within the spans the pages
// give (90 days, twelve months).
const (
	frontRecords    = 100
	calendarRecords = 1000
)

// Steps is what the board reads to fold the meetings of a window from the case steps of
// that window only, instead of from every case's (store.Store is one): the steps of the
// cases changed since an event, and the fold of given steps with the meetings recorded
// (read once per page, with RecordedMeetings).
type Steps interface {
	StepsSince(ctx context.Context, after int64) (map[string][]docket.ScheduledStep, int64, error)
	FoldSteps(recorded []docket.CommissionMeeting, steps []docket.ScheduledStep) []docket.CommissionMeeting
}

// keptSteps are the case steps scheduled at meetings, by case, as of the record's event
// last: the record only grows, so they are brought up to date by reading the steps of the
// cases changed since.
type keptSteps struct {
	mu     sync.Mutex
	last   int64
	byCase map[string][]docket.ScheduledStep
}

// windowFrom is where a window of n records begins at now, no earlier than floor: the start
// of the day, in the commission's zone, of the nth latest public record that has happened
// by now; floor if fewer have happened since floor. It reports whether the window leaves
// out records after floor.
func (b *Board) windowFrom(ctx context.Context, now, floor time.Time, n int) (time.Time, bool, error) {
	cut, err := b.Records.PublicCut(ctx, now, n)
	if err != nil || cut.IsZero() {
		return floor, false, err
	}
	if from := dayOf(cut, b.Loc); from.After(floor) {
		return from, true, nil
	}
	return floor, false, nil
}

// dayOf is the start of t's day in loc: its first instant, where the clocks skip its
// midnight too (docket.Date.In).
func dayOf(t time.Time, loc *time.Location) time.Time {
	return docket.DateIn(t, loc).In(loc)
}

// windowView is view for the records recs of a window that begins at from (zero: none but
// the records' own), among the meetings folded from the case steps of the window's whole
// days and of the instants at: the meetings of those days are as the whole record has
// them (store.FoldSteps). Every recorded meeting holds its case steps, whatever its day,
// and the meetings at the starts of the regular schedule are folded, for its rows.
func (b *Board) windowView(ctx context.Context, recs []docket.Posting, now time.Time, root string, from time.Time,
	at []time.Time) (view, error) {
	st, ok := b.Records.(Steps)
	if !ok {
		return b.view(ctx, recs, now, root)
	}
	stored, err := b.recorded(ctx)
	if err != nil {
		return view{}, err
	}
	instants := map[int64]bool{}
	for _, t := range slices.Concat(at, b.regularStarts(b.schedule())) {
		instants[t.UnixNano()] = true
	}
	for _, r := range recs {
		if !r.Start.IsZero() {
			instants[r.Start.UnixNano()] = true
		}
	}
	for i := range stored {
		instants[stored[i].Start.UnixNano()] = true
	}
	if !from.IsZero() {
		from = dayOf(from, b.Loc)
	}
	steps, err := b.stepsWhere(ctx, st, func(t time.Time) bool {
		return !from.IsZero() && !t.Before(from) || instants[t.UnixNano()]
	})
	if err != nil {
		return view{}, err
	}
	return b.viewOf(st.FoldSteps(stored, steps), recs, now, root), nil
}

// recorded are the meetings recorded as such, if the record keeps them.
func (b *Board) recorded(ctx context.Context) ([]docket.CommissionMeeting, error) {
	if rm, ok := b.Records.(interface {
		RecordedMeetings(ctx context.Context) ([]docket.CommissionMeeting, error)
	}); ok {
		return rm.RecordedMeetings(ctx)
	}
	return nil, nil
}

// stepsWhere brings the kept case steps up to date and gives those whose meeting's start
// keep takes, by case number and each case's in its order, as the fold takes them.
func (b *Board) stepsWhere(ctx context.Context, st Steps, keep func(time.Time) bool) ([]docket.ScheduledStep, error) {
	k := &b.steps
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.byCase == nil {
		k.byCase, k.last = map[string][]docket.ScheduledStep{}, 0
	}
	// The record is only appended to while the board serves it (a restore needs the bot
	// stopped: store's lock), so the events after the last one read are all that changed.
	changed, last, err := st.StepsSince(ctx, k.last)
	if err != nil {
		return nil, err
	}
	for number, steps := range changed {
		if len(steps) == 0 {
			delete(k.byCase, number)
			continue
		}
		k.byCase[number] = steps
	}
	k.last = last
	var out []docket.ScheduledStep
	for _, steps := range k.byCase {
		for _, s := range steps {
			if keep(s.Start) {
				out = append(out, s)
			}
		}
	}
	// By case number, each case's in its own order (the sort is stable).
	slices.SortStableFunc(out, func(a, c docket.ScheduledStep) int { return strings.Compare(a.Item.Case, c.Item.Case) })
	return out, nil
}
