package config

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestConfigPeopleNames: commissioners, clerks and the attorney may be given with a name
// and a title, beside the plain ids, in one list; the roster prints them.
func TestConfigPeopleNames(t *testing.T) {
	cfg, err := Parse([]byte(`commissioners:
  - {id: U0123ABCD, name: "Ann Alder", title: Chair}
  - U0456EFGH
  - id: U0789IJKL
    name: Carl  Cobb
clerk: {id: U0ABCDEF12, name: Dana Dale, title: Clerk of the Commission}
attorney: {id: U0FEDCBA98, name: Lionel Hutz, title: Corporation Counsel}
`))
	if err != nil {
		t.Fatal(err)
	}
	r := cfg.Roles
	if strings.Join(r.Commissioners, " ") != "U0123ABCD U0456EFGH U0789IJKL" ||
		strings.Join(r.Clerks, " ") != "U0ABCDEF12" || r.Attorney != "U0FEDCBA98" {
		t.Fatalf("roles %+v", r)
	}
	for _, tc := range []struct{ id, name, title string }{
		{"U0123ABCD", "Ann Alder", "Chair"},
		{"U0456EFGH", "U0456EFGH", ""}, // no name: the id
		{"U0789IJKL", "Carl  Cobb", ""},
		{"U0ABCDEF12", "Dana Dale", "Clerk of the Commission"},
		{"U0FEDCBA98", "Lionel Hutz", "Corporation Counsel"},
	} {
		if got, title := r.People.Name(tc.id), r.People.Title(tc.id); got != tc.name || title != tc.title {
			t.Errorf("%s: %q, %q; want %q, %q", tc.id, got, title, tc.name, tc.title)
		}
	}
	if id, err := r.People.Lookup("carl cobb"); err != nil || id != "U0789IJKL" {
		t.Errorf("Lookup(carl cobb) = %q, %v", id, err)
	}
}

// TestConfigPeopleRefusals: a bad entry is refused at its line, like the other settings.
func TestConfigPeopleRefusals(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"EmptyName", "commissioners:\n  - U0123ABCD\n  - {id: U0456EFGH, name: \"\", title: Chair}\n",
			"line 3: U0456EFGH has no name"},
		{"NoName", "commissioners:\n  - id: U0123ABCD\n    title: Chair\n", "line 2: U0123ABCD has no name"},
		{"BadID", "commissioners:\n  - {id: ann, name: Ann Alder}\n", "line 2: commissioner \"ann\" is not a Slack user id"},
		{"MissingID", "clerk:\n  - {name: Dana Dale}\n", "line 2: clerk \"\" is not a Slack user id"},
		{"DuplicateID", "commissioners:\n  - {id: U0123ABCD, name: Ann Alder}\n  - U0123ABCD\n",
			"line 3: U0123ABCD is listed twice as commissioner (also on line 2)"},
		{"DuplicateAcrossRoles",
			"commissioners: [{id: U0123ABCD, name: Ann Alder}]\nclerk: {id: U0123ABCD, name: Ann Alder}\n",
			"line 2: U0123ABCD is a clerk here and a commissioner on line 1"},
		{"SameName",
			"commissioners:\n  - {id: U0123ABCD, name: Ann Alder}\nclerk:\n  - {id: U0456EFGH, name: \"ann  alder\"}\n",
			"line 4: U0456EFGH and U0123ABCD (line 2) are both named \"ann  alder\""},
		{"UnknownKey", "commissioners:\n  - {id: U0123ABCD, nmae: Ann Alder}\n", "line 2: field nmae not found"},
		{"NestedName", "commissioners:\n  - {id: U0123ABCD, name: [Ann, Alder]}\n", "line 2: name: expected text"},
		{"TwoAttorneys", "attorney:\n  - U0123ABCD\n  - U0456EFGH\n", "line 3: attorney names one person"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestConfigSigners: the chair (the commissioner titled Chair) and the first named clerk
// sign the letters, and letters.signers moves a paper from one to the other; a bad entry
// is refused at its line.
func TestConfigSigners(t *testing.T) {
	cfg, err := Parse([]byte(`commissioners:
  - U0456EFGH
  - {id: U0123ABCD, name: "Ann Alder", title: Chair}
clerk: [U0BCDEF123, {id: U0ABCDEF12, name: Dana Dale}]
letters:
  signers:
    ruling_respondent: clerk
    respondent: chair
`))
	if err != nil {
		t.Fatal(err)
	}
	l := cfg.Letters
	if l.Chair.Name != "Ann Alder" || l.Chair.Title != "Chair" || l.Clerk.Name != "Dana Dale" || l.Clerk.Title != "Clerk" {
		t.Errorf("signers %+v %+v", l.Chair, l.Clerk)
	}
	if l.Signers[docket.RulingToRespondent] != docket.ClerkSigns ||
		l.Signers[docket.RespondentNoticePaper] != docket.ChairSigns || len(l.Signers) != 2 {
		t.Errorf("overrides %v", l.Signers)
	}
	for body, want := range map[string]string{
		"letters:\n  signers:\n    ruling: chair\n": "line 3: letters.signers: \"ruling\" is not a paper; " +
			"the papers are respondent, complainant",
		"letters:\n  signers:\n    referral: attorney\n": "line 3: letters.signers: referral: \"attorney\" is " +
			"not chair or clerk",
		"letters:\n  signers: {referral: clerk, final_officer: x}\n": "line 2: letters.signers: final_officer",
	} {
		if _, err := Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// TestConfigOfficers: letters.officers lists the other officers a case may name, besides
// the mayor of letters.officer, which keeps working alone; a bad entry is
// refused at its line.
func TestConfigOfficers(t *testing.T) {
	cfg, err := Parse([]byte(`letters:
  officer: {name: Pat Quimby, title: Mayor, address: City Hall}
  officers:
    council: {name: City Council, address: "Office of the City Clerk"}
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Letters.Officer.Name != "Pat Quimby" || cfg.Letters.Officers["council"].Name != "City Council" ||
		strings.Join(cfg.Letters.OfficerKeys(), " ") != "mayor council" {
		t.Errorf("officers %+v %+v", cfg.Letters.Officer, cfg.Letters.Officers)
	}
	old, err := Parse([]byte("letters:\n  officer: {name: Pat Quimby, address: City Hall}\n"))
	if err != nil || old.Letters.Officer.Name != "Pat Quimby" || strings.Join(old.Letters.OfficerKeys(), " ") != "mayor" {
		t.Errorf("the single officer: %+v, %v", old.Letters, err)
	}
	for body, want := range map[string]string{
		"letters:\n  officers:\n    Public Works: {name: Dale, " +
			"address: x}\n": `line 3: letters.officers: "Public Works" is not an officer's key such as mayor`,
		"letters:\n  officers:\n    council: {name: " +
			"City Council}\n": "line 3: letters.officers.council: give the officer's name and address",
		"letters:\n  officer: {name: Pat, address: x}\n  officers:\n    mayor: {name: Pat, " +
			"address: x}\n": "line 4: letters.officers.mayor: the mayor is letters.officer already",
		"letters:\n  officers:\n    council: {name: x, address: y, phone: z}\n": "line 3",
	} {
		if _, err := Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}
