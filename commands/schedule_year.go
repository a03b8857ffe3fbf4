package commands

import (
	"context"
	"strings"

	"ethicsbot/docket"
)

// The year's schedule of regular meetings (issue 19 §6; 5 ILCS 120/2.03). It is the
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

// isNextRegular reports whether a meeting= value asks for the next regular meeting:
// meeting=next, or meeting=regular.
func isNextRegular(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "next" || v == "regular"
}

// meetingNamed is the meeting a case step is scheduled into by meeting=: the one named,
// or with meeting=next the next regular meeting that still allows the step's notice and
// deadline (docket.Engine.NextRegular).
func (s *Service) meetingNamed(ctx context.Context, all []docket.CommissionMeeting, name, number string, k docket.MeetingKind) (*docket.CommissionMeeting, error) {
	if !isNextRegular(name) {
		return docket.FindMeeting(all, name)
	}
	c, err := s.Record.Case(ctx, number)
	if err != nil {
		return nil, err
	}
	return s.Engine.NextRegular(all, s.Settings().Regular, &c, k, s.Now())
}
