package commands

import (
	"strings"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// partyCard is a party as the case card shows them: the name, and the postal address,
// e-mail address and representative recorded, each on one line; or that no address is
// recorded, which the letters to the party need.
func partyCard(p docket.Person) outbox.Markup {
	text := person(p)
	if p.Address == "" {
		text += "; no postal address recorded"
	} else {
		text += outbox.Format("; %s", strings.ReplaceAll(p.Address, "\n", ", "))
	}
	if p.Email != "" {
		text += outbox.Format("; %s", p.Email)
	}
	if r := p.Representative; r.Name != "" {
		text += outbox.Format("; represented by %s, %s", r.Name, strings.ReplaceAll(r.Address, "\n", ", "))
	}
	return text
}

// partyDetails says which of a party's details an action records: "postal address and
// representative". The details themselves are not said: they are confidential, and a line
// in the docket channel need not repeat them.
func partyDetails(a docket.SetParty) string {
	var what []string
	if a.Address != "" {
		what = append(what, "postal address")
	}
	if a.Email != "" {
		what = append(what, "e-mail address")
	}
	if a.Representative.Name != "" || a.Representative.Address != "" {
		what = append(what, "representative")
	}
	return strings.Join(what, " and ")
}

// partyFields are a party's details that /ethics correct corrects, with party=: each
// reads and writes its detail of a docket.Person.
var partyFields = map[string]func(p *docket.Person) *string{
	"address":                func(p *docket.Person) *string { return &p.Address },
	"email":                  func(p *docket.Person) *string { return &p.Email },
	"representative":         func(p *docket.Person) *string { return &p.Representative.Name },
	"representative_address": func(p *docket.Person) *string { return &p.Representative.Address },
}

// partyRecords reports whether act records the party's detail field, for the party a
// names with party=: the event a correction of it applies to is the latest that does.
func partyRecords(field string, act docket.Action, a args) bool {
	party := docket.Party(a.str("party"))
	var p *docket.Person
	switch x := act.(type) {
	case docket.File:
		p = &x.Respondent
		if party == docket.Complainant {
			p = &x.Complainant
		}
	case docket.SetParty:
		if x.Party != party {
			return false
		}
		p = &docket.Person{Address: x.Address, Email: x.Email, Representative: x.Representative}
	default:
		return false
	}
	return *partyFields[field](p) != ""
}

// partyFix is the correction of a party's detail field, recorded at filing or by
// /ethics party.
func partyFix(field string) fixable {
	detail := partyFields[field]
	return fixable{field: field, kinds: []string{"file", "party"},
		set: func(s *Service, act docket.Action, a args) (docket.Action, string, string, error) {
			party := docket.Party(a.str("party"))
			value := a.str(field)
			if strings.HasSuffix(field, "address") {
				value = docket.AddressLines(value)
			}
			// An address is said on one line, as typed: "12 Elm Street | Springfield".
			oneLine := func(s string) string { return strings.ReplaceAll(s, "\n", " | ") }
			var old string
			switch x := act.(type) {
			case docket.File:
				p := &x.Respondent
				if party == docket.Complainant {
					p = &x.Complainant
				}
				old, *detail(p) = *detail(p), value
				return x, oneLine(old), oneLine(value), nil
			case docket.SetParty:
				p := docket.Person{Address: x.Address, Email: x.Email, Representative: x.Representative}
				old, *detail(&p) = *detail(&p), value
				x.Address, x.Email, x.Representative = p.Address, p.Email, p.Representative
				return x, oneLine(old), oneLine(value), nil
			}
			return nil, "", "", docket.Internal("a party's " + field + " is recorded by a filing or by /ethics party")
		}}
}
