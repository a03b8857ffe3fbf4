package commands_test

import (
	"slices"
	"strings"
	"testing"

	"ethicsbot/outbox"
)

// TestDocketCardThread: in the docket channel a case is one thread. Each
// step writes the case's card (the parent, kept if already there), its line as a reply in
// the card's thread, and the card's new text as an update of it, so that the card shows
// the case as it stands after the step, in the transaction that records the step. A public
// notice is not threaded.
func TestDocketCardThread(t *testing.T) {
	s, _, _ := MustService(t)
	docketCh := outbox.Dest{Channel: "C_DOCKET"}
	card := outbox.CardKey("2026-001", docketCh)
	for _, step := range []struct{ line, reply, state string }{
		{fileLine, "Filed as case", "*Case 2026-001: received*"},
		{`schedule 2026-001 sufficiency 2026-12-14T17:00 place="City Hall"`, "scheduled", "*Case 2026-001: received*"},
		{`mail 2026-001 respondent 9407 1118 9876 5432 1016 34`, "certified", "*Case 2026-001: received*"},
		{`mail 2026-001 complainant 9407 1118 9876 5432 1015 35`, "certified", "*Case 2026-001: notices sent*"},
	} {
		r := mustDo(t, s, clerk, step.line, step.reply)
		var parent, reply, update *outbox.Post
		for i, p := range r.Posts {
			switch {
			case p.Key == card && p.Thread == (outbox.Key{}):
				parent = &r.Posts[i]
			case p.Key.Series == outbox.EventSeries && p.Key.To == docketCh:
				reply = &r.Posts[i]
			case p.Key.Series == outbox.CardSeries && p.Edit:
				update = &r.Posts[i]
			case p.Key.To != docketCh && p.Thread != (outbox.Key{}):
				t.Errorf("%s: a post outside the docket channel is threaded: %v", step.line, p)
			}
		}
		if parent == nil || reply == nil || update == nil {
			t.Fatalf("%s: card %v, reply %v, update %v; want all three", step.line, parent, reply, update)
		}
		if reply.Thread != card || update.Thread != card {
			t.Errorf("%s: the reply belongs to %v and the update to %v, want the card %v", step.line, reply.Thread,
				update.Thread, card)
		}
		if !strings.HasPrefix(string(update.Text), step.state) || update.Text != parent.Text {
			t.Errorf("%s: the card says %q, want it to start %q", step.line, update.Text, step.state)
		}
		// The card offers the case's actions, committed with the step: Open case, and the
		// steps the case allows now as a menu, the same in the card and its update.
		if len(update.Actions) < 2 || update.Actions[0] != (outbox.Action{Label: "Open case", Case: "2026-001"}) ||
			!slices.Equal(update.Actions, parent.Actions) {
			t.Fatalf("%s: the card's actions are %+v, the update's %+v", step.line, parent.Actions, update.Actions)
		}
		for _, a := range update.Actions[1:] {
			if !a.Menu || !strings.HasPrefix(a.Form, strings.Fields(a.Label)[0]+" 2026-001") {
				t.Errorf("%s: the card offers %+v, not a step of the case in its menu", step.line, a)
			}
		}
		if !strings.Contains(string(update.Text), "each step is in this thread") {
			t.Errorf("%s: the card does not say where the steps are: %q", step.line, update.Text)
		}
	}
}
