package config

import "testing"

func FuzzConfig(f *testing.F) {
	f.Add("timezone: America/Chicago\nholidays:\n  remove: [columbus_day]\n  closures: [2026-12-24]\n")
	f.Add("ordinance:\n  periods:\n    hearing_by: {amount: 14, unit: business_days}\n  fines: {min: 1, max: 2}\n")
	f.Add("ordinance:\n  sections: {hearing: a, referral: b}\n")
	f.Add("- [\n")
	f.Fuzz(func(t *testing.T, body string) {
		if _, err := Parse([]byte(body)); err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}
