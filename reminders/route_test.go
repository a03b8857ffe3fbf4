package reminders_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/reminders"
)

// TestRoutes: each kind of reminder goes to one place. By default the
// clerk's tasks (a certified mailing, a notice to post) go to the clerks' direct messages
// only, the commission's steps (the ruling) and the (G) daily reminder to the docket
// channel only, meetings to the sitting commissioners and the digest to the clerks; and
// each can be sent to the direct messages, the channel or both by configuration.
func TestRoutes(t *testing.T) {
	run := func(t *testing.T, routes reminders.Routes) map[string]string {
		w := newWorld(t)
		p := reminders.Defaults()
		for k, r := range routes {
			p.Routes[k] = r
		}
		w.sweep.Planner = &reminders.Planner{Engine: w.e, Policy: p, People: people}
		var n string
		w.run(at(t, "2026-12-04 10:00"), at(t, "2026-12-17 10:00"), time.Hour, map[time.Time]func(){
			at(t, "2026-12-04 10:00"): func() {
				n = w.file(at(t, "2026-12-04 10:00"), docket.NewDate(2027, time.January, 5))
				w.apply(n, at(t, "2026-12-04 10:00"),
					docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at(t, "2026-12-10 17:00"), Place: "City Hall"})
			},
		})
		// Where each series went, e.g. "respondent_notice" → "@U_CLERK".
		to := map[string]map[string]bool{}
		for _, s := range w.rec.said {
			series := strings.Split(s.Key, "|")[1]
			if to[series] == nil {
				to[series] = map[string]bool{}
			}
			to[series][s.To] = true
		}
		out := map[string]string{}
		for series, ds := range to {
			var list []string
			for d := range ds {
				list = append(list, d)
			}
			sort.Strings(list)
			out[series] = strings.Join(list, " ")
		}
		return out
	}
	check := func(t *testing.T, got map[string]string, want map[string]string) {
		t.Helper()
		for series, dests := range want {
			if got[series] != dests {
				t.Errorf("%s went to %q, want %q (all: %v)", series, got[series], dests, got)
			}
		}
	}
	t.Run("Defaults", func(t *testing.T) {
		check(t, run(t, nil), map[string]string{
			"respondent_notice":          "@U_CLERK",          // the clerk's task: (B) certified mail
			"sufficiency_meeting_notice": "@U_CLERK",          // the clerk's task: posting the 48-hour notice
			"sufficiency_ruling":         "#C_DOCKET",         // the commission's step: (C)(1)
			"expedited":                  "#C_DOCKET",         // (G): the commission's decision
			"meeting:sufficiency":        "@U_COMM1 @U_COMM2", // the sitting commissioners
			"digest":                     "@U_CLERK",
		})
	})
	t.Run("Configured", func(t *testing.T) {
		check(t, run(t, reminders.Routes{reminders.ClerkTasks: reminders.Both, reminders.CommissionSteps: reminders.DM,
			reminders.MeetingReminders: reminders.Channel, reminders.Digest: reminders.Channel,
			reminders.Expedited: reminders.DM}), map[string]string{
			"respondent_notice":   "#C_DOCKET @U_CLERK",
			"sufficiency_ruling":  "@U_CLERK",
			"expedited":           "@U_CLERK",
			"meeting:sufficiency": "#C_DOCKET",
			"digest":              "#C_DOCKET",
		})
	})
}

// TestParseRoute: a kind or a route that is not one is refused by name.
func TestParseRoute(t *testing.T) {
	if k, r, err := reminders.ParseRoute("digest", "channel"); err != nil || k != reminders.Digest ||
		r != reminders.Channel {
		t.Errorf("digest: channel = %v %v %v", k, r, err)
	}
	for _, tc := range [][3]string{{"digests", "dm",
		"is not a kind of reminder: use clerk_tasks, commission_steps, expedited, meetings, digest"},
		{"digest", "email", `"email" is not where a reminder can go: use dm, channel or both`}} {
		if _, _, err := reminders.ParseRoute(tc[0], tc[1]); err == nil || !strings.Contains(err.Error(), tc[2]) {
			t.Errorf("%s: %s: %v, want %q", tc[0], tc[1], err, tc[2])
		}
	}
}
