package commands_test

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// TestRepeatIsSameUserAndCommand: a request key (a trigger_id, a view id) that arrives
// again is a repeat only from the same user with the same command. From another user, or
// with another command, it is a request of its own, recorded, not answered with the first
// request's case.
func TestRepeatIsSameUserAndCommand(t *testing.T) {
	s, _, db := MustService(t)
	as := func(user, key, text string) string {
		return replyText(s.Handle(ctx, commands.Request{User: user, Text: text, RequestID: key}))
	}
	if got := as(clerk, "slash:T1", fileLine); !strings.Contains(got, "Filed as case *2026-001*") {
		t.Fatal(got)
	}
	if got := as(comm, "slash:T1",
		`file respondent="Sam Jones" complainant="Ann Lee" section=103.10 summary="y"`); !strings.Contains(got,
		"Filed as case *2026-002*") {
		t.Errorf("another user's filing with the same key: %s", got)
	}
	if got := as(clerk, "slash:T1",
		`schedule 2026-002 sufficiency 2026-12-10T17:00 place="City Hall"`); !strings.Contains(got,
		"sufficiency meeting scheduled") {
		t.Errorf("another command of the same user with the same key: %s", got)
	}
	if got := as(clerk, "slash:T1", fileLine); !strings.Contains(got, "Already filed as case *2026-001*") {
		t.Errorf("a true repeat: %s", got)
	}
	if all, _ := db.AllCases(ctx); len(all) != 2 {
		t.Errorf("%d cases, want 2", len(all))
	}
	t.Run("Forms", func(t *testing.T) {
		m := do(s, clerk, "file").Modal
		view := func(respondent string) slack.View {
			return slack.View{ID: "V1", Hash: "h1", CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata,
				State: &slack.ViewState{Values: map[string]map[string]slack.BlockAction{
					"respondent": {"respondent": {Value: respondent}}, "complainant": {"complainant": {Value: "C"}},
					"section": {"section": {Value: "103.10"}}, "summary": {"summary": {Value: "x"}},
				}}}
		}
		if got := shownText(s.Submit(ctx, clerk, "view:V1:h1", view("R1"))); !strings.Contains(got,
			"Filed as case *2026-003*") {
			t.Fatal(got)
		}
		if got := shownText(s.Submit(ctx, comm, "view:V1:h1", view("R2"))); !strings.Contains(got,
			"Filed as case *2026-004*") {
			t.Errorf("another user's form with the same view id: %s", got)
		}
		if got := shownText(s.Submit(ctx, clerk, "view:V1:h1", view("R1"))); !strings.Contains(got,
			"Already filed as case *2026-003*") {
			t.Errorf("a true repeat of a form: %s", got)
		}
	})
}
