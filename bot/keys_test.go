package bot_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/commands"
)

func TestSlashRequestKey(t *testing.T) {
	for _, tc := range []struct {
		name             string
		trigger, respURL string
		want             string
	}{
		{"Trigger", "13345224609.738474920.8088930838d88f008e0", "https://hooks.slack.com/commands/T1/1/a",
			"slash:13345224609.738474920.8088930838d88f008e0"},
		{"ResponseURLWithoutTrigger", "", "https://hooks.slack.com/commands/T1/1/a",
			"slash-response:https://hooks.slack.com/commands/T1/1/a"},
		{"Neither", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := slack.SlashCommand{UserID: "U1", Text: "docket", TriggerID: tc.trigger, ResponseURL: tc.respURL}
			if got := bot.SlashRequest(cmd).RequestID; got != tc.want {
				t.Errorf("key %q, want %q", got, tc.want)
			}
		})
	}
}

func TestViewRequestID(t *testing.T) {
	if got, want := bot.ViewRequestID(slack.View{ID: "V111", Hash: "1596530361.3wRYuk3R"}),
		"view:V111:1596530361.3wRYuk3R"; got != want {
		t.Errorf("key %q, want %q", got, want)
	}
	if got := bot.ViewRequestID(slack.View{Hash: "1596530361.3wRYuk3R"}); got != "" {
		t.Errorf("a view without an id has the key %q", got)
	}
}

// TestKeysTellFilingsApart: two different filings that arrive without a trigger_id or a
// view id are both filed, not taken for one filing and its retry; a true retry is still
// filed once.
func TestKeysTellFilingsApart(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	count := func() int {
		t.Helper()
		all, err := e.db.AllCases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	file := func(i int) string {
		return fmt.Sprintf(`file respondent="R%d" complainant="C%d" section=103.10 summary="x"`, i, i)
	}
	t.Run("SlashCommands", func(t *testing.T) {
		for i := range 2 {
			e.app.Slash(ctx,
				slack.SlashCommand{Command: "/ethics", UserID: "U2147483697", Text: file(i),
					ResponseURL: fmt.Sprintf("%s/response/%d", e.slack.URL, i)})
		}
		if got := count(); got != 2 {
			t.Fatalf("%d cases filed by two commands with their own response_urls", got)
		}
		for i := range 2 {
			e.app.Slash(ctx, slack.SlashCommand{Command: "/ethics", UserID: "U2147483697", Text: file(i + 2)})
		}
		if got := count(); got != 4 {
			t.Fatalf("%d cases filed, want 4: two commands without trigger_id or response_url", got)
		}
		retry := slack.SlashCommand{Command: "/ethics", UserID: "U2147483697", Text: file(9),
			ResponseURL: e.slack.URL + "/response/9"}
		e.app.Slash(ctx, retry)
		e.app.Slash(ctx, retry)
		if got := count(); got != 5 {
			t.Errorf("%d cases filed, want 5: a retry with the same response_url is not filed again", got)
		}
	})
	t.Run("ViewSubmissions", func(t *testing.T) {
		before := count()
		m := e.app.Service.Handle(ctx, commands.Request{User: "U2147483697", Text: "file"}).Modal
		for i := range 2 {
			view := slack.View{CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata,
				State: &slack.ViewState{Values: map[string]map[string]slack.BlockAction{
					"respondent":  {"respondent": {Value: fmt.Sprintf("Respondent %d", i)}},
					"complainant": {"complainant": {Value: "Complainant"}},
					"section":     {"section": {Value: "103.10"}},
					"summary":     {"summary": {Value: "x"}},
				}}}
			cb := slack.InteractionCallback{Type: slack.InteractionTypeViewSubmission,
				User: slack.User{ID: "U2147483697"}, View: view}
			if answer := e.app.Interaction(ctx, cb); answer == nil || len(answer.Errors) > 0 {
				t.Fatalf("submission %d: %+v", i, answer)
			}
		}
		e.app.Wait()
		if got := count() - before; got != 2 {
			t.Errorf("%d cases filed by two submissions without a view id", got)
		}
	})
}
