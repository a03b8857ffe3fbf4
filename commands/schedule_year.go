package commands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// The year's schedule of regular meetings (5 ILCS 120/2.03). It is the
// configuration's (meetings.regular), not a command's: the commission adopts it once a
// year by its own vote, and the clerk enters it where the other settings are, checked by
// `ethicsbot check-config`, which warns of a date on a holiday. A regular meeting is
// shown among the meetings before anything is recorded of it, and becomes a recorded
// meeting the first time something joins it (recordFolded), as a meeting folded from its
// cases does.

// withRegular adds to all (as the record folds them) the regular meetings of the schedule
// in force that no meeting holds yet.
func (s *Service) withRegular(all []docket.CommissionMeeting) []docket.CommissionMeeting {
	return s.Engine.WithRegular(all, s.Settings().Regular)
}

// regularDay reports whether start is a regular meeting's of the schedule in force (5 ILCS
// 120/2.01 lets only such a meeting be held on a legal holiday).
func (s *Service) regularDay(start time.Time) bool {
	return s.Settings().Regular.Holds(start, s.Engine.Cal.Location())
}

// isNextRegular reports whether a meeting= value asks for the next regular meeting:
// meeting=next, or meeting=regular.
func isNextRegular(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "next" || v == "regular"
}

// meetingNamed is the meeting a case step is scheduled into by meeting=: the one named,
// or with meeting=next the next regular meeting that still allows the step's notice and
// deadline (docket.Engine.NextRegular).
func (s *Service) meetingNamed(ctx context.Context, all []docket.CommissionMeeting, name, number string,
	k docket.MeetingKind) (*docket.CommissionMeeting, error) {
	if !isNextRegular(name) {
		return docket.FindMeeting(all, name)
	}
	c, err := s.Record.Case(ctx, number)
	if err != nil {
		return nil, err
	}
	return s.Engine.NextRegular(all, s.Settings().Regular, &c, k, s.Now())
}

// Enqueuer is what AnnounceSchedule needs of the record: store.Store is one.
type Enqueuer interface {
	Enqueue(ctx context.Context, posts []outbox.Post) error
}

// AnnounceSchedule puts the public notice of the schedule of regular meetings in force in
// the outbox, once for each schedule (5 ILCS 120/2.03): at start, so that the schedule
// first configured is noticed, and at each reload, when old, the schedule in force until
// then, differs from it, as a notice of the change naming the meetings dropped and added.
// The notice is keyed by the schedule itself, so a restart with the same schedule says
// nothing again. A record that cannot enqueue (or no notices channel) says nothing.
func (s *Service) AnnounceSchedule(ctx context.Context, old docket.RegularSchedule) error {
	posts := append(s.scheduleNotice(old), s.newspaperTask(old)...)
	q, ok := s.Record.(Enqueuer)
	if len(posts) == 0 || !ok {
		return nil
	}
	return q.Enqueue(ctx, posts)
}

// CheckScheduleChange refuses a change of the schedule of regular meetings in force to
// next that 2.03 does not allow (docket.CheckScheduleChange): a change reaching a regular
// meeting fewer than 10 days away. A reload refuses such a file and keeps the schedule in force.
func (s *Service) CheckScheduleChange(next docket.RegularSchedule) error {
	_, err := docket.CheckScheduleChange(s.Settings().Regular, next, s.Engine.Cal.DateOf(s.Now()))
	return err
}

// newspaperTask is the clerks' task after a change of the schedule from old: "at least 10
// days' notice of such change shall be given by publication in a newspaper of general
// circulation in the area" (2.03), by ScheduleChangeNotice days before the first meeting
// changed. Nothing when no meeting to come changed.
func (s *Service) newspaperTask(old docket.RegularSchedule) []outbox.Post {
	r := s.Settings().Regular
	if len(old.Dates) == 0 || r.Equal(old) {
		return nil
	}
	first, err := docket.CheckScheduleChange(old, r, s.Engine.Cal.DateOf(s.Now()))
	if err != nil || first.IsZero() {
		// A change too near was refused before it was put in force (CheckScheduleChange);
		// one that changes nothing to come needs no notice.
		return nil
	}
	by := first.AddDays(-docket.ScheduleChangeNotice)
	text := outbox.Format("Schedule of regular meetings changed: publish a notice of the change in a newspaper of "+
		"general circulation in the area by %s, at least %d days before the first meeting changed (%s), rule %s. The "+
		"public notice of the change is in the notices channel; use its wording.", by.Long(),
		docket.ScheduleChangeNotice, first.Long(), docket.OMASchedule)
	var out []outbox.Post
	for _, u := range s.Settings().Roles.Clerks {
		key := outbox.Key{Series: outbox.ScheduleSeries + "-newspaper", Step: scheduleStep(r), To: outbox.Dest{User: u}}
		out = append(out, outbox.Post{Key: key, Text: text, Due: s.Now()})
	}
	return out
}

// scheduleNotice is the public notice of the schedule in force, in the notices channel:
// the regular meetings of this year and later, by date, with their time and place; after
// a change from old, the meetings dropped and added come first.
func (s *Service) scheduleNotice(old docket.RegularSchedule) []outbox.Post {
	r, channel := s.Settings().Regular, s.Settings().Channels.Notices
	if channel == "" || len(r.Dates) == 0 && len(old.Dates) == 0 || r.Equal(old) {
		return nil
	}
	loc := s.Engine.Cal.Location()
	year, _, _ := s.Engine.Cal.DateOf(s.Now()).Parts()
	when := func(sc docket.RegularSchedule, d docket.Date) string {
		return sc.Start(d, loc).Format("Mon 2 Jan 2006 15:04 MST")
	}
	head := "PUBLIC NOTICE. Ethics Commission: schedule of regular meetings (5 ILCS 120/2.03)."
	var changes []string
	if len(old.Dates) > 0 {
		head = "PUBLIC NOTICE, CHANGED SCHEDULE. Ethics Commission: the schedule of regular meetings (5 ILCS 120/2.03) " +
			"is changed."
		for _, d := range old.Dates {
			if y, _, _ := d.Parts(); y >= year &&
				(!slices.Contains(r.Dates, d) || r.Place != old.Place || r.Clock != old.Clock) {
				changes = append(changes, "No longer: "+when(old, d)+", "+old.Place+".")
			}
		}
		for _, d := range r.Dates {
			if y, _, _ := d.Parts(); y >= year &&
				(!slices.Contains(old.Dates, d) || r.Place != old.Place || r.Clock != old.Clock) {
				changes = append(changes, "Added: "+when(r, d)+", "+r.Place+".")
			}
		}
	}
	text := outbox.Format("%s", head)
	for _, c := range changes {
		text += outbox.Format(" %s", c)
	}
	var listed []string
	for _, y := range r.Years() {
		if y < year {
			continue
		}
		var days []string
		for _, d := range r.Year(y) {
			days = append(days, d.Short())
		}
		listed = append(listed, fmt.Sprintf("%d: %s.", y, strings.Join(days, ", ")))
	}
	if len(listed) == 0 {
		text += outbox.Format(" No regular meetings are scheduled; special meetings are noticed 48 hours ahead (5 " +
			"ILCS 120/2.02).")
	} else {
		clock := time.Time{}.Add(r.Clock).Format("15:04")
		text += outbox.Format(" Regular meetings, each at %s at %s: %s", clock, r.Place, strings.Join(listed, " "))
	}
	key := outbox.Key{Series: outbox.ScheduleSeries, Step: scheduleStep(r), To: outbox.Dest{Channel: channel}}
	// 5 ILCS 120/2.02(b): the news media get the schedule of every year it lists.
	media := s.mediaCopies(time.Time{})
	for _, y := range r.Years() {
		if y > year {
			media.Years = append(media.Years, y)
		}
	}
	return []outbox.Post{{Key: key, Text: text, Due: s.Now(), Media: media}}
}

// scheduleStep keys what a schedule causes to be said (its public notice, the clerks'
// newspaper task) by the schedule itself: a restart with the same schedule says nothing
// again, a changed one is said once.
func scheduleStep(r docket.RegularSchedule) string {
	sum := sha256.Sum256([]byte(fmt.Sprint(r.Place, r.Clock, r.Dates)))
	return hex.EncodeToString(sum[:8])
}
