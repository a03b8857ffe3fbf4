package config

import (
	"slices"
	"testing"
)

// TestNeedsRestartUnchanged: the same file read twice needs no restart, though the
// engine's periods hold funcs that reflect.DeepEqual never finds equal; a changed period
// does.
func TestNeedsRestartUnchanged(t *testing.T) {
	const body = "ordinance:\n  periods:\n    hearing_by: {amount: 14, unit: business_days}\n  fines: {min: 1, max: 2}\n" +
		"commissioners: [{id: U0COMM1, name: Ann Alder, title: Chair}]\nletters:\n  commission: {name: Ethics Commission, " +
		"address: City Hall}\n"
	a, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := NeedsRestart(a, b); len(got) != 0 {
		t.Errorf("an unchanged file needs a restart of %v", got)
	}
	c, err := Parse([]byte(body[:len("ordinance:\n  periods:\n    "+
		"hearing_by: {amount: ")] + "15" + body[len("ordinance:\n  periods:\n    hearing_by: {amount: 14"):]))
	if err != nil {
		t.Fatal(err)
	}
	if got := NeedsRestart(a, c); !slices.Equal(got, []string{"ordinance"}) {
		t.Errorf("a changed period needs a restart of %v, want ordinance", got)
	}
}
