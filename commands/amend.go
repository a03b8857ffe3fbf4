package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// A correctable fact: the form's field, the actions that record it, and how to set it.
type fixable struct {
	field string
	kinds []string // the action kinds that record it, the first preferred
	// set changes act's fact to the value in a, and says the fact before and after.
	set func(s *Service, act docket.Action, a args) (docket.Action, string, string, error)
}

// fixables are the facts /ethics correct corrects, in the order help lists them.
var fixables = []fixable{
	{"received", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := f.Received
		f.Received = a.instant("received")
		return f, s.when(old), s.when(f.Received), nil
	}},
	{"violation", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := f.ViolationDate
		f.ViolationDate = a.date("violation")
		return f, dateText(old), dateText(f.ViolationDate), nil
	}},
	{"respondent", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := f.Respondent.Name
		f.Respondent.Name = a.str("respondent")
		return f, old, f.Respondent.Name, nil
	}},
	{"complainant", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := f.Complainant.Name
		f.Complainant.Name = a.str("complainant")
		return f, old, f.Complainant.Name, nil
	}},
	{"respondent_user", []string{"file"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			f := act.(docket.File)
			old := f.Respondent.SlackID
			f.Respondent.SlackID = a.str("respondent_user")
			return f, old, f.Respondent.SlackID, nil
		}},
	{"complainant_user", []string{"file"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			f := act.(docket.File)
			old := f.Complainant.SlackID
			f.Complainant.SlackID = a.str("complainant_user")
			return f, old, f.Complainant.SlackID, nil
		}},
	{"section", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := strings.Join(f.Sections, ", ")
		f.Sections = sectionList(a.str("section"))
		return f, old, strings.Join(f.Sections, ", "), nil
	}},
	{"summary", []string{"file"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		f := act.(docket.File)
		old := f.Summary
		f.Summary = a.str("summary")
		return f, old, f.Summary, nil
	}},
	{"election", []string{"file", "candidacy"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			// A switch on the action's type, as each row of this table sets a field of the acts
			// it names: an election is recorded as a list on the filing (G) and as one date on a
			// candidacy, and the row corrects whichever the event holds. What an act says is
			// the act's own (docket.Action.Did); this is the one switch on its type outside docket.
			switch x := act.(type) {
			case docket.File:
				if len(x.Elections) != 1 {
					return nil, "", "", docket.Invalid("(G)", "event",
						"the filing records no single election; name the candidacy's event with event=<n>")
				}
				old := x.Elections[0]
				x.Elections = []docket.Date{a.date("election")}
				return x, dateText(old), dateText(x.Elections[0]), nil
			case docket.AddCandidacy:
				old := x.Election
				x.Election = a.date("election")
				return x, dateText(old), dateText(x.Election), nil
			}
			return nil, "", "", nil
		}},
	{"article", []string{"mail"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		m := act.(docket.RecordMailing)
		article, err := docket.NormalizeArticle(a.str("article"))
		if err != nil {
			return nil, "", "", err
		}
		old := docket.CompactArticle(m.Article)
		m.Article = article
		return m, old, article, nil
	}},
	{"mailed", []string{"mail"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		m := act.(docket.RecordMailing)
		old := m.Mailed
		m.Mailed = a.date("mailed")
		return m, dateText(old), dateText(m.Mailed), nil
	}},
	{"returned", []string{"return_receipt"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			r := act.(docket.RecordReturnReceipt)
			old := r.Returned
			r.Returned = a.date("returned")
			return r, dateText(old), dateText(r.Returned), nil
		}},
	{"signer", []string{"return_receipt"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			r := act.(docket.RecordReturnReceipt)
			old := r.Signer
			r.Signer = a.str("signer")
			return r, old, r.Signer, nil
		}},
	{"outcome", []string{"undelivered"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			u := act.(docket.RecordUndelivered)
			old := u.Outcome
			u.Outcome = docket.MailOutcome(a.str("outcome"))
			if u.Next != "" {
				u.Next = s.Engine.Mail.After(u.Outcome) // the step the corrected outcome calls for
			}
			return u, string(old), string(u.Outcome), nil
		}},
	{"officer", []string{"officer"}, func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
		o := act.(docket.SetOfficer)
		key, err := s.officerKey(a.str("officer"))
		if err != nil {
			return nil, "", "", err
		}
		old := o.Officer
		o.Officer = key
		return o, old, key, nil
	}},
	partyFix("address"), partyFix("email"), partyFix("representative"), partyFix("representative_address"),
	{"start", []string{"schedule_meeting"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			m := act.(docket.ScheduleMeeting)
			old := m.Start
			m.Start = a.instant("start")
			return m, s.when(old), s.when(m.Start), nil
		}},
	{"place", []string{"schedule_meeting"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			m := act.(docket.ScheduleMeeting)
			old := m.Place
			m.Place = a.str("place")
			return m, old, m.Place, nil
		}},
	{"posted", []string{"post_notice"},
		func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			p := act.(docket.PostNotice)
			old := p.Posted
			p.Posted = a.instant("posted")
			return p, s.when(old), s.when(p.Posted), nil
		}},
}

// fixableFields lists the fields /ethics correct takes.
func fixableFields() []string {
	out := make([]string, len(fixables))
	for i, f := range fixables {
		out[i] = f.field
	}
	return out
}

func dateText(d docket.Date) string {
	if d.IsZero() {
		return "none"
	}
	return d.Long()
}

// sectionList reads "103.10, §103.05" as the sections alleged.
func sectionList(text string) []string {
	var out []string
	for _, sec := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		out = append(out, strings.TrimPrefix(sec, "§"))
	}
	return out
}

// runCorrect corrects one recorded fact of a case, with a reason, in the open.
func runCorrect(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if a.str("meeting_name") != "" {
		return runCorrectMeeting(s, ctx, req, a)
	}
	var fix *fixable
	for i := range fixables {
		if a.has(fixables[i].field) {
			if fix != nil {
				return Response{}, docket.Invalid("", fixables[i].field,
					fmt.Sprintf("correct one fact at a time: both %s= and %s= are given", fix.field, fixables[i].field))
			}
			fix = &fixables[i]
		}
	}
	if fix == nil {
		return Response{}, docket.Invalid("", "field",
			"give the fact to correct and its right value, one of "+strings.Join(fixableFields(), "=, ")+"=")
	}
	if _, ok := partyFields[fix.field]; ok && !a.has("party") {
		return Response{}, docket.Invalid("(B)", "party",
			fmt.Sprintf("say whose %s is corrected with party=respondent or party=complainant",
				strings.ReplaceAll(fix.field, "_", " ")))
	}
	cor, err := s.correction(ctx, a.str("number"), fix, a, a.str("reason"))
	if err != nil {
		return Response{}, err
	}
	_, resp, err := s.amend(ctx, req, a, cor)
	return resp, err
}

// correction is the correction of fix, to the value in a, of case number's event that
// records it (pickEvent), for reason.
func (s *Service) correction(ctx context.Context, number string, fix *fixable, a args,
	reason string) (docket.Correct, error) {
	entries, err := s.Record.Entries(ctx, number)
	if err != nil {
		return docket.Correct{}, err
	}
	seq, err := s.pickEvent(entries, fix, a)
	if err != nil {
		return docket.Correct{}, err
	}
	act, err := docket.Effective(entries, seq)
	if err != nil {
		return docket.Correct{}, err
	}
	corrected, from, to, err := fix.set(s, act, a)
	if err != nil {
		return docket.Correct{}, err
	}
	if from == to {
		return docket.Correct{}, docket.Invalid("", fix.field,
			fmt.Sprintf("event %d already records %s %s; nothing to correct", seq, fix.field, docket.Quoted(to)))
	}
	payload, err := json.Marshal(corrected)
	if err != nil {
		return docket.Correct{}, err
	}
	return docket.Correct{Seq: seq, Of: act.Kind(), Field: fix.field, From: from, To: to, Reason: reason,
		Action: payload}, nil
}

// runCorrectMeeting corrects a fact of a held meeting's own record, its place or its
// start, with a reason (docket.CorrectMeeting), in one transaction with the correction of
// each case step it holds, so that they stay its items; the correction is listed with its
// minutes. Checked on the meeting first, so that a meeting not held, or a start on another
// day, is refused in the meeting's words rather than a case's.
func runCorrectMeeting(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	m, _, err := s.findMeeting(ctx, a.str("meeting_name"))
	if err != nil {
		return Response{}, err
	}
	act := docket.CorrectMeeting{Reason: a.str("reason")}
	var fix *fixable
	for i := range fixables {
		f := &fixables[i]
		switch {
		case !a.has(f.field):
		case f.field != "place" && f.field != "start":
			return Response{}, docket.Invalid(docket.OMARecord, f.field,
				fmt.Sprintf("a meeting's own record is corrected in its place= or its start=; %s= is a case's fact: /ethics "+
					"correct <case> %s=...", f.field, f.field))
		case fix != nil:
			return Response{}, docket.Invalid(docket.OMARecord, f.field,
				"correct one fact of the meeting at a time: its place=, or its start=")
		default:
			fix = f
		}
	}
	switch {
	case fix == nil:
		return Response{}, docket.Invalid(docket.OMARecord, "place",
			fmt.Sprintf("give the meeting's place or start as it should have been recorded: /ethics correct %s "+
				"place=\"...\" reason=\"...\"", m.Name))
	case a.has("meeting") || a.has("event"):
		return Response{}, docket.Invalid(docket.OMARecord, "meeting",
			"meeting= and event= name a case's step; a meeting's correction carries every item it holds")
	case fix.field == "place":
		act.Place = a.str("place")
	default:
		act.Start = a.instant("start")
	}
	if _, err := s.Engine.ApplyMeeting(*m, act, s.Now()); err != nil {
		return Response{}, err
	}
	var ch docket.MeetingChange
	recordFolded(m, &ch)
	for _, it := range m.Cases {
		cor, err := s.correction(ctx, it.Case, fix, args{"meeting": string(it.Step), fix.field: a[fix.field]}, act.Reason)
		if err != nil {
			return Response{}, err
		}
		ch.Cases = append(ch.Cases, docket.CaseActions{Number: it.Case, Actions: []docket.Action{cor}})
	}
	ch.Actions = []docket.MeetingAction{act}
	res, resp, err := s.changeMeeting(ctx, req, ch,
		outbox.Format("its %s corrected, with its %s (%s)", fix.field, count(len(m.Agenda()), "item"), act.Reason),
		caseNotices)
	if err == nil && !res.Replayed {
		fixed := res.Meeting.Corrections[len(res.Meeting.Corrections)-1]
		resp.Messages[0].Text += outbox.Format("\n%s It is listed with the meeting's minutes (%s).",
			fixed.Words(s.Engine.Cal.Location()), docket.OMARecord)
	}
	return resp, err
}

// pickEvent is the event a correction of fix applies to: the one named by event=, else the
// latest that records the fact (of the meeting named by meeting=, for a meeting's facts).
// Where several could be meant, it asks for event=.
func (s *Service) pickEvent(entries []docket.Entry, fix *fixable, a args) (int, error) {
	var candidates []docket.Entry
	for _, en := range entries {
		act, _ := docket.Effective(entries, en.Seq)
		if act == nil || !slices.Contains(fix.kinds, act.Kind()) || voided(entries, en.Seq) {
			continue
		}
		if _, ok := partyFields[fix.field]; ok && !partyRecords(fix.field, act, a) {
			continue
		}
		if k := a.str("meeting"); k != "" && meetingOf(act) != docket.MeetingKind(k) {
			continue
		}
		if _, ok := act.(docket.File); ok && fix.field == "election" && len(act.(docket.File).Elections) == 0 {
			continue
		}
		// was= names the mailing by the article number it records, as the clerk has it.
		if m, ok := act.(docket.RecordMailing); ok && a.has("was") &&
			docket.CompactArticle(m.Article) != docket.CompactArticle(a.str("was")) {
			continue
		}
		candidates = append(candidates, en)
	}
	if a.has("event") {
		n, err := strconv.Atoi(a.str("event"))
		if err == nil {
			for _, c := range candidates {
				if c.Seq == n {
					return n, nil
				}
			}
		}
		return 0, docket.Invalid("", "event",
			fmt.Sprintf("event %s does not record %s; /ethics history lists the events", a.str("event"), fix.field))
	}
	switch {
	case len(candidates) == 0:
		return 0, docket.NotFound("", fix.field, fmt.Sprintf("no event of this case records %s%s", fix.field, meetingNote(a)))
	case len(candidates) > 1 &&
		(fix.field == "article" || fix.field == "mailed" || fix.field == "returned" || fix.field == "signer" ||
			fix.field == "outcome" || fix.field == "election" && a.str("meeting") == ""):
		var seqs []string
		for _, c := range candidates {
			seqs = append(seqs, strconv.Itoa(c.Seq))
		}
		which := "event=<n>"
		if fix.field == "article" {
			which += ", or was=<the number as recorded>"
		}
		return 0, docket.Invalid("", "event",
			fmt.Sprintf("events %s each record %s; say which with %s", strings.Join(seqs, ", "), fix.field, which))
	case len(candidates) > 1 && a.str("meeting") == "" && meetingOf(candidates[0].Action) != "":
		return 0, docket.Invalid("", "meeting",
			"say which meeting with meeting="+strings.Join(choices(docket.MeetingKinds), ", "))
	}
	return candidates[len(candidates)-1].Seq, nil
}

func meetingNote(a args) string {
	if k := a.str("meeting"); k != "" {
		return " of the " + docket.MeetingKind(k).Name()
	}
	return ""
}

// meetingOf is the meeting an action concerns, if any.
func meetingOf(act docket.Action) docket.MeetingKind {
	if m, ok := act.(docket.MeetingAct); ok {
		return m.MeetingOf()
	}
	return ""
}

func voided(entries []docket.Entry, seq int) bool {
	for _, en := range entries {
		if v, ok := en.Action.(docket.Void); ok && v.Seq == seq {
			return true
		}
	}
	return false
}

// runVoid withdraws a mistaken entry, with a reason.
func runVoid(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	number := a.str("number")
	entries, err := s.Record.Entries(ctx, number)
	if err != nil {
		return Response{}, err
	}
	seq, err := strconv.Atoi(a.str("event"))
	if err != nil || seq < 1 || seq > len(entries) {
		return Response{}, docket.NotFound("", "event",
			fmt.Sprintf("case %s has no event %s; /ethics history %s lists them", number, a.str("event"), number))
	}
	_, resp, err := s.amend(ctx, req, a, docket.Void{Seq: seq, Of: entries[seq-1].Action.Kind(), Reason: a.str("reason")})
	return resp, err
}

// amend records a correction or a void, and replies with every deadline it moved.
func (s *Service) amend(ctx context.Context, req Request, a args, act docket.Action) (docket.Case, Response, error) {
	ctx, posts := s.sayer(ctx)
	res, err := s.Record.Apply(ctx, s.act(req), a.str("number"), act)
	if err != nil {
		return docket.Case{}, Response{}, err
	}
	if res.Replayed {
		return res.Case, reply(outbox.Format("Already recorded on case %s (this request was received twice; nothing new "+
			"was recorded).", res.Case.Number)), nil
	}
	text := outbox.Format("Case %s: %s.", res.Case.Number, s.done(res.Steps[0])) + s.recalculation(&res.Before,
		&res.Case, s.Now())
	return res.Case, Response{Messages: []Message{{Text: text}}, Posts: *posts}, nil
}

// recalculation lists, for every deadline an amendment moved, its old and new due dates
// and where it now stands, and the deadlines it added or removed: what a docketing tool
// calls recalculating on a changed trigger.
func (s *Service) recalculation(before, after *docket.Case, now time.Time) outbox.Markup {
	e := s.Engine
	was := e.Schedule(&before.Facts, now).Deadlines
	// A deadline is known by its id and, for the (D) notice of each hearing session, by
	// which session of the case it is.
	type ref struct {
		id docket.DeadlineID
		n  int
	}
	refs := func(ds []docket.Deadline) []ref {
		count := map[docket.DeadlineID]int{}
		out := make([]ref, len(ds))
		for i, d := range ds {
			out[i] = ref{d.ID, count[d.ID]}
			count[d.ID]++
		}
		return out
	}
	old := map[ref]docket.Deadline{}
	wasRefs := refs(was)
	for i, d := range was {
		old[wasRefs[i]] = d
	}
	var lines []outbox.Markup
	seen := map[ref]bool{}
	current := e.Schedule(&after.Facts, now).Deadlines
	for i, r := range refs(current) {
		d := current[i]
		seen[r] = true
		b, had := old[r]
		var wasD *docket.Deadline
		if had {
			wasD = &b
		}
		switch {
		case !had:
			lines = append(lines, outbox.Format("• new: %s%s", DeadlineLine(e, d, now), s.reminding(wasD, &d, now)))
		case b.Due != d.Due || !b.DueAt.Equal(d.DueAt):
			lines = append(lines,
				outbox.Format("• %s %s: %s → %s%s%s", d.Period.Duty, d.Rule, dueText(e, b), dueText(e, d),
					standing(e, b, d, now), s.reminding(wasD, &d, now)))
		case b.Status != d.Status:
			lines = append(lines,
				outbox.Format("• %s %s: now %s%s", d.Period.Duty, d.Rule, statusWord(d.Status), s.reminding(wasD, &d, now)))
		}
	}
	for i, d := range was {
		if !seen[wasRefs[i]] {
			lines = append(lines,
				outbox.Format("• no longer applies: %s %s (was %s)%s", d.Period.Duty, d.Rule, dueText(e, d),
					s.reminding(&d, nil, now)))
		}
	}
	if len(lines) == 0 {
		return "\nNo deadline moved."
	}
	text := "\n*Deadlines recalculated:*\n" + outbox.Join(lines, "\n")
	if s.Settings().Reminders == nil {
		text += "\nReminders follow the new dates: a reminder for an old date that no longer applies is not said, and one " +
			"now due is said at the next sweep."
	}
	return text
}

// reminding says what a recalculation does to the clerk's reminders of one deadline, as it
// was and as it is (nil: it did not apply, or no longer does), by the reminder policy in
// force: "; the clerk's reminder is due now; the reminders set for Tue 8 Dec 09:00 and
// Wed 9 Dec 09:00 will not be said". A sweep says a reminder once by its name, and of those
// due, only the latest: one now due is the latest whose name the old deadline did not have.
func (s *Service) reminding(was, is *docket.Deadline, now time.Time) outbox.Markup {
	r := s.Settings().Reminders
	if r == nil {
		return ""
	}
	var old, cur map[string]time.Time
	if was != nil {
		old = r.Steps(*was, now)
	}
	if is != nil {
		cur = r.Steps(*is, now)
	}
	who := ""
	if is != nil {
		who = r.Reminded(*is)
	}
	var text outbox.Markup
	curDue, due := latestStep(cur, now)
	if oldDue, _ := latestStep(old, now); due && curDue != oldDue {
		reminder := who + "'s reminder" // the clerk's, the docket channel's
		if strings.Contains(who, " and ") {
			reminder = "the reminder to " + who
		}
		text += outbox.Format("; %s is due now, said at the next sweep", reminder)
	}
	loc := s.Engine.Cal.Location()
	const at = "Mon 2 Jan 15:04"
	oldNext, _ := nextStep(old, now)
	if next, ok := nextStep(cur, now); ok && !cur[next].Equal(old[oldNext]) {
		text += outbox.Format("; %s is next reminded on %s", who, cur[next].In(loc).Format(at))
	}
	var dropped []time.Time
	kept := slices.Collect(maps.Values(cur))
	for _, t := range old {
		if t.After(now) && !slices.ContainsFunc(kept, t.Equal) {
			dropped = append(dropped, t)
		}
	}
	slices.SortFunc(dropped, time.Time.Compare)
	switch len(dropped) {
	case 0:
	case 1:
		text += outbox.Format("; the reminder set for %s will not be said", dropped[0].In(loc).Format(at))
	default:
		when := make([]string, len(dropped))
		for i, t := range dropped {
			when[i] = t.In(loc).Format(at)
		}
		text += outbox.Format("; the reminders set for %s and %s will not be said", strings.Join(when[:len(when)-1], ", "),
			when[len(when)-1])
	}
	return text
}

// latestStep is the name of the latest reminder step at or before now: the one a sweep
// says.
func latestStep(steps map[string]time.Time, now time.Time) (string, bool) {
	return pickStep(steps, func(t, best time.Time) bool { return !t.After(now) && t.After(best) })
}

// nextStep is the name of the first reminder step after now.
func nextStep(steps map[string]time.Time, now time.Time) (string, bool) {
	return pickStep(steps, func(t, best time.Time) bool { return t.After(now) && (best.IsZero() || t.Before(best)) })
}

// pickStep is the name of the step better than every other, by better(t, best so far);
// ties go to the smaller name, so the choice does not depend on the map's order.
func pickStep(steps map[string]time.Time, better func(t, best time.Time) bool) (string, bool) {
	var name string
	var best time.Time
	found := false
	for _, n := range slices.Sorted(maps.Keys(steps)) {
		if better(steps[n], best) {
			name, best, found = n, steps[n], true
		}
	}
	return name, found
}

func dueText(e *docket.Engine, d docket.Deadline) string {
	if !d.Dated() {
		return "no time limit"
	}
	if !d.DueAt.IsZero() {
		return d.DueAt.In(e.Cal.Location()).Format("Mon 2 Jan 15:04 MST")
	}
	return d.Due.Short()
}

// standing says where a moved deadline stands now, and whether that changed: ", now 2
// business days overdue (it was not)".
func standing(e *docket.Engine, b, d docket.Deadline, now time.Time) string {
	switch {
	case d.Status == docket.Missed && b.Status != docket.Missed:
		return ", now missed: the clerk is reminded daily until it is done"
	case d.Status != docket.Open && b.Status == docket.Missed:
		return ", " + statusWord(d.Status) + ", no longer missed"
	case d.Status != docket.Open:
		return ", " + statusWord(d.Status)
	}
	_, _, late := e.Left(d, now)
	_, _, wasLate := e.Left(b, now)
	text := ", " + left(e, d, now)
	switch {
	case late && !wasLate:
		text += ": now overdue, and reminded daily"
	case !late && wasLate:
		text += ": no longer overdue"
	}
	return text
}

func statusWord(st docket.Status) string {
	return map[docket.Status]string{docket.Met: "met", docket.Open: "open", docket.Missed: "missed"}[st]
}

// runHistory lists a case's events: who recorded what, when, and what amended it.
func runHistory(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	number := a.str("number")
	c, err := s.Record.Case(ctx, number)
	if err != nil {
		return Response{}, err
	}
	entries, err := s.Record.Entries(ctx, number)
	if err != nil {
		return Response{}, err
	}
	lines := []outbox.Markup{outbox.Format("History of case %s, %d events:", number, len(entries))}
	for _, en := range entries {
		line := outbox.Format("*%d.* %s, %s: %s", en.Seq, s.when(en.At), outbox.Mention(en.By),
			said(en.Action.Did(s.Engine.Wording(docket.Step{At: en.At}))))
		for _, am := range c.Amendments {
			if am.Event != en.Seq {
				continue
			}
			if am.Void {
				line += outbox.Format(" _(voided by %d on %s: %s)_", am.Seq, am.On.Long(), am.Reason)
			} else {
				line += outbox.Format(" _(corrected by %d on %s: %s %s → %s)_", am.Seq, am.On.Long(), am.Field,
					docket.Quoted(am.From),
					docket.Quoted(am.To))
			}
		}
		lines = append(lines, line)
	}
	text := outbox.Join(lines, "\n")
	return reply(text, sections(text, MaxMessageBlocks, func(n int) outbox.Markup {
		return outbox.Format("…and %d more events; `ethicsbot export --format json` on the server writes the "+
			"whole record.", n)
	})...), nil
}
