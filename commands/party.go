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
	pa, ok := act.(docket.PartyAct)
	if !ok {
		return false
	}
	p, ok := pa.PartyDetails(docket.Party(a.str("party")))
	return ok && *partyFields[field](&p) != ""
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
			pa, ok := act.(docket.PartyAct)
			if !ok {
				return nil, "", "", docket.Internal("a party's " + field + " is recorded by a filing or by /ethics party")
			}
			p, _ := pa.PartyDetails(party)
			old := *detail(&p)
			*detail(&p) = value
			return pa.WithPartyDetails(party, p), oneLine(old), oneLine(value), nil
		}}
}
