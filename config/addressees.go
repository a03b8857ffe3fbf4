package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// checkAddressees checks each addressee letters: configures as a party's contact is
// checked when recorded (docket.CheckLine, docket.CheckAddress: a name and a title on one
// line each, at most docket.MaxName characters, no invisible characters; an address of at
// most docket.MaxAddressLines lines of docket.MaxAddressLine characters), and each
// recipient (the attorney, the officers) as a letter to them prints it in the envelope's
// window (letters.CheckWindow), so that check-config refuses what a letter would refuse
// or garble. A refusal names the setting at its line. Call it after parseLetters and
// parseOfficers.
func checkAddressees(cfg *Config, at func(path ...string) func(error) error) error {
	type one struct {
		path   []string
		a      letters.Addressee
		window bool
	}
	list := []one{{[]string{"letters", "commission"}, cfg.Letters.Commission, false},
		{[]string{"letters", "officer"}, cfg.Letters.Officer, true},
		{[]string{"letters", "attorney"}, cfg.Letters.Attorney, true}}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range cfg.Letters.Officers {
			if !yield(k) {
				return
			}
		}
	}) {
		list = append(list, one{[]string{"letters", "officers", key}, cfg.Letters.Officers[key], true})
	}
	for _, x := range list {
		setting := strings.Join(x.path, ".")
		field := func(f string) func(error) error { return at(append(slices.Clone(x.path), f)...) }
		for _, f := range []struct{ name, value string }{{"name", x.a.Name}, {"title", x.a.Title}} {
			if err := checkName(setting+"."+f.name, f.value); err != nil {
				return field(f.name)(err)
			}
		}
		if err := docket.CheckAddress(setting+".address", "", x.a.Address, false); err != nil {
			return field("address")(errors.New(docket.ErrorMessage(err)))
		}
		if err := noMarkup(setting+".address", x.a.Address); err != nil {
			return field("address")(err)
		}
		if x.window && x.a.Address != "" {
			if err := letters.CheckWindow(setting+".address", x.a); err != nil {
				if err := softened(cfg, "window", setting+".address", field("address")(err)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkName checks a name or a title the documents print: one line of at most
// docket.MaxName characters, no invisible characters, no Slack markup.
func checkName(setting, s string) error {
	if err := docket.CheckLine(setting, "", s, false, docket.MaxName); err != nil {
		return errors.New(docket.ErrorMessage(err))
	}
	return noMarkup(setting, s)
}

// noMarkup refuses a Slack mention or link in a setting the letters print: on paper it is
// not a name but the raw markup, <@U0123ABCD>; the file gives the person's name instead.
func noMarkup(setting, s string) error {
	for _, m := range []string{"<@", "<!", "<#", "<http", "<mailto"} {
		if strings.Contains(s, m) {
			return fmt.Errorf("%s: %q is Slack markup, which a letter would print as it is: write the name and address as "+
				"they go on paper", setting, m)
		}
	}
	return nil
}
