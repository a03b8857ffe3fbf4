package commands_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// TestRecusedLearnsNothing: a commissioner recused from a case (here its respondent) gets
// one and the same refusal from every command that names the case, typed or submitted in
// a form, whatever the command asks and wherever the case stands: no event count ("has no
// event 9"), no state ("is dismissed"), no fact ("already records respondent ..."). The
// lists filtered by state leave the case out. A non-member gets the refusal for
// authorisation, the same for every command.
func TestRecusedLearnsNothing(t *testing.T) {
	s, clk, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3"}
	})
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" respondent_user=U_COMM2 complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")
	mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded")

	const refusal = "Not done: you are recused from case 2026-001 (you are the respondent), so you may neither see its " +
		"details nor act or vote on it"
	before, _ := db.Entries(ctx, "2026-001")
	for _, text := range []string{
		"case 2026-001", "history 2026-001", "letters 2026-001", "letters 2026-001 respondent", "documents 2026-001",
		`party 2026-001 respondent address="1 Main St"`, `correct 2026-001 party=respondent address="1 Main St" reason="x"`,
		`void 2026-001 99 reason="x"`, `void 2026-001 2 reason="x"`, `void 2026-001 1 reason="x"`,
		`correct 2026-001 respondent="Jane Roe" reason="x"`, `correct 2026-001 complainant="Guess Who" reason="x"`,
		`correct 2026-001 mailed=2026-12-04 reason="x"`, `correct 2026-001 start=2026-12-07T17:00 meeting=hearing reason="x"`,
		"rule 2026-001 no_probable_cause", "demand 2026-001", "concluded 2026-001", `decide 2026-001 dismiss`,
		`schedule 2026-001 hearing 2026-12-28T10:00 place="x"`, "cancel 2026-001 sufficiency", "posted 2026-001 hearing",
		"mail 2026-001 respondent 9407 1118 9876 5432 1016 34", `receipt 2026-001 9407111898765432101634 signer="Jane Roe"`,
		`recuse 2026-001 reason="x"`,
		"candidate 2026-001 2027-02-23", `enforced 2026-001 what="x"`, "delivered 2026-001 respondent", "held 2026-001",
		"recess 2026-001", `final 2026-001 text="x"`, `frivolous 2026-001 fine=1500 knowingly=yes findings="x"`,
	} {
		t.Run(text, func(t *testing.T) {
			if got := replyText(do(s, "U_COMM2", text)); got != refusal {
				t.Errorf("reply:\n%s\nwant:\n%s", got, refusal)
			}
		})
	}
	t.Run("Form", func(t *testing.T) {
		// A click on the case's card or its reminder opens no form for a recused member,
		// whatever the step: the refusal says why.
		for _, form := range []string{"void 2026-001", "mail 2026-001 respondent", "rule 2026-001", "case 2026-001"} {
			if r := s.Action(ctx, "U_COMM2", form, "C_HERE"); r.Modal != nil || replyText(r) != refusal {
				t.Errorf("%s: a recused member's click opened %v, replied %q; want the refusal", form, r.Modal != nil, replyText(r))
			}
		}
		// A meeting's name in the case's place names no case: its form opens.
		if r := s.Action(ctx, "U_COMM2", "letters 2027-01-12", "C_HERE"); r.Modal == nil {
			t.Errorf("a meeting's form did not open: %q", replyText(r))
		}
		if got := replyText(s.OpenCase(ctx, "U_COMM2", "2026-001")); got != refusal {
			t.Errorf("Open case: %q, want the refusal", got)
		}
		if got := replyText(s.OpenCase(ctx, clerk, `2026-001 history="`)); !strings.HasPrefix(got,
			"That button is out of date") {
			t.Errorf("Open case with a value that is not a case number: %q", got)
		}
		if got := replyText(s.OpenCase(ctx, stranger, "2026-001")); !strings.HasPrefix(got, "Sorry, `/ethics` is for") {
			t.Errorf("Open case by a non-member: %q", got)
		}
		// A form opened by another, submitted by the recused member, is refused too.
		m := s.Action(ctx, comm, "void 2026-001", "C_HERE").Modal
		if m == nil {
			t.Fatal("no form")
		}
		view := slack.View{CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata,
			State: &slack.ViewState{Values: map[string]map[string]slack.BlockAction{
				"event": {"event": {Value: "42"}}, "reason": {"reason": {Value: "x"}},
			}}}
		sub := s.Submit(ctx, "U_COMM2", "view-void", view)
		if got := strings.Join(mapValues(sub.Errors), "") + replyText(sub.Response); !strings.Contains(got, refusal) ||
			strings.Contains(got, "event 42") {
			t.Errorf("form: %q", got)
		}
	})
	if after, _ := db.Entries(ctx, "2026-001"); len(after) != len(before) {
		t.Errorf("a recused member's commands recorded %d events", len(after)-len(before))
	}
	t.Run("Lists", func(t *testing.T) {
		for _, text := range []string{"docket", "cases closed", "cases open", "cases status=dismissed",
			"cases status=received", "cases section=103.10"} {
			if got := replyText(do(s, "U_COMM2", text)); strings.Contains(got, "2026-001") {
				t.Errorf("%s shows a recused member the case:\n%s", text, got)
			}
		}
		mustDo(t, s, "U_COMM2", "cases", "• *2026-001* · you are recused")
	})
	t.Run("NonMemberForm", func(t *testing.T) {
		m := s.Action(ctx, comm, "void 2026-001", "C_HERE").Modal
		for _, view := range []slack.View{
			{CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata},
			{CallbackID: "ethics:void", PrivateMetadata: "{not json"},
			{CallbackID: "ethics:nosuch", PrivateMetadata: `{"sub":"nosuch"}`},
		} {
			sub := s.Submit(ctx, stranger, "view-x", view)
			if got := strings.Join(mapValues(sub.Errors), "") + replyText(sub.Response); !strings.Contains(got,
				"Sorry, `/ethics` is for the ethics commission's members") {
				t.Errorf("a non-member's form %s: %q", view.PrivateMetadata, got)
			}
		}
	})
	t.Run("NonMember", func(t *testing.T) {
		for _, text := range []string{"case 2026-001", `void 2026-001 99 reason="x"`, "rule 2026-001 insufficient",
			"case 2026-999", "cases status=dismissed", "case 2026-001 \xff", "nosuchcommand"} {
			if got := replyText(do(s, stranger, text)); !strings.HasPrefix(got,
				"Sorry, `/ethics` is for the ethics commission's members") {
				t.Errorf("%s as a non-member: %s", text, got)
			}
		}
	})
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
