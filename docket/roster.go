package docket

import (
	"fmt"
	"strings"
)

// Member is a person the configuration names: a commissioner, a clerk or the attorney, by
// their Slack user id, with the name and title the commission's documents give them.
type Member struct {
	ID    string // Slack user id, U024BE7LH
	Name  string // "Ann Alder"; "" when the configuration gives only the id
	Title string // "Chair", "Clerk"; may be ""
}

// Roster is who the configuration names, by Slack id, with their names and titles: the
// one place documents read to print a person (minutes, letters, the board, exports and
// reports use names; Slack messages keep mentions). The zero Roster names nobody, and
// every id prints as itself.
type Roster struct {
	members []Member
}

// NewRoster is the roster of ms, in their order. An id given twice keeps its first entry
// (the configuration refuses a person listed twice before it gets here).
func NewRoster(ms []Member) Roster {
	var r Roster
	seen := map[string]bool{}
	for _, m := range ms {
		m.ID, m.Name, m.Title = strings.TrimSpace(m.ID), strings.TrimSpace(m.Name), strings.TrimSpace(m.Title)
		if m.ID == "" || seen[m.ID] {
			continue
		}
		seen[m.ID] = true
		r.members = append(r.members, m)
	}
	return r
}

// Members lists the roster, in the configuration's order.
func (r Roster) Members() []Member { return append([]Member(nil), r.members...) }

func (r Roster) member(id string) (Member, bool) {
	for _, m := range r.members {
		if m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

// Name is the name of the person with Slack id id, or the id itself when the
// configuration gives none, so a document never prints an empty name.
func (r Roster) Name(id string) string {
	if m, ok := r.member(id); ok && m.Name != "" {
		return m.Name
	}
	return id
}

// Title is the title of the person with Slack id id: "Chair", or "" for none.
func (r Roster) Title(id string) string {
	m, _ := r.member(id)
	return m.Title
}

// Names are the names of ids, in their order (Name of each).
func (r Roster) Names(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = r.Name(id)
	}
	return out
}

// Lookup finds the Slack id of the person named name: their full name, or their first or
// last name alone when only one person on the roster has it, compared without regard to
// case or repeated spaces. A name that fits nobody, or more than one person, is refused
// with the candidates, so the caller never guesses who voted.
func (r Roster) Lookup(name string) (string, error) {
	want := fold(name)
	if want == "" {
		return "", fmt.Errorf("names nobody")
	}
	var full, part []Member
	for _, m := range r.members {
		if m.Name == "" {
			continue
		}
		have := fold(m.Name)
		words := strings.Fields(have)
		switch {
		case have == want:
			full = append(full, m)
		case len(words) > 1 && (words[0] == want || words[len(words)-1] == want):
			part = append(part, m)
		}
	}
	found := full
	if len(found) == 0 {
		found = part
	}
	switch len(found) {
	case 1:
		return found[0].ID, nil
	case 0:
		return "", fmt.Errorf("%q is not the name of anyone the configuration names (commissioners:, "+
			"clerk:, attorney:)", name)
	}
	var who []string
	for _, m := range found {
		who = append(who, m.Name+" ("+m.ID+")")
	}
	return "", fmt.Errorf("%q could be %s: give the full name or the member id", name, strings.Join(who, " or "))
}

// fold is a name compared without regard to case or spacing.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// Signer is who signs a letter for the commission: the chair or the clerk,
// as the configuration names them.
type Signer string

const (
	// ChairSigns: the papers that carry the commission's own act, a ruling, a decision or
	// a recommendation, are signed by its chair, who presides over the vote that made it.
	ChairSigns Signer = "chair"
	// ClerkSigns: notices and transmittals, which report the record rather than act, are
	// signed by the clerk who keeps it.
	ClerkSigns Signer = "clerk"
)

// Chair is the commissioner whose title names them the chair ("Chair", "Chairperson",
// "Chairman", "Chairwoman"; not "Vice Chair"), among commissioners; ok is false when none is.
func (r Roster) Chair(commissioners []string) (Member, bool) {
	for _, id := range commissioners {
		m, ok := r.member(id)
		if !ok {
			continue
		}
		if IsChairTitle(m.Title) {
			return m, true
		}
	}
	return Member{}, false
}

// IsChairTitle reports whether title names its holder the chair: "Chair", "Chairperson",
// "Chairman", "Chairwoman", "Chair of the Commission", without regard to case or spacing;
// not "Vice Chair". The configuration names one commissioner so (config refuses two).
func IsChairTitle(title string) bool {
	switch fold(title) {
	case "chair", "chairperson", "chairman", "chairwoman", "chair of the commission":
		return true
	}
	return false
}

// Signature is the member who signs as s: the chair among commissioners, or the first of
// clerks with a name. ok is false when the configuration names nobody for s, and the
// letter is signed for the commission, as before names were configured.
func (r Roster) Signature(s Signer, commissioners, clerks []string) (Member, bool) {
	switch s {
	case ChairSigns:
		if m, ok := r.Chair(commissioners); ok && m.Name != "" {
			return m, true
		}
	case ClerkSigns:
		for _, id := range clerks {
			if m, ok := r.member(id); ok && m.Name != "" {
				if m.Title == "" {
					m.Title = "Clerk"
				}
				return m, true
			}
		}
	}
	return Member{}, false
}

// Titled is how documents name people: "Ann Alder, Chair", or the name alone
// for a person without a title, or the id of a person the roster does not name.
func (r Roster) Titled() Names {
	return func(id string) string {
		if t := r.Title(id); t != "" && r.Name(id) != id {
			return r.Name(id) + ", " + t
		}
		return r.Name(id)
	}
}
