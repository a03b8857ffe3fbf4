package reminders_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"ethicsbot/outbox"
)

// buttons is the recorder that also records the steps each post offers as buttons, as a
// Slack sender draws them.
type buttons struct {
	*recorder
	offered map[string][]outbox.Action // by key
}

func (b *buttons) SendActions(ctx context.Context, d outbox.Dest, text outbox.Markup, actions []outbox.Action,
	k outbox.Key) (string, string, error) {
	b.mu.Lock()
	b.offered[k.String()] = actions
	b.mu.Unlock()
	return b.Send(ctx, d, text, k)
}

// TestRemindersOfferTheirStep: a deadline reminder offers the form of the step it names,
// the one its row says records it, filled in with the case and the paper, standing for
// the sentence that tells how to type it; the digest offers one per line; a
// meeting reminder, which names no step the commissioners record, offers none.
func TestRemindersOfferTheirStep(t *testing.T) {
	w := newWorld(t)
	b := &buttons{recorder: w.rec, offered: map[string][]outbox.Action{}}
	w.deliver.Sender = b
	received := at(t, "2026-12-04 10:00")
	n := w.file(received)
	w.run(received, at(t, "2026-12-07 09:00"), time.Hour, nil)

	got := b.offered[n+"|respondent_notice|before-2:2026-12-09@@U_CLERK"]
	want := outbox.Action{Label: "Record: respondent notice by certified mail", Form: "mail 2026-001 respondent",
		Says: "Record it with `/ethics mail 2026-001 respondent &lt;article no.&gt;`."}
	if len(got) != 1 || got[0] != want {
		t.Errorf("the respondent notice's reminder offers %+v, want %+v", got, want)
	}
	for _, s := range w.rec.said {
		if strings.HasPrefix(s.Key, n+"|respondent_notice|before-2") && !strings.Contains(s.Text, string(want.Says)) {
			t.Errorf("the text, which notifications show, lost how to type the step: %q", s.Text)
		}
	}
	digest := b.offered["|digest|daily:2026-12-07@@U_CLERK"]
	forms := map[string]bool{}
	for _, a := range digest {
		forms[a.Form] = true
		if a.Says != "" || !strings.HasPrefix(a.Label, n+": ") {
			t.Errorf("a digest's button %+v", a)
		}
	}
	if !forms["mail 2026-001 respondent"] || !forms["mail 2026-001 complainant"] {
		t.Errorf("the digest offers %+v, want the two (B) mailings", digest)
	}
	for key, a := range b.offered {
		if strings.Contains(key, "|meeting:") && len(a) > 0 {
			t.Errorf("a meeting reminder offers %+v", a)
		}
	}
}

// TestCatchUpOffersTheSteps: after downtime, the one catch-up that folds the late reminders
// offers each late step's form as a button, once, labelled with its case, as the single
// reminders and the digest do; past one row of Block Kit's buttons it says where the rest
// are.
func TestCatchUpOffersTheSteps(t *testing.T) {
	w := newWorld(t)
	b := &buttons{recorder: w.rec, offered: map[string][]outbox.Action{}}
	w.deliver.Sender = b
	var numbers []string
	for i := 0; i < 14; i++ { // 28 (B) mailings alone are more than a row of buttons
		numbers = append(numbers, w.file(at(t, "2026-12-04 10:00")))
	}
	w.run(at(t, "2026-12-04 10:15"), at(t, "2026-12-04 10:15"), time.Minute, nil)
	// Down from Friday 10:15 to Thursday 10:00: the (B) notices fell due Wednesday.
	w.run(at(t, "2026-12-10 10:00"), at(t, "2026-12-10 10:00"), time.Minute, nil)
	var clerk []outbox.Action
	var text string
	for key, a := range b.offered {
		if strings.HasPrefix(key, "|catch-up|") && strings.HasSuffix(key, "@@U_CLERK") {
			clerk = a
		}
	}
	for _, s := range w.rec.said {
		if strings.HasPrefix(s.Key, "|catch-up|") && strings.HasSuffix(s.Key, "@@U_CLERK") {
			text = s.Text
		}
	}
	if len(clerk) != 25 {
		t.Fatalf("the clerk's catch-up offers %d buttons, want a full row of 25: %+v", len(clerk), clerk)
	}
	forms := map[string]bool{}
	for _, a := range clerk {
		if forms[a.Form] {
			t.Errorf("the step %q is offered twice", a.Form)
		}
		forms[a.Form] = true
		if !strings.HasPrefix(a.Label, strings.Fields(a.Form)[1]+": ") {
			t.Errorf("the button %+v is not labelled with its case", a)
		}
	}
	if !forms["mail "+numbers[0]+" respondent"] {
		t.Errorf("the oldest case's (B) notice has no button: %+v", clerk)
	}
	if !regexp.MustCompile(`The buttons open the forms of the first 25 steps; the other \d+ have theirs on the rows of ` +
		`your Home tab in Slack\.`).MatchString(text) {
		t.Errorf("the catch-up does not say where the other steps' buttons are:\n%s", text)
	}
}
