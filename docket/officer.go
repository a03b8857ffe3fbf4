package docket

import (
	"fmt"
	"regexp"
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
		return invalid(field, "(E)(2)", fmt.Sprintf("%q is not an officer's key such as mayor or public_works: lower-case letters, digits and _, up to 40", key))
	}
	return nil
}

// SetOfficer records which officer has authority to discipline the respondent of a case:
// the recommendation of (E)(2) and the final recommendation of (F) go to "the chief
// executive officer or other officer with authority to discipline", who for an alderman
// may be the council, for an employee their department head (issue 20 §4). Officer is a
// key of the configuration's list (letters.officers), which the command checks; the
// docket keeps the key, so the letters address whoever the configuration names for it
// when they are printed. Recorded again, or corrected, it changes like any fact.
type SetOfficer struct {
	Officer string `json:"officer"`
}

// Kind implements Action.
func (SetOfficer) Kind() string { return "officer" }

func (a SetOfficer) apply(x *applying) error {
	if err := CheckOfficerKey("officer", a.Officer); err != nil {
		return err
	}
	x.c.Officer = a.Officer
	return nil
}

// OfficerKey is the key of the officer c's recommendations go to: the one recorded, or
// DefaultOfficer.
func (c *Case) OfficerKey() string {
	if c.Officer == "" {
		return DefaultOfficer
	}
	return c.Officer
}
