package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/reminders"
)

// homeOpened is the event Slack sends when user opens the app's Home tab.
func homeOpened(user string) []byte {
	return fmt.Appendf(nil,
		`{"type":"event_callback","team_id":"T1","api_app_id":"A1","event":{"type":"app_home_opened","user":%q,"channel":"D1","tab":"home","event_ts":"1733400000.000100"},"event_id":"Ev1","event_time":1733400000}`, user)
}

// published is the view of the n-th views.publish call for user, as JSON.
func published(t *testing.T, calls []call, user string) []string {
	t.Helper()
	var out []string
	for _, c := range calls {
		if c.Method != "views.publish" || c.Fields["user_id"] != user {
			continue
		}
		v, ok := c.Fields["view"].(string)
		if !ok {
			b, _ := json.Marshal(c.Fields["view"])
			v = string(b)
		}
		out = append(out, v)
	}
	return out
}

// TestHomeRefreshedAfterAction: the Home tab is published when the user opens it, and
// published again after an action changes what it shows: a complaint filed
// by slash command appears on the clerk's desk without the clerk reopening the tab.
func TestHomeRefreshedAfterAction(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	const clerk = "U2147483697"
	if w := post(t, h, "/slack/events", homeOpened(clerk), time.Now(), ""); w.Code != 200 {
		t.Fatalf("app_home_opened: %d", w.Code)
	}
	e.app.Wait()
	views := published(t, e.slack.wait(t, 1), clerk)
	if len(views) != 1 || !strings.Contains(views[0], "File a complaint") ||
		!strings.Contains(views[0], "Open cases (0)") {
		t.Fatalf("on opening, published %q", views)
	}
	body := slashBody(t, e.slack,
		`file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "trig-home")
	if w := post(t, h, "/slack/commands", body, time.Now(), ""); !strings.Contains(replyOf(t, w.Body.Bytes()), "Filed") {
		t.Fatalf("filing: %s", w.Body.String())
	}
	e.app.Wait()
	views = published(t, e.slack.wait(t, 1), clerk)
	if len(views) < 2 || !strings.Contains(views[len(views)-1], "*2026-001*: John Doe v. Jane Roe") {
		t.Fatalf("after the filing, published %d views, the last %q", len(views), views[len(views)-1])
	}
	if n := len(published(t, e.slack.wait(t, 1), "U_COMM1")); n != 0 {
		t.Errorf("published %d views to a commissioner who never opened the tab", n)
	}
}

// click is a block_actions payload as Slack posts it over HTTP (the form field payload),
// from the fixture, as user clicking action, from container.
func click(t *testing.T, user string, action, container map[string]any) []byte {
	t.Helper()
	var cb map[string]any
	if err := json.Unmarshal(fixture(t, "block-actions.json"), &cb); err != nil {
		t.Fatal(err)
	}
	cb["user"].(map[string]any)["id"] = user
	cb["actions"] = []any{action}
	cb["container"] = container
	cb["trigger_id"] = "trigger-" + fmt.Sprint(action["action_id"])
	if container["type"] == "view" { // the Home tab: no channel, no response_url
		delete(cb, "channel")
		delete(cb, "response_url")
	}
	if ch, ok := container["channel_id"]; ok { // a message: the channel is the message's
		cb["channel"] = map[string]any{"id": ch}
	}
	b, _ := json.Marshal(cb)
	return []byte("payload=" + url.QueryEscape(string(b)))
}

// opened is the form of the last views.open call with trigger.
func opened(t *testing.T, calls []call, trigger string) (form struct {
	Title           struct{ Text string }
	CallbackID      string `json:"callback_id"`
	PrivateMetadata string `json:"private_metadata"`
	Blocks          []json.RawMessage
}) {
	t.Helper()
	for _, c := range calls {
		if c.Method == "views.open" && c.Fields["trigger_id"] == trigger {
			raw, ok := c.Fields["view"].(string)
			if !ok {
				b, _ := json.Marshal(c.Fields["view"])
				raw = string(b)
			}
			if err := json.Unmarshal([]byte(raw), &form); err != nil {
				t.Fatal(err)
			}
			return form
		}
	}
	t.Fatalf("no views.open with trigger %s in %+v", trigger, calls)
	return form
}

// TestDeskAndReminderOpenFilledForms : over HTTP, with Slack's
// signatures, opening the Home tab publishes the desk, and choosing a step in a case's
// menu there opens that step's form for the case; a reminder delivered to the clerk as
// Block Kit carries a button, and clicking it opens the form of the step it names, filled
// in with the case and the paper.
func TestDeskAndReminderOpenFilledForms(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	const clerk = "U2147483697"
	ctx := context.Background()
	if r := e.app.Service.Handle(ctx,
		commands.Request{User: clerk,
			Text: `file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`}); !strings.Contains(string(r.Messages[0].Text), "Filed") {
		t.Fatalf("filing: %q", r.Messages[0].Text)
	}
	e.settle(t)

	// The desk.
	post(t, h, "/slack/events", homeOpened(clerk), time.Now(), "")
	e.app.Wait()
	views := published(t, e.slack.wait(t, 1), clerk)
	if len(views) != 1 {
		t.Fatalf("published %d views", len(views))
	}
	var home struct {
		Blocks []struct {
			BlockID   string `json:"block_id"`
			Accessory struct {
				ActionID string `json:"action_id"`
				Options  []struct {
					Text  struct{ Text string }
					Value string
				}
			}
		}
	}
	json.Unmarshal([]byte(views[0]), &home)
	var menu map[string]any
	for _, b := range home.Blocks {
		for _, o := range b.Accessory.Options {
			if o.Value == "schedule 2026-001 sufficiency" {
				menu = map[string]any{"type": "overflow", "action_id": b.Accessory.ActionID, "block_id": b.BlockID,
					"action_ts": "1733400000.1",
					"selected_option": map[string]any{"text": map[string]any{"type": "plain_text", "text": o.Text.Text},
						"value": o.Value}}
			}
		}
	}
	if menu == nil {
		t.Fatalf("no row of case 2026-001 offers to schedule its sufficiency meeting: %s", views[0])
	}
	if w := post(t, h, "/slack/interactivity", click(t, clerk, menu, map[string]any{"type": "view", "view_id": "V1"}),
		time.Now(), ""); w.Code != 200 {
		t.Fatalf("menu: %d %s", w.Code, w.Body.String())
	}
	e.app.Wait()
	form := opened(t, e.slack.wait(t, 1), "trigger-"+fmt.Sprint(menu["action_id"]))
	if form.CallbackID != commands.ModalPrefix+"schedule" || form.Title.Text != "schedule 2026-001" ||
		!strings.Contains(form.PrivateMetadata, `"number":"2026-001","meeting":"sufficiency"`) &&
			!strings.Contains(form.PrivateMetadata, `"meeting":"sufficiency","number":"2026-001"`) {
		t.Errorf("the menu opened %+v", form)
	}

	// A reminder, as the sweep plans it and the outbox delivers it.
	sweep := &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: e.app.Service.Engine, Policy: reminders.Defaults(),
			People: reminders.People{Clerks: []string{clerk}, Docket: "C_DOCKET"}},
		Cases: e.db, Outbox: e.db, Notify: e.app.Outbox.Kick,
	}
	if _, err := sweep.Sweep(ctx, time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	var button map[string]any
	var text string
	for deadline := time.Now().Add(5 * time.Second); button == nil &&
		time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, c := range e.slack.wait(t, 1) {
			if c.Method != "chat.postMessage" || c.Fields["channel"] != clerk ||
				!strings.Contains(fmt.Sprint(c.Fields["text"]), "respondent notice by certified mail") {
				continue
			}
			text = fmt.Sprint(c.Fields["text"])
			for _, b := range actionBlocks(c) {
				if len(b) == 1 {
					button = b[0]
					button["action_ts"] = "1733400000.2"
				}
			}
		}
	}
	if button == nil || !strings.Contains(text, "Record it with `/ethics mail 2026-001 respondent") {
		t.Fatalf("the clerk's reminder of the respondent notice: text %q, button %v", text, button)
	}
	if w := post(t, h, "/slack/interactivity",
		click(t, clerk, button, map[string]any{"type": "message", "message_ts": "1733400000.000100", "channel_id": "D1"}),
		time.Now(), ""); w.Code != 200 {
		t.Fatalf("button: %d", w.Code)
	}
	e.app.Wait()
	form = opened(t, e.slack.wait(t, 1), "trigger-"+fmt.Sprint(button["action_id"]))
	var meta struct{ Prefill map[string]string }
	json.Unmarshal([]byte(form.PrivateMetadata), &meta)
	if form.CallbackID != commands.ModalPrefix+"mail" || form.Title.Text != "mail 2026-001" ||
		meta.Prefill["number"] != "2026-001" || meta.Prefill["paper"] != "respondent" {
		t.Errorf("the reminder's button opened %+v", form)
	}
	all := ""
	for _, b := range form.Blocks {
		all += string(b)
	}
	if !strings.Contains(all, "Paper: *respondent*") || !strings.Contains(all, `"block_id":"article"`) {
		t.Errorf("the mail form does not show its paper fixed and ask for the article number: %s", all)
	}
}

// TestHomeRefreshedBySweep: a sweep that finds a step due refreshes the Home tabs that
// were opened (as main wires it: the sweep's Notify), so a step that fell overdue overnight
// is on the desk without the clerk reopening it.
func TestHomeRefreshedBySweep(t *testing.T) {
	e := newEnv(t)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	const clerk = "U2147483697"
	ctx := context.Background()
	e.app.Service.Handle(ctx,
		commands.Request{User: clerk,
			Text: `file respondent="Jane Roe" complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`})
	e.settle(t)
	post(t, h, "/slack/events", homeOpened(clerk), time.Now(), "")
	e.app.Wait()
	sweep := &reminders.Sweeper{
		Planner: &reminders.Planner{Engine: e.app.Service.Engine, Policy: reminders.Defaults(),
			People: reminders.People{Clerks: []string{clerk}}},
		Cases: e.db, Outbox: e.db, Notify: func() { e.app.RefreshHomesNow(ctx) },
	}
	later := time.Date(2026, 12, 10, 16, 0, 0, 0, time.UTC)
	e.app.Service.Now = func() time.Time { return later }
	if _, err := sweep.Sweep(ctx, later); err != nil {
		t.Fatal(err)
	}
	views := published(t, e.slack.wait(t, 1), clerk)
	if len(views) != 2 || !strings.Contains(views[1], "overdue: respondent notice by certified mail") {
		t.Fatalf("published %d views, the last %q", len(views), views[len(views)-1])
	}
}
