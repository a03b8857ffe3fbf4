package bot_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/commands"
	"ethicsbot/outbox"
)

// cardMessage is a case's card as the fake Slack received it: where it went, its text, and
// the elements of its actions blocks.
type cardMessage struct {
	Method, Channel, TS, Text string
	Elements                  []map[string]any
}

// cardCalls are the chat.postMessage and chat.update calls that say case's card in the
// docket channel (tagged with its key), in order.
func cardCalls(calls []call, number string) []cardMessage {
	key := outbox.CardKey(number, outbox.Dest{Channel: "C_DOCKET"}).String()
	var out []cardMessage
	for _, c := range calls {
		if c.Method != "chat.postMessage" && c.Method != "chat.update" {
			continue
		}
		var meta struct {
			Payload map[string]any `json:"event_payload"`
		}
		json.Unmarshal([]byte(fmt.Sprint(c.Fields["metadata"])), &meta)
		if meta.Payload["key"] != key {
			continue
		}
		m := cardMessage{Method: c.Method, Channel: fmt.Sprint(c.Fields["channel"]), TS: fmt.Sprint(c.Fields["ts"]),
			Text: fmt.Sprint(c.Fields["text"])}
		for _, b := range actionBlocks(c) {
			m.Elements = append(m.Elements, b...)
		}
		out = append(out, m)
	}
	return out
}

// actionBlocks are the elements of each actions block of a message ethicsbot posted or
// updated, each marked with its block's block_id, as a click on it carries.
func actionBlocks(c call) [][]map[string]any {
	var blocks []struct {
		Type     string
		BlockID  string `json:"block_id"`
		Elements []map[string]any
	}
	json.Unmarshal([]byte(fmt.Sprint(c.Fields["blocks"])), &blocks)
	var out [][]map[string]any
	for _, b := range blocks {
		if b.Type != "actions" {
			continue
		}
		for _, e := range b.Elements {
			e["block_id"] = b.BlockID
		}
		out = append(out, b.Elements)
	}
	return out
}

// menuOf is the values of the card's menu of steps, and the element itself.
func (m cardMessage) menuOf() ([]string, map[string]any) {
	for _, e := range m.Elements {
		if e["type"] != "overflow" {
			continue
		}
		var values []string
		for _, o := range e["options"].([]any) {
			values = append(values, o.(map[string]any)["value"].(string))
		}
		return values, e
	}
	return nil, nil
}

// choose is the block_actions action of choosing value in the overflow menu e.
func choose(e map[string]any, value string) map[string]any {
	return map[string]any{"type": "overflow", "action_id": e["action_id"], "block_id": e["block_id"],
		"action_ts":       "1733400000.3",
		"selected_option": map[string]any{"text": map[string]any{"type": "plain_text", "text": value}, "value": value}}
}

// TestCardMenuRecordsAndUpdatesTheCard checks that a form submitted from a card
// updates that card, over HTTP with Slack's signatures: a complaint filed by slash
// command posts its card in the docket channel with an Open case button and the menu of
// the steps the case allows; choosing a step in the card's menu opens its form filled in;
// submitting it records the step, and the card, the same message (its ts), is updated with
// chat.update to the case's new state and a new menu. A member recused from the case who
// clicks the card gets no form, and is told why; Open case shows the case to the clicker.
func TestCardMenuRecordsAndUpdatesTheCard(t *testing.T) {
	e := newEnv(t)
	e.slack.mu.Lock()
	e.slack.distinct = true
	e.slack.mu.Unlock()
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	const clerk = "U2147483697"
	body := slashBody(t, e.slack,
		`file respondent="Jane Roe" respondent_user=U_COMM1 complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "trig-card")
	if w := post(t, h, "/slack/commands", body, time.Now(), ""); !strings.Contains(replyOf(t, w.Body.Bytes()), "Filed") {
		t.Fatalf("filing: %s", w.Body.String())
	}
	e.app.Wait()
	e.settle(t)

	cards := cardCalls(e.slack.wait(t, 1), "2026-001")
	if len(cards) != 1 || cards[0].Method != "chat.postMessage" || cards[0].Channel != "C_DOCKET" {
		t.Fatalf("after the filing, the card was said %+v; want it posted once to the docket channel", cards)
	}
	card := cards[0]
	// The card's ts is Slack's answer to its chat.postMessage, which the record keeps.
	ch, ts, _, _, sent, err := e.db.PostedAt(t.Context(), outbox.CardKey("2026-001", outbox.Dest{Channel: "C_DOCKET"}))
	if err != nil || !sent || ch != "C_DOCKET" || ts == "" {
		t.Fatalf("the card is recorded at %s %s, sent %v (%v)", ch, ts, sent, err)
	}
	menu, overflow := card.menuOf()
	if !slices.Contains(menu, "schedule 2026-001 sufficiency") || len(menu) > commands.MaxOverflowOptions {
		t.Fatalf("the card's menu offers %q; want scheduling the sufficiency meeting, within %d options", menu,
			commands.MaxOverflowOptions)
	}
	var open map[string]any
	for _, el := range card.Elements {
		if el["type"] == "button" && el["value"] == "2026-001" && el["text"].(map[string]any)["text"] == "Open case" {
			open = el
		}
	}
	if open == nil || !strings.HasPrefix(card.Text, "*Case 2026-001: received*") {
		t.Fatalf("the card: text %q, elements %v; want its state as text and an Open case button", card.Text, card.Elements)
	}
	fromCard := map[string]any{"type": "message", "message_ts": ts, "channel_id": "C_DOCKET"}

	t.Run("RecusedMemberGetsNoForm", func(t *testing.T) {
		before := e.slack.countOf("views.open")
		if w := post(t, h, "/slack/interactivity",
			click(t, "U_COMM1", choose(overflow, "schedule 2026-001 sufficiency"), fromCard), time.Now(), ""); w.Code != 200 {
			t.Fatalf("click: %d", w.Code)
		}
		e.app.Wait()
		if n := e.slack.countOf("views.open") - before; n != 0 {
			t.Errorf("a member recused from the case was shown %d forms", n)
		}
		told := ""
		for _, c := range e.slack.wait(t, 1) {
			if c.Method == "response_url" && c.Fields["response_type"] == "ephemeral" {
				told = fmt.Sprint(c.Fields["text"])
			}
		}
		if !strings.HasPrefix(told, "Not done: you are recused from case 2026-001") {
			t.Errorf("the recused member was told %q", told)
		}
	})

	t.Run("OpenCase", func(t *testing.T) {
		open["action_ts"] = "1733400000.4"
		if w := post(t, h, "/slack/interactivity", click(t, clerk, open, fromCard), time.Now(), ""); w.Code != 200 {
			t.Fatalf("click: %d", w.Code)
		}
		e.app.Wait()
		shown := ""
		for _, c := range e.slack.wait(t, 1) {
			if c.Method == "response_url" && c.Fields["response_type"] == "ephemeral" {
				shown = fmt.Sprint(c.Fields["text"])
			}
		}
		if !strings.Contains(shown, "2026-001") || !strings.Contains(shown, "Jane Roe") {
			t.Errorf("Open case showed the clerk %q", shown)
		}
	})

	// The clerk chooses a step in the card's menu: its form opens, filled in.
	action := choose(overflow, "schedule 2026-001 sufficiency")
	if w := post(t, h, "/slack/interactivity", click(t, clerk, action, fromCard), time.Now(), ""); w.Code != 200 {
		t.Fatalf("menu: %d %s", w.Code, w.Body.String())
	}
	e.app.Wait()
	form := opened(t, e.slack.wait(t, 1), "trigger-"+fmt.Sprint(action["action_id"]))
	var meta struct {
		Prefill map[string]string
		Channel string
	}
	json.Unmarshal([]byte(form.PrivateMetadata), &meta)
	if form.CallbackID != commands.ModalPrefix+"schedule" || meta.Prefill["number"] != "2026-001" ||
		meta.Prefill["meeting"] != "sufficiency" || meta.Channel != "C_DOCKET" {
		t.Fatalf("the card's menu opened %+v (%+v)", form, meta)
	}

	// The clerk submits it.
	var cb map[string]any
	json.Unmarshal(fixture(t, "view-submission.json"), &cb)
	cb["user"].(map[string]any)["id"] = clerk
	view := cb["view"].(map[string]any)
	view["callback_id"], view["private_metadata"] = form.CallbackID, form.PrivateMetadata
	view["state"] = map[string]any{"values": map[string]any{
		"start": map[string]any{"start": map[string]any{"type": "datetimepicker",
			"selected_date_time": time.Date(2026, 12, 10, 23, 0, 0, 0, time.UTC).Unix()}},
		"place": map[string]any{"place": map[string]any{"type": "plain_text_input", "value": "City Hall"}},
	}}
	payload, _ := json.Marshal(cb)
	w := post(t, h, "/slack/interactivity", []byte("payload="+url.QueryEscape(string(payload))), time.Now(), "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"response_action":"update"`) ||
		!strings.Contains(w.Body.String(), "scheduled for Thu 10 Dec 2026 17:00 CST") {
		t.Fatalf("the submission: %d %s", w.Code, w.Body.String())
	}
	e.app.Wait()
	e.settle(t)

	// The card, that same message, is updated in place with the new state and menu.
	cards = cardCalls(e.slack.wait(t, 1), "2026-001")
	last := cards[len(cards)-1]
	if len(cards) != 2 || last.Method != "chat.update" || last.Channel != "C_DOCKET" || last.TS != ts {
		t.Fatalf("after the submission the card was said %+v; want one chat.update of %s in C_DOCKET", cards, ts)
	}
	if last.Text == card.Text || !strings.Contains(last.Text, "Sufficiency meeting") &&
		!strings.Contains(last.Text, "sufficiency meeting") {
		t.Errorf("the updated card says %q; before, %q", last.Text, card.Text)
	}
	newMenu, _ := last.menuOf()
	if len(newMenu) == 0 || slices.Equal(newMenu, menu) {
		t.Errorf("the updated card's menu is %q; before, %q", newMenu, menu)
	}
	if c, err := e.db.Case(t.Context(), "2026-001"); err != nil || !c.Meeting("sufficiency").Scheduled() {
		t.Errorf("the submission recorded no meeting: %v", err)
	}
}
