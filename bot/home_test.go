package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"ethicsbot/commands"
)

// TestPublishHomeBlocks: the Home tab is published as the service lays it out, in several
// blocks, not as one section cut at 3,000 characters, and within a view's 100 blocks: with
// 120 open cases, the most urgent have a row each and the rest are counted.
func TestPublishHomeBlocks(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for i := range 120 {
		text := fmt.Sprintf(`file respondent="Respondent %d" complainant="Complainant %d" section=103.10 summary="x"`, i, i)
		if r := e.app.Service.Handle(ctx,
			commands.Request{User: "U2147483697", Text: text}); !strings.Contains(string(r.Messages[0].Text), "Filed") {
			t.Fatalf("filing %d: %q", i, r.Messages[0].Text)
		}
	}
	e.settle(t) // the filings' docket lines are delivered first, on their own
	n := e.slack.count()
	e.app.PublishHome(ctx, "U2147483697")
	call := e.slack.wait(t, n+1)[n]
	if call.Method != "views.publish" {
		t.Fatalf("called %s", call.Method)
	}
	raw, _ := json.Marshal(call.Fields["view"])
	if s, ok := call.Fields["view"].(string); ok {
		raw = []byte(s)
	}
	var view struct {
		Type   string `json:"type"`
		Blocks []struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatalf("view %s: %v", raw, err)
	}
	var all strings.Builder
	for _, b := range view.Blocks {
		all.WriteString(b.Text.Text + "\n")

	}
	if n := len(view.Blocks); view.Type != "home" || n < 3 || n > commands.MaxViewBlocks {
		t.Errorf("a %s view of %d blocks", view.Type, n)
	}
	all.Write(raw) // the count of the cases left out is in a context block
	for _, want := range []string{"*2026-050*: Complainant 49 v. Respondent 49",
		"more, with later deadlines; `/ethics cases open` lists every open case", "Type `/ethics help &lt;command&gt;`"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the Home tab lacks %q", want)
		}
	}
}
