package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/outbox"
)

// threadSlack answers chat.postMessage, chat.update, conversations.history and
// conversations.replies as Slack does for one channel, keeping each message's thread and
// metadata; deleted messages are answered message_not_found.
type threadSlack struct {
	mu      sync.Mutex
	msgs    []map[string]any // in the order posted
	deleted map[string]bool
	calls   []string
	blocks  map[string]string // ts → the blocks last posted or updated, as sent
}

func (f *threadSlack) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r.ParseForm()
	method := strings.TrimPrefix(r.URL.Path, "/")
	f.calls = append(f.calls, method)
	answer := func(v map[string]any) { v["ok"] = true; json.NewEncoder(w).Encode(v) }
	fail := func(code string) { json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": code}) }
	var meta map[string]any
	json.Unmarshal([]byte(r.Form.Get("metadata")), &meta)
	switch method {
	case "chat.postMessage":
		th := r.Form.Get("thread_ts")
		if th != "" && !f.exists(th) {
			fail("thread_not_found")
			return
		}
		ts := "1700000000." + strings.Repeat("0", 5) + string(rune('0'+len(f.msgs)))
		f.blocks[ts] = r.Form.Get("blocks")
		f.msgs = append(f.msgs,
			map[string]any{"ts": ts, "text": r.Form.Get("text"), "thread_ts": th, "metadata": meta, "type": "message"})
		answer(map[string]any{"channel": "C_DOCKET", "ts": ts})
	case "chat.update":
		ts := r.Form.Get("ts")
		if !f.exists(ts) {
			fail("message_not_found")
			return
		}
		for _, m := range f.msgs {
			if m["ts"] == ts {
				m["text"], m["metadata"] = r.Form.Get("text"), meta
				f.blocks[ts] = r.Form.Get("blocks")
			}
		}
		answer(map[string]any{"channel": "C_DOCKET", "ts": ts})
	case "conversations.history":
		var out []map[string]any
		for _, m := range f.msgs {
			if m["thread_ts"] == "" && !f.deleted[m["ts"].(string)] {
				out = append(out, m)
			}
		}
		answer(map[string]any{"messages": out})
	case "conversations.replies":
		th := r.Form.Get("ts")
		if !f.exists(th) {
			fail("thread_not_found")
			return
		}
		var out []map[string]any
		for _, m := range f.msgs {
			if m["ts"] == th || m["thread_ts"] == th {
				out = append(out, m)
			}
		}
		answer(map[string]any{"messages": out})
	default:
		fail("unknown_method")
	}
}

func (f *threadSlack) exists(ts string) bool {
	for _, m := range f.msgs {
		if m["ts"] == ts && !f.deleted[ts] {
			return true
		}
	}
	return false
}

// TestSenderThreads: the Slack sender replies in a thread (thread_ts), updates a card in
// place (chat.update, keeping its key), finds a reply in its thread (conversations.replies:
// the channel's history holds no replies), tells a deleted parent as outbox.ErrGone, and
// Said reads the replies of the threads, for a restore.
func TestSenderThreads(t *testing.T) {
	f := &threadSlack{deleted: map[string]bool{}, blocks: map[string]string{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	s := &bot.Sender{API: slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/"))}
	ctx := context.Background()
	to := outbox.Dest{Channel: "C_DOCKET"}
	card := outbox.CardKey("2026-001", to)
	_, parent, err := s.Send(ctx, to, "*Case 2026-001: received*", card)
	if err != nil {
		t.Fatal(err)
	}
	event := outbox.EventKey("2026-001", 1, 1, to)
	_, reply, err := s.Reply(ctx, to, parent, "New case 2026-001", event)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.msgs[1]["thread_ts"]; got != parent {
		t.Errorf("the reply went to thread %v, want the card's %s", got, parent)
	}
	actions := []outbox.Action{{Label: "Open case", Case: "2026-001"},
		{Label: "mail respondent", Form: "mail 2026-001 respondent", Menu: true}}
	if err := s.Update(ctx, "C_DOCKET", parent, "*Case 2026-001: notices sent*", actions, card); err != nil {
		t.Fatal(err)
	}
	if f.msgs[0]["text"] != "*Case 2026-001: notices sent*" ||
		f.msgs[0]["metadata"].(map[string]any)["event_payload"].(map[string]any)["key"] != card.String() {
		t.Errorf("after the update the card is %v", f.msgs[0])
	}
	// The update carries the card's actions as blocks: its Open case button and its menu.
	if b := f.blocks[parent]; !strings.Contains(b,
		`"text":"Open case","emoji":false},"action_id":"ethics:open:0","value":"2026-001"`) ||
		!strings.Contains(b, `"type":"overflow","action_id":"ethics:step:menu"`) ||
		!strings.Contains(b, `"value":"mail 2026-001 respondent"`) {
		t.Errorf("the update's blocks: %s", b)
	}
	// With no actions, the blocks are sent all the same, without buttons: chat.update
	// keeps a message's blocks when it is given none.
	if err := s.Update(ctx, "C_DOCKET", parent, "*Case 2026-001: closed*", nil, card); err != nil {
		t.Fatal(err)
	}
	if b := f.blocks[parent]; b == "" || strings.Contains(b, "ethics:") {
		t.Errorf("the update's blocks with no actions: %q", b)
	}
	if _, ts, found, err := s.FindReply(ctx, to, parent, event); err != nil || !found || ts != reply {
		t.Errorf("FindReply = %s, %v, %v; want %s", ts, found, err, reply)
	}
	said, err := s.Said(ctx, to, time.Unix(1600000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range said {
		keys = append(keys, m.Key.String())
	}
	if got := strings.Join(keys, " "); got != card.String()+" "+event.String() {
		t.Errorf("Said found %s; want the card and its reply", got)
	}
	f.deleted[parent] = true
	if err := s.Update(ctx, "C_DOCKET", parent, "x", nil, card); !errors.Is(err, outbox.ErrGone) {
		t.Errorf("updating a deleted card: %v, want outbox.ErrGone", err)
	}
	if _, _, err := s.Reply(ctx, to, parent, "x", outbox.EventKey("2026-001", 2, 1, to)); !errors.Is(err, outbox.ErrGone) {
		t.Errorf("replying to a deleted card: %v, want outbox.ErrGone", err)
	}
}

// TestSenderTellsRateLimit: a 429 from Slack is told to RateLimited, with the destination
// and the Retry-After, so that the outbox's pacer holds that destination; the message is
// then tried again and goes once.
func TestSenderTellsRateLimit(t *testing.T) {
	var posts int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat.postMessage" {
			// The look-back before trying again: nothing went out.
			json.NewEncoder(w).Encode(map[string]any{"ok": true, "messages": []any{},
				"channel": map[string]any{"id": "C_DOCKET"}})
			return
		}
		posts++
		if posts == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "channel": "C_DOCKET", "ts": "1.2"})
	}))
	defer srv.Close()
	var told []string
	s := &bot.Sender{API: slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/")),
		RateLimited: func(to outbox.Dest, wait time.Duration) { told = append(told, to.String()+" "+wait.String()) }}
	to := outbox.Dest{Channel: "C_DOCKET"}
	if _, ts, err := s.Send(context.Background(), to, "x", outbox.EventKey("2026-001", 1, 1, to)); err != nil ||
		ts != "1.2" {
		t.Fatalf("send: %s %v", ts, err)
	}
	if len(told) != 1 || told[0] != "#C_DOCKET 0s" || posts != 2 {
		t.Errorf("told %v after %d posts; want the 429 told once, then the message sent", told, posts)
	}
}
