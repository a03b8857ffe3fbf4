package config

import (
	"reflect"
	"slices"
)

// NeedsRestart names the settings that differ between the configuration in force and the
// file, but cannot change while ethicsbot runs: the database is open, and the calendar,
// the ordinance and the sweep's schedule are built into the engine, the record and cron.
func NeedsRestart(old, next Config) []string {
	var out []string
	if old.Database != next.Database {
		out = append(out, "database")
	}
	if old.Calendar.Zone != next.Calendar.Zone {
		out = append(out, "timezone")
	}
	if !slices.Equal(old.Calendar.Remove, next.Calendar.Remove) || !slices.Equal(old.Calendar.Add, next.Calendar.Add) ||
		!slices.Equal(old.Calendar.Closures, next.Calendar.Closures) || !slices.Equal(old.Calendar.Proclaimed, next.Calendar.Proclaimed) {
		out = append(out, "holidays")
	}
	if !reflect.DeepEqual(old.Ordinance, next.Ordinance) {
		out = append(out, "ordinance")
	}
	if old.Sweep != next.Sweep {
		out = append(out, "reminders.sweep")
	}
	if old.UndeliveredAfter != next.UndeliveredAfter {
		out = append(out, "healthz.undelivered_after")
	}
	if !reflect.DeepEqual(old.Letters, next.Letters) || old.LettersOut != next.LettersOut {
		out = append(out, "letters")
	}
	if old.Mail != next.Mail { // the engine's, like the ordinance
		out = append(out, "mail")
	}
	return out
}

// RoleChanges says who gained or lost a role, as "commissioner U0123ABCD"; someone whose
// role changed appears in both.
func RoleChanges(old, next Roles) (added, removed []string) {
	each := func(r Roles, f func(role Role, user string)) {
		for _, u := range r.Commissioners {
			f(Commissioner, u)
		}
		for _, u := range r.Clerks {
			f(Clerk, u)
		}
		if r.Attorney != "" {
			f(Attorney, r.Attorney)
		}
	}
	each(next, func(role Role, u string) {
		if old.Of(u) != role {
			added = append(added, string(role)+" "+u)
		}
	})
	each(old, func(role Role, u string) {
		if next.Of(u) != role {
			removed = append(removed, string(role)+" "+u)
		}
	})
	return added, removed
}
