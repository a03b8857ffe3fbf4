package config

import (
	"errors"
	"fmt"
	"time"

	"ethicsbot/docket"
)

// fileMeetings is the meetings section of the file: the year's schedule of regular
// meetings (5 ILCS 120/2.03), as the commission adopts it.
//
//	meetings:
//	  regular:
//	    place: "City Hall, Council Chambers"
//	    time: "18:00"
//	    dates: [2027-01-12, 2027-02-09, 2027-03-09]
//
// The dates are listed rather than given by a rule ("the second Tuesday"): 2.03 asks the
// schedule to state the dates, and the commission's schedule moves some of them off a
// holiday or an election day, which a rule cannot say.
type fileMeetings struct {
	Regular struct {
		Place string      `yaml:"place"`
		Time  string      `yaml:"time"`
		Dates []*yamlDate `yaml:"dates"`
	} `yaml:"regular"`
}

// parseMeetings applies the meetings section to cfg; a refusal is placed at the line of
// the key at fault.
func parseMeetings(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	r := f.Meetings.Regular
	if len(r.Dates) == 0 {
		if r.Place != "" || r.Time != "" {
			return at("meetings",
				"regular")(fmt.Errorf("meetings.regular gives no dates: list the year's regular meetings, e.g. dates: "+
				"[2027-01-12, 2027-02-09] (%s)", docket.OMASchedule))
		}
		return nil
	}
	var dates []docket.Date
	for _, d := range r.Dates {
		if d == nil || d.Date.IsZero() {
			return at("meetings", "regular", "dates")(fmt.Errorf("a regular meeting has no date; write each as YYYY-MM-DD"))
		}
		dates = append(dates, d.Date)
	}
	var clock time.Duration
	if r.Time != "" {
		t, err := time.Parse("15:04", r.Time)
		if err != nil {
			return at("meetings", "regular",
				"time")(fmt.Errorf("meetings.regular.time %q is not a time of day such as 18:00", r.Time))
		}
		clock = time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute
	}
	s, err := docket.NewRegularSchedule(r.Place, clock, dates)
	if err != nil {
		key := "dates"
		if e := (*docket.Error)(nil); errors.As(err, &e) && (e.Field == "place" || e.Field == "time") {
			key = e.Field
		}
		return at("meetings", "regular", key)(err)
	}
	cfg.Regular = s
	return nil
}
