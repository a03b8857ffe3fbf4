package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ethicsbot/docket"
)

func rulingChoices() []string {
	out := make([]string, len(docket.Rulings))
	for i, r := range docket.Rulings {
		out[i] = string(r)
	}
	return out
}

func runFile(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	now := s.Now()
	received := now
	if a.has("received") {
		received = a.instant("received")
	}
	var sections []string
	for _, sec := range strings.FieldsFunc(a.str("section"), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		sections = append(sections, strings.TrimPrefix(sec, "§"))
	}
	f := docket.File{
		Complainant:   docket.Person{Name: a.str("complainant"), SlackID: a.str("complainant_user")},
		Respondent:    docket.Person{Name: a.str("respondent"), SlackID: a.str("respondent_user")},
		Sections:      sections,
		ViolationDate: a.date("violation"),
		Received:      received,
		Summary:       a.str("summary"),
	}
	if a.has("candidate") {
		f.Elections = []docket.Date{a.date("candidate")}
	}
	res, err := s.Record.File(ctx, req.User, req.RequestID, f, now)
	if err != nil {
		return Response{}, err
	}
	c, warnings, replayed := res.Case, res.Warnings, res.Replayed
	msg := fmt.Sprintf("Filed as case *%s*, received %s.", c.Number, s.when(c.Received))
	if replayed {
		msg = fmt.Sprintf("Already filed as case *%s* (this request was received twice; nothing new was filed).", c.Number)
		return reply(msg), nil
	}
	msg += warningText(warnings)
	msg += "\nNext: schedule the sufficiency meeting, because the (B) notices must give its date, time and place: `/ethics schedule " + c.Number + " sufficiency <start> place=\"...\"`."
	return Response{Messages: []Message{
		{Text: msg},
		{Channel: s.Channels.Docket, Text: fmt.Sprintf("New case %s%s: %s v. %s, §%s, received %s, filed by <@%s>.%s",
			c.Number, s.expeditedTag(&c), c.Complainant.Name, c.Respondent.Name, strings.Join(c.Sections, ", §"), s.when(c.Received), req.User, warningText(warnings))},
	}}, nil
}

// warningText writes warnings as lines to append to a message.
func warningText(ws []docket.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "\n:warning: %s", w)
	}
	return b.String()
}

func runCase(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	c, err := s.Record.Case(ctx, a.str("number"))
	if err != nil {
		return Response{}, err
	}
	text, blocks := s.card(&c, s.Roles.Of(req.User), s.Now())
	return reply(text, blocks...), nil
}

func runDocket(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	cases, err := s.Record.OpenCases(ctx)
	if err != nil {
		return Response{}, err
	}
	return reply(s.docketList(cases, s.Now())), nil
}

// apply performs actions on the case named in a, and reports the result: a reply with the
// warnings, a line in the docket channel, and whatever public notice the ordinance wants.
func (s *Service) apply(ctx context.Context, req Request, a args, done string, actions ...docket.Action) (docket.Case, Response, error) {
	number := a.str("number")
	res, err := s.Record.Apply(ctx, number, req.User, req.RequestID, s.Now(), actions...)
	if err != nil {
		return docket.Case{}, Response{}, err
	}
	c, warnings, replayed := res.Case, res.Warnings, res.Replayed
	if replayed {
		return c, reply(fmt.Sprintf("Already recorded on case %s (this request was received twice; nothing new was recorded).", number)), nil
	}
	resp := Response{Messages: []Message{
		{Text: fmt.Sprintf("Case %s: %s.%s%s", number, done, warningText(warnings), s.nextStep(&c, s.Roles.Of(req.User)))},
		{Channel: s.Channels.Docket, Text: fmt.Sprintf("%s%s: %s, recorded by <@%s>.%s", number, s.expeditedTag(&c), done, req.User, warningText(warnings))},
	}}
	// What changed is judged against the case as the same transaction found it, so a
	// change that another request made meanwhile is not announced twice.
	resp.Messages = append(resp.Messages, s.publicNotices(&res.Before, &c)...)
	return c, resp, nil
}

func runSchedule(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	kind := docket.MeetingKind(a.str("meeting"))
	act := docket.ScheduleMeeting{Meeting: kind, Start: a.instant("start"), Place: a.str("place"), Closed: a.has("closed"), Authority: a.str("closed")}
	c, resp, err := s.apply(ctx, req, a, fmt.Sprintf("%s scheduled for %s at %s", kind.Name(), s.when(a.instant("start")), a.str("place")), act)
	if err != nil || len(resp.Messages) < 2 {
		return resp, err
	}
	// (C)(1), (D), (F): the physical notice is the clerk's task, due 48 hours before.
	if d, ok := noticeDeadline(s.Engine, &c, kind); ok {
		resp.Messages[0].Text += fmt.Sprintf("\nTask: post the notice at the meeting place and the commission's principal office by %s %s, then record it: `/ethics posted %s %s`.",
			s.when(d.DueAt), d.Rule, c.Number, kind)
	}
	return resp, nil
}

// noticeDeadline finds the notice deadline of meeting kind.
func noticeDeadline(e *docket.Engine, c *docket.Case, kind docket.MeetingKind) (docket.Deadline, bool) {
	id := map[docket.MeetingKind]docket.DeadlineID{
		docket.SufficiencyMeeting: docket.SufficiencyMeetingNotice, docket.HearingMeeting: docket.HearingNotice,
		docket.RecessedHearing: docket.HearingNotice, docket.PublicHearing: docket.PublicHearingNotice,
	}[kind]
	return e.Schedule(&c.Facts, time.Time{}).Find(id)
}

func runCancel(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	kind := docket.MeetingKind(a.str("meeting"))
	_, resp, err := s.apply(ctx, req, a, kind.Name()+" cancelled", docket.CancelMeeting{Meeting: kind, Reason: a.str("reason")})
	return resp, err
}

func runPosted(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	kind := docket.MeetingKind(a.str("meeting"))
	at := a.instant("at")
	if at.IsZero() {
		at = s.Now()
	}
	_, resp, err := s.apply(ctx, req, a, fmt.Sprintf("notice of the %s posted %s", kind.Name(), s.when(at)), docket.PostNotice{Meeting: kind, Posted: at})
	return resp, err
}

func runMail(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	article, err := docket.NormalizeArticle(a.str("article"))
	if err != nil {
		return Response{}, err
	}
	_, resp, err := s.apply(ctx, req, a, fmt.Sprintf("certified mail to the %s recorded, article %s", a.str("recipient"), article),
		docket.RecordMailing{Recipient: docket.Party(a.str("recipient")), Article: article, Mailed: a.date("mailed")})
	return resp, err
}

func runReceipt(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "return receipt recorded for article "+strings.Join(strings.Fields(a.str("article")), ""),
		docket.RecordReturnReceipt{Article: a.str("article"), Returned: a.date("returned")})
	return resp, err
}

func runRule(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	ruling := docket.Ruling(a.str("ruling"))
	actions := []docket.Action{docket.Rule{Ruling: ruling, On: a.date("on")}}
	done := "ruling recorded: " + strings.ReplaceAll(string(ruling), "_", " ")
	if a.has("hearing") {
		if ruling != docket.ProbableCause {
			return Response{}, &docket.Error{Code: docket.EINVALID, Field: "hearing", Rule: "(C)(2)", Message: "a hearing follows only a ruling of probable_cause"}
		}
		if !a.has("place") {
			return Response{}, &docket.Error{Code: docket.EINVALID, Field: "place", Rule: "(D)", Message: "give the hearing's place with place=\"...\""}
		}
		actions = append(actions, docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: a.instant("hearing"), Place: a.str("place"), Closed: a.has("closed"), Authority: a.str("closed")})
		done += fmt.Sprintf("; hearing scheduled for %s at %s", s.when(a.instant("hearing")), a.str("place"))
	} else if a.has("place") || a.has("closed") {
		return Response{}, &docket.Error{Code: docket.EINVALID, Field: "hearing", Rule: "(C)(2)", Message: "place= and closed= go with hearing=<start>"}
	}
	_, resp, err := s.apply(ctx, req, a, done, actions...)
	return resp, err
}

func runRecess(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "hearing recessed", docket.RecessHearing{})
	return resp, err
}

func runConcluded(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "hearing concluded", docket.ConcludeHearing{On: a.date("on")})
	return resp, err
}

func runDecide(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	d := docket.Decide{Findings: a.str("findings"), Recommendation: a.str("recommendation"), Fine: a.dollars("fine"), On: a.date("on")}
	switch a.str("outcome") {
	case "dismiss":
		d.Dismiss = true
	case "recommend":
		if d.Recommendation == "" {
			return Response{}, &docket.Error{Code: docket.EINVALID, Field: "recommendation", Rule: "(E)(2)", Message: "give the discipline recommended with recommendation=\"...\""}
		}
	case "fine":
		if d.Fine == 0 {
			return Response{}, &docket.Error{Code: docket.EINVALID, Field: "fine", Rule: "(H)", Message: "give the fine with fine=<dollars>"}
		}
	}
	_, resp, err := s.apply(ctx, req, a, "decision recorded ("+a.str("outcome")+")", d)
	return resp, err
}

func runDemand(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "demand for a public hearing recorded; enforcement is stayed (F)", docket.DemandPublicHearing{Received: a.date("received")})
	return resp, err
}

func runHeld(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "public hearing held", docket.HoldPublicHearing{On: a.date("on")})
	return resp, err
}

func runFinal(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "final recommendation issued", docket.IssueFinal{Text: a.str("text"), Fine: a.dollars("fine"), On: a.date("on")})
	return resp, err
}

func runFrivolous(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, fmt.Sprintf("complaint found knowingly frivolous; complainant fined $%d", a.dollars("fine")),
		docket.FindFrivolous{Findings: a.str("findings"), Fine: a.dollars("fine"), On: a.date("on")})
	return resp, err
}

func runCandidate(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, "candidacy at the election on "+a.date("election").Long()+" recorded", docket.AddCandidacy{Election: a.date("election")})
	return resp, err
}

func runElection(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if a.str("action") == "list" {
		es, err := s.Record.Elections(ctx)
		if err != nil {
			return Response{}, err
		}
		if len(es) == 0 {
			return reply("No elections are recorded. Add one: `/ethics election add 2027-02-23 Consolidated General Election`."), nil
		}
		var b strings.Builder
		b.WriteString("Elections:")
		for _, e := range es {
			fmt.Fprintf(&b, "\n• %s: %s", e.Date.Long(), e.Name)
		}
		return reply(b.String()), nil
	}
	if s.Roles.Of(req.User) == Attorney {
		return reply("Only commissioners and the clerk can record elections."), nil
	}
	if !a.has("date") || a.str("name") == "" {
		return Response{}, &docket.Error{Code: docket.EINVALID, Field: "election", Rule: "(G)", Message: "give the date and the name: `/ethics election add 2027-02-23 Consolidated General Election`"}
	}
	if err := s.Record.AddElection(ctx, docket.Election{Date: a.date("date"), Name: a.str("name")}); err != nil {
		return Response{}, err
	}
	return reply(fmt.Sprintf("Election recorded: %s, %s. Record a respondent's candidacy with `/ethics candidate <number> %s`.", a.date("date").Long(), a.str("name"), a.date("date"))), nil
}

func replyText(r Response) string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[0].Text
}
