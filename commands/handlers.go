package commands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/outbox"
)

// choices are the values of a kind of the docket (rulings, states) as a user types them.
func choices[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

func runFile(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	now := s.Now()
	received := now
	if a.has("received") {
		received = a.instant("received")
	}
	f := docket.File{
		Complainant: docket.Person{Name: a.str("complainant"), SlackID: a.str("complainant_user"),
			Address: docket.AddressLines(a.str("complainant_address")), Email: a.str("complainant_email")},
		Respondent: docket.Person{Name: a.str("respondent"), SlackID: a.str("respondent_user"),
			Address: docket.AddressLines(a.str("respondent_address")), Email: a.str("respondent_email")},
		Sections:      sectionList(a.str("section")),
		ViolationDate: a.date("violation"),
		Received:      received,
		Summary:       a.str("summary"),
	}
	if a.has("candidate") {
		f.Elections = []docket.Date{a.date("candidate")}
	}
	ctx, posts := s.sayer(ctx)
	res, err := s.Record.File(ctx, docket.Act{By: req.User, Request: req.RequestID, At: now}, f)
	if err != nil {
		return Response{}, err
	}
	c := res.Case
	if res.Replayed {
		return reply(outbox.Format("Already filed as case *%s* (this request was received twice; nothing new was filed).",
			c.Number)), nil
	}
	msg := outbox.Format("Filed as case *%s*, received %s.%s\nNext: schedule the sufficiency meeting, because the (B) "+
		"notices must give its date, time and place: `/ethics schedule %s sufficiency %s place=\"...\"`.",
		c.Number, s.when(c.Received), warningText(res.Warnings), c.Number, "<start>")
	return Response{Messages: []Message{{Text: msg}}, Posts: *posts}, nil
}

// warningText writes warnings as lines to append to a message.
func warningText(ws []docket.Warning) outbox.Markup {
	var out outbox.Markup
	for _, w := range ws {
		out += outbox.Format("\n:warning: %s", w.String())
	}
	return out
}

func runCase(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	c, err := s.Record.Case(ctx, a.str("number"))
	if err != nil {
		return Response{}, err
	}
	posted, err := s.Record.Posted(ctx, c.Number)
	if err != nil {
		return Response{}, err
	}
	stuck, err := s.Record.Stuck(ctx)
	if err != nil {
		return Response{}, err
	}
	text, blocks := s.card(&c, s.Settings().Roles.Of(req.User), s.Now(), posted, stuckOf(stuck, c.Number))
	return reply(text, blocks...), nil
}

func runDocket(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if d, ok := s.Record.(DocketRecord); ok {
		shown, total, err := d.Docket(ctx, req.User, DocketLimit)
		if err != nil {
			return Response{}, err
		}
		return reply(s.docketList(shown, total, req.User, s.Now())), nil
	}
	cases, err := s.Record.OpenCases(ctx)
	if err != nil {
		return Response{}, err
	}
	return reply(s.docketList(cases, -1, req.User, s.Now())), nil
}

// apply performs actions on the case named in a, and replies with what was done, the
// warnings and the next steps. What each action causes to be said (a line in the docket
// channel, a public notice) is derived from the action and committed with it; a mailing's
// letter as sent that carries its bytes is kept with it.
func (s *Service) apply(ctx context.Context, req Request, a args,
	actions ...docket.Action) (docket.Case, Response, error) {
	number := a.str("number")
	ctx, posts := s.sayer(ctx)
	res, err := s.Record.Apply(ctx, s.act(req), number, actions...)
	if err != nil {
		return docket.Case{}, Response{}, err
	}
	c := res.Case
	if res.Replayed {
		return c, reply(outbox.Format("Already recorded on case %s (this request was received twice; nothing new "+
			"was recorded).", number)), nil
	}
	done := make([]outbox.Markup, len(res.Steps))
	for i, st := range res.Steps {
		done[i] = s.done(st) + overridden(st)
	}
	text := outbox.Format("Case %s: %s.%s%s", number, outbox.Join(done, "; "), warningText(res.Warnings),
		s.nextStep(&c, s.Settings().Roles.Of(req.User)))
	return c, Response{Messages: []Message{{Text: text}}, Posts: *posts}, nil
}

func runSchedule(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	kind := docket.MeetingKind(a.str("meeting"))
	act := docket.ScheduleMeeting{Meeting: kind, Start: a.instant("start"), Place: a.str("place"), Closed: a.has("closed"),
		Authority: a.str("closed"), Regular: s.regularDay(a.instant("start"))}
	if !a.has("meeting_name") && (act.Start.IsZero() || act.Place == "") {
		return Response{}, docket.Invalid(kind.Rule(), "start",
			"give the meeting, meeting=2027-01-12, or a start and a place=")
	}
	if resp, ok, err := s.scheduleAtMeeting(ctx, req, a, act); ok {
		return resp, err
	}
	c, resp, err := s.apply(ctx, req, a, act)
	if err != nil || len(resp.Posts) == 0 {
		return resp, err
	}
	// (C)(1), (D), (F): the physical notice is the clerk's task, due 48 hours before.
	if d, ok := noticeDeadline(s.Engine, &c, kind); ok {
		resp.Messages[0].Text += outbox.Format("\nTask: post the notice at the meeting place and the commission's "+
			"principal office by %s %s, then record it: `/ethics posted %s %s`.",
			s.when(d.DueAt), d.Rule, c.Number, kind)
	}
	return resp, nil
}

// noticeDeadline finds the notice deadline of the meeting of kind as it now stands. (D):
// the hearing and each reconvened session has its own, counted back from its own start, so
// the one sought is the occurrence whose meeting starts when this one does.
func noticeDeadline(e *docket.Engine, c *docket.Case, kind docket.MeetingKind) (docket.Deadline, bool) {
	id := kind.Notice()
	start := c.Meeting(kind).Start
	for _, d := range e.Schedule(&c.Facts, time.Time{}).Deadlines {
		if d.ID == id && d.Meeting.Equal(start) {
			return d, true
		}
	}
	return docket.Deadline{}, false
}

func runCancel(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if name := a.str("meeting_name"); name != "" {
		if a.has("meeting") {
			return Response{}, docket.Invalid(docket.OMANotice, "meeting",
				"a meeting is cancelled with all its items: give the meeting alone, or a case number and its step")
		}
		m, _, err := s.findMeeting(ctx, name)
		if err != nil {
			return Response{}, err
		}
		return s.cancelMeeting(ctx, req, m, a.str("reason"))
	}
	if !a.has("meeting") {
		return Response{}, docket.Invalid("", "meeting",
			"give the step to cancel, e.g. `/ethics cancel 2026-014 hearing`, or the meeting, `/ethics cancel 2027-01-12`")
	}
	act := docket.CancelMeeting{Meeting: docket.MeetingKind(a.str("meeting")), Reason: a.str("reason")}
	if resp, ok, err := s.leaveMeeting(ctx, req, a.str("number"), act); ok {
		return resp, err
	}
	_, resp, err := s.apply(ctx, req, a, act)
	return resp, err
}

// runPosted records a meeting's notice posted (5 ILCS 120/2.02): the meeting named, once
// for all its items; or the meeting that holds a case's step. A step on its own at its
// start and place (a meeting of one item, not recorded apart from its case) is posted on
// its case alone, as before meetings were kept.
func runPosted(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	kind := docket.MeetingKind(a.str("meeting"))
	if name := a.str("meeting_name"); name != "" {
		if kind != "" {
			return Response{}, docket.Invalid(docket.OMANotice, "meeting",
				"a meeting's posting is for all its items: give the meeting alone, or a case number and its step")
		}
		m, _, err := s.findMeeting(ctx, name)
		if err != nil {
			return Response{}, err
		}
		return s.postMeeting(ctx, req, m, a.instant("at"))
	}
	if kind == "" {
		return Response{}, docket.Invalid("", "meeting",
			"give the step whose meeting's notice was posted, e.g. `/ethics posted 2026-014 sufficiency`, or the meeting, "+
				"`/ethics posted 2027-01-12`")
	}
	if mr, err := s.meetingRecord(); err == nil {
		all, err := mr.Meetings(ctx)
		if err != nil {
			return Response{}, err
		}
		if m := docket.HoldsItem(all, a.str("number"), kind); m != nil && (!m.Folded || len(m.Agenda()) > 1) {
			return s.postMeeting(ctx, req, m, a.instant("at"))
		}
	}
	_, resp, err := s.apply(ctx, req, a, docket.PostNotice{Meeting: kind, Posted: a.instant("at")})
	return resp, err
}

func runMail(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	article, err := docket.NormalizeArticle(a.str("article"))
	if err != nil {
		return Response{}, err
	}
	act := docket.RecordMailing{Paper: docket.Paper(a.str("paper")), Article: article, Mailed: a.date("mailed")}
	sent, why := s.letterAsSent(ctx, a.str("number"), act.Paper, article, act.Mailed)
	act.Letter = sent
	_, resp, err := s.apply(ctx, req, a, act)
	return noCopy(resp, why), err
}

func runDelivered(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	act := docket.RecordDelivery{Paper: docket.Paper(a.str("paper")), On: a.date("on")}
	sent, why := s.letterAsSent(ctx, a.str("number"), act.Paper, "", act.On)
	act.Letter = sent
	_, resp, err := s.apply(ctx, req, a, act)
	return noCopy(resp, why), err
}

// noCopy adds to the reply to a mailing recorded without its letter why no copy was kept.
// The mailing is recorded all the same: the ordinance's deadlines run from it, and the
// paper may have been written by hand, or with letters not set up.
func noCopy(resp Response, why error) Response {
	if why == nil || len(resp.Messages) == 0 {
		return resp
	}
	msg := docket.ErrorMessage(why)
	if de := (*docket.Error)(nil); errors.As(why, &de) {
		msg = de.Message
		if de.Rule != "" {
			msg += " " + de.Rule
		}
	}
	resp.Messages[0].Text += outbox.Format("\nNo copy of the letter was kept with this mailing, as ethicsbot could not "+
		"make it: %s. Keep a copy of what was sent in the case file (/ethics attach, kind=correspondence).", msg)
	return resp
}

// letterAsSent makes the letter of paper p of case number as it goes out on day on (today
// if zero), with its article number when sent certified, to keep in the record with the
// mailing (its bytes in PDF): the clerk records the mailing, then prints that copy. It is nil
// where letters are not set up, and where the mailing itself will be refused (an unknown
// case or paper, one the case does not need yet), which the record then says. A letter
// that cannot be made (an address or a setting missing, a document of the case file that
// cannot be read) is nil with the reason, which the reply gives.
func (s *Service) letterAsSent(ctx context.Context, number string, p docket.Paper, article string,
	on docket.Date) (*docket.SentLetter, error) {
	if s.Letters == nil {
		return nil, nil
	}
	info, ok := p.Info()
	if !ok {
		return nil, nil
	}
	c, err := s.Record.Case(ctx, number)
	if err != nil || c.Needs(p) != nil {
		return nil, nil
	}
	if on.IsZero() {
		on = s.Engine.Cal.DateOf(s.Now())
	}
	c.Mailings = append(slices.Clone(c.Mailings),
		docket.Mailing{Paper: p, Recipient: info.To, Article: article, Mailed: on, Satisfies: info.Rule})
	d, err := s.Letters.Packet(ctx, &c, letters.Kind(p), on, s.Record)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(d.Data)
	return &docket.SentLetter{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(d.Data)), Dated: on, PDF: d.Data}, nil
}

// runParty records a party's postal address, e-mail address or representative: the
// letters to the party need the address (B), (C)(2), and a representative receives copies.
func runParty(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	act := docket.SetParty{Party: docket.Party(a.str("party")), Address: docket.AddressLines(a.str("address")),
		Email: a.str("email"),
		Representative: docket.Representative{Name: a.str("representative"),
			Address: docket.AddressLines(a.str("representative_address"))}}
	_, resp, err := s.apply(ctx, req, a, act)
	return resp, err
}

// runOfficer names the officer with authority to discipline to whom the case's (E)(2) and
// (F) recommendations go: one of the officers the configuration lists.
func runOfficer(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	key, err := s.officerKey(a.str("officer"))
	if err != nil {
		return Response{}, err
	}
	_, resp, err := s.apply(ctx, req, a, docket.SetOfficer{Officer: key, Override: a.str("override")})
	return resp, err
}

// officerKey checks that key is an officer the configuration lists (Settings.Officers;
// the mayor alone when it lists none), so a case never names an officer no letter can
// address.
func (s *Service) officerKey(key string) (string, error) {
	key = strings.ToLower(strings.TrimSpace(key))
	keys := s.Settings().Officers
	if len(keys) == 0 {
		keys = []string{docket.DefaultOfficer}
	}
	if !slices.Contains(keys, key) {
		return "", docket.Invalid("(E)(2)", "officer",
			fmt.Sprintf("%q is not an officer ethicsbot.yml lists; the officers are %s (letters.officer is the mayor, "+
				"letters.officers the others)", key, strings.Join(keys, ", ")))
	}
	return key, nil
}

func runEnforced(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.RecordEnforcement{What: a.str("what"), On: a.date("on")})
	return resp, err
}

// runFine records what became of a fine (docket.SettleFine): a payment, a referral for
// collection, or a waiver, which the commission takes by roll call.
func runFine(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	how := docket.Settle(a.str("how"))
	payer := docket.Party(a.str("payer"))
	if payer == "" {
		c, err := s.Record.Case(ctx, a.str("number"))
		if err != nil {
			return Response{}, err
		}
		if payer, err = onlyPayer(&c); err != nil {
			return Response{}, err
		}
	}
	var vote *docket.Vote
	if how == docket.FineWaived {
		v, err := s.vote(ctx, a, "(H)", docket.SettleFine{}.Kind())
		if err != nil {
			return Response{}, err
		}
		vote = v
	} else if a.has("yes") || a.has("no") || a.has("abstain") || a.has("absent") {
		return Response{}, docket.Invalid("(H)", "yes",
			"only a waiver is voted: a payment or a referral for collection is recorded without a roll call")
	}
	_, resp, err := s.apply(ctx, req, a, docket.SettleFine{Payer: payer, How: how, Amount: a.dollars("amount"),
		Receipt: a.str("receipt"), To: a.str("to"), On: a.date("on"), Vote: vote})
	return resp, err
}

// onlyPayer is who owes the one fine of case c still owed, for /ethics fine without
// payer=; refused, naming payer=, when both parties owe one or none does.
func onlyPayer(c *docket.Case) (docket.Party, error) {
	var owed []docket.Party
	for _, f := range c.Fines {
		if f.Settled.IsZero() {
			owed = append(owed, f.Payer)
		}
	}
	switch len(owed) {
	case 1:
		return owed[0], nil
	case 0:
		return "", docket.Conflict("(H)", "", fmt.Sprintf("case %s has no fine owed: every fine it imposed is paid, "+
			"referred for collection or waived, or it imposed none", c.Number))
	}
	return "", docket.Invalid("(H)", "payer", fmt.Sprintf("case %s has a fine on the respondent and one on the "+
		"complainant: say which with payer=respondent or payer=complainant", c.Number))
}

// runReferral records the attorney's report on a referral (docket.ReportReferral).
func runReferral(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.ReportReferral{Paper: docket.Paper(a.str("paper")),
		Status: a.str("status"), Outcome: a.str("outcome"), On: a.date("on")})
	return resp, err
}

// runResponse records the officer's response to a recommendation for discipline
// (docket.RecordOfficerResponse).
func runResponse(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.RecordOfficerResponse{Response: a.str("text"), On: a.date("on")})
	return resp, err
}

// paperChoices are the papers' names, as a clerk types them.
func paperChoices() []string {
	var out []string
	for _, p := range docket.Papers() {
		out = append(out, string(p.Paper))
	}
	return out
}

func runReceipt(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a,
		docket.RecordReturnReceipt{Article: a.str("article"), Returned: a.date("returned"), Signer: a.str("signer")})
	return resp, err
}

// runUndelivered records a certified mailing that came back, and tells the clerk the next
// step the commission chose for it (docket.MailPolicy), which the reminders then follow.
func runUndelivered(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	outcome := docket.MailOutcome(a.str("outcome"))
	// The step chosen now is kept with the event (docket.RecordUndelivered.Next).
	c, resp, err := s.apply(ctx, req, a,
		docket.RecordUndelivered{Article: a.str("article"), Outcome: outcome, On: a.date("on"),
			Next: s.Engine.Mail.After(outcome)})
	if err != nil || len(resp.Posts) == 0 {
		return resp, err
	}
	for _, d := range s.Engine.Schedule(&c.Facts, s.Now()).Deadlines {
		if cmd := s.Engine.ResendCommand(&c, d); cmd != "" && !d.Done {
			resp.Messages[0].Text += outbox.Format("\nTask %s: %s; record it with `/ethics %s`. The clerk is reminded of it "+
				"until it is recorded.", d.Rule, d.Period.Duty, cmd)
		}
	}
	return resp, nil
}

// vote is the roll call given with an action of the commission; nil when none was given
// and none is required. It records who is seated and the rules it is counted by.
//
// Taken at a meeting in progress that holds a step of the case, the action
// kind is refused while the meeting is in closed session if it is final action (5 ILCS
// 120/2(e)), and the roll call defaults to the members present: those not present are
// absent, and those present who are not given as voting no or abstaining, nor recused,
// vote yes, so the clerk records only the votes.
func (s *Service) vote(ctx context.Context, a args, rule, kind string) (*docket.Vote, error) {
	st := s.Settings()
	if m, err := s.sitting(ctx, a.str("number")); err != nil {
		return nil, err
	} else if m != nil {
		now := s.Now()
		if err := docket.CheckOpenForAction(kind, m.Minutes.SessionAt(now)); err != nil {
			return nil, err
		}
		if err := m.CheckFinalOnAgenda(kind, a.str("number")); err != nil {
			return nil, err
		}
		return s.rollAt(ctx, a, m, now, a.str("number"))
	}
	if !a.has("yes") && !a.has("no") && !a.has("abstain") && !a.has("absent") {
		if st.Voting.Required {
			return nil, docket.Invalid(rule, "yes",
				"this is an action of the commission, taken by roll call: list every seated commissioner who is not recused "+
					"under yes=, no=, abstain= or absent=, e.g. yes=@ann,@ben no=@cal")
		}
		return nil, nil
	}
	seated := slices.Clone(st.Roles.Commissioners)
	quorum := st.Voting.Quorum
	if quorum == 0 {
		quorum = docket.DefaultQuorum(len(seated))
	}
	carry := st.Voting.Carry
	if carry == "" {
		carry = docket.MajorityOfVotesCast
	}
	return &docket.Vote{Seated: seated, Yes: a.users("yes"), No: a.users("no"), Abstain: a.users("abstain"),
		Absent: a.users("absent"),
		Quorum: quorum, Carry: carry}, nil
}

func runRule(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	ruling := docket.Ruling(a.str("ruling"))
	vote, err := s.vote(ctx, a, "(C)", docket.Rule{}.Kind())
	if err != nil {
		return Response{}, err
	}
	actions := []docket.Action{docket.Rule{Ruling: ruling, ReferralRuling: docket.Ruling(a.str("referral_ruling")),
		Ground: docket.Ground(a.str("ground")), On: a.date("on"), Vote: vote, Override: a.str("override")}}
	if a.has("hearing") {
		if ruling != docket.ProbableCause {
			return Response{}, docket.Invalid("(C)(2)", "hearing", "a hearing follows only a ruling of probable_cause")
		}
		if !a.has("place") {
			return Response{}, docket.Invalid("(D)", "place", "give the hearing's place with place=\"...\"")
		}
		actions = append(actions,
			docket.ScheduleMeeting{Meeting: docket.HearingMeeting, Start: a.instant("hearing"), Place: a.str("place"),
				Closed: a.has("closed"), Authority: a.str("closed"), Regular: s.regularDay(a.instant("hearing"))})
	} else if a.has("place") || a.has("closed") {
		return Response{}, docket.Invalid("(C)(2)", "hearing", "place= and closed= go with hearing=<start>")
	}
	_, resp, err := s.apply(ctx, req, a, actions...)
	return resp, err
}

func runRecess(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.RecessHearing{Override: a.str("override")})
	return resp, err
}

func runConcluded(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.ConcludeHearing{On: a.date("on"), Override: a.str("override")})
	return resp, err
}

func runDecide(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	vote, err := s.vote(ctx, a, "(E)", docket.Decide{}.Kind())
	if err != nil {
		return Response{}, err
	}
	d := docket.Decide{Findings: a.str("findings"), Recommendation: a.str("recommendation"), Fine: a.dollars("fine"),
		Intentional: a.str("intentional") == "yes", On: a.date("on"), Vote: vote}
	switch a.str("outcome") {
	case "dismiss":
		d.Dismiss = true
	case "recommend":
		if d.Recommendation == "" {
			return Response{}, docket.Invalid("(E)(2)", "recommendation",
				"give the discipline recommended with recommendation=\"...\"")
		}
	case "fine":
		if d.Fine == 0 {
			return Response{}, docket.Invalid("(H)", "fine", "give the fine with fine=<dollars>")
		}
	}
	_, resp, err := s.apply(ctx, req, a, d)
	return resp, err
}

func runDemand(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.DemandPublicHearing{Received: a.date("received")})
	return resp, err
}

func runHeld(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.HoldPublicHearing{On: a.date("on"), Override: a.str("override")})
	return resp, err
}

func runFinal(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	vote, err := s.vote(ctx, a, "(F)", docket.IssueFinal{}.Kind())
	if err != nil {
		return Response{}, err
	}
	_, resp, err := s.apply(ctx, req, a,
		docket.IssueFinal{Text: a.str("text"), Fine: a.dollars("fine"), Intentional: a.str("intentional") == "yes",
			On: a.date("on"), Vote: vote})
	return resp, err
}

func runFrivolous(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	vote, err := s.vote(ctx, a, "(H)", docket.FindFrivolous{}.Kind())
	if err != nil {
		return Response{}, err
	}
	_, resp, err := s.apply(ctx, req, a,
		docket.FindFrivolous{Findings: a.str("findings"), Fine: a.dollars("fine"), Knowingly: a.str("knowingly") == "yes",
			On: a.date("on"), Vote: vote, Override: a.str("override")})
	return resp, err
}

// runRecuse records a commissioner's recusal: their own, or, by the clerk, the one named.
func runRecuse(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	roles := s.Settings().Roles
	who, role := req.User, roles.Of(req.User)
	if a.has("commissioner") {
		who = a.str("commissioner")
	}
	switch {
	case role == Commissioner && who != req.User:
		return Response{}, docket.Unauthorized("", "commissioner",
			"a commissioner recuses only themselves; leave commissioner= out")
	case role != Commissioner && !a.has("commissioner"):
		return Response{}, docket.Invalid("", "commissioner", "name the commissioner who recuses: commissioner=@mention")
	case roles.Of(who) != Commissioner:
		return Response{}, docket.Invalid("", "commissioner", fmt.Sprintf("%s is not a commissioner", who))
	}
	_, resp, err := s.apply(ctx, req, a, docket.Recuse{User: who, Reason: a.str("reason")})
	return resp, err
}

func runCandidate(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	_, resp, err := s.apply(ctx, req, a, docket.AddCandidacy{Election: a.date("election")})
	return resp, err
}

func runElection(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	if a.str("action") == "list" {
		es, err := s.Record.Elections(ctx)
		if err != nil {
			return Response{}, err
		}
		if len(es) == 0 {
			return reply("No elections are recorded. Add one: `/ethics election add 2027-02-23 Consolidated " +
				"General Election`."), nil
		}
		text := outbox.Markup("Elections:")
		for _, e := range es {
			text += outbox.Format("\n• %s: %s", e.Date.Long(), e.Name)
		}
		return reply(text), nil
	}
	if s.Settings().Roles.Of(req.User) == Attorney {
		return reply("Only commissioners and the clerk can record elections."), nil
	}
	if !a.has("date") || a.str("name") == "" {
		return Response{}, docket.Invalid("(G)", "election",
			"give the date and the name: `/ethics election add 2027-02-23 Consolidated General Election`")
	}
	if err := s.Record.AddElection(ctx, docket.Election{Date: a.date("date"), Name: a.str("name")}); err != nil {
		return Response{}, err
	}
	return reply(outbox.Format("Election recorded: %s, %s. Record a respondent's candidacy with `/ethics "+
		"candidate %s %s`.", a.date("date").Long(), a.str("name"), "<number>", a.date("date"))), nil
}

func replyText(r Response) outbox.Markup {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[0].Text
}
