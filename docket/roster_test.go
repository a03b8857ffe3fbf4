package docket_test

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

func TestRoster(t *testing.T) {
	r := docket.NewRoster([]docket.Member{
		{ID: "U1", Name: "Ann Alder", Title: "Chair"},
		{ID: "U2", Name: "Bo Birch", Title: "Vice Chair"},
		{ID: "U3", Name: "Ann Cobb"},
		{ID: "U4"},
		{ID: "U5", Name: "Dana Dale"},
	})
	if r.Name("U1") != "Ann Alder" || r.Title("U1") != "Chair" || r.Name("U4") != "U4" || r.Name("U9") != "U9" ||
		r.Title("U9") != "" {
		t.Errorf("names: %q %q %q %q", r.Name("U1"), r.Title("U1"), r.Name("U4"), r.Name("U9"))
	}
	if got := strings.Join(r.Names([]string{"U2", "U4"}), ", "); got != "Bo Birch, U4" {
		t.Errorf("Names = %q", got)
	}
	for name, want := range map[string]string{"ann alder": "U1", "  Bo   BIRCH ": "U2", "birch": "U2", "Cobb": "U3",
		"dana": "U5"} {
		if id, err := r.Lookup(name); err != nil || id != want {
			t.Errorf("Lookup(%q) = %q, %v; want %s", name, id, err, want)
		}
	}
	for name, want := range map[string]string{
		"ann":    `"ann" could be Ann Alder (U1) or Ann Cobb (U3)`,
		"Eve":    `"Eve" is not the name of anyone`,
		"Alder ": "", // the last name alone, unique
		"":       "names nobody",
	} {
		_, err := r.Lookup(name)
		if want == "" {
			if err != nil {
				t.Errorf("Lookup(%q): %v", name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(%q): %v, want %q", name, err, want)
		}
	}
	if m, ok := r.Chair([]string{"U2", "U1", "U3"}); !ok || m.ID != "U1" {
		t.Errorf("Chair = %+v, %v (a vice chair is not the chair)", m, ok)
	}
	if m, ok := r.Signature(docket.ClerkSigns, nil, []string{"U4", "U5"}); !ok || m.Name != "Dana Dale" ||
		m.Title != "Clerk" {
		t.Errorf("clerk's signature %+v, %v", m, ok)
	}
	if _, ok := r.Signature(docket.ChairSigns, []string{"U2", "U3"}, nil); ok {
		t.Error("a chair signs where no commissioner is titled chair")
	}
	var none docket.Roster
	if none.Name("U1") != "U1" {
		t.Error("the zero roster does not print ids")
	}
}
