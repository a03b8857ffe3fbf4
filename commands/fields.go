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
	case p.name == "address" || strings.HasSuffix(p.name, "_address"):
		return docket.MaxAddressLines * (docket.MaxAddressLine + 1)
	case strings.HasSuffix(p.name, "email"):
		return docket.MaxEmail
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
	"schedule": {"sufficiency_meeting": "start", "hearing": "start", "recessed_hearing": "start",
		"public_hearing": "start"},
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
func formError(sub *subcommand, meta modalMeta, view slack.View, field, onField string,
	whole outbox.Markup) Submission {
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

// onField is a docket error as its form input shows it, named by the input's label.
func onField(sub *subcommand, de *docket.Error, field string) string {
	shown := *de
	shown.Field = strings.ReplaceAll(field, "_", " ")
	if p, ok := sub.param(field); ok {
		shown.Field = label(sub, p)
	}
	return "Not done: " + shown.Error()
}

// Slack's limits on a form's texts (Block Kit reference: the input block,
// https://docs.slack.dev/reference/block-kit/blocks/input-block, and the plain-text input
// element): a label and a hint up to 2,000 characters, a placeholder up to 150. A form's
// texts are written to fit, and shown whole; TestFormsSpeakInWords checks every one.
const (
	MaxLabel       = 2000
	MaxHint        = 2000
	MaxPlaceholder = 150
)

// formLabels are the labels of a form's inputs, in words, by parameter name: the "" row
// holds what every form shares, a subcommand's row what its form says otherwise. A typed
// command names its inputs by parameter (on=, yes=); a form says what each one is.
var formLabels = map[string]map[string]string{
	"": {
		"number": "Case", "meeting": "Meeting", "on": "Date", "page": "Page", "fine": "Fine, in dollars",
		"intentional": "Violation found intentional (H)", "paper": "Paper",
		"yes": "Voted yes", "no": "Voted no", "abstain": "Abstained", "absent": "Absent",
		"command": "Command", "respondent": "Respondent", "complainant": "Complainant", "section": "Section(s) alleged",
		"violation": "Date of the alleged violation", "received": "Received",
		"candidate": "Election the respondent stands in",
		"summary":   "Summary of the allegation", "respondent_user": "Respondent's Slack account",
		"complainant_user": "Complainant's Slack account",
		"kind":             "Document", "action": "Action", "which": "Which cases", "year": "Year", "status": "State",
		"words": "Words to find",
		"start": "Starts", "meeting_name": "Meeting of the commission", "item": "Kind of item", "place": "Place",
		"closed": "Open Meetings Act exception, if closed", "reason": "Reason",
		"at": "Notice posted", "article": "USPS article number", "mailed": "Date mailed",
		"returned": "Date on the return receipt",
		"ruling":   "Ruling", "referral_ruling": "Ruling on the §103.05 part", "ground": "Ground of the dismissal",
		"hearing": "Hearing starts", "override": "Record anyway, because", "outcome": "Outcome", "findings": "Findings",
		"recommendation": "Discipline recommended", "text": "Final recommendation",
		"knowingly": "Complaint found knowingly frivolous (H)",
		"what":      "What was done", "commissioner": "Commissioner who recuses", "election": "Election date",
		"event": "Event number",
		"date":  "Date", "name": "Name", "posted": "Notice posted",
		"signer": "Signed for by", "was": "Article number as recorded",
		"files": "Files shared", "title": "Title",
		"party": "Party", "address": "Postal address", "email": "E-mail address",
		"representative":         "Representative (attorney)",
		"representative_address": "Representative's postal address",
		"officer":                "Officer with authority to discipline",
		"respondent_address":     "Respondent's postal address", "complainant_address": "Complainant's postal address",
		"respondent_email": "Respondent's e-mail address", "complainant_email": "Complainant's e-mail address",
	},
	"file":      {"received": "Date and time received", "candidate": "Date of an election the respondent stands in"},
	"delivered": {"on": "Date delivered"},
	"rule": {"on": "Date of the ruling", "place": "Hearing place",
		"closed": "Hearing: Open Meetings Act exception, if closed"},
	"concluded": {"on": "Date the hearing concluded"},
	"decide":    {"on": "Date of the decision"},
	"held":      {"on": "Date the public hearing was held"},
	"final":     {"on": "Date issued"},
	"frivolous": {"on": "Date of the finding"},
	"enforced":  {"on": "Date done"},
	"fine":      {"on": "Date received, referred or waived"},
	"referral":  {"on": "Date of the attorney's report"},
	"response":  {"on": "Date of the officer's response"},
	"demand":    {"received": "Date the demand was received"},
	"correct": {"received": "Received", "respondent": "Respondent's name", "complainant": "Complainant's name",
		"start": "Meeting starts", "place": "Meeting place", "meeting": "Meeting corrected",
		"event":   "Event number, if several could be meant",
		"section": "Section(s) alleged", "summary": "Summary of the allegation",
		"election": "Date of an election the respondent stands in",
		"party":    "Party whose address is corrected"},
	"void":        {"event": "Event number", "reason": "Why it was recorded in error"},
	"attach":      {"kind": "Kind of document", "title": "Title, for one file"},
	"undelivered": {"outcome": "How it came back", "on": "Date it came back"},
	"cancel":      {"reason": "Reason"},
}

// formHints are a form's hints where a parameter's help, written for the typed command,
// does not fit the form's element: help that shows typed syntax (yes=..., 2026-12-10T17:00,
// an @mention) under a picker or a list. An empty hint is none: the label says it all.
var formHints = map[string]map[string]string{
	"": {
		"number": "", "command": "",
		"yes": "Every seated commissioner who is not recused, once, under Voted yes, Voted no, " +
			"Abstained or Absent.",
		"no":               "",
		"abstain":          "Commissioners present who abstain.",
		"absent":           "",
		"respondent_user":  "The respondent's own Slack account, if they have one.",
		"complainant_user": "The complainant's own Slack account, if they have one.",
		"start":            "When the meeting starts, in the commission's time zone.",
		"meeting_name": "The meeting that holds this step, by its date, e.g. 2027-01-12, or next for the next regular " +
			"meeting; or leave empty and give when and where.",
		"place": "Where it is held, e.g. City Hall, Room 201.",
		"closed": "For a meeting closed under the Open Meetings Act, the exception, e.g. 5 ILCS 120/2(c)(4). Leave empty " +
			"for an open meeting.",
		"paper": "Respondent and complainant are the (B) notices; the ruling, dismissal, recommendation and final papers " +
			"go to the party named; the adjudication request and the referral go to the attorney.",
		"what": "E.g. fine of $1,500 collected.",
	},
	"rule": {
		"hearing": "With a ruling of probable cause: when the hearing starts, to schedule it now (C)(2).",
		"place":   "With the hearing: where it is held.",
		"closed":  "With the hearing: the Open Meetings Act exception, if it is closed.",
		"ground":  "With a dismissal: time barred, filed over a year after the violation (I).",
	},
	"recuse": {"commissioner": "A commissioner recuses only themselves; the clerk names the commissioner."},
	"correct": {"start": "With the meeting chosen below.", "place": "With the meeting chosen below.",
		"posted": "With the meeting chosen below."},
	"letters": {"kind": "One document, e.g. respondent, ruling_complainant, referral, notice_hearing; empty for all the " +
		"case calls for."},
}

// formText is sub's entry for p in table, else the "" row's, else fallback.
func formText(table map[string]map[string]string, sub *subcommand, p param, fallback string) string {
	if t, ok := table[sub.name][p.name]; ok {
		return t
	}
	if t, ok := table[""][p.name]; ok {
		return t
	}
	return fallback
}

// label is p's label in sub's form, in words.
func label(sub *subcommand, p param) string {
	return formText(formLabels, sub, p, strings.ReplaceAll(p.name, "_", " "))
}

// hint is p's hint in sub's form: its help, unless that shows typed syntax the form's
// element has no use for.
func hint(sub *subcommand, p param) string {
	return formText(formHints, sub, p, p.help)
}

// closedCaseForms are the forms whose case may be closed: a correction or a void fixes the
// record of any case; the (H) finding that a complaint was knowingly frivolous follows its
// dismissal; a step enforcing the (E)(2) recommendation or fine follows the decision, and
// so does a fine's payment.
// Every other form acts on an open case, and lists only those.
var closedCaseForms = map[string]bool{"correct": true, "void": true, "frivolous": true, "enforced": true, "fine": true,
	"referral": true, "response": true}
