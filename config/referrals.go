package config

import (
	"errors"
	"fmt"

	"ethicsbot/docket"
)

// fileReferrals is the referrals section of the file: how often the clerk is reminded to
// ask the attorney where a referral stands (C)(2), (C)(3). The ordinance hands the matter
// to the attorney and says nothing more; the interval is the commission's.
type fileReferrals struct {
	RemindDays *int `yaml:"remind_days"` // days from the sending or the last report; 30 by default
}

// parseReferrals applies the referrals section to cfg: the referral_follow_up period.
func parseReferrals(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	n := f.Referrals.RemindDays
	if n == nil {
		return nil
	}
	if _, both := f.Ordinance.Periods[string(docket.ReferralFollowUp)]; both {
		return at("referrals", "remind_days")(errors.New("referrals.remind_days and ordinance.periods.referral_follow_up " +
			"both set how often a referral is followed: keep referrals.remind_days alone"))
	}
	if err := cfg.Ordinance.Override(docket.ReferralFollowUp, *n, docket.Days); err != nil {
		return at("referrals", "remind_days")(fmt.Errorf("referrals.remind_days %d is not a number of days from 1 to "+
			"366", *n))
	}
	return nil
}
