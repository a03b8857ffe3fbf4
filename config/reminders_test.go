package config

import (
	"strings"
	"testing"

	"ethicsbot/reminders"
)

// TestReminderRoutesConfig: reminders.to sends each kind of reminder to the direct
// messages, the docket channel or both; a kind left out keeps its default; an unknown route
// is refused with its line and the rule it breaks.
func TestReminderRoutesConfig(t *testing.T) {
	env := writeConfig(t, "reminders:\n  to:\n    digest: channel\n    clerk_tasks: both\n")
	cfg, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := reminders.DefaultRoutes()
	want[reminders.Digest], want[reminders.ClerkTasks] = reminders.Channel, reminders.Both
	for _, k := range reminders.Kinds {
		if cfg.Reminders.Routes[k] != want[k] {
			t.Errorf("%s goes to %q, want %q", k, cfg.Reminders.Routes[k], want[k])
		}
	}
	env = writeConfig(t, "timezone: America/Chicago\nreminders:\n  to:\n    meetings: email\n")
	if _, err := Load(func(k string) string { return env[k] }); err == nil ||
		!strings.Contains(err.Error(), `"email" is not where a reminder can go: use dm, channel or both`) {
		t.Errorf("an unknown route: %v", err)
	}
	env = writeConfig(t, "")
	if cfg, err := Load(func(k string) string { return env[k] }); err != nil ||
		cfg.Reminders.Routes[reminders.CommissionSteps] != reminders.Channel ||
		cfg.Reminders.Routes[reminders.ClerkTasks] != reminders.DM {
		t.Errorf("the default routes: %v %v", cfg.Reminders.Routes, err)
	}
}
