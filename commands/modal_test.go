package commands_test

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// values are a form's inputs as Slack submits them, by block id; each block's one
// element has the block's id as its action id.
type values map[string]slack.BlockAction

// submit submits form m with vs as user, as Slack would: the view carries the form's
// blocks and the values entered.
func submit(s *commands.Service, user string, m *slack.ModalViewRequest, vs values) commands.Submission {
	state := &slack.ViewState{Values: map[string]map[string]slack.BlockAction{}}
	for id, v := range vs {
		state.Values[id] = map[string]slack.BlockAction{id: v}
	}
	view := slack.View{ID: "V1", Hash: time.Now().String(), CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata,
		Blocks: m.Blocks, State: state}
	return s.Submit(ctx, user, "view:"+view.Hash, view)
}

// form opens the form that text (a subcommand alone) or a card's button value opens.
func form(t *testing.T, s *commands.Service, user, text string) *slack.ModalViewRequest {
	t.Helper()
	r := do(s, user, text)
	if strings.Contains(text, " ") {
		r = s.Action(ctx, user, text, "C_HERE")
	}
	if r.Modal == nil {
		t.Fatalf("%q opened no form: %q", text, replyText(r))
	}
	return r.Modal
}

func TestModalInputs(t *testing.T) {
	s, _, _ := MustService(t)
	for _, sub := range []string{"file", "schedule", "cancel", "posted", "mail", "receipt", "undelivered", "rule",
		"recess", "concluded", "decide", "demand", "held", "final", "frivolous", "candidate"} {
		m := form(t, s, comm, sub)
		if n := len(m.Blocks.BlockSet); n > commands.MaxViewBlocks {
			t.Errorf("%s: %d blocks", sub, n)
		}
		for _, b := range m.Blocks.BlockSet {
			in, ok := b.(*slack.InputBlock)
			if !ok {
				continue
			}
			if e, ok := in.Element.(*slack.PlainTextInputBlockElement); ok && (e.MaxLength < 1 || e.MaxLength > 3000) {
				t.Errorf("%s: %s takes %d characters", sub, in.BlockID, e.MaxLength)
			}
		}
	}
	limits := map[string]int{}
	var pickers []string
	for _, b := range form(t, s, clerk, "file").Blocks.BlockSet {
		in, ok := b.(*slack.InputBlock)
		if !ok {
			continue
		}
		switch e := in.Element.(type) {
		case *slack.PlainTextInputBlockElement:
			limits[in.BlockID] = e.MaxLength
		case *slack.SelectBlockElement:
			if e.Type == slack.OptTypeUser {
				pickers = append(pickers, in.BlockID)
			}
		}
	}
	if limits["respondent"] != docket.MaxName || limits["section"] != docket.MaxName ||
		limits["summary"] != docket.MaxSummary {
		t.Errorf("file form limits %v", limits)
	}
	if got := strings.Join(pickers, ","); got != "respondent_user,complainant_user" {
		t.Errorf("people pickers %q, want the respondent's and the complainant's", got)
	}
	for _, b := range form(t, s, comm, "decide").Blocks.BlockSet {
		if in, ok := b.(*slack.InputBlock); ok && (in.BlockID == "findings" || in.BlockID == "recommendation") {
			if e := in.Element.(*slack.PlainTextInputBlockElement); e.MaxLength != docket.MaxText || !e.Multiline {
				t.Errorf("decide %s: max_length %d, multiline %v", in.BlockID, e.MaxLength, e.Multiline)
			}
		}
	}
	b, _ := json.Marshal(form(t, s, clerk, "file"))
	if !strings.Contains(string(b), `"max_length":3000`) || !strings.Contains(string(b), `"type":"users_select"`) {
		t.Errorf("the form does not marshal its limits and pickers: %s", b)
	}
}

// TestModalErrorsStayOnTheirField: whatever goes wrong with a submission, the form stays
// open with the problem on the input the user sees, so nothing typed is lost.
func TestModalErrorsStayOnTheirField(t *testing.T) {
	s, c, db := MustService(t)
	readyToRule(t, s)
	filing := values{
		"respondent":  {Value: "Jane Roe"},
		"complainant": {Value: "John Doe"},
		"section":     {Value: "103.10"},
		"summary":     {Value: strings.Repeat("A complaint typed at length. ", 90)},
	}
	with := func(vs values, id string, v slack.BlockAction) values {
		out := values{id: v}
		for k, x := range vs {
			if k != id {
				out[k] = x
			}
		}
		return out
	}
	cases := func() int {
		all, err := db.AllCases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	for _, tc := range []struct {
		name, user, form string
		values           values
		field, want      string
	}{
		{"SlackIDOnThePicker", clerk, "file", with(filing, "respondent_user", slack.BlockAction{SelectedUser: "B0BOT"}),
			"respondent_user", "Not done: Respondent's Slack account: \"B0BOT\" is not a Slack user id"},
		{"ViolationDate", clerk, "file", with(filing, "violation", slack.BlockAction{SelectedDate: "2026-12-05"}),
			"violation", "Not done: Date of the alleged violation: 2026-12-05 is after the complaint was received (rule (I))"},
		{"AuthorityOnClosed", clerk, "schedule", values{
			"number": {Value: "2026-001"}, "meeting": {SelectedOption: slack.OptionBlockObject{Value: "hearing"}},
			"start": {SelectedDateTime: time.Date(2026, 12, 28, 16, 0, 0, 0, time.UTC).Unix()}, "place": {Value: "City Hall"},
			"closed": {Value: strings.Repeat("x", docket.MaxName+1)},
		}, "closed", "Not done: Open Meetings Act exception, if closed: is 201 characters; the limit is 200 (rule (D))"},
		{"PostedOnAt", clerk, "posted 2026-001 sufficiency",
			values{"at": {SelectedDateTime: time.Date(2026, 12, 5, 16, 0, 0, 0, time.UTC).Unix()}},
			"at", "Not done: Notice posted: Sat 5 Dec 2026 10:00 CST is in the future: it is now Fri 4 Dec 2026 10:30 CST"},
		{"BackdatedPostedOnAt", clerk, "posted 2026-001 sufficiency",
			values{"at": {SelectedDateTime: time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC).Unix()}},
			"at",
			"Not done: Notice posted: Fri 4 Dec 2026 10:00 CST is before the sufficiency meeting was scheduled as it now " +
				"stands, at Fri 4 Dec 2026 10:30 CST"},
		{"OverrideOnOneLine", clerk, "recess 2026-001", values{"override": {Value: "posted\nPUBLIC NOTICE"}},
			"override", "Not done: Record anyway, because: must be one line: it holds a line break"},
		{"StateOnTheWholeForm", comm, "decide 2026-001",
			values{"outcome": {SelectedOption: slack.OptionBlockObject{Value: "dismiss"}}},
			"outcome", "About the whole form: Not done: cannot decide: the decision follows the conclusion of the hearing"},
		{"MeetingFixedByTheButton", clerk, "cancel 2026-001 hearing",
			values{"reason": {Value: "No quorum, typed at length."}},
			"reason", "About the whole form: Not done: case 2026-001 has no hearing scheduled"},
		{"NotTheirs", attorney, "file", filing,
			"respondent", "About the whole form: Only commissioners and clerks can use `/ethics file`."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user := tc.user
			if user == attorney {
				user = clerk // the attorney has no form; one opened by someone else
			}
			before := cases()
			sub := submit(s, tc.user, form(t, s, user, tc.form), tc.values)
			if got := sub.Errors[tc.field]; !strings.HasPrefix(got, tc.want) || len(sub.Errors) != 1 {
				t.Errorf("errors %q, want on %s %q", sub.Errors, tc.field, tc.want)
			}
			if len(sub.Response.Messages) != 0 {
				t.Errorf("the form closed with %q", replyText(sub.Response))
			}
			if cases() != before {
				t.Error("a refused form filed a case")
			}
		})
	}
	t.Run("HearingOnRule", func(t *testing.T) {
		c.now = time.Date(2026, 12, 7, 23, 30, 0, 0, time.UTC) // 17:30 CST, the sufficiency meeting has begun
		sub := submit(s, comm, form(t, s, comm, "rule 2026-001"), values{
			"ruling":  {SelectedOption: slack.OptionBlockObject{Value: "probable_cause"}},
			"hearing": {SelectedDateTime: time.Date(2026, 12, 8, 16, 0, 0, 0, time.UTC).Unix()},
			"place":   {Value: "City Hall"},
		})
		if got := sub.Errors["hearing"]; !strings.Contains(got, "Not done: Hearing starts: a hearing needs at least") ||
			!strings.Contains(got, "earliest lawful start") {
			t.Errorf("errors %q, want the notice period on the hearing field", sub.Errors)
		}
		if cs, _ := db.Case(ctx, "2026-001"); cs.Ruling != "" {
			t.Errorf("the ruling was recorded without its hearing: %s", cs.Ruling)
		}
	})
	t.Run("PickedUserFiled", func(t *testing.T) {
		sub := submit(s, clerk, form(t, s, clerk, "file"),
			with(filing, "respondent_user", slack.BlockAction{SelectedUser: "U0RESP1"}))
		if len(sub.Errors) != 0 || !strings.Contains(shownText(sub), "Filed as case *2026-002*") {
			t.Fatalf("submission %+v", sub)
		}
		if cs, _ := db.Case(ctx, "2026-002"); cs.Respondent.SlackID != "U0RESP1" {
			t.Errorf("respondent's Slack id %q", cs.Respondent.SlackID)
		}
	})
	t.Run("OutOfDateForm", func(t *testing.T) {
		m := form(t, s, clerk, "file")
		m.PrivateMetadata = `{"sub":"frobnicate"}`
		if got := submit(s, clerk, m, filing).Errors["respondent"]; !strings.HasPrefix(got,
			"About the whole form: That form is out of date") {
			t.Errorf("error on the first input %q", got)
		}
	})
	t.Run("StateOnTheOnlyInput", func(t *testing.T) {
		sub := submit(s, clerk, form(t, s, clerk, "recess 2026-001"), nil)
		if got := sub.Errors["override"]; !strings.HasPrefix(got,
			"About the whole form: Not done: cannot recess the hearing") || len(sub.Response.Messages) != 0 {
			t.Errorf("the recess form's one input, override: %+v", sub)
		}
	})
	t.Run("NoInputToShowItOn", func(t *testing.T) {
		// A form whose every value was fixed when it opened has nothing to show a
		// problem on: it closes, with the problem as a reply.
		m := form(t, s, clerk, "recess 2026-001")
		m.PrivateMetadata = `{"sub":"recess","prefill":{"number":"2026-001","override":"quorum"},"channel":"C_HERE"}`
		m.Blocks = slack.Blocks{}
		sub := submit(s, clerk, m, nil)
		if len(sub.Errors) != 0 || !strings.Contains(replyText(sub.Response), "cannot recess the hearing") ||
			sub.Channel != "C_HERE" {
			t.Errorf("a form with no inputs: %+v", sub)
		}
	})
	t.Run("InternalError", func(t *testing.T) {
		m := form(t, s, clerk, "file")
		s.Log = slog.New(slog.DiscardHandler) // the failure is logged; the test needs no copy
		db.Close()
		if got := submit(s, clerk, m, filing).Errors["respondent"]; !strings.HasPrefix(got,
			"About the whole form: Internal error: nothing was changed") {
			t.Errorf("error on the first input %q", got)
		}
	})
}
