package commands

import (
	"strings"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// maxLength is how many characters a form's text input for p takes: the docket's own
// limit for the field, within Slack's 3,000 for a plain-text input.
func maxLength(p param) int {
	switch {
	case p.oneLine:
		return docket.MaxName
	case p.name == "summary":
		return min(docket.MaxSummary, 3000)
	case multiline[p.name]:
		return min(docket.MaxText, 3000)
	case p.name == "override":
		return docket.MaxReason
	}
	return docket.MaxName
}

// errorFields maps the field a docket error names to the form input that shows it, where
// the two differ: the docket names its own inputs (start, posted, authority, the facts'
// step dates), a form the subcommand's parameters. The "" row holds what every form
// shares.
var errorFields = map[string]map[string]string{
	"": {
		"respondent_slack_id": "respondent_user", "complainant_slack_id": "complainant_user",
		"violation_date": "violation", "authority": "closed", "decision": "outcome",
	},
	"schedule":  {"sufficiency_meeting": "start", "hearing": "start", "recessed_hearing": "start", "public_hearing": "start"},
	"rule":      {"start": "hearing", "ruling_date": "on"},
	"posted":    {"posted": "at"},
	"mail":      {"respondent_notice_mailed": "mailed", "complainant_confirmation_mailed": "mailed"},
	"concluded": {"hearing_concluded": "on"},
	"decide":    {"recommendation_issued": "on", "decision_issued": "on"},
	"demand":    {"demand_received": "received"},
	"held":      {"public_hearing_held": "on"},
	"final":     {"final_recommendation": "on"},
}

// formField is the input of sub's form that a docket error about field belongs to.
func formField(sub *subcommand, field string) string {
	if f, ok := errorFields[sub.name][field]; ok {
		return f
	}
	if f, ok := errorFields[""][field]; ok {
		return f
	}
	return field
}

// formError answers a refused submission without closing its modal, so that nothing the
// user typed is lost: the problem shows on the input field if the form has it (onField),
// else on the form's first input, marked as about the whole form (whole). Only a form
// with no input at all closes, with the problem as a reply.
func formError(sub *subcommand, meta modalMeta, view slack.View, field, onField string, whole outbox.Markup) Submission {
	if sub != nil && field != "" && hasInput(sub, meta, field) {
		return Submission{Errors: map[string]string{field: onField}}
	}
	if first := firstInput(sub, meta, view); first != "" {
		// A field's error is plain text in Slack: it shows as typed, never as markup.
		return Submission{Errors: map[string]string{first: "About the whole form: " + whole.Plain()}}
	}
	return Submission{Response: reply(whole), Channel: meta.Channel}
}

// firstInput is the block id of the form's first input: as the submitted view shows it,
// or as sub's form was built.
func firstInput(sub *subcommand, meta modalMeta, view slack.View) string {
	for _, b := range view.Blocks.BlockSet {
		if in, ok := b.(*slack.InputBlock); ok {
			return in.BlockID
		}
	}
	if sub == nil {
		return ""
	}
	for _, p := range sub.params {
		if hasInput(sub, meta, p.name) {
			return p.name
		}
	}
	return ""
}

// onField is a docket error as its form input shows it, named as the input's label.
func onField(de *docket.Error, field string) string {
	shown := *de
	shown.Field = strings.ReplaceAll(field, "_", " ")
	return "Not done: " + shown.Error()
}
