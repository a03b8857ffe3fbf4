package commands_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/outbox"
	"ethicsbot/store"
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

// TestHomeIsTheClerksDesk: the Home tab is the clerk's desk: a button that
// opens the filing form, what needs attention first (an overdue step, papers owed), the
// next meeting with its agenda, and a row per open case with a menu of the steps its
// state allows, each opening its form for that case. A recused commissioner sees nothing
// of the case they are recused from.
func TestHomeIsTheClerksDesk(t *testing.T) {
	s, clk, _ := MustService(t)
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" respondent_user=U_COMM2 complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "Filed")
	mustDo(t, s, clerk,
		`file respondent="Rick <Roe>" complainant="Ann Doe" section=103.10 received=2026-12-04T10:00 summary="y"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-17T17:00 place="City Hall"`, "scheduled")
	mustDo(t, s, clerk, `schedule 2026-002 sufficiency 2026-12-17T17:00 place="City Hall"`, "scheduled")
	clk.now = time.Date(2026, 12, 14, 16, 0, 0, 0, time.UTC)
	mustDo(t, s, clerk,
		`file respondent="Roe" complainant="Doe" section=103.10 received=2026-12-14T09:00 summary="z"`, "Filed")

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
	cases := strings.Index(all, "Open cases (3)")
	if attention < 0 || meeting < attention || cases < meeting {
		t.Errorf("attention at %d, meeting at %d, cases at %d: want them in that order", attention, meeting, cases)
	}
	for _, want := range []string{
		":warning: *2026-002* overdue: ",
		// A paper not yet overdue is owed; one overdue is listed once, as overdue.
		":page_facing_up: *2026-003* papers owed: notice of the complaint to the respondent; confirmation of receipt to " +
			"the complainant",
		// The next meeting is the meeting of the commission, with its agenda's count and
		// whether it is posted, not the cases' meetings one by one.
		"*Next meeting: Thu 17 Dec 2026 17:00 CST*, City Hall: regular meeting 2026-12-17, 2 items; agenda not yet posted: " +
			"due by Tue 15 Dec 2026 17:00 CST (5 ILCS 120/2.02).",
		"• *2026-001*: sufficiency meeting, open to the public",
		"• *2026-002*: sufficiency meeting",
		"*2026-002*: Ann Doe v. Rick &lt;Roe&gt; · ",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the clerk's desk lacks %q", want)
		}
	}
	if strings.Contains(all, "*2026-002* papers owed") {
		t.Error("the overdue papers of case 2026-002 are listed twice")
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
		if strings.Contains(all, "2026-001") || menus["case:2026-001"] != nil || !strings.Contains(all, "Open cases (2)") {
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

// TestPostBlocksOfferSteps: a reminder is laid out as Block Kit with a button for its
// step, whose value is the form's command line; the sentence that tells how to type the
// step is left out beside the button. The digest's buttons, one per line, each have an
// action_id of their own and fit in actions blocks of 25.
func TestPostBlocksOfferSteps(t *testing.T) {
	says := outbox.Markup("Record it with `/ethics mail 2026-001 respondent &lt;article no.&gt;`.")
	text := "2026-001: respondent notice by certified mail due Wed 9 Dec (2 business days), rule (B). " + says
	blocks := commands.PostBlocks(text,
		[]outbox.Action{{Label: "Record: respondent notice by certified mail", Form: "mail 2026-001 respondent", Says: says}})
	all, _ := homeText(t, blocks)
	if strings.Contains(all, "Record it with") || !strings.Contains(all, "rule (B).\n") {
		t.Errorf("the reminder shows %q", all)
	}
	act, ok := blocks[len(blocks)-1].(*slack.ActionBlock)
	if !ok {
		t.Fatalf("the last block is %T, want the button", blocks[len(blocks)-1])
	}
	btn := act.Elements.ElementSet[0].(*slack.ButtonBlockElement)
	if btn.Value != "mail 2026-001 respondent" || !strings.HasPrefix(btn.ActionID, commands.ActionPrefix) {
		t.Errorf("button %+v", btn)
	}

	var actions []outbox.Action
	var lines []string
	for i := range 30 {
		n := fmt.Sprintf("2026-%03d", i+1)
		lines = append(lines, "• "+n+": respondent notice by certified mail due Wed 9 Dec")
		actions = append(actions,
			outbox.Action{Label: n + ": " + strings.Repeat("a very long duty ", 10), Form: "mail " + n + " respondent"})
	}
	blocks = commands.PostBlocks(outbox.Markup(strings.Join(lines, "\n")), actions)
	ids := map[string]bool{}
	rows := 0
	for _, b := range blocks {
		if a, ok := b.(*slack.ActionBlock); ok {
			rows++
			if len(a.Elements.ElementSet) > commands.MaxButtons {
				t.Errorf("%d buttons in one actions block", len(a.Elements.ElementSet))
			}
			for _, e := range a.Elements.ElementSet {
				btn := e.(*slack.ButtonBlockElement)
				ids[btn.ActionID] = true
				if n := len([]rune(btn.Text.Text)); n > commands.MaxButtonText {
					t.Errorf("a button's text of %d characters", n)
				}
			}
		}
	}
	if len(ids) != 30 || rows != 2 {
		t.Errorf("%d distinct action ids in %d actions blocks, want 30 in 2", len(ids), rows)
	}
}

// TestHomeReadThroughItsIndex: the App Home tab read through the store's indexes (the
// docket's page, and what needs attention kept with each case) is, block for block, the
// tab built from every open case: more cases than it shows and more lines of what needs
// attention than it holds, both counted; steps overdue, certified mailings come back,
// papers owed; some cases recused from (left out, and not counted); on several days as
// deadlines pass.
func TestHomeReadThroughItsIndex(t *testing.T) {
	s, c, db := MustService(t)
	e := s.Engine
	for i := range 330 {
		received := c.now.Add(-time.Duration(i*3) * time.Hour)
		res := fileNth(t, db, i, received)
		apply := func(at time.Time, actions ...docket.Action) {
			t.Helper()
			for _, a := range actions {
				if _, err := db.Apply(ctx, docket.Act{By: clerk, At: at}, res.Number, a); err != nil {
					t.Fatalf("case %d: %s: %v", i, a.Kind(), err)
				}
			}
		}
		switch {
		case i%5 == 0 && i >= 20: // ruled; its papers sent, or for some still owed
			y, m, d := received.In(e.Cal.Location()).AddDate(0, 0, 5).Date()
			meeting := time.Date(y, m, d, 17, 0, 0, 0, e.Cal.Location())
			for !e.Cal.IsBusinessDay(e.Cal.DateOf(meeting)) || e.Cal.StatutoryHoliday(e.Cal.DateOf(meeting)) != "" {
				meeting = meeting.AddDate(0, 0, 1)
			}
			apply(received, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting, Place: "City Hall"},
				docket.PostNotice{Meeting: docket.SufficiencyMeeting},
				docket.RecordMailing{Recipient: docket.Respondent, Article: article(fmt.Sprintf("9407111898765432%03d", i))},
				docket.RecordMailing{Recipient: docket.Complainant, Article: article(fmt.Sprintf("9407111898765433%03d", i))})
			apply(meeting.Add(time.Hour), docket.Rule{Ruling: docket.JudicialReferral})
			if i%10 == 5 {
				apply(meeting.Add(time.Hour), docket.RecordDelivery{Paper: docket.RulingToRespondent},
					docket.RecordDelivery{Paper: docket.RulingToComplainant})
			}
		case i%3 == 1:
			meeting := time.Date(2026, 12, 8+i%10, 17, 0, 0, 0, e.Cal.Location())
			for !e.Cal.IsBusinessDay(e.Cal.DateOf(meeting)) {
				meeting = meeting.AddDate(0, 0, 1)
			}
			apply(received, docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: meeting,
				Place: "City Hall"})
			if i%6 == 4 { // its notice came back unclaimed: to be sent again by first-class mail
				no := article(fmt.Sprintf("9407111898765434%03d", i))
				apply(received, docket.RecordMailing{Recipient: docket.Respondent, Article: no})
				apply(received.Add(48*time.Hour), docket.RecordUndelivered{Article: no, Outcome: docket.Unclaimed})
			}
		}
		if i%7 == 3 {
			apply(received, docket.Recuse{User: comm, Reason: "a relative"})
		}
	}
	before := &commands.Service{Record: wholeDesk{db}, Engine: e, Now: c.Now}
	before.Configure(*s.Settings())
	seen := map[string]bool{}
	for _, day := range []int{0, 3, 9, 30, 400} {
		c.now = time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC).AddDate(0, 0, day)
		for _, user := range []string{clerk, comm} {
			want, err := json.Marshal(before.HomeBlocks(ctx, user))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(s.HomeBlocks(ctx, user))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				at := 0
				for at < min(len(got), len(want)) && got[at] == want[at] {
					at++
				}
				t.Fatalf("day %d, %s: the Home tab read through the indexes differs at byte %d\n%s\nwant, as built "+
					"from every case,\n%s", day, user, at, got[max(at-300, 0):], want[max(at-300, 0):])
			}
			for _, s := range []string{"more lines;", "with later deadlines", ":envelope:", ":page_facing_up:",
				":warning:"} {
				if strings.Contains(string(got), s) {
					seen[s] = true
				}
			}
		}
	}
	if len(seen) != 5 {
		t.Fatalf("the Home tabs compared show only %v of what needs attention and the counts of the rest", seen)
	}
}

// wholeDesk is the record as the App Home tab read it before the store kept what needs
// attention on each case and the starts of their steps: its Docket, Attention and
// ComingMeetings, shadowed by methods of no use, are no HomeRecord's nor ComingRecord's,
// so the tab reads every open case and folds every meeting; the rest is the store's.
type wholeDesk struct{ *store.Store }

func (wholeDesk) Docket()         {}
func (wholeDesk) Attention()      {}
func (wholeDesk) ComingMeetings() {}
