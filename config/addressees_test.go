package config

import (
	"strings"
	"testing"
)

// TestAddresseesCheckedAtLoad: what a letter would refuse or garble is refused when the
// file is read (so by check-config), at its line, naming the setting: an address of too
// many lines, one whose line would wrap in the window (the city, state and ZIP alone on
// the last), invisible characters, Slack markup, a name or title thousands of characters
// long.
func TestAddresseesCheckedAtLoad(t *testing.T) {
	const commission = "letters:\n  commission: {name: Ethics Commission, " +
		"address: \"City Hall | Springfield, IL 62701\"}\n"
	long := strings.Repeat("x", 10000)
	for _, tc := range []struct{ name, body, want string }{
		{"TwelveLines", commission + "  attorney: {name: Lionel Hutz, address: \"" + strings.Repeat("a|", 11) + "b\"}\n",
			"line 3: letters.attorney.address: has 12 lines"},
		{"RightToLeft", commission + "  officer: {name: \"Pat \u202eQuimby\", address: \"City Hall\"}\n",
			"line 3: letters.officer.name"},
		{"ZeroWidth", commission + "  officers:\n    council: {name: City Council, address: \"City\u200b Hall\"}\n",
			"line 4: letters.officers.council.address line 1"},
		{"SlackMarkup", commission + "  attorney: {name: \"<@U0123ABCD> *x*\", address: \"City Hall\"}\n",
			"line 3: letters.attorney.name: \"<@\" is Slack markup"},
		{"LongTitle", commission + "  attorney: {name: Lionel Hutz, title: " + long + ", address: \"City Hall\"}\n",
			"line 3: letters.attorney.title"},
		{"CommissionLines", "letters:\n  commission: {name: E, address: \"" + strings.Repeat("a|", 7) + "b\"}\n",
			"line 2: letters.commission.address: has 8 lines"},
		{"Wraps",
			commission + "  attorney:\n    name: Lionel Hutz\n    " +
				"address: \"Law Department, 100 Main Street, Springfield, IL 62701\"\n",
			"line 5: letters.attorney.address: the line \"Law Department, 100 Main Street, Springfield, IL 62701\" is too wide"},
		{"TooManyForTheWindow",
			commission + "  officer:\n    name: Pat Quimby\n    title: Mayor\n    address: \"a | b | c | d | e | f\"\n",
			"line 6: letters.officer.address: does not fit the window"},
		{"LongChairName", "commissioners:\n  - {id: U0COMM1, name: " + long + ", title: Chair}\n",
			"line 2: commissioners U0COMM1 name"},
		{"LongChairTitle", "clerk:\n  - {id: U0CLERK1, name: Dana Dale, title: " + long + "}\n",
			"line 2: clerk U0CLERK1 title"},
		{"TwoChairs",
			"commissioners:\n  - {id: U0COMM1, name: Ann Alder, title: Chair}\n  - U0COMM2\n  - {id: U0COMM3, name: Bo Birch, " +
				"title: chairperson}\n",
			"line 4: U0COMM3 and U0COMM1 (line 2) are both titled chairperson"},
		{"InvisibleName", "commissioners:\n  - {id: U0COMM1, name: \"Ann\u200d Alder\"}\n",
			"line 2: commissioners U0COMM1 name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "Wraps" || tc.name == "TooManyForTheWindow" { // refused in the next release (deprecated.go)
				cfg, err := Parse([]byte(tc.body))
				if err != nil || len(cfg.Deprecated) != 1 || !strings.Contains(cfg.Deprecated[0], tc.want) ||
					!strings.HasSuffix(cfg.Deprecated[0], "the next refuses it") {
					t.Fatalf("this release: err = %v, warnings %q; want the warning %q", err, cfg.Deprecated, tc.want)
				}
				defer func(d []Deprecation) { deprecations = d }(deprecations)
				deprecations = nil
			}
			_, err := Parse([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	cfg, err := Parse([]byte(commission + "  attorney:\n    name: Lionel Hutz\n    title: Corporation Counsel\n    " +
		"address: |\n      Law Department\n      100 Main Street\n      Springfield, IL 62701\n" +
		"  officer: {name: Pat Quimby, title: Mayor, " +
		"address: \"Office of the Mayor | 100 Main Street | Springfield, IL 62701\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Letters.Officer.Address; got != "Office of the Mayor\n100 Main Street\nSpringfield, IL 62701" {
		t.Errorf("an address's lines given with |: %q", got)
	}
}
