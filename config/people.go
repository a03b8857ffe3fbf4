package config

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// person is one commissioner, clerk or the attorney as the file names them: a Slack user
// id alone (`U0123ABCD`, as files written before names were allowed have it), or with the
// name and title the commission's documents print (`{id: U0123ABCD, name: "Ann Alder",
// title: Chair}`).
type person struct {
	ID    string
	Name  string
	Title string
	line  int
	named bool // written as a mapping, which must give a name
}

// people is a setting that names people: one, or a list, each a Slack id or a mapping.
// `clerk: U01`, `clerk: [U01, U02]`, `commissioners: [U01, {id: U02, name: Bo Birch}]`.
type people []person

func (p *people) UnmarshalYAML(n *yaml.Node) error {
	*p = nil
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value != "" { // `clerk: ""` names no clerk, as it always did
			*p = people{{ID: n.Value, line: n.Line}}
		}
		return nil
	case yaml.MappingNode:
		one, err := decodePerson(n)
		if err != nil {
			return err
		}
		*p = people{one}
		return nil
	case yaml.SequenceNode:
		for _, item := range n.Content {
			one, err := decodePerson(item)
			if err != nil {
				return err
			}
			*p = append(*p, one)
		}
		return nil
	}
	return lineError{n.Line, personForm}
}

const personForm = "expected a Slack user id such as U024BE7LH, {id: U024BE7LH, name: \"Ann Alder\", title: Chair}, " +
	"or a list of them"

// decodePerson reads one entry: a scalar id or a mapping of id, name and title. Any other
// key is refused at its line, as the strict decoding of the rest of the file does.
func decodePerson(n *yaml.Node) (person, error) {
	switch n.Kind {
	case yaml.ScalarNode:
		return person{ID: n.Value, line: n.Line}, nil
	case yaml.MappingNode:
		p := person{line: n.Line, named: true}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return person{}, lineError{v.Line, fmt.Sprintf("%s: expected text, not a list or a mapping", k.Value)}
			}
			switch k.Value {
			case "id":
				p.ID = v.Value
			case "name":
				p.Name = strings.TrimSpace(v.Value)
			case "title":
				p.Title = strings.TrimSpace(v.Value)
			default:
				return person{}, lineError{k.Line, fmt.Sprintf("field %s not found: a person has id, name and title", k.Value)}
			}
		}
		return p, nil
	}
	return person{}, lineError{n.Line, personForm}
}

// ids are the Slack ids of p, in order.
func (p people) ids() []string {
	var out []string
	for _, x := range p {
		out = append(out, x.ID)
	}
	return out
}

// first is the one id of a setting that names one person (attorney:), or "".
func (p people) first() string {
	if len(p) == 0 {
		return ""
	}
	return p[0].ID
}

// checkNames checks what checkPeople (ids and roles) does not: that the attorney is one
// person, that a person written as a mapping has a name, and that no two people share a
// name, since the console finds people by name and the documents tell them
// apart by it. A refusal is placed at the entry's line.
func checkNames(f fileConfig) error {
	if len(f.Attorney) > 1 {
		return lineError{f.Attorney[1].line,
			"attorney names one person; the corporate authorities designate one attorney (C)(2), (C)(3)"}
	}
	// One commissioner presides and signs the commission's acts as its Chair: with two so titled, the letters would be signed by whichever is listed first.
	var chair *person
	for i, p := range f.Commissioners {
		if !docket.IsChairTitle(p.Title) {
			continue
		}
		if chair != nil {
			return lineError{p.line,
				fmt.Sprintf("%s and %s (line %d) are both titled %s; the commission has one chair, who signs its rulings, "+
					"decisions and recommendations: give the other another title", p.ID, chair.ID, chair.line, p.Title)}
		}
		chair = &f.Commissioners[i]
	}
	byName := map[string]person{}
	for i, list := range []people{f.Commissioners, f.Clerk, f.Attorney} {
		for _, p := range list {
			if p.named && p.Name == "" {
				return lineError{p.line, fmt.Sprintf("%s has no name: give name: \"First Last\", or write the id alone", p.ID)}
			}
			// The letters sign with the name and title, on one line each, as a party's
			// name is checked (docket.CheckLine).
			for _, x := range []struct{ field, value string }{{"name", p.Name}, {"title", p.Title}} {
				if err := checkName(fmt.Sprintf("%s %s %s", peopleSettings[i], p.ID, x.field), x.value); err != nil {
					return lineError{p.line, err.Error()}
				}
			}
			if p.Name == "" {
				continue
			}
			key := strings.ToLower(strings.Join(strings.Fields(p.Name), " "))
			if first, ok := byName[key]; ok {
				return lineError{p.line,
					fmt.Sprintf("%s and %s (line %d) are both named %q; give each person a name that tells them apart", p.ID, first.ID,
						first.line, p.Name)}
			}
			byName[key] = p
		}
	}
	return nil
}

// peopleSettings name the settings checkNames reads, in its order.
var peopleSettings = []string{"commissioners", "clerk", "attorney"}

// roster is the configuration's people with their names and titles.
func roster(f fileConfig) docket.Roster {
	var ms []docket.Member
	for _, list := range []people{f.Commissioners, f.Clerk, f.Attorney} {
		for _, p := range list {
			ms = append(ms, docket.Member{ID: p.ID, Name: p.Name, Title: p.Title})
		}
	}
	return docket.NewRoster(ms)
}

// fileSigners is letters.signers: who signs which paper, by the paper's name (as
// `/ethics mail` takes it), chair or clerk. A paper not listed is signed as docket's table
// of papers says: the chair signs the commission's acts (rulings, decisions,
// recommendations), the clerk the notices of (B) and (H) and the (C)(3) transmittal.
type fileSigners map[string]string

// parseSigners sets who signs the letters: the chair and the clerk the roster names
// (docket.Roster.Signature), and letters.signers' overrides, each refused at its line
// when it names no paper or no signer. Call it after parseLetters, which sets cfg.Letters.
func parseSigners(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	r := roster(f)
	if m, ok := r.Signature(docket.ChairSigns, f.Commissioners.ids(), f.Clerk.ids()); ok {
		cfg.Letters.Chair = letters.Addressee{Name: m.Name, Title: m.Title}
	}
	if m, ok := r.Signature(docket.ClerkSigns, f.Commissioners.ids(), f.Clerk.ids()); ok {
		cfg.Letters.Clerk = letters.Addressee{Name: m.Name, Title: m.Title}
	}
	if len(f.Letters.Signers) == 0 {
		return nil
	}
	var names []string
	for _, p := range docket.Papers() {
		names = append(names, string(p.Paper))
	}
	cfg.Letters.Signers = map[docket.Paper]docket.Signer{}
	for paper, who := range f.Letters.Signers {
		if _, ok := docket.Paper(paper).Info(); !ok {
			return at("letters", "signers",
				paper)(fmt.Errorf("letters.signers: %q is not a paper; the papers are %s", paper, strings.Join(names, ", ")))
		}
		switch s := docket.Signer(who); s {
		case docket.ChairSigns, docket.ClerkSigns:
			cfg.Letters.Signers[docket.Paper(paper)] = s
		default:
			return at("letters", "signers", paper)(fmt.Errorf("letters.signers: %s: %q is not chair or clerk", paper, who))
		}
	}
	return nil
}

// fileOfficers is letters.officers: the officers with authority to discipline a case may
// name (/ethics officer), by key, besides the mayor (letters.officer, the default). For an
// alderman it may be the council, for an employee a department head.
type fileOfficers map[string]fileAddressee

// parseOfficers applies letters.officers: each key well formed (docket.CheckOfficerKey),
// with a name and an address, since its only use is to address the (E)(2) and (F) letters;
// the mayor given both as letters.officer and as letters.officers.mayor is refused.
func parseOfficers(cfg *Config, f fileConfig, at func(path ...string) func(error) error) error {
	if len(f.Letters.Officers) == 0 {
		return nil
	}
	cfg.Letters.Officers = map[string]letters.Addressee{}
	for key, a := range f.Letters.Officers {
		if err := docket.CheckOfficerKey("letters.officers", key); err != nil {
			return at("letters", "officers", key)(errors.New(docket.ErrorMessage(err)))
		}
		if key == docket.DefaultOfficer && f.Letters.Officer != (fileAddressee{}) {
			return at("letters", "officers",
				key)(errors.New("letters.officers.mayor: the mayor is letters.officer already; give them once"))
		}
		o := letters.Addressee{Name: strings.TrimSpace(a.Name), Title: strings.TrimSpace(a.Title),
			Address: docket.AddressLines(a.Address)}
		if o.Name == "" || o.Address == "" {
			return at("letters", "officers",
				key)(fmt.Errorf("letters.officers.%s: give the officer's name and address, which the (E)(2) and (F) letters "+
				"to them need", key))
		}
		cfg.Letters.Officers[key] = o
	}
	return nil
}
