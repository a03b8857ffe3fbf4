package docket

import (
	"fmt"
	"regexp"
	"strings"
)

// DefaultOfficer is the key of the officer with authority to discipline when a case names
// none: the mayor, the city's chief executive, to whom the (E)(2) and (F) recommendations
// went before the officer was chosen per case (the configuration's letters.officer).
const DefaultOfficer = "mayor"

// officerKey is how the configuration names an officer: mayor, public_works, council.
var officerKey = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// CheckOfficerKey checks the form of an officer's key, as the configuration and
// SetOfficer write it.
func CheckOfficerKey(field, key string) error {
	if !officerKey.MatchString(key) {
		return Invalid("(E)(2)", field,
			fmt.Sprintf("%q is not an officer's key such as mayor or public_works: lower-case letters, digits and "+
				"_, up to 40", key))
	}
	return nil
}

// SetOfficer records which officer has authority to discipline the respondent of a case:
// the recommendation of (E)(2) and the final recommendation of (F) go to "the chief
// executive officer or other officer with authority to discipline", who for an alderman
// may be the council, for an employee their department head. Officer is a
// key of the configuration's list (letters.officers), which the command checks; the
// docket keeps the key, so the letters address whoever the configuration names for it
// when they are printed. Recorded again, or corrected, it changes like any fact.
//
// Naming the officer the case names already records nothing, and is refused. Once a paper
// has gone to the officer, naming another is refused unless Override says why: the
// ordinance sends the recommendation to the one officer with authority to discipline,
// and that officer has had it. The papers already sent stay addressed to whom they went
// (Mailing.Officer).
type SetOfficer struct {
	Officer  string `json:"officer"`
	Override string `json:"override,omitempty"`
}

// Kind implements Action.
func (SetOfficer) Kind() string { return "officer" }

// Did implements Action. The papers already sent went to the officer named then
// (Mailing.Officer).
func (a SetOfficer) Did(Wording) Words {
	return said("the officer with authority to discipline named: %s; the (E)(2) and (F) recommendations not yet sent "+
		"go to them", a.Officer)
}

func (a SetOfficer) apply(x *applying) error {
	if err := CheckOfficerKey("officer", a.Officer); err != nil {
		return err
	}
	c := x.c
	// A record made before these refusals is replayed as it was recorded.
	if !x.replay && a.Officer == c.OfficerKey() {
		return conflict("(E)(2)", fmt.Sprintf("case %s names the officer %s already: nothing to record", c.Number, a.Officer))
	}
	if err := x.checkOverride("(E)(2)", a.Override); err != nil {
		return err
	}
	var sent []string
	for _, m := range c.Mailings {
		if m.Recipient == Officer {
			info, _ := m.Paper.Info()
			sent = append(sent,
				fmt.Sprintf("the %s %s went to %s on %s", info.Name, info.Rule, m.officerKey(c), m.Mailed.Long()))
		}
	}
	switch {
	case x.replay:
	case len(sent) == 0 && a.Override != "":
		return Invalid("", "override",
			"nothing needs overriding: no paper has gone to the officer yet; record it without override=")
	case len(sent) > 0 && a.Override == "":
		return conflict("(E)(2)",
			fmt.Sprintf("%s: the officer with authority to discipline has had the commission's recommendation. To name "+
				"another anyway (the papers not yet sent go to them; those sent stay addressed to whom they went), give the "+
				"reason: override=\"<reason>\"",
				strings.Join(sent, "; ")))
	}
	if len(sent) > 0 && a.Override != "" {
		c.Overrides = append(c.Overrides,
			Override{Rule: "(E)(2)", Step: "officer",
				Without: "the papers to the officer unsent (" + strings.Join(sent, "; ") + ")", Reason: a.Override, On: x.today})
	}
	c.Officer = a.Officer
	return nil
}

// officerKey is the officer a mailing to the officer went to: the one it recorded, or,
// in a record from before mailings recorded it, the one c names.
func (m Mailing) officerKey(c *Case) string {
	if m.Officer != "" {
		return m.Officer
	}
	return c.OfficerKey()
}

// SentTo is the key of the officer a mailing to the officer went to (officerKey); "" for
// a mailing to anyone else.
func (c *Case) SentTo(m Mailing) string {
	if m.Recipient != Officer {
		return ""
	}
	return m.officerKey(c)
}

// OfficerKey is the key of the officer c's recommendations go to: the one recorded, or
// DefaultOfficer.
func (c *Case) OfficerKey() string {
	if c.Officer == "" {
		return DefaultOfficer
	}
	return c.Officer
}
