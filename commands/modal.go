package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// ModalPrefix starts the callback_id of every modal ethicsbot opens.
const ModalPrefix = "ethics:"

// modalMeta travels in a modal's private_metadata: which subcommand, the values fixed
// when it was opened (the case number from a card's button), and the channel to answer in.
type modalMeta struct {
	Sub     string            `json:"sub"`
	Prefill map[string]string `json:"prefill,omitempty"`
	Channel string            `json:"channel,omitempty"`
}

var multiline = map[string]bool{"summary": true, "findings": true, "recommendation": true, "text": true, "reason": true,
	"address": true, "respondent_address": true, "complainant_address": true, "representative_address": true}

// modal builds the form for sub from its parameters, for user. Prefilled values are not
// asked again; the case, if asked, is chosen from the cases user may act on (caseChoices).
// initial values are asked, already filled in: the user sees them and may change them.
func (s *Service) modal(ctx context.Context, sub *subcommand, user string, prefill map[string]string,
	initial ...map[string]string) *slack.ModalViewRequest {
	meta, _ := json.Marshal(modalMeta{Sub: sub.name, Prefill: prefill})
	title := "ethics " + sub.name
	if n := prefill["number"]; n != "" {
		title = sub.name + " " + n
	}
	var blocks []slack.Block
	if sub.rule != "" || sub.summary != "" {
		blocks = append(blocks,
			slack.NewContextBlock("about", mrkdwn(outbox.Escape(strings.TrimSpace(sub.summary+" "+sub.rule)))))
	}
	// What the button that opened the form fixed, in words, so the user sees which step
	// of which case the form records: the positional values, which name the step (a
	// shortcut's file ids, say, are not shown).
	var fixed []outbox.Markup
	for _, p := range sub.params {
		if v, ok := prefill[p.name]; ok && p.positional {
			fixed = append(fixed, outbox.Format("%s: *%s*", label(sub, p), strings.ReplaceAll(v, "_", " ")))
		}
	}
	if len(fixed) > 0 {
		blocks = append(blocks, slack.NewContextBlock("fixed", mrkdwn(outbox.Join(fixed, " · "))))
	}
	for _, p := range sub.params {
		if _, fixed := prefill[p.name]; fixed {
			continue
		}
		var h *slack.TextBlockObject
		if text := hint(sub, p); text != "" {
			h = slack.NewTextBlockObject(slack.PlainTextType, text, false, false)
		}
		e := element(p)
		if p.member {
			if opts := s.memberChoices(ctx, prefill["number"]); len(opts) > 0 {
				e = memberSelect(p, opts)
			}
		}
		for _, in := range initial {
			if v, ok := in[p.name]; ok {
				e = withInitial(e, v, s.Engine.Cal.Location())
			}
		}
		if p.kind == kCase {
			if opts := s.caseChoices(ctx, sub, user); len(opts) > 0 {
				e = slack.NewOptionsSelectBlockElement(slack.OptTypeStatic,
					slack.NewTextBlockObject(slack.PlainTextType, "Choose a case", false, false), p.name, opts...)
			}
		}
		input := slack.NewInputBlock(p.name, slack.NewTextBlockObject(slack.PlainTextType, label(sub, p), false, false), h, e)
		input.Optional = !p.required
		blocks = append(blocks, input)
	}
	return &slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      ModalPrefix + sub.name,
		Title:           slack.NewTextBlockObject(slack.PlainTextType, truncate(title, 24), false, false),
		Submit:          slack.NewTextBlockObject(slack.PlainTextType, "Record", false, false),
		Close:           slack.NewTextBlockObject(slack.PlainTextType, "Cancel", false, false),
		Blocks:          slack.Blocks{BlockSet: blocks},
		PrivateMetadata: string(meta),
	}
}

// MaxOptions is how many options Slack's static_select takes; an option's text takes 75
// characters (Block Kit reference, select menu element and option object).
const (
	MaxOptions    = 100
	MaxOptionText = 75
)

// caseChoices are the cases user may act on with sub's form, for its case input: the open
// cases they are not recused from (Service.mayTouch refuses the others), oldest first, and
// for a form that acts on closed cases too (closedCaseForms) the closed ones after them,
// newest first. None, and the form asks for the number as text, when the cases cannot be
// read or there are more than a select holds: the typed number is checked as ever.
func (s *Service) caseChoices(ctx context.Context, sub *subcommand, user string) []*slack.OptionBlockObject {
	// More open cases than a select holds: the number is asked as text, without reading
	// every open case to count them (the record counts them through its indexes).
	if d, ok := s.Record.(DocketRecord); ok {
		if _, total, err := d.Docket(ctx, user, 1); err == nil && total > MaxOptions {
			return nil
		}
	}
	open, err := s.Record.OpenCases(ctx)
	if err != nil {
		s.logger().Error("form: open cases", "sub", sub.name, "err", err)
		return nil
	}
	cases := slices.Clone(open)
	if closedCaseForms[sub.name] {
		var err error
		if cases, err = s.withClosed(ctx, cases, user); err != nil {
			s.logger().Error("form: closed cases", "sub", sub.name, "err", err)
			return nil
		}
	}
	var opts []*slack.OptionBlockObject
	for _, c := range cases {
		if _, recused := c.Recused(user); recused {
			continue
		}
		// Plain text: the parties' names are shown as typed, never as markup.
		text := truncate(fmt.Sprintf("%s: %s v. %s", c.Number, c.Complainant.Name, c.Respondent.Name), MaxOptionText)
		opts = append(opts,
			slack.NewOptionBlockObject(c.Number, slack.NewTextBlockObject(slack.PlainTextType, text, false, false), nil))
	}
	if len(opts) > MaxOptions {
		return nil
	}
	return opts
}

// withClosed is cases followed by the closed cases, the latest received first. Once more
// than a select holds are cases user may act on, it reads no further: the form asks for
// the number as text whatever the rest would have been.
func (s *Service) withClosed(ctx context.Context, cases []*docket.Case, user string) ([]*docket.Case, error) {
	if r, ok := s.Record.(ClosedRecord); ok {
		shown := 0
		for _, c := range cases {
			if _, recused := c.Recused(user); !recused {
				shown++
			}
		}
		err := r.ClosedCases(ctx, func(c *docket.Case) bool {
			kept := *c
			cases = append(cases, &kept)
			if _, recused := c.Recused(user); !recused {
				shown++
			}
			return shown <= MaxOptions
		})
		return cases, err
	}
	all, err := s.Record.AllCases(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(all, func(a, b docket.Case) int { return b.Received.Compare(a.Received) })
	for i := range all {
		if all[i].Closed() {
			cases = append(cases, &all[i])
		}
	}
	return cases, nil
}

// memberChoices are the members a form's roll call, or the commissioner it names, may
// list: the seated commissioners who may take part in the business of case number
// (docket.TakingPart), by name. A member recused from the case is not offered. With no
// case known yet (a form typed alone asks for it), every seated commissioner is, and the
// submission refuses one recused from the case chosen, by name and why. None when no
// commissioner is configured: the form then has a people picker.
func (s *Service) memberChoices(ctx context.Context, number string) []*slack.OptionBlockObject {
	var c *docket.Case
	if number != "" {
		if cs, err := s.Record.Case(ctx, number); err == nil {
			c = &cs
		}
	}
	names := s.names()
	var opts []*slack.OptionBlockObject
	for _, id := range docket.TakingPart(c, s.Settings().Roles.Commissioners) {
		// Plain text: a name is shown as configured, never as markup.
		opts = append(opts, slack.NewOptionBlockObject(id,
			slack.NewTextBlockObject(slack.PlainTextType, truncate(names.Name(id), MaxOptionText), false, false), nil))
	}
	if len(opts) > MaxOptions {
		return nil
	}
	return opts
}

// memberSelect is the input of a member parameter: a list of opts, one member or several.
func memberSelect(p param, opts []*slack.OptionBlockObject) slack.BlockElement {
	if p.kind == kUsers {
		return slack.NewOptionsMultiSelectBlockElement(slack.MultiOptTypeStatic, nil, p.name, opts...)
	}
	return slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, nil, p.name, opts...)
}

// element is the input element for a parameter's kind.
func element(p param) slack.BlockElement {
	switch p.kind {
	case kChoice:
		var opts []*slack.OptionBlockObject
		for _, c := range p.choices {
			opts = append(opts,
				slack.NewOptionBlockObject(c,
					slack.NewTextBlockObject(slack.PlainTextType, strings.ReplaceAll(c, "_", " "), false, false), nil))
		}
		return slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, nil, p.name, opts...)
	case kDate:
		return slack.NewDatePickerBlockElement(p.name)
	case kInstant:
		return slack.NewDateTimePickerBlockElement(p.name)
	case kDollars:
		return slack.NewNumberInputBlockElement(nil, p.name, false)
	case kUser:
		return slack.NewOptionsSelectBlockElement(slack.OptTypeUser, nil, p.name)
	case kUsers:
		return slack.NewOptionsMultiSelectBlockElement(slack.MultiOptTypeUser, nil, p.name)
	}
	e := slack.NewPlainTextInputBlockElement(nil, p.name)
	e.Multiline = multiline[p.name] && !p.oneLine
	e.MaxLength = maxLength(p)
	if p.kind == kCase {
		e.Placeholder = slack.NewTextBlockObject(slack.PlainTextType, "2026-014", false, false)
	}
	return e
}

// Submission is the answer to a modal: errors, shown in the modal, which stays open; or
// what was done, shown in the modal in place of the form (View, Slack's response_action
// update), with any further messages; or, for a form with nothing to show, messages with
// the modal closed.
type Submission struct {
	Errors   map[string]string // block id → problem
	View     *slack.ModalViewRequest
	Response Response
	Channel  string // where the modal was opened from, for the reply
}

// Submit handles a modal's submission by user. A refusal never closes the modal: see
// formError.
func (s *Service) Submit(ctx context.Context, user, requestID string, view slack.View) Submission {
	var meta modalMeta
	role := s.Settings().Roles.Of(user)
	if role == Nobody {
		// Who submits is checked before anything else, as for a typed command.
		return formError(nil, meta, view, "", "", notAuthorised)
	}
	if err := json.Unmarshal([]byte(view.PrivateMetadata), &meta); err != nil ||
		!strings.HasPrefix(view.CallbackID, ModalPrefix) {
		return formError(nil, meta, view, "", "", "That form is not one of ethicsbot's; nothing was recorded.")
	}
	sub, ok := lookup(meta.Sub)
	switch {
	case !ok:
		return formError(nil, meta, view, "", "", "That form is out of date; nothing was recorded. "+seeHelp)
	case !s.allowed(sub, role):
		return formError(sub, meta, view, "", "", s.onlyFor(sub).Messages[0].Text)
	}
	var words []word
	for k, v := range meta.Prefill {
		words = append(words, word{key: k, text: v})
	}
	if view.State != nil {
		for _, p := range sub.params {
			if v, ok := view.State.Values[p.name][p.name]; ok {
				words = append(words, word{key: p.name, text: actionValue(v)})
			}
		}
	}
	a, read, err := sub.bind(words, s.Engine.Cal.Location(), s.Settings().Roles.People)
	if err != nil {
		// A binding error shows on its field as typed, in the words of a typed command's
		// reply, naming the field by its label.
		text, _ := refusal(err)
		shown := text.Plain() + "."
		var de *docket.Error
		if errors.As(err, &de) && de.Field != "" && de.Code == docket.EINVALID {
			shown = onField(sub, de, de.Field) + "."
		}
		return formError(sub, meta, view, fieldOf(err), shown, text+".")
	}
	req := Request{User: user, RequestID: requestID}
	resp, err := s.exec(ctx, sub, req, a)
	if err == nil {
		return done(view, withReading(resp, read), meta.Channel)
	}
	whole := replyText(s.respond(sub, req, resp, err))
	var de *docket.Error
	if _, logged := refusal(err); !logged && errors.As(err, &de) && de.Field != "" {
		field := formField(sub, de.Field)
		return formError(sub, meta, view, field, onField(sub, de, field), whole)
	}
	return formError(sub, meta, view, "", "", whole)
}

// MaxAnswer is how large, in bytes of JSON, a modal's answer may be: Slack drops a Socket
// Mode response of 20 KB or more without a word (slack-go's socketmode refuses to send
// one), which would leave the user's form hanging on an action already recorded.
const MaxAnswer = 19 << 10

// done is the answer to a form that did what it asked: the form becomes the reply, as
// the user's answer to what they submitted, in the same modal, with only a Done button
// (response_action: update). The reply's text is laid out in sections as a message's
// is, within the blocks a view holds; its other messages, if any, go as replies. The
// reply is not sent again as a message: the modal is where the user is looking. A reply
// too long for an answer (MaxAnswer) closes the modal and goes as a message instead.
func done(form slack.View, resp Response, channel string) Submission {
	if len(resp.Messages) == 0 {
		return Submission{Response: resp, Channel: channel}
	}
	title := "ethicsbot"
	if form.Title != nil && form.Title.Text != "" {
		title = form.Title.Text
	}
	text := resp.Messages[0].Text
	view := &slack.ModalViewRequest{
		Type:       slack.VTModal,
		CallbackID: form.CallbackID,
		Title:      slack.NewTextBlockObject(slack.PlainTextType, title, false, false),
		Close:      slack.NewTextBlockObject(slack.PlainTextType, "Done", false, false),
		Blocks: slack.Blocks{BlockSet: sections(text, MaxViewBlocks, func(n int) outbox.Markup {
			return outbox.Format("…and %d more lines; `/ethics case` shows the case.", n)
		})},
	}
	if b, err := json.Marshal(slack.NewUpdateViewSubmissionResponse(view)); err != nil || len(b) >= MaxAnswer {
		return Submission{Response: resp, Channel: channel}
	}
	resp.Messages = resp.Messages[1:]
	return Submission{View: view, Response: resp, Channel: channel}
}

// actionValue is what an input element holds, as the text a user would have typed.
func actionValue(v slack.BlockAction) string {
	switch {
	case v.SelectedOption.Value != "":
		return v.SelectedOption.Value
	case v.SelectedUser != "":
		return v.SelectedUser
	case len(v.SelectedUsers) > 0:
		return strings.Join(v.SelectedUsers, ",")
	case len(v.SelectedOptions) > 0:
		values := make([]string, len(v.SelectedOptions))
		for i, o := range v.SelectedOptions {
			values[i] = o.Value
		}
		return strings.Join(values, ",")
	case v.SelectedDate != "":
		return v.SelectedDate
	case v.SelectedDateTime != 0:
		return time.Unix(v.SelectedDateTime, 0).UTC().Format(time.RFC3339)
	}
	return v.Value
}

func hasInput(sub *subcommand, meta modalMeta, name string) bool {
	_, fixed := meta.Prefill[name]
	_, ok := sub.param(name)
	return ok && !fixed
}

// Action handles a click on a button or menu item that opens a form: a case card's
// button, a row of the Home tab, a reminder's button. value is the form's command line
// as the button wrote it, without its placeholders: "schedule 2026-001 sufficiency",
// "mail 2026-003 respondent", "file". Its words are read by the subcommand's own table:
// the positional parameters, in order, name the step (the case, the meeting, the paper),
// and are fixed: shown at the top of the form and not asked again; a name=value is a
// known value, filled in, which the user may change.
func (s *Service) Action(ctx context.Context, user, value, channel string) Response {
	role := s.Settings().Roles.Of(user)
	if role == Nobody {
		return reply(notAuthorised)
	}
	words := tokenize(value, false)
	if len(words) == 0 || words[0].key != "" {
		return reply("That button is out of date. " + seeHelp)
	}
	sub, ok := lookup(words[0].text)
	if !ok {
		return reply("That button is out of date. " + seeHelp)
	}
	if !s.allowed(sub, role) {
		return s.onlyFor(sub)
	}
	prefill, initial := map[string]string{}, map[string]string{}
	var positional []param
	for _, p := range sub.params {
		if p.positional {
			positional = append(positional, p)
		}
	}
	for _, w := range words[1:] {
		var p param
		switch {
		case w.key != "":
			if p, ok = sub.param(w.key); !ok {
				return reply("That button is out of date. " + seeHelp)
			}
		case len(positional) > 0:
			p, positional = positional[0], positional[1:]
		default:
			return reply("That button is out of date. " + seeHelp)
		}
		if w.key == "" {
			prefill[p.name] = w.text
		} else {
			initial[p.name] = w.text
		}
	}
	if len(prefill) == 0 {
		prefill = nil
	}
	// A member recused from the case gets no form for it (a card's menu is in the docket
	// channel, which every member sees): the same refusal as the submission would get. The
	// number is read as a submission reads it: a meeting's name in its place names no case.
	if p, ok := sub.param("number"); ok && prefill["number"] != "" {
		a := args{}
		if _, err := a.set(p, prefill["number"], false, s.Engine.Cal.Location(), s.Settings().Roles.People); err == nil {
			if err := s.mayTouch(ctx, sub, user, a); err != nil {
				return s.respond(sub, Request{User: user}, Response{}, err)
			}
		}
	}
	m := s.modal(ctx, sub, user, prefill, initial)
	WithChannel(m, channel)
	return Response{Modal: m}
}

// OpenCase answers a click on a case's "Open case" button (outbox.Action.Case): the case,
// shown to the one who clicked as /ethics case shows it, with the same checks (role,
// recusal, a number that is a case).
func (s *Service) OpenCase(ctx context.Context, user, number string) Response {
	n, err := caseNumber(number)
	if err != nil {
		return reply("That button is out of date. " + seeHelp)
	}
	return s.Handle(ctx, Request{User: user, Text: "case " + n})
}

// withInitial fills value in e as its initial value, as the user would have chosen or
// typed it; a value the element cannot show (not one of a select's options, a date that
// does not parse) is left out, and the field is asked empty.
func withInitial(e slack.BlockElement, value string, loc *time.Location) slack.BlockElement {
	switch e := e.(type) {
	case *slack.SelectBlockElement:
		if e.Type == slack.OptTypeUser {
			e.InitialUser = value
			return e
		}
		for _, o := range e.Options {
			if o.Value == value {
				e.InitialOption = o
			}
		}
	case *slack.MultiSelectBlockElement:
		if e.Type == slack.MultiOptTypeUser {
			e.InitialUsers = strings.Split(value, ",")
		}
		for _, o := range e.Options {
			if slices.Contains(strings.Split(value, ","), o.Value) {
				e.InitialOptions = append(e.InitialOptions, o)
			}
		}
	case *slack.DatePickerBlockElement:
		if _, err := time.Parse(time.DateOnly, value); err == nil {
			e.InitialDate = value
		}
	case *slack.DateTimePickerBlockElement:
		if t, err := parseInstant(value, loc); err == nil {
			e.InitialDateTime = t.Unix()
		}
	case *slack.NumberInputBlockElement:
		e.InitialValue = value
	case *slack.PlainTextInputBlockElement:
		e.InitialValue = value
	}
	return e
}

// WithChannel records in a modal the channel it was opened from, so the reply goes there.
func WithChannel(m *slack.ModalViewRequest, channel string) {
	var meta modalMeta
	if json.Unmarshal([]byte(m.PrivateMetadata), &meta) != nil {
		return
	}
	meta.Channel = channel
	b, _ := json.Marshal(meta)
	m.PrivateMetadata = string(b)
}

// fieldOf is the input field a docket error names, if any.
func fieldOf(err error) string {
	var de *docket.Error
	if errors.As(err, &de) {
		return de.Field
	}
	return ""
}
