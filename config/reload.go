package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
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
		!slices.Equal(old.Calendar.Closures, next.Calendar.Closures) ||
		!slices.Equal(old.Calendar.Proclaimed, next.Calendar.Proclaimed) {
		out = append(out, "holidays")
	}
	if !sameOrdinance(old.Ordinance, next.Ordinance) {
		out = append(out, "ordinance")
	}
	if old.Sweep != next.Sweep {
		out = append(out, "reminders.sweep")
	}
	if old.UndeliveredAfter != next.UndeliveredAfter {
		out = append(out, "healthz.undelivered_after")
	}
	// Who signs (Letters.Chair, Letters.Clerk) comes from the people, which a reload puts
	// in force (SignersChanged); the rest of letters: is read at start.
	ol, nl := old.Letters, next.Letters
	ol.Chair, ol.Clerk, nl.Chair, nl.Clerk = letters.Addressee{}, letters.Addressee{}, letters.Addressee{},
		letters.Addressee{}
	ol.Payment, nl.Payment = letters.Payment{}, letters.Payment{}
	if !reflect.DeepEqual(ol, nl) || old.LettersOut != next.LettersOut {
		out = append(out, "letters")
	}
	if !reflect.DeepEqual(old.Letters.Payment, next.Letters.Payment) { // read into the letters at start
		out = append(out, "payment")
	}
	if old.Mail != next.Mail { // the engine's, like the ordinance
		out = append(out, "mail")
	}
	if old.SMTP != next.SMTP { // the deliverer's relay is built at start
		out = append(out, "smtp")
	}
	return out
}

// sameOrdinance compares the ordinance's configured values (periods' lengths, fines,
// sections), not the engine's rows, which hold funcs that never compare equal.
func sameOrdinance(a, b docket.Ordinance) bool {
	if a.FineMin != b.FineMin || a.FineMax != b.FineMax || a.HearingSection != b.HearingSection ||
		a.ReferralSection != b.ReferralSection {
		return false
	}
	return slices.EqualFunc(a.Periods(), b.Periods(), func(x, y docket.Period) bool {
		return x.ID == y.ID && x.Amount == y.Amount && x.Unit == y.Unit
	})
}

// SignersChanged says who signs the letters differently in next than in old, as
// "chair: Ann Alder, Chair -> Bo Birch, Chair"; nil if nobody does.
func SignersChanged(old, next Config) []string {
	var out []string
	say := func(a letters.Addressee) string {
		if a.Name == "" {
			return "nobody named"
		}
		if a.Title == "" {
			return a.Name
		}
		return a.Name + ", " + a.Title
	}
	if old.Letters.Chair != next.Letters.Chair {
		out = append(out, "chair: "+say(old.Letters.Chair)+" -> "+say(next.Letters.Chair))
	}
	if old.Letters.Clerk != next.Letters.Clerk {
		out = append(out, "clerk: "+say(old.Letters.Clerk)+" -> "+say(next.Letters.Clerk))
	}
	return out
}

// Renamed says whose name or title differs between old and next, by Slack id, as
// `U0123ABCD: "Ann Alder, Chair" -> "Ann Alder, Vice Chair"`: the ids alone would not show it.
func Renamed(old, next commands.Roles) []string {
	was := map[string]docket.Member{}
	for _, m := range old.People.Members() {
		was[m.ID] = m
	}
	var out []string
	for _, m := range next.People.Members() {
		if o, ok := was[m.ID]; ok && (o.Name != m.Name || o.Title != m.Title) {
			out = append(out,
				fmt.Sprintf("%s: %q -> %q", m.ID, strings.TrimSuffix(o.Name+", "+o.Title, ", "),
					strings.TrimSuffix(m.Name+", "+m.Title, ", ")))
		}
	}
	return out
}

// RoleChanges says who gained or lost a role, as "commissioner U0123ABCD"; someone whose
// role changed appears in both.
func RoleChanges(old, next commands.Roles) (added, removed []string) {
	each := func(r commands.Roles, f func(role commands.Role, user string)) {
		for _, u := range r.Commissioners {
			f(commands.Commissioner, u)
		}
		for _, u := range r.Clerks {
			f(commands.Clerk, u)
		}
		if r.Attorney != "" {
			f(commands.Attorney, r.Attorney)
		}
	}
	each(next, func(role commands.Role, u string) {
		if old.Of(u) != role {
			added = append(added, string(role)+" "+u)
		}
	})
	each(old, func(role commands.Role, u string) {
		if next.Of(u) != role {
			removed = append(removed, string(role)+" "+u)
		}
	})
	return added, removed
}
