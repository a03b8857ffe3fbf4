package bot_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// TestConsoleNames: once the configuration gives names, the console, read outside Slack,
// shows a person by name where Slack would show a mention, takes :as and every user field
// by name, and leaves a mention of someone without a name as it is.
func TestConsoleNames(t *testing.T) {
	c, e := commissionConsole(t, func(st *commands.Settings) {
		st.Roles.People = docket.NewRoster([]docket.Member{
			{ID: "U_CLERK", Name: "Dana Dale", Title: "Clerk"},
			{ID: "U_COMM1", Name: "Ann Alder", Title: "Chair"},
			{ID: "U_COMM2", Name: "Bo Birch"},
		})
	})
	// The clerk's steps of completeCase up to the ruling, then a recusal, :as and the
	// roll call by name.
	before, _, _ := strings.Cut(completeCase, ":as U_COMM1")
	script := ":clock 2026-12-04T10:30:00-06:00\n" + before + `/ethics recuse 2026-001 commissioner=U_COMM3 reason="knows the respondent"
:as Ann Alder
/ethics rule 2026-001 insufficient yes="Ann Alder, Birch"
/ethics case 2026-001
`
	var out bytes.Buffer
	if err := c.Run(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, "now acting as U_COMM1 (commissioner)") {
		t.Errorf(":as by name did not act as U_COMM1:\n%s", got)
	}
	cs, err := e.db.Case(context.Background(), "2026-001")
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.Votes) != 1 || strings.Join(cs.Votes[0].Vote.Yes, ",") != "U_COMM1,U_COMM2" {
		t.Fatalf("the roll call by name was not recorded: %+v\n%s", cs.Votes, got)
	}
	for _, named := range []string{"<@U_CLERK>", "<@U_COMM1>", "<@U_COMM2>"} {
		if strings.Contains(got, named) {
			t.Errorf("the console shows the mention %s of someone with a name:\n%s", named, got)
		}
	}
	if !strings.Contains(got, "@Ann Alder") || !strings.Contains(got, "<@U_COMM3>") {
		t.Errorf("want @Ann Alder by name, and U_COMM3, who has none, by mention:\n%s", got)
	}
}
