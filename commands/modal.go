package commands

import (
	"context"
	"encoding/json"
	"errors"
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

var multiline = map[string]bool{"summary": true, "findings": true, "recommendation": true, "text": true, "reason": true}

// modal builds the form for sub from its parameters. Prefilled values are not asked again.
func (s *Service) modal(sub *subcommand, prefill map[string]string) *slack.ModalViewRequest {
	meta, _ := json.Marshal(modalMeta{Sub: sub.name, Prefill: prefill})
	title := "ethics " + sub.name
	if n := prefill["number"]; n != "" {
		title = sub.name + " " + n
	}
	var blocks []slack.Block
	if sub.rule != "" || sub.summary != "" {
		blocks = append(blocks, slack.NewContextBlock("about", mrkdwn(outbox.Escape(strings.TrimSpace(sub.summary+" "+sub.rule)))))
	}
	for _, p := range sub.params {
		if _, fixed := prefill[p.name]; fixed {
			continue
		}
		label := slack.NewTextBlockObject(slack.PlainTextType, truncate(strings.ReplaceAll(p.name, "_", " "), 150), false, false)
		hint := slack.NewTextBlockObject(slack.PlainTextType, truncate(p.help, 150), false, false)
		input := slack.NewInputBlock(p.name, label, hint, element(p))
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

// element is the input element for a parameter's kind.
func element(p param) slack.BlockElement {
	switch p.kind {
	case kChoice:
		var opts []*slack.OptionBlockObject
		for _, c := range p.choices {
			opts = append(opts, slack.NewOptionBlockObject(c, slack.NewTextBlockObject(slack.PlainTextType, strings.ReplaceAll(c, "_", " "), false, false), nil))
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

// Submission is the answer to a modal: either errors, shown in the modal, which stays
// open, or messages, with the modal closed.
type Submission struct {
	Errors   map[string]string // block id → problem
	Response Response
	Channel  string // where the modal was opened from, for the reply
}

// Submit handles a modal's submission by user. A refusal never closes the modal: see
// formError.
func (s *Service) Submit(ctx context.Context, user, requestID string, view slack.View) Submission {
	var meta modalMeta
	if err := json.Unmarshal([]byte(view.PrivateMetadata), &meta); err != nil || !strings.HasPrefix(view.CallbackID, ModalPrefix) {
		return formError(nil, meta, view, "", "", "That form is not one of ethicsbot's; nothing was recorded.")
	}
	sub, ok := lookup(meta.Sub)
	role := s.Settings().Roles.Of(user)
	switch {
	case !ok:
		return formError(nil, meta, view, "", "", "That form is out of date; nothing was recorded. "+seeHelp)
	case role == Nobody:
		return formError(sub, meta, view, "", "", notAuthorised)
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
	a, read, err := sub.bind(words, s.Engine.Cal.Location())
	if err != nil {
		field := ""
		if fe := (*fieldErr)(nil); errors.As(err, &fe) {
			field = fe.param
		}
		return formError(sub, meta, view, field, err.Error(), outbox.Escape(err.Error()))
	}
	req := Request{User: user, RequestID: requestID}
	resp, err := s.timed(ctx, sub, req, a)
	if err == nil {
		return Submission{Response: withReading(resp, read), Channel: meta.Channel}
	}
	whole := replyText(s.respond(sub, req, resp, err))
	var de *docket.Error
	if errors.As(err, &de) && de.Code != docket.EINTERNAL && de.Field != "" {
		field := formField(sub, de.Field)
		return formError(sub, meta, view, field, onField(de, field), whole)
	}
	return formError(sub, meta, view, "", "", whole)
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

// Action handles a click on a case card's button: it opens that step's form for the case.
// value is "sub number [meeting]" as the card wrote it.
func (s *Service) Action(ctx context.Context, user, value, channel string) Response {
	role := s.Settings().Roles.Of(user)
	if role == Nobody {
		return reply(notAuthorised)
	}
	parts := strings.Fields(value)
	if len(parts) < 2 {
		return reply("That button is out of date. " + seeHelp)
	}
	sub, ok := lookup(parts[0])
	if !ok {
		return reply("That button is out of date. " + seeHelp)
	}
	if !s.allowed(sub, role) {
		return s.onlyFor(sub)
	}
	prefill := map[string]string{"number": parts[1]}
	if len(parts) > 2 {
		prefill["meeting"] = parts[2]
	}
	m := s.modal(sub, prefill)
	WithChannel(m, channel)
	return Response{Modal: m}
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

// fieldErr is a binding error that belongs to one parameter.
type fieldErr struct {
	param string
	msg   string
}

func (e *fieldErr) Error() string { return e.msg }
