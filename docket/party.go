package docket

import (
	"fmt"
	"net/mail"
	"strings"
)

// Representative is a party's attorney or other representative, who receives a copy of
// every letter the party is sent.
type Representative struct {
	Name    string `json:"name"`
	Address string `json:"address,omitempty"` // postal address, lines separated by "\n"
}

// Address limits. A postal address is a few short lines: USPS Publication 28 (Postal
// Addressing Standards) writes a delivery address in at most a name line, an attention
// line, up to two delivery address lines and a last line; a window envelope shows about
// six. A line is a one-line field (CheckLine), so it cannot forge a line of a letter.
const (
	MaxAddressLines = 6
	MaxAddressLine  = 100
	MaxEmail        = 254 // RFC 5321, 4.5.3.1: a forward path holds at most 256 octets with its brackets
)

// CheckAddress checks a postal address: required or not, at most MaxAddressLines lines
// separated by "\n", each a one-line field of at most MaxAddressLine characters
// (CheckLine), no line blank. Confidential like the complaint (see Case.Public).
func CheckAddress(field, rule, s string, required bool) error {
	if strings.TrimSpace(s) == "" {
		if required {
			return Invalid(rule, field, "required: the postal address, its lines separated by a new line")
		}
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > MaxAddressLines {
		return Invalid(rule, field,
			fmt.Sprintf("has %d lines; a postal address has at most %d (USPS Publication 28)", len(lines), MaxAddressLines))
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return Invalid(rule, field, fmt.Sprintf("line %d is blank", i+1))
		}
		if err := CheckLine(fmt.Sprintf("%s line %d", field, i+1), rule, l, true, MaxAddressLine); err != nil {
			return err
		}
	}
	return nil
}

// AddressLines reads an address as typed, its lines separated by new lines or by "|"
// (a slash command is typed on one line), into the form the record keeps: each line
// trimmed, blank ones dropped, joined by "\n".
func AddressLines(typed string) string {
	var out []string
	for _, l := range strings.FieldsFunc(typed, func(r rune) bool { return r == '\n' || r == '\r' || r == '|' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// CheckEmail accepts "" or a bare e-mail address (RFC 5322 addr-spec), such as
// jane@example.org: no display name, no angle brackets, no list.
func CheckEmail(field, rule, s string) error {
	if s == "" {
		return nil
	}
	if err := CheckLine(field, rule, s, true, MaxEmail); err != nil {
		return err
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || !strings.Contains(s[strings.LastIndex(s, "@")+1:], ".") {
		return Invalid(rule, field, fmt.Sprintf("%q is not an e-mail address such as jane@example.org", s))
	}
	return nil
}

// checkContact checks a party's postal address, e-mail address and representative.
func (x *applying) checkContact(who string, rule string, p Person) error {
	for _, err := range []error{
		CheckAddress(who+"_address", rule, p.Address, false),
		CheckEmail(who+"_email", rule, p.Email),
		x.checkLine(who+"_representative", rule, p.Representative.Name, p.Representative.Address != "", MaxName),
		CheckAddress(who+"_representative_address", rule, p.Representative.Address, p.Representative.Name != ""),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// SetParty records a party's postal address, e-mail address or representative, given at
// filing or later. What it does not give is kept as recorded. The ordinance sends the
// respondent and the complainant their papers by certified mail (B), (C)(2): a letter
// needs the address. A party's details are confidential like the complaint: they are in
// no public record (PublicRecords names only the parties, once the case is public).
type SetParty struct {
	Party          Party          `json:"party"` // respondent or complainant
	Address        string         `json:"address,omitempty"`
	Email          string         `json:"email,omitempty"`
	Representative Representative `json:"representative,omitzero"`
}

// Kind implements Action.
func (SetParty) Kind() string { return "party" }

// Did implements Action: which of the party's details it recorded. The details themselves
// are confidential and stay in the record and on the card.
func (a SetParty) Did(Wording) Words { return said("the %s's %s recorded", a.Party, a.details()) }

// details says which of a party's details the action records: "postal address and
// representative". The details themselves are not said: they are confidential, and a line
// in the docket channel need not repeat them.
func (a SetParty) details() string {
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

// PartyDetails implements PartyAct: the details the action gives, of its own party.
func (a SetParty) PartyDetails(p Party) (Person, bool) {
	if a.Party != p {
		return Person{}, false
	}
	return Person{Address: a.Address, Email: a.Email, Representative: a.Representative}, true
}

// WithPartyDetails implements PartyAct.
func (a SetParty) WithPartyDetails(p Party, d Person) Action {
	if a.Party == p {
		a.Address, a.Email, a.Representative = d.Address, d.Email, d.Representative
	}
	return a
}

func (a SetParty) apply(x *applying) error {
	var p *Person
	switch a.Party {
	case Respondent:
		p = &x.c.Respondent
	case Complainant:
		p = &x.c.Complainant
	default:
		return Invalid("(B)", "party", fmt.Sprintf("%q is not a party: respondent or complainant", a.Party))
	}
	if a.Address == "" && a.Email == "" && a.Representative == (Representative{}) {
		return Invalid("(B)", "address", "give the party's address=, email= or representative= with representative_address=")
	}
	next := *p
	if a.Address != "" {
		next.Address = a.Address
	}
	if a.Email != "" {
		next.Email = a.Email
	}
	if a.Representative.Name != "" {
		next.Representative.Name = a.Representative.Name
	}
	if a.Representative.Address != "" {
		next.Representative.Address = a.Representative.Address
	}
	if err := x.checkContact(string(a.Party), "(B)", next); err != nil {
		return err
	}
	*p = next
	return nil
}
