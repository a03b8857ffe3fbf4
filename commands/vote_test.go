package commands_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
)

// reconfigure changes the settings in force, as a reload would.
func reconfigure(s *commands.Service, change func(*commands.Settings)) {
	st := *s.Settings()
	change(&st)
	s.Configure(st)
}

// noticed records what a ruling on case 2026-001 needs: its meeting's notice posted, and
// both (B) notices of it mailed.
func noticed(t *testing.T, s *commands.Service) {
	t.Helper()
	mustDo(t, s, clerk, "posted 2026-001 sufficiency", "posted")
	mustDo(t, s, clerk, "mail 2026-001 respondent 9407 1118 9876 5432 1016 34", "recorded")
	mustDo(t, s, clerk, "mail 2026-001 complainant 9407 1118 9876 5432 1015 35", "recorded")
}

// voting returns a service with three commissioners whose actions take a roll call, and
// a case 2026-001 at its sufficiency meeting.
func voting(t *testing.T) (*commands.Service, *clock) {
	t.Helper()
	s, clk, _ := MustService(t)
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3"}
		st.Voting = commands.Voting{Required: true}
	})
	mustDo(t, s, clerk, fileLine, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")
	return s, clk
}

func TestRollCall(t *testing.T) {
	t.Run("Required", func(t *testing.T) {
		s, _ := voting(t)
		mustDo(t, s, comm, "rule 2026-001 insufficient", "yes: this is an action of the commission, taken by roll call")
	})
	for _, tc := range []struct{ name, roll, want string }{
		{"Missing", "yes=U_COMM1,U_COMM2", "U_COMM3 is not listed"},
		{"Twice", "yes=U_COMM1,U_COMM2 no=U_COMM2,U_COMM3", "U_COMM2 is listed twice, under yes= and no="},
		{"NotSeated", "yes=U_COMM1,U_COMM2,U_COMM3,U_CLERK", "U_CLERK is not a seated commissioner"},
		{"NotAnID", "yes=U_COMM1,Jane", `"Jane" is not a Slack user id such as U024BE7LH: @mention them`},
		{"NoQuorum", "yes=U_COMM1 absent=U_COMM2,U_COMM3", "no quorum: 1 commissioner present, and 2 are needed to act"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := voting(t)
			r := mustDo(t, s, comm, "rule 2026-001 insufficient "+tc.roll, tc.want)
			if len(r.Posts) != 0 {
				t.Errorf("a refused roll call said %v", r.Posts)
			}
			mustDo(t, s, comm, "case 2026-001", "Case 2026-001: notices sent")
		})
	}
	t.Run("Failed", func(t *testing.T) {
		s, _ := voting(t)
		r := mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1 no=U_COMM2,U_COMM3",
			"motion failed: ruling: insufficient (C), failed 1–2; nothing else changed")
		if p := posted(r, "C_NOTICES"); len(p) != 0 {
			t.Errorf("a failed motion posted a public notice: %q", p)
		}
		if p := posted(r, "C_DOCKET"); len(p) != 1 || !strings.Contains(p[0], "motion failed") {
			t.Errorf("docket line %q", p)
		}
		card := mustDo(t, s, comm, "case 2026-001", "Case 2026-001: notices sent")
		if !strings.Contains(replyText(card), "*Motion failed:* ruling: insufficient (C), failed 1–2") {
			t.Errorf("the card does not show the failed motion:\n%s", replyText(card))
		}
		// The case is where it was: the commission can still rule.
		r = mustDo(t, s, clerk, "rule 2026-001 no_probable_cause yes=U_COMM1,U_COMM2 abstain=U_COMM3",
			"ruling recorded: no probable cause (adopted 2–0, 1 abstaining)")
		if p := posted(r, "C_NOTICES"); len(p) != 1 || !strings.Contains(p[0], "By roll call: adopted 2–0, 1 abstaining.") {
			t.Errorf("public notice %q, want the tally", p)
		}
	})
	t.Run("ClerkRecordsAttorneyDoesNot", func(t *testing.T) {
		s, _ := voting(t)
		mustDo(t, s, attorney, "rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3",
			"Only commissioners and clerks can use `/ethics rule`")
		mustDo(t, s, clerk, "rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3",
			"ruling recorded: insufficient (adopted 3–0)")
	})
	t.Run("NotRequired", func(t *testing.T) {
		s, _ := voting(t)
		reconfigure(s, func(st *commands.Settings) { st.Voting.Required = false })
		mustDo(t, s, clerk, "rule 2026-001 insufficient", "Only commissioners can use `/ethics rule`")
		mustDo(t, s, comm, "rule 2026-001 insufficient", "ruling recorded: insufficient.")
	})
}

func TestRecusal(t *testing.T) {
	s, clk, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{comm, "U_COMM2", "U_COMM3"}
		st.Voting = commands.Voting{Required: true}
	})
	mustDo(t, s, clerk,
		`file respondent="Jane Roe" respondent_user=U_COMM2 complainant="John Doe" section=103.10 received=2026-12-04T10:00 summary="x"`, "Filed")
	mustDo(t, s, clerk, `schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall"`, "scheduled")
	noticed(t, s)
	clk.now, _ = time.Parse(time.RFC3339, "2026-12-08T00:00:00Z")

	t.Run("PartySeesNothing", func(t *testing.T) {
		r := mustDo(t, s, "U_COMM2", "case 2026-001",
			"Not done: you are recused from case 2026-001 (you are the respondent), so you may neither see its details nor "+
				"act or vote on it")
		if strings.Contains(replyText(r), "Jane Roe") || len(r.Messages[0].Blocks) != 0 {
			t.Errorf("a recused commissioner sees the case: %+v", r)
		}
		if got := replyText(mustDo(t, s, "U_COMM2", "docket", "No open cases.")); strings.Contains(got, "2026-001") {
			t.Errorf("the docket shows a recused commissioner the case's place: %s", got)
		}
	})
	t.Run("PartyCannotAct", func(t *testing.T) {
		mustDo(t, s, "U_COMM2", "rule 2026-001 insufficient yes=U_COMM1,U_COMM3",
			"Not done: you are recused from case 2026-001 (you are the respondent), so you may neither see its details nor "+
				"act or vote on it")
	})
	t.Run("PartyCannotBeInTheRollCall", func(t *testing.T) {
		mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3",
			"U_COMM2 is recused from case 2026-001 (they are the respondent) and takes no part in its votes")
	})
	t.Run("Declared", func(t *testing.T) {
		mustDo(t, s, comm, `recuse 2026-001 commissioner=U_COMM3`, "a commissioner recuses only themselves")
		mustDo(t, s, clerk, `recuse 2026-001`, "name the commissioner who recuses")
		mustDo(t, s, clerk, `recuse 2026-001 commissioner=U_ATTY`, "U_ATTY is not a commissioner")
		r := mustDo(t, s, "U_COMM3", `recuse 2026-001 reason="I know the complainant"`,
			"<@U_COMM3> recused: I know the complainant")
		if p := posted(r, "C_NOTICES"); len(p) != 0 {
			t.Errorf("a recusal went public: %q", p)
		}
		mustDo(t, s, "U_COMM3", `recuse 2026-001`, "you are recused from case 2026-001")
		mustDo(t, s, clerk, `recuse 2026-001 commissioner=U_COMM3`,
			"U_COMM3 is already recused from case 2026-001 (they recused themselves on Mon 2026-12-07: I know the complainant)")
		mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1,U_COMM3",
			"U_COMM3 is recused from case 2026-001 (they recused themselves on Mon 2026-12-07: I know the complainant) and "+
				"takes no part")
		mustDo(t, s, "U_COMM3", "case 2026-001",
			"you are recused from case 2026-001 (you recused yourself on Mon 2026-12-07: I know the complainant)")
	})
	t.Run("RollCallOfTheRest", func(t *testing.T) {
		// One commissioner is left: the default quorum is a majority of the three seated.
		mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1", "no quorum: 1 commissioner present, and 2 are needed")
		reconfigure(s, func(st *commands.Settings) { st.Voting.Quorum = 1 })
		r := mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1",
			"ruling recorded: insufficient (adopted 1–0, 2 recused)")
		if p := posted(r, "C_NOTICES"); len(p) != 1 || !strings.Contains(p[0], "By roll call: adopted 1–0, 2 recused.") {
			t.Errorf("public notice %q", p)
		}
		card := replyText(mustDo(t, s, comm, "case 2026-001", "Case 2026-001: dismissed"))
		for _, want := range []string{"*Recused:* <@U_COMM2> (the respondent), <@U_COMM3> (since Mon 2026-12-07: I know " +
			"the complainant)", "*Vote:* ruling: insufficient (C), adopted 1–0, 2 recused on Mon 2026-12-07"} {
			if !strings.Contains(card, want) {
				t.Errorf("card lacks %q:\n%s", want, card)
			}
		}
		c, _ := db.Case(ctx, "2026-001")
		if len(c.Votes) != 1 || strings.Join(c.Votes[0].Vote.Recused, ",") != "U_COMM2,U_COMM3" ||
			strings.Join(c.Votes[0].Vote.Seated, ",") != "U_COMM1,U_COMM2,U_COMM3" {
			t.Errorf("recorded vote %+v", c.Votes)
		}
	})
}

// memberLists are the lists of members a form offers, by input: each member's id.
func memberLists(m *slack.ModalViewRequest) map[string][]string {
	out := map[string][]string{}
	for _, b := range m.Blocks.BlockSet {
		in, ok := b.(*slack.InputBlock)
		if !ok {
			continue
		}
		var opts []*slack.OptionBlockObject
		switch e := in.Element.(type) {
		case *slack.MultiSelectBlockElement:
			if e.Type != slack.MultiOptTypeStatic {
				continue
			}
			opts = e.Options
		case *slack.SelectBlockElement:
			if e.Type != slack.OptTypeStatic || in.BlockID != "commissioner" {
				continue
			}
			opts = e.Options
		default:
			continue
		}
		out[in.BlockID] = []string{}
		for _, o := range opts {
			out[in.BlockID] = append(out[in.BlockID], o.Value)
		}
	}
	return out
}

// picked is a multi-select's answer: the members chosen.
func picked(ids ...string) slack.BlockAction {
	var v slack.BlockAction
	for _, id := range ids {
		v.SelectedOptions = append(v.SelectedOptions, slack.OptionBlockObject{Value: id})
	}
	return v
}

// TestRollCallForm: the ruling's form takes the roll call from lists of the seated
// commissioners, and a submission records it.
func TestRollCallForm(t *testing.T) {
	s, _ := voting(t)
	m := form(t, s, clerk, "rule 2026-001")
	lists := memberLists(m)
	for _, field := range []string{"yes", "no", "abstain", "absent"} {
		if got := strings.Join(lists[field], ","); got != "U_COMM1,U_COMM2,U_COMM3" {
			t.Errorf("the form's %s offers %q, want the seated commissioners", field, got)
		}
	}
	sub := submit(s, clerk, m, values{
		"ruling":  {SelectedOption: slack.OptionBlockObject{Value: "insufficient"}},
		"yes":     picked(comm, "U_COMM2"),
		"abstain": picked("U_COMM3"),
	})
	if len(sub.Errors) > 0 ||
		!strings.Contains(shownText(sub), "ruling recorded: insufficient (adopted 2–0, 1 abstaining)") {
		t.Fatalf("submission: %v %q", sub.Errors, shownText(sub))
	}
	// A roll call that misses someone stays open, on the yes field.
	s2, _ := voting(t)
	sub = submit(s2, clerk, form(t, s2, clerk, "rule 2026-001"), values{
		"ruling": {SelectedOption: slack.OptionBlockObject{Value: "insufficient"}},
		"yes":    picked(comm),
	})
	if !strings.Contains(sub.Errors["yes"], "U_COMM2, U_COMM3 are not listed") {
		t.Errorf("errors %v", sub.Errors)
	}
}

// TestFormsDoNotOfferARecusedMember: a form about a case offers, in its roll call and as
// the commissioner who recuses, only the members not recused from the case; typed alone,
// before its case is chosen, it offers every seated member, and the submission refuses
// one recused from the case chosen, naming the recusal.
func TestFormsDoNotOfferARecusedMember(t *testing.T) {
	s, _ := voting(t)
	mustDo(t, s, clerk, `recuse 2026-001 commissioner=U_COMM3 reason="knows the complainant"`, "recused")
	for _, text := range []string{"rule 2026-001", "recuse 2026-001"} {
		for field, ids := range memberLists(form(t, s, clerk, text)) {
			if got := strings.Join(ids, ","); got != "U_COMM1,U_COMM2" {
				t.Errorf("%s: %s offers %q, want the members not recused", text, field, got)
			}
		}
	}
	if n := len(memberLists(form(t, s, clerk, "recuse 2026-001"))); n != 1 {
		t.Errorf("the recusal's form has %d lists of members, want its commissioner", n)
	}
	m := form(t, s, clerk, "rule")
	if got := strings.Join(memberLists(m)["yes"], ","); got != "U_COMM1,U_COMM2,U_COMM3" {
		t.Errorf("a roll call before its case is chosen offers %q", got)
	}
	sub := submit(s, clerk, m, values{
		"number": {SelectedOption: slack.OptionBlockObject{Value: "2026-001"}},
		"ruling": {SelectedOption: slack.OptionBlockObject{Value: "insufficient"}},
		"yes":    picked(comm, "U_COMM2", "U_COMM3"),
	})
	if !strings.Contains(sub.Errors["yes"], "U_COMM3 is recused from case 2026-001") {
		t.Errorf("a recused member ticked in the roll call: %v", sub.Errors)
	}
}
