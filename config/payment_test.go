package config

import (
	"strings"
	"testing"

	"ethicsbot/docket"
)

// TestPaymentConfig: payment: gives the letters the payee, address and ways to pay a fine,
// and the term to pay it (the fine_payment period); a partial section, an empty method or
// a term out of range is refused with its line, naming the setting.
func TestPaymentConfig(t *testing.T) {
	env := writeConfig(t, "payment:\n  payee: City of Springfield\n  address: \"City Clerk | 800 E Monroe St | "+
		"Springfield, IL 62701\"\n  methods: [\"by check payable to the City of Springfield\", \"in person\"]\n"+
		"  due_days: 45\n")
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Letters.Payment
	if p.Payee != "City of Springfield" || p.Address != "City Clerk\n800 E Monroe St\nSpringfield, IL 62701" ||
		len(p.Methods) != 2 || p.Methods[1] != "in person" {
		t.Errorf("payment %+v", p)
	}
	if got := cfg.Ordinance.Period(docket.FinePayment); got.Amount != 45 || got.Unit != docket.Days {
		t.Errorf("fine_payment %d %s, want 45 days", got.Amount, got.Unit)
	}
	e, err := cfg.Engine()
	if err != nil {
		t.Fatal(err)
	}
	if l := cfg.LettersFor(e); l.Engine != e || l.Payment.Payee != p.Payee {
		t.Errorf("the letters do not count by the configured engine: %+v", l)
	}
	if got := (Default()).Ordinance.Period(docket.FinePayment).Amount; got != 30 {
		t.Errorf("default term %d days, want 30", got)
	}
	for _, tc := range []struct{ body, want string }{
		{"payment:\n  payee: City of Springfield\n", "line 1: payment.address is not set"},
		{"payment:\n  payee: City\n  address: Hall\n", "line 1: payment.methods lists 0 ways to pay"},
		{"payment:\n  payee: City\n  address: Hall\n  methods: [\"\"]\n", "line 4: payment.methods: required"},
		{"payment:\n  due_days: 0\n", "line 2: payment.due_days 0 is not a number of days from 1 to 366"},
		{"ordinance:\n  periods:\n    fine_payment: {amount: 20, unit: days}\npayment:\n  due_days: 20\n",
			"line 5: payment.due_days and ordinance.periods.fine_payment both set"},
	} {
		env := writeConfig(t, tc.body)
		if _, err := Load(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
	if got := NeedsRestart(Config{}, cfg); !strings.Contains(strings.Join(got, " "), "payment") {
		t.Errorf("NeedsRestart = %v: the payment settings are read into the letters at start", got)
	}
}

// TestReferralsConfig: referrals.remind_days sets how often a referral to the attorney is
// followed (referral_follow_up); out of range, it is refused with its line.
func TestReferralsConfig(t *testing.T) {
	env := writeConfig(t, "referrals:\n  remind_days: 14\n")
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Ordinance.Period(docket.ReferralFollowUp); got.Amount != 14 || got.Unit != docket.Days {
		t.Errorf("referral_follow_up %d %s, want 14 days", got.Amount, got.Unit)
	}
	env = writeConfig(t, "referrals:\n  remind_days: 400\n")
	if _, err := Load(func(k string) string { return env[k] }); err == nil ||
		!strings.Contains(err.Error(), "line 2: referrals.remind_days 400 is not a number of days from 1 to 366") {
		t.Errorf("remind_days 400: %v", err)
	}
}
