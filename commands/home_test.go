package commands_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// homeText is every text of the Home tab's blocks, in order, and the overflow menus of
// its case rows by block id.
func homeText(t *testing.T, blocks []slack.Block) (string, map[string][]*slack.OptionBlockObject) {
	t.Helper()
	var b strings.Builder
	menus := map[string][]*slack.OptionBlockObject{}
	for _, bl := range blocks {
		switch bl := bl.(type) {
		case *slack.SectionBlock:
			b.WriteString(bl.Text.Text + "\n")
			if bl.Accessory != nil && bl.Accessory.OverflowElement != nil {
				menus[bl.BlockID] = bl.Accessory.OverflowElement.Options
			}
		case *slack.HeaderBlock:
			b.WriteString(bl.Text.Text + "\n")
		case *slack.ContextBlock:
			for _, e := range bl.ContextElements.Elements {
				if tx, ok := e.(*slack.TextBlockObject); ok {
					b.WriteString(tx.Text + "\n")
				}
			}
		case *slack.ActionBlock:
			for _, e := range bl.Elements.ElementSet {
				if btn, ok := e.(*slack.ButtonBlockElement); ok {
					b.WriteString("[" + btn.Text.Text + "]\n")
				}
			}
		}
	}
	if _, err := json.Marshal(blocks); err != nil {
		t.Fatal(err)
	}
	return b.String(), menus
}

// TestHomeIsTheClerksDesk: the Home tab is the clerk's desk (issue 22 §2): a button that
// opens the filing form, what needs attention first (an overdue step, papers owed), the
// next meeting with its agenda, and a row per open case with a menu of the steps its
// state allows, each opening its form for that case. A recused commissioner sees nothing
// of the case they are recused from.
func TestHomeIsTheClerksDesk(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk, `file respondent="Jane Roe" respondent_user=U_COMM2 complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "Filed")
	mustDo(t, s, clerk, `file respondent="Rick <Roe>" complainant="Ann Doe" section=103.10 received=2026-12-04T10:00 summary="y"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-17T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency 2026-12-17T17:00 place="City Hall"`, "scheduled")
	clk.now = time.Date(2026, 12, 14, 16, 0, 0, 0, time.UTC)

	blocks := s.HomeBlocks(ctx, clerk)
	all, menus := homeText(t, blocks)

	if n := len(blocks); n > commands.MaxViewBlocks {
		t.Errorf("%d blocks", n)
	}
	first, ok := blocks[0].(*slack.ActionBlock)
	if !ok {
		t.Fatalf("the desk starts with %T, want the File a complaint button", blocks[0])
	}
	btn := first.Elements.ElementSet[0].(*slack.ButtonBlockElement)
	if btn.Text.Text != "File a complaint" || !strings.HasPrefix(btn.ActionID, commands.ActionPrefix) {
		t.Errorf("first button %q %q", btn.Text.Text, btn.ActionID)
	}
	if m := s.Action(ctx, clerk, btn.Value, "").Modal; m == nil || m.CallbackID != commands.ModalPrefix+"file" {
		t.Errorf("the File a complaint button opens %+v", m)
	}
	attention := strings.Index(all, "Needs your attention")
	meeting := strings.Index(all, "Next meeting: Thu 17 Dec 2026 17:00 CST")
	cases := strings.Index(all, "Open cases (2)")
	if attention < 0 || meeting < attention || cases < meeting {
		t.Errorf("attention at %d, meeting at %d, cases at %d: want them in that order", attention, meeting, cases)
	}
	for _, want := range []string{
		":warning: *2026-002* overdue: ",
		":page_facing_up: *2026-002* papers owed: notice of the complaint to the respondent",
		"• *2026-001*: sufficiency meeting, open to the public, at City Hall; notice not yet posted",
		"• *2026-002*: sufficiency meeting",
		"*2026-002*: Ann Doe v. Rick &lt;Roe&gt; · ",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the clerk's desk lacks %q", want)
		}
	}
	opts := menus["case:2026-002"]
	if len(opts) == 0 || len(opts) > commands.MaxOverflowOptions {
		t.Fatalf("case 2026-002's menu: %d options", len(opts))
	}
	var values []string
	for _, o := range opts {
		values = append(values, o.Value)
	}
	if !strings.Contains(strings.Join(values, "|"), "posted 2026-002 sufficiency") {
		t.Errorf("the menu offers %q, want the posting of the meeting's notice", values)
	}
	for _, o := range opts {
		m := s.Action(ctx, clerk, o.Value, "").Modal
		if m == nil || !strings.Contains(m.PrivateMetadata, `"number":"2026-002"`) {
			t.Errorf("%q opens %+v, want its form for case 2026-002", o.Value, m)
		}
	}

	t.Run("Recused", func(t *testing.T) {
		all, menus := homeText(t, s.HomeBlocks(ctx, "U_COMM2"))
		if strings.Contains(all, "2026-001") || menus["case:2026-001"] != nil || !strings.Contains(all, "Open cases (1)") {
			t.Errorf("the recused commissioner's desk shows case 2026-001:\n%s", all)
		}
	})
	t.Run("Attorney", func(t *testing.T) {
		all, _ := homeText(t, s.HomeBlocks(ctx, attorney))
		if strings.Contains(all, "[File a complaint]") {
			t.Error("the attorney, who may not file, gets the File a complaint button")
		}
	})
}
