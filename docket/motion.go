package docket

import "slices"

// wordMotions words each motion of r on a case's act as the act moves it (Voted.Motion),
// from the event that recorded its roll call: the act as last corrected, with the acts
// recorded right after it at the same instant, up to the next motion (a hearing set with
// the ruling), and the case as it now stands. A roll call is known by its case, its kind,
// its instant and the roll itself. One the record cannot match to its event (a roll call
// recorded before its instant was kept) keeps the words it was recorded with.
func (r *MinutesRecord) wordMotions(e *Engine, cases map[string]*Case, records map[string][]Entry) {
	for i := range r.Entries {
		en := &r.Entries[i]
		c := cases[en.Item.Case]
		if en.Item.Kind != CaseItem || c == nil {
			continue
		}
		used := map[int]bool{}
		for j := range en.Motions {
			mo := &en.Motions[j]
			act, with, ok := votedAs(records[en.Item.Case], *mo, used)
			if !ok {
				continue
			}
			mo.Words = act.Motion(Wording{Loc: e.Cal.Location(), Ord: e.Ord, At: mo.At, After: c, With: with})
			mo.Text = mo.Words.String()
		}
	}
}

// votedAs finds, among a case's entries, the act whose roll call motion mo records, and
// the acts recorded with it: those that follow it at the same instant. Voided entries are
// left out, corrected ones read as corrected, and an entry in used is not matched twice.
func votedAs(entries []Entry, mo MeetingMotion, used map[int]bool) (Voted, []Action, bool) {
	if mo.At.IsZero() || mo.Roll == nil {
		return nil, nil, false
	}
	voided := map[int]bool{}
	for _, en := range entries {
		if v, ok := en.Action.(Void); ok {
			voided[v.Seq] = true
		}
	}
	effective := func(en Entry) Action {
		if voided[en.Seq] {
			return nil
		}
		if _, ok := en.Action.(Amending); ok {
			return nil
		}
		act, err := Effective(entries, en.Seq)
		if err != nil {
			return nil
		}
		return act
	}
	for i, en := range entries {
		act, ok := effective(en).(Voted)
		if !ok || used[en.Seq] || !en.At.Equal(mo.At) || act.Kind() != mo.Action || act.Roll() == nil ||
			!sameRoll(*act.Roll(), *mo.Roll) {
			continue
		}
		used[en.Seq] = true
		var with []Action
		for _, next := range entries[i+1:] {
			a := effective(next)
			if _, another := a.(Voted); !next.At.Equal(en.At) || another {
				break // a later step, or the next motion
			}
			if a != nil {
				with = append(with, a)
			}
		}
		return act, with, true
	}
	return nil, nil, false
}

// sameRoll reports whether two records of a roll call are the same roll call.
func sameRoll(a, b Vote) bool {
	return slices.Equal(a.Seated, b.Seated) && slices.Equal(a.Yes, b.Yes) && slices.Equal(a.No, b.No) &&
		slices.Equal(a.Abstain, b.Abstain) && slices.Equal(a.Absent, b.Absent) && slices.Equal(a.Recused, b.Recused) &&
		a.Quorum == b.Quorum && a.Carry == b.Carry
}
