package docket

import (
	"fmt"
	"time"
)

// Ground is why a complaint was dismissed at (C)(2), when that is not the ruling itself.
type Ground string

// GroundTimeBarred: the complaint was filed more than one year after the alleged violation
// (I). A time-barred complaint does not state a violation the commission may hear, so it is
// dismissed as not sufficient (or without probable cause), on this ground.
const GroundTimeBarred Ground = "time_barred"

// isDismissal reports whether r dismisses the complaint, or its part (C)(2).
func isDismissal(r Ruling) bool { return r == Insufficient || r == NoProbableCause }

// DismissalWords says why a (C)(2) ruling dismissed, for the public notice, the board and
// the letters: ruling is insufficient or no_probable_cause; ground is "" or time_barred.
func DismissalWords(ruling Ruling, ground Ground) string {
	switch {
	case ground == GroundTimeBarred:
		return "the complaint is time-barred under (I): it was filed more than one year after the alleged violation"
	case ruling == NoProbableCause:
		return "there is no probable cause to proceed"
	}
	return "the complaint does not sufficiently allege a violation"
}

// DismissalGround says in words why the (C)(2) ruling dismissed the complaint, or a part
// of it, for the letters, the public notice, the board and the card: "not sufficient to
// allege a violation", "no probable cause to proceed", or "time-barred under (I): ...".
// It is "" when the (C) ruling dismissed nothing.
func (c *Case) DismissalGround() string {
	if !c.dismissedAtC() {
		return ""
	}
	if c.Ground == GroundTimeBarred {
		return "time-barred under (I): filed more than one year after the alleged violation"
	}
	r := c.Ruling
	if !isDismissal(r) {
		r = c.ReferralRuling
	}
	if r == NoProbableCause {
		return "no probable cause to proceed (C)(2)"
	}
	return "not sufficient to allege a violation (C)(2)"
}

// timeBar checks a ruling against (I). A ground of time_barred needs a dismissal of a
// complaint the record shows time-barred. Any other ruling on a time-barred complaint is a
// gap the commission may override only with a reason.
func (x *applying) timeBar(a Rule) ([]gap, error) {
	s := x.e.Schedule(&x.c.Facts, time.Time{})
	barred := s.TimeBarred != nil && *s.TimeBarred
	dismissal := isDismissal(a.Ruling) && (a.ReferralRuling == "" || isDismissal(a.ReferralRuling))
	switch a.Ground {
	case "":
	case GroundTimeBarred:
		if !dismissal {
			return nil, Invalid("(I)", "ground",
				fmt.Sprintf("ground=time_barred goes with a dismissal, ruling insufficient or no_probable_cause, not %s", a.Ruling))
		}
		if !barred {
			why := "no date of the alleged violation is recorded"
			if s.TimeBarred != nil {
				d, _ := s.Find(FilingLimit)
				why = fmt.Sprintf("it was received on %s, by the last day to file, %s", s.Received.Long(), d.Due.Long())
			}
			return nil, Invalid("(I)", "ground", "the complaint is not time-barred: "+why)
		}
		return nil, nil
	default:
		return nil, Invalid("(C)(2)", "ground",
			fmt.Sprintf("unknown ground %q: the only ground to give is time_barred (I); insufficient and no_probable_cause "+
				"are their own grounds", a.Ground))
	}
	if !barred || dismissal || x.replay {
		return nil, nil
	}
	d, _ := s.Find(FilingLimit)
	return []gap{{rule: "(I)", without: "a complaint filed within one year after the alleged violation",
		problem: fmt.Sprintf("the complaint is time-barred under (I): it was received on %s, after the last day to file, "+
			"%s; the ruling on it is a dismissal (rule %s insufficient ground=time_barred)",
			s.Received.Long(), d.Due.Long(), x.number())}}, nil
}
