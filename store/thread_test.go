package store_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// threadedSay says each step as the docket channel does (commands.Service.say): the
// case's card, written with every step and kept if there; the step's line, a reply in the
// card's thread; and the card's new text, an update of it.
func threadedSay(st docket.Step) []outbox.Post {
	to := outbox.Dest{Channel: "C_DOCKET"}
	card := outbox.CardKey(st.After.Number, to)
	text := outbox.Format("*Case %s: %s*", st.After.Number, st.Action.Kind())
	return []outbox.Post{
		{Key: card, Text: text, Due: st.At},
		{Key: outbox.EventKey(st.After.Number, st.Event, 1, to),
			Text: outbox.Format("%s: %s", st.After.Number, st.Action.Kind()), Due: st.At, Thread: card},
		{Key: outbox.CardUpdateKey(st.After.Number, st.Event, to), Text: text, Due: st.At, Thread: card, Edit: true},
	}
}

// slackThreads is a Sender and Threader that keeps messages by channel and ts, as Slack
// does, and says what each call did.
type slackThreads struct {
	msgs  map[string]string // ts → text
	log   []string
	seq   int
	gone  map[string]bool // ts of messages deleted in Slack
	lost  bool            // the next reply is posted but its answer lost
	calls map[string]int
}

func newSlackThreads() *slackThreads {
	return &slackThreads{msgs: map[string]string{}, gone: map[string]bool{}, calls: map[string]int{}}
}

func (s *slackThreads) post(text string) string {
	s.seq++
	ts := strconv.Itoa(s.seq)
	s.msgs[ts] = text
	return ts
}

func (s *slackThreads) Send(_ context.Context, to outbox.Dest, text outbox.Markup,
	k outbox.Key) (string, string, error) {
	s.calls["send"]++
	ts := s.post(string(text))
	s.log = append(s.log, fmt.Sprintf("post %s %s %q", ts, k, text))
	return "C_DOCKET", ts, nil
}

// SendActions is Send, with the post's actions as buttons, named in the log.
func (s *slackThreads) SendActions(ctx context.Context, to outbox.Dest, text outbox.Markup, actions []outbox.Action,
	k outbox.Key) (string, string, error) {
	ch, ts, err := s.Send(ctx, to, text, k)
	s.log[len(s.log)-1] += " " + actionNames(actions)
	return ch, ts, err
}

// actionNames names a post's actions for the log: "[Open case|schedule 2026-001 sufficiency]".
func actionNames(actions []outbox.Action) string {
	var names []string
	for _, a := range actions {
		names = append(names, a.Label)
	}
	return "[" + strings.Join(names, "|") + "]"
}

func (s *slackThreads) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

func (s *slackThreads) Reply(_ context.Context, to outbox.Dest, thread string, text outbox.Markup,
	k outbox.Key) (string, string, error) {
	s.calls["reply"]++
	if _, ok := s.msgs[thread]; !ok || s.gone[thread] {
		return "", "", fmt.Errorf("thread_not_found: %w", outbox.ErrGone)
	}
	ts := s.post(k.String())
	s.log = append(s.log, fmt.Sprintf("reply %s in %s %q", ts, thread, text))
	if s.lost {
		s.lost = false
		return "", "", fmt.Errorf("connection reset before the answer")
	}
	return "C_DOCKET", ts, nil
}

func (s *slackThreads) FindReply(_ context.Context, to outbox.Dest, thread string,
	k outbox.Key) (string, string, bool, error) {
	s.calls["find"]++
	for ts, text := range s.msgs {
		if text == k.String() {
			return "C_DOCKET", ts, true, nil
		}
	}
	return "", "", false, nil
}

func (s *slackThreads) Update(_ context.Context, channel, ts string, text outbox.Markup, actions []outbox.Action,
	k outbox.Key) error {
	s.calls["update"]++
	if _, ok := s.msgs[ts]; !ok || s.gone[ts] || channel != "C_DOCKET" {
		return fmt.Errorf("message_not_found: %w", outbox.ErrGone)
	}
	s.msgs[ts] = string(text)
	line := fmt.Sprintf("update %s %q", ts, text)
	if len(actions) > 0 {
		line += " " + actionNames(actions)
	}
	s.log = append(s.log, line)
	return nil
}

// TestDocketThread: a case is one message in the docket channel, its card, updated in
// place after each step, with each step a reply in its thread. The card's ts
// is the one Slack gave when it took the card, kept in the outbox; a card deleted in Slack
// is posted again, and the replies after go in the new one's thread; a reply whose answer
// was lost is found in the thread, not posted twice.
func TestDocketThread(t *testing.T) {
	s := MustOpen(t)
	slack := newSlackThreads()
	d := &outbox.Deliverer{Store: s, Sender: slack, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.SayWith(sayers{step: threadedSay})
	when := T(t, "2026-12-04T10:00:00-06:00")
	filed, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, "Jane Roe"))
	if err != nil {
		t.Fatal(err)
	}
	n := filed.Case.Number
	drain := func(at time.Time) {
		t.Helper()
		if _, err := d.Drain(ctx, at); err != nil {
			t.Fatal(err)
		}
	}
	drain(when)
	at := T(t, "2026-12-04T11:00:00-06:00")
	if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, n,
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-09T17:00:00-06:00"),
			Place: "City Hall"}); err != nil {
		t.Fatal(err)
	}
	drain(at)
	want := []string{
		`post 1 2026-001|card|parent@#C_DOCKET "*Case 2026-001: file*"`,
		`reply 2 in 1 "2026-001: file"`, // the filing's update: the card already says it
		`reply 3 in 1 "2026-001: schedule_meeting"`,
		`update 1 "*Case 2026-001: schedule_meeting*"`,
	}
	if got := strings.Join(slack.log, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("said:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	ch, ts, text, _, sent, err := s.PostedAt(ctx, outbox.CardKey(n, outbox.Dest{Channel: "C_DOCKET"}))
	if err != nil || !sent || ch != "C_DOCKET" || ts != "1" || text != "*Case 2026-001: schedule_meeting*" {
		t.Errorf("the card is recorded at %s %s, %q, sent %v (%v); want C_DOCKET 1, its latest text", ch, ts, text, sent, err)
	}

	t.Run("CardDeletedInSlack", func(t *testing.T) {
		slack.gone["1"] = true
		slack.log = nil
		at := T(t, "2026-12-04T12:00:00-06:00")
		if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, n,
			docket.PostNotice{Meeting: docket.SufficiencyMeeting}); err != nil {
			t.Fatal(err)
		}
		drain(at)
		want := []string{
			`post 4 2026-001|card|parent@#C_DOCKET "*Case 2026-001: schedule_meeting*"`,
			`reply 5 in 4 "2026-001: post_notice"`,
			`update 4 "*Case 2026-001: post_notice*"`,
		}
		if got := strings.Join(slack.log, "\n"); got != strings.Join(want, "\n") {
			t.Fatalf("said:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
		}
		if _, ts, _, _, _, _ := s.PostedAt(ctx, outbox.CardKey(n, outbox.Dest{Channel: "C_DOCKET"})); ts != "4" {
			t.Errorf("the card is recorded at ts %s, want the new parent's, 4", ts)
		}
	})

	t.Run("ReplyAnswerLost", func(t *testing.T) {
		slack.log = nil
		slack.lost = true
		at := T(t, "2026-12-04T13:00:00-06:00")
		if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, n,
			docket.CancelMeeting{Meeting: docket.SufficiencyMeeting}); err != nil {
			t.Fatal(err)
		}
		drain(at)
		d.Retry()
		drain(at.Add(time.Minute))
		replies := 0
		for _, l := range slack.log {
			if strings.HasPrefix(l, "reply ") {
				replies++
			}
		}
		if replies != 1 || slack.calls["find"] == 0 {
			t.Errorf("a reply whose answer was lost was said %d times (looked for %d times):\n%s", replies, slack.calls["find"],
				strings.Join(slack.log, "\n"))
		}
		pending, _, _ := s.Undelivered(ctx, at.Add(time.Minute))
		if pending != 0 {
			t.Errorf("%d posts still undelivered", pending)
		}
	})

	t.Run("OlderUpdateRetriedAfterANewer", func(t *testing.T) {
		// A crash left an older update claimed but unmade, and a newer one was made since:
		// trying the older again must not put its older text back on the card.
		slack.log = nil
		at := T(t, "2026-12-04T13:30:00-06:00")
		card := outbox.CardKey(n, outbox.Dest{Channel: "C_DOCKET"})
		older := outbox.Post{Key: outbox.Key{Case: n, Series: outbox.CardSeries, Step: "update:98", To: card.To},
			Text: "*Case 2026-001: older*", Due: at, Thread: card, Edit: true}
		newer := outbox.Post{Key: outbox.Key{Case: n, Series: outbox.CardSeries, Step: "update:99", To: card.To},
			Text: "*Case 2026-001: newer*", Due: at, Thread: card, Edit: true}
		if err := s.Enqueue(ctx, []outbox.Post{older, newer}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Claim(ctx, older.Key, at); err != nil { // the crashed attempt
			t.Fatal(err)
		}
		// The newer update was made (by the process that crashed, say) before the older.
		if _, _, err := s.Claim(ctx, newer.Key, at); err != nil {
			t.Fatal(err)
		}
		slack.msgs["4"] = string(newer.Text)
		if err := s.Repoint(ctx, card, "C_DOCKET", "4", newer.Text, nil, at); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkSent(ctx, newer.Key, "C_DOCKET", "4", at); err != nil {
			t.Fatal(err)
		}
		drain(at)
		if got := slack.msgs["4"]; got != "*Case 2026-001: newer*" {
			t.Errorf("the card says %q after the older update was tried again, want the newer text", got)
		}
	})

	t.Run("BurstCostsOneUpdate", func(t *testing.T) {
		slack.log = nil
		at := T(t, "2026-12-04T14:00:00-06:00")
		if _, err := s.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, n,
			docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: T(t, "2026-12-10T17:00:00-06:00"),
				Place: "City Hall"},
			docket.PostNotice{Meeting: docket.SufficiencyMeeting}); err != nil {
			t.Fatal(err)
		}
		drain(at)
		want := []string{
			`reply 7 in 4 "2026-001: schedule_meeting"`,
			`reply 8 in 4 "2026-001: post_notice"`,
			`update 4 "*Case 2026-001: post_notice*"`, // the schedule's update is superseded
		}
		if got := strings.Join(slack.log, "\n"); got != strings.Join(want, "\n") {
			t.Fatalf("said:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
		}
		if pending, _, _ := s.Undelivered(ctx, at); pending != 0 {
			t.Errorf("%d posts still undelivered", pending)
		}
	})

	t.Run("ActionsChangeTheCard", func(t *testing.T) {
		// A card's actions are part of it: an update that changes only its
		// menu is made, with the menu, and recorded, so that the same update again is not.
		slack.log = nil
		at := T(t, "2026-12-04T15:00:00-06:00")
		card := outbox.CardKey(n, outbox.Dest{Channel: "C_DOCKET"})
		_, _, text, _, _, _ := s.PostedAt(ctx, card)
		menu := []outbox.Action{{Label: "Open case", Case: n},
			{Label: "posted sufficiency", Form: "posted 2026-001 sufficiency", Menu: true}}
		up := func(step string) outbox.Post {
			return outbox.Post{Key: outbox.Key{Case: n, Series: outbox.CardSeries, Step: step, To: card.To}, Text: text,
				Actions: menu, Due: at, Thread: card, Edit: true}
		}
		if err := s.Enqueue(ctx, []outbox.Post{up("update:100")}); err != nil {
			t.Fatal(err)
		}
		drain(at)
		if err := s.Enqueue(ctx, []outbox.Post{up("update:101")}); err != nil {
			t.Fatal(err)
		}
		drain(at)
		want := []string{fmt.Sprintf("update 4 %q [Open case|posted sufficiency]", text)}
		if got := strings.Join(slack.log, "\n"); got != strings.Join(want, "\n") {
			t.Fatalf("said:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
		}
		if _, _, _, actions, _, _ := s.PostedAt(ctx, card); len(actions) != 2 || actions[1] != menu[1] {
			t.Errorf("the card's actions are recorded as %+v, want %+v", actions, menu)
		}
	})
}
