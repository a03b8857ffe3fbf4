package commands

import (
	"context"
	"strings"
	"sync"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// subcommand is one row of the /ethics table: its form, who may use it, and what it does.
// The table drives parsing, help, authorisation and the modals alike.
type subcommand struct {
	name    string
	summary string
	rule    string // the ordinance's subsection, for help
	params  []param
	example string
	roles   []Role
	why     string // why only those roles, for refusals
	modal   bool   // typed with no arguments, it opens a modal
	vote    bool   // an action of the commission, taken by roll call (yes=, no=, abstain=, absent=)
	// fromTable: it answers from the command table and the settings alone, reading no
	// record, so Prepare answers it at once (help).
	fromTable bool
	run       func(s *Service, ctx context.Context, req Request, a args) (Response, error)
}

var (
	everyone      = []Role{Commissioner, Clerk, Attorney, Nobody}
	readers       = []Role{Commissioner, Clerk, Attorney}
	staff         = []Role{Commissioner, Clerk}
	commissioners = []Role{Commissioner}
)

const (
	commissionersOnly = "Rulings and decisions are the commission's own (C), (E), (F), (H)."
	commissionVotes   = "Rulings and decisions are the commission's own (C), (E), (F), (H), taken by roll call; a " +
		"commissioner or the clerk records the vote."
)

// Parameters shared by several subcommands.
var (
	pCase    = param{name: "number", kind: kCase, required: true, positional: true, help: "the case number, e.g. 2026-014"}
	pMeeting = param{name: "meeting", kind: kChoice, choices: choices(docket.MeetingKinds), required: true,
		positional: true, help: "which meeting"}
	// pMeetingName is a meeting of the commission by its name, typed meeting=2027-01-12.
	pMeetingName = param{name: "meeting_name", kind: kText,
		help: "the meeting of the commission, by its name: meeting=2027-01-12; to schedule a step, meeting=next is the " +
			"next regular meeting (5 ILCS 120/2.03)"}
	pOn   = param{name: "on", kind: kDate, help: "the date it happened, if not today"}
	pPage = param{name: "page", kind: kText, help: "which page of a long list, e.g. 2"}
	pFine = param{name: "fine", kind: kDollars, help: "whole dollars, $1,001 to $5,000 (H)"}
	yesNo = []string{"yes", "no"}
	// (H): a fine needs the finding that the violation was intentional.
	pIntentional = param{name: "intentional", kind: kChoice, choices: yesNo,
		help: "with a fine: the (H) finding that the violation was intentional; a fine needs yes"}
	pPaper = param{name: "paper", kind: kChoice, choices: paperChoices(), required: true, positional: true,
		help: "which paper: respondent and complainant are the (B) notices; ruling_, dismissal_, recommendation_ and " +
			"final_ papers go to the party named; adjudication_request and referral go to the attorney"}
	// The roll call: every seated commissioner who is not recused, exactly once.
	pRollCall = []param{
		{name: "yes", kind: kUsers, member: true, help: "commissioners voting yes: @mention each, separated by commas"},
		{name: "no", kind: kUsers, member: true, help: "commissioners voting no: @mention each"},
		{name: "abstain", kind: kUsers, member: true, help: "commissioners present who abstain: @mention each"},
		{name: "absent", kind: kUsers, member: true, help: "commissioners absent: @mention each"},
	}
)

var table []*subcommand

func init() {
	table = []*subcommand{
		{name: "help", summary: "list the commands, or show one in full",
			params:  []param{{name: "command", kind: kText, positional: true, help: "a command name"}},
			example: "help schedule", roles: everyone, fromTable: true, run: runHelp},
		{name: "file", summary: "file a complaint received by the commission", rule: "(A)", modal: true, roles: staff,
			why: "Commissioners and the clerk file complaints.",
			params: []param{
				{name: "respondent", kind: kText, required: true, help: "who the complaint is against"},
				{name: "complainant", kind: kText, required: true, help: "who filed it"},
				{name: "section", kind: kText, required: true, help: "section(s) alleged, e.g. 103.10 or 103.10,103.05"},
				{name: "violation", kind: kDate, help: "date of the alleged violation (I)"},
				{name: "received", kind: kInstant, help: "when the commission received it; default now"},
				{name: "candidate", kind: kDate, help: "date of an election at which the respondent is a candidate (G)"},
				{name: "summary", kind: kText, required: true, help: "the allegation; confidential"},
				{name: "respondent_user", kind: kUser, help: "the respondent's Slack account, if any: @mention them"},
				{name: "complainant_user", kind: kUser, help: "the complainant's Slack account, if any: @mention them"},
				{name: "respondent_address", kind: kText,
					help: "the respondent's postal address, for the (B) notice by certified mail; its lines separated by | when " +
						"typed; confidential"},
				{name: "complainant_address", kind: kText,
					help: "the complainant's postal address, its lines separated by | when typed; confidential"},
				{name: "respondent_email", kind: kText, help: "the respondent's e-mail address, if known; confidential"},
				{name: "complainant_email", kind: kText, help: "the complainant's e-mail address, if known; confidential"},
			},
			example: `file respondent="Jane Roe" complainant="John Doe" section=103.10 violation=2026-05-01 received=2026-12-04T10:00 candidate=2027-02-23 summary="..."`,
			run:     runFile},
		{name: "party",
			summary: "record a party's postal address, e-mail address or representative (an attorney who receives copies of " +
				"the party's letters); confidential", rule: "(B)", modal: true, roles: staff,
			why: "Commissioners and the clerk keep the parties' addresses.",
			params: []param{pCase,
				{name: "party", kind: kChoice, choices: []string{string(docket.Respondent), string(docket.Complainant)},
					required: true, positional: true, help: "respondent or complainant"},
				{name: "address", kind: kText,
					help: "the postal address, its lines separated by | when typed, e.g. \"34 Oak Avenue | Springfield, IL 62703\""},
				{name: "email", kind: kText, help: "the e-mail address, e.g. jane@example.org"},
				{name: "representative", kind: kText, oneLine: true,
					help: "the party's attorney or representative, who receives a copy of each letter"},
				{name: "representative_address", kind: kText,
					help: "with representative=: their postal address, lines separated by |"},
			},
			example: `party 2026-014 respondent address="34 Oak Avenue | Springfield, IL 62703" email=jane@example.org`,
			run:     runParty},
		{name: "officer",
			summary: "name the officer with authority to discipline, to whom the (E)(2) and (F) recommendations go: the mayor " +
				"unless another the configuration lists is named (a department head, the council)", rule: "(E)(2), (F)",
			modal: true, roles: staff,
			why: "Commissioners and the clerk send the commission's papers.",
			params: []param{pCase,
				{name: "officer", kind: kText, oneLine: true, required: true, positional: true,
					help: "the officer's key, as ethicsbot.yml lists it: mayor, or one of letters.officers, e.g. council"},
				pOfficerOverride,
			},
			example: "officer 2026-014 council", run: runOfficer},
		{name: "documents",
			summary: "list the case file: the complaint as received, exhibits, evidence and correspondence, with who added " +
				"each and when", rule: "(B), (C)(3)",
			params: []param{pCase}, example: "documents 2026-014", roles: readers, why: "The case file is confidential.",
			run: runDocuments},
		{name: "attach",
			summary: "add files shared in the docket channel to a case file: use the message shortcut \"Add to a case file\" " +
				"on the message that shares them", rule: "(B), (C)(3)", roles: staff,
			why: "Commissioners and the clerk keep the case file.",
			params: []param{pCase,
				{name: "kind", kind: kChoice, choices: choices(docket.DocumentKinds),
					help: "what the files are: complaint (as received), exhibit (the default), evidence or correspondence"},
				{name: "title", kind: kText, oneLine: true, help: "the document's title, with one file; default the file's name"},
				{name: "files", kind: kText,
					help: "the Slack ids of the files shared, which the shortcut fills in; in the console, paths of files on " +
						"this machine"},
			},
			example: "attach 2026-014 kind=complaint", run: runAttach},
		{name: "case", summary: "show a case: its state, parties, what is public, deadlines and next steps",
			params:  []param{pCase},
			example: "case 2026-014", roles: readers, why: "Case details are confidential.", run: runCase},
		{name: "letters",
			summary: "produce a case's letters and meeting notices as PDFs, from the templates; all it calls for now, or one",
			rule:    "(B), (C), (E)(2), (F)",
			roles:   staff, why: "Commissioners and the clerk send the commission's papers.",
			params: []param{{name: "number", kind: kCase, orMeeting: true, required: true, positional: true,
				help: "the case number, e.g. 2026-014; or a meeting, e.g. 2027-01-12, for its agenda"},
				{name: "kind", kind: kText, positional: true,
					help: "one document, e.g. respondent, ruling_complainant, referral, notice_hearing; default all the " +
						"case calls for"}},
			example: "letters 2026-014 respondent", run: runLetters},
		{name: "calendar",
			summary: "your private calendar feed of the deadlines and meetings of the cases you may see, for Outlook or " +
				"Google Calendar; reset gives a new address",
			roles: readers, why: "Case deadlines are confidential.",
			params: []param{{name: "action", kind: kChoice, choices: []string{"reset"}, positional: true,
				help: "reset: a new address; the old one stops working at once"}},
			example: "calendar", run: runCalendar},
		{name: "docket", summary: "list the open cases by their nearest deadline", example: "docket", roles: readers,
			why: "Case details are confidential.", run: runDocket},
		{name: "cases",
			summary: "list the cases, open and closed, newest first: all, or those of a year, a section or a state",
			roles:   readers,
			why:     "Case details are confidential.",
			params: []param{
				{name: "which", kind: kChoice, choices: []string{"open", "closed", "all"}, positional: true,
					help: "open, closed or all (the default)"},
				{name: "year", kind: kText, help: "the year of receipt, e.g. 2026"},
				{name: "section", kind: kText, help: "the section alleged: 103.10 or 103.05"},
				{name: "status", kind: kChoice, choices: choices(docket.States), help: "the state the case is in, e.g. dismissed"},
				pPage,
			},
			example: "cases closed year=2026 section=103.10", run: runCases},
		{name: "search", summary: "find cases, open and closed, by a party's name, an article number or words of the summary",
			roles: readers,
			why:   "Case details are confidential.",
			params: []param{
				{name: "words", kind: kText, required: true, positional: true, rest: true,
					help: "words that must all be in the case; each finds words it begins (rob finds Roberts); an article number " +
						"with or without its spaces"},
				pPage,
			},
			example: "search Roe city email", run: runSearch},
		{name: "schedule",
			summary: "schedule or reschedule a case step held at a meeting of the commission (an item of its agenda): at the " +
				"meeting named by meeting=, or at a start and place, joining the meeting then and there; posts its public notice",
			rule: "(C)(1), (D), (F), 5 ILCS 120/2.02", modal: true, roles: staff,
			why: "Commissioners and the clerk schedule meetings.",
			params: []param{pCase, pMeeting,
				{name: "start", kind: kInstant, positional: true, help: "when it starts, e.g. 2026-12-10T17:00; not with meeting="},
				{name: "place", kind: kText, help: "where, e.g. \"City Hall, Room 201\"; not with meeting="},
				pMeetingName,
				{name: "closed", kind: kText,
					help: "for a meeting closed under the Open Meetings Act, the exception, e.g. \"5 ILCS 120/2(c)(4)\""},
			},
			example: `schedule 2026-014 sufficiency 2026-12-10T17:00 place="City Hall, Room 201"`, run: runSchedule},
		{name: "meeting",
			summary: "create a meeting of the commission, named by its date (2027-01-12; a second one that day 2027-01-12b); " +
				"case steps and other business are its items", rule: "5 ILCS 120/2.02", roles: staff,
			why: "Commissioners and the clerk schedule meetings.",
			params: []param{
				{name: "start", kind: kInstant, required: true, positional: true, help: "when it starts, e.g. 2027-01-12T17:00"},
				{name: "kind", kind: kChoice, choices: []string{"regular", "special"}, positional: true,
					help: "regular (the default) or special (5 ILCS 120/2.02(a))"},
				{name: "place", kind: kText, required: true, help: "where, e.g. \"City Hall, Room 201\""},
			},
			example: `meeting 2027-01-12T17:00 place="City Hall, Room 201"`, run: runMeeting},
		{name: "convene",
			summary: "record the roll at a meeting's call to order and whether a quorum is present; then late= and left= " +
				"record arrivals and departures", rule: "5 ILCS 120/2.01, 2.02(a), 2.06(a)", roles: staff,
			why: "Commissioners and the clerk keep the record of the meeting.",
			params: []param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "present", kind: kUsers, help: "commissioners present at the call to order: @mention each"},
				{name: "absent", kind: kUsers, help: "commissioners absent; the others are present"},
				{name: "remote", kind: kUsers,
					help: "of those present, those by audio or video conference, who do not make up the quorum (2.01)"},
				{name: "late", kind: kUsers, help: "commissioners who arrived after the call to order"},
				{name: "left", kind: kUsers, help: "commissioners who left before the adjournment"},
				{name: "at", kind: kInstant, help: "when, if not now"},
				{name: "emergency", kind: kText,
					help: "an emergency meeting not noticed 48 hours ahead: the nature of the emergency (2.02(a))"},
			},
			example: "convene 2027-01-12 present=@ann,@ben absent=@cal", run: runConvene},
		{name: "session",
			summary: "enter closed session for an item, by roll call in open session citing its exception (the roll defaults " +
				"to the members present); or return to open session", rule: "5 ILCS 120/2a, 2(e)", roles: staff,
			why: "Commissioners and the clerk keep the record of the meeting.",
			params: append([]param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "action", kind: kChoice, choices: []string{"close", "open"}, required: true, positional: true,
					help: "close: enter closed session; open: return to open session"},
				{name: "item", kind: kText, positional: true, help: "with close: the item's number on the agenda"},
				{name: "closed", kind: kText, help: "the exception, if the agenda does not give it, e.g. \"5 ILCS 120/2(c)(1)\""},
				{name: "at", kind: kInstant, help: "when, if not now"},
				{name: "recorded", kind: kChoice, choices: yesNo,
					help: "with close: yes when the closed session is recorded verbatim (2.06(a)); its recording is kept until " +
						"2.06(c) allows its destruction"},
			}, pRollCall...),
			example: "session 2027-01-12 close 5 no=@cal", run: runSession},
		{name: "adjourn", summary: "record the time a meeting adjourned", rule: "5 ILCS 120/2.06(a)", roles: staff,
			why: "Commissioners and the clerk keep the record of the meeting.",
			params: []param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "at", kind: kInstant, help: "when, if not now"},
			},
			example: "adjourn 2027-01-12", run: runAdjourn},
		{name: "minutes",
			summary: "draft a meeting's minutes from the record (open, and confidential closed minutes if it had a closed " +
				"session, as PDF and Markdown); note adds the clerk's narrative before approval, moved who moved and seconded a " +
				"motion; motion records, at the meeting, a motion on an item of other business with its roll call; approve records " +
				"the roll call at a later meeting that approves them; publish puts the approved open " +
				"minutes on the board; destroy-recording and reviewed keep a closed session's recording and the semi-annual review; " +
				"adopted-schedule records the vote adopting a year's schedule of regular meetings",
			rule: "5 ILCS 120/2.06", roles: staff,
			why: "Commissioners and the clerk keep the minutes.",
			params: append([]param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "action", kind: kChoice, choices: minutesActions, positional: true,
					help: "note, moved, motion, approve, publish, destroy-recording, reviewed or adopted-schedule; without it, " +
						"draft the minutes"},
				{name: "text", kind: kText, positional: true, rest: true,
					help: "with note: the narrative, in the clerk's words; with motion: what was moved"},
				{name: "item", kind: kText,
					help: "with note: the item's number on the agenda (without it, the note is on the meeting as a whole); with " +
						"moved, motion, reviewed or adopted-schedule: the item's number"},
				{name: "motion", kind: kText, help: "with moved: the motion's number on the item, 1 unless it had several"},
				{name: "mover", kind: kUser, help: "with moved: the commissioner who moved it"},
				{name: "seconder", kind: kUser, help: "with moved: the commissioner who seconded it"},
				{name: "at", kind: kText,
					help: "with approve: the later meeting whose agenda holds their approval, e.g. 2027-02-09"},
				{name: "session", kind: kText,
					help: "with destroy-recording: which closed session of the meeting, 1 unless it had several"},
				{name: "approved", kind: kDate,
					help: "with destroy-recording: the day the commission approved destroying that recording (2.06(c)(1))"},
				{name: "year", kind: kText,
					help: "with adopted-schedule: the year of the schedule of regular meetings adopted, e.g. year=2028 (2.03)"},
				{name: "release", kind: kText,
					help: "with reviewed: the meetings whose closed minutes the commission found no longer need confidential " +
						"treatment, e.g. release=2026-06-09,2026-09-08; the others under review stay confidential (2.06(d))"},
				pOn,
			}, pRollCall...),
			example: `minutes 2027-01-12 note item=3 "Discussion of the complaint's timeliness."`, run: runMinutes},
		{name: "meetings",
			summary: "list the commission's meetings, coming and past, with their items and whether each agenda is posted",
			rule:    "5 ILCS 120/2.02",
			roles:   readers, why: "The docket is the commission's.", example: "meetings", run: runMeetings},
		{name: "agenda",
			summary: "show a meeting's agenda; add an item of other business (approval of minutes, public comment, free " +
				"text), or close one to the public under its Open Meetings Act exception", rule: "5 ILCS 120/2.02, 2(c)",
			roles: staff,
			why:   "Commissioners and the clerk keep the agenda.",
			params: []param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "action", kind: kChoice, choices: []string{"add", "close"}, positional: true,
					help: "add an item, or close item N; without it, show the agenda"},
				{name: "text", kind: kText, positional: true, rest: true, max: docket.MaxName,
					help: "with add: the item in words; with close: its number on the agenda"},
				{name: "item", kind: kChoice, choices: choices(docket.BusinessKinds),
					help: "with add: business (the default), minutes (whose, e.g. 2026-12-08) or public_comment"},
				{name: "closed", kind: kText, help: "the exception that closes the item, e.g. \"5 ILCS 120/2(c)(1)\""},
			},
			example: `agenda 2027-01-12 add "Election of a chair"`, run: runAgenda},
		{name: "cancel",
			summary: "cancel a scheduled meeting: a case step, or a meeting of the commission with all its items; posts a " +
				"public notice", rule: "(C)(1), (D), (F), 5 ILCS 120/2.02", modal: true, roles: staff,
			why: "Commissioners and the clerk schedule meetings.",
			params: []param{{name: "number", kind: kCase, orMeeting: true, required: true, positional: true,
				help: "the case number, e.g. 2026-014; or a meeting, e.g. 2027-01-12, with all its items"},
				{name: "meeting", kind: kChoice, choices: choices(docket.MeetingKinds), positional: true,
					help: "with a case number: which step"},
				{name: "reason", kind: kText, help: "why, for the record"}},
			example: `cancel 2026-014 hearing reason="no quorum"`, run: runCancel},
		{name: "move",
			summary: "move a meeting of the commission, with all its items, to another start or place; posts one public notice",
			rule:    "5 ILCS 120/2.02", roles: staff,
			why: "Commissioners and the clerk schedule meetings.",
			params: []param{
				{name: "meeting_name", kind: kText, required: true, positional: true, help: "the meeting, e.g. 2027-01-12"},
				{name: "start", kind: kInstant, required: true, positional: true, help: "its new start, e.g. 2027-01-19T17:00"},
				{name: "place", kind: kText, help: "its new place, if it changes"},
			},
			example: `move 2027-01-12 2027-01-19T17:00`, run: runMove},
		{name: "posted", summary: "record that a meeting's notice was posted at the meeting place and principal office",
			rule: "(C)(1), (D), (F)", modal: true, roles: staff,
			why: "Commissioners and the clerk record notices.",
			params: []param{{name: "number", kind: kCase, orMeeting: true, required: true, positional: true,
				help: "the meeting, e.g. 2027-01-12, for all its items; or a case number, e.g. 2026-014, for the meeting that " +
					"holds its step"},
				{name: "meeting", kind: kChoice, choices: choices(docket.MeetingKinds), positional: true,
					help: "with a case number: which step"},
				{name: "at", kind: kInstant, help: "when it was posted, if not now"}},
			example: "posted 2026-014 sufficiency at=2026-12-04T16:30", run: runPosted},
		{name: "mail", summary: "record a paper sent by certified mail, return receipt requested",
			rule: "(B), (C), (E)(2), (F)", modal: true, roles: staff,
			why: "Commissioners and the clerk record mail.",
			params: []param{pCase, pPaper,
				{name: "article", kind: kText, required: true, positional: true, rest: true,
					help: "the USPS article number, 20 or 22 digits with its check digit (USPS Publication 199)"},
				{name: "mailed", kind: kDate, help: "the date it was mailed, if not today"},
			},
			example: "mail 2026-014 respondent 9407 1118 9876 5432 1016 34", run: runMail},
		{name: "delivered",
			summary: "record a paper delivered otherwise than by certified mail: by hand, first-class mail or e-mail",
			rule:    "(C), (E)(2), (F)", modal: true, roles: staff,
			why:     "Commissioners and the clerk record mail.",
			params:  []param{pCase, pPaper, {name: "on", kind: kDate, help: "the date it was delivered, if not today"}},
			example: "delivered 2026-014 referral", run: runDelivered},
		{name: "receipt",
			summary: "record a certified mailing's signed return receipt: who signed it, and the date of delivery", rule: "(B)",
			modal: true, roles: staff,
			why: "Commissioners and the clerk record mail.",
			params: []param{pCase,
				{name: "article", kind: kText, required: true, positional: true, rest: true, help: "the USPS article number"},
				{name: "signer", kind: kText, required: true, oneLine: true,
					help: "who signed the receipt, as printed on it (PS Form 3811)"},
				{name: "returned", kind: kDate, help: "the date of delivery on the receipt, if not today"},
			},
			example: `receipt 2026-014 9407 1118 9876 5432 1016 34 signer="Jane Roe" returned=2026-12-09`, run: runReceipt},
		{name: "undelivered",
			summary: "record a certified mailing that came back refused, unclaimed or undeliverable; reminds the clerk of " +
				"the next step", rule: "(B), (C)(2)", modal: true, roles: staff,
			why: "Commissioners and the clerk record mail.",
			params: []param{pCase,
				{name: "outcome", kind: kChoice, choices: choices(docket.ReturnedOutcomes), required: true, positional: true,
					help: "as the Postal Service endorsed the envelope: refused, unclaimed or undeliverable"},
				{name: "article", kind: kText, required: true, positional: true, rest: true, help: "the USPS article number"},
				{name: "on", kind: kDate, help: "the date it came back, if not today"},
			},
			example: "undelivered 2026-014 unclaimed 9407 1118 9876 5432 1016 34", run: runUndelivered},
		{name: "rule",
			summary: "record the sufficiency and probable-cause ruling; with probable cause, optionally schedule the hearing",
			rule:    "(C)", modal: true,
			roles: commissioners, why: commissionersOnly, vote: true,
			params: append([]param{pCase,
				{name: "ruling", kind: kChoice, choices: choices(docket.Rulings), required: true, positional: true,
					help: "the ruling; on a complaint alleging both sections, the ruling on its §103.10 part"},
				{name: "referral_ruling", kind: kChoice,
					choices: []string{"insufficient", "no_probable_cause", "attorney_referral"},
					help:    "on a complaint alleging both sections: the ruling on its §103.05 part (C)(3)"},
				{name: "ground", kind: kChoice, choices: []string{string(docket.GroundTimeBarred)},
					help: "with a dismissal: time_barred, filed over a year after the violation (I)"},
				pOn,
				{name: "hearing", kind: kInstant, help: "with probable_cause: the hearing's start (C)(2)"},
				{name: "place", kind: kText, help: "with hearing=: where it is held"},
				{name: "closed", kind: kText, help: "with hearing=: the Open Meetings Act exception, if closed"},
				pOverride,
			}, pRollCall...),
			example: `rule 2026-014 probable_cause hearing=2026-12-28T10:00 place="City Hall, Room 201" yes=@ann,@ben no=@cal`,
			run:     runRule},
		{name: "recess", summary: "record that the hearing recessed, to reconvene", rule: "(E)", modal: true, roles: staff,
			why: "Commissioners and the clerk record hearings.", params: []param{pCase, pOverride}, example: "recess 2026-014",
			run: runRecess},
		{name: "concluded",
			summary: "record that the hearing (or recessed hearing) concluded; the decision is due in 30 days", rule: "(E)",
			modal: true, roles: staff,
			why: "Commissioners and the clerk record hearings.", params: []param{pCase, pOn, pOverride},
			example: "concluded 2026-014", run: runConcluded},
		{name: "decide",
			summary: "record the decision: dismiss, or a recommendation for discipline and/or a fine; made public", rule: "(E)",
			modal: true,
			roles: commissioners, why: commissionersOnly, vote: true,
			params: append([]param{pCase,
				{name: "outcome", kind: kChoice, choices: []string{"dismiss", "recommend", "fine"}, required: true,
					positional: true, help: "dismiss (E)(1), or recommend and/or fine (E)(2)"},
				{name: "findings", kind: kText, help: "the particular findings; public"},
				{name: "recommendation", kind: kText, help: "the discipline recommended; public"},
				pFine, pIntentional, pOn,
			}, pRollCall...),
			example: `decide 2026-014 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="..." yes=@ann,@ben,@cal`, run: runDecide},
		{name: "demand", summary: "record the respondent's written demand for a public hearing; stays enforcement",
			rule: "(F)", modal: true, roles: staff,
			why:     "Commissioners and the clerk record filings.",
			params:  []param{pCase, {name: "received", kind: kDate, help: "the date the demand was received, if not today"}},
			example: "demand 2026-014", run: runDemand},
		{name: "held", summary: "record that the public hearing was held; the final recommendation is due in 7 days",
			rule: "(F)", modal: true, roles: staff,
			why: "Commissioners and the clerk record hearings.", params: []param{pCase, pOn, pOverride},
			example: "held 2026-014", run: runHeld},
		{name: "final", summary: "issue the final recommendation after the public hearing; made public", rule: "(F)",
			modal: true,
			roles: commissioners, why: commissionersOnly, vote: true,
			params: append([]param{pCase, {name: "text", kind: kText, required: true, help: "the final recommendation"}, pFine,
				pIntentional, pOn}, pRollCall...),
			example: `final 2026-014 text="Reprimand affirmed" fine=2500 intentional=yes yes=@ann,@ben,@cal`, run: runFinal},
		{name: "frivolous", summary: "find that a dismissed complaint was knowingly frivolous, and fine the complainant",
			rule: "(H)", modal: true,
			roles: commissioners, why: commissionersOnly, vote: true,
			params: append([]param{pCase,
				{name: "fine", kind: kDollars, required: true, help: "whole dollars, $1,001 to $5,000"},
				{name: "findings", kind: kText, required: true, help: "the findings"},
				{name: "knowingly", kind: kChoice, choices: yesNo, required: true,
					help: "the (H) finding that the complainant knew the complaint frivolous: yes, or no (then no fine)"}, pOn,
				pOverride}, pRollCall...),
			example: `frivolous 2026-014 fine=1500 knowingly=yes findings="..." yes=@ann,@ben absent=@cal`, run: runFrivolous},
		{name: "enforced",
			summary: "record a step enforcing the recommendation or fine, such as the fine collected; refused while (F) stays " +
				"enforcement", rule: "(E)(2), (F)", modal: true, roles: staff,
			why: "Commissioners and the clerk record enforcement.",
			params: []param{pCase,
				{name: "what", kind: kText, required: true, oneLine: true,
					help: "what was done, e.g. \"fine of $1,500 collected\""}, pOn},
			example: `enforced 2026-014 what="fine of $1,500 collected"`, run: runEnforced},
		{name: "fine",
			summary: "record what became of a fine: a payment received, its referral for collection once overdue, or its " +
				"waiver by roll call", rule: "(E)(2), (F), (H)", modal: true, roles: staff,
			why: "The clerk records payments; a waiver is the commission's, by roll call.",
			params: append([]param{pCase,
				{name: "how", kind: kChoice, choices: []string{"paid", "collection", "waived"}, required: true, positional: true,
					help: "paid (a payment received), collection (referred once overdue) or waived (by roll call)"},
				{name: "payer", kind: kChoice, choices: []string{"respondent", "complainant"},
					help: "who was fined: the respondent (E)(2), (F) or the complainant (H); needed only when both were"},
				{name: "amount", kind: kDollars, help: "paid: the whole dollars received, all or part of the fine"},
				{name: "receipt", kind: kText, oneLine: true, help: "paid: the number of the city's receipt"},
				{name: "to", kind: kText, oneLine: true, help: "collection: to whom, e.g. \"Corporation Counsel\""},
				pOn}, pRollCall...),
			example: `fine 2026-014 paid amount=1500 receipt=R-0042`, run: runFine},
		{name: "referral",
			summary: "record where a referral to the attorney stands, as the attorney reports it; an outcome closes it",
			rule:    "(C)(2), (C)(3)", modal: true, roles: staff,
			why: "Commissioners and the clerk record what the attorney reports.",
			params: []param{pCase,
				{name: "status", kind: kText, required: true, oneLine: true,
					help: "as the attorney reports it, e.g. \"complaint filed in circuit court\""},
				{name: "outcome", kind: kText, oneLine: true,
					help: "the outcome, which closes the referral, e.g. \"judgment for the city\""},
				{name: "paper", kind: kChoice, choices: []string{"adjudication_request", "referral"},
					help: "which referral: needed only when the case has both"},
				pOn},
			example: `referral 2026-014 status="complaint filed in circuit court"`, run: runReferral},
		{name: "response",
			summary: "record the response of the officer with authority to discipline to the recommendation sent",
			rule:    "(E)(2), (F)", modal: true, roles: staff,
			why: "Commissioners and the clerk record what the officer answers.",
			params: []param{pCase,
				{name: "text", kind: kText, required: true, oneLine: true,
					help: "the response, e.g. \"written reprimand issued\" or \"declined to discipline\""}, pOn},
			example: `response 2026-014 text="written reprimand issued"`, run: runResponse},
		{name: "recuse",
			summary: "record that a commissioner withdraws from a case: they no longer see it, are reminded of it, act " +
				"or vote on it", modal: true, roles: staff,
			why: "Commissioners recuse themselves; the clerk may record a commissioner's recusal.",
			params: []param{pCase,
				{name: "reason", kind: kText, oneLine: true, help: "why, for the record"},
				{name: "commissioner", kind: kUser, member: true,
					help: "who recuses: @mention them; a commissioner recuses only themselves, the clerk names them"},
			},
			example: `recuse 2026-014 reason="I know the complainant"`, run: runRecuse},
		{name: "correct", summary: "correct a fact recorded in error, with a reason; deadlines are recalculated", modal: true,
			roles: staff,
			why:   "Commissioners and the clerk correct the record.",
			params: []param{{name: "number", kind: kCase, orMeeting: true, required: true, positional: true,
				help: "the case number, e.g. 2026-014; or a meeting held, e.g. 2026-12-08, to correct its own place or start " +
					"(5 ILCS 120/2.06(a)), with every item it holds"},
				{name: "reason", kind: kText, required: true, oneLine: true, help: "why: what the mistake was"},
				{name: "received", kind: kInstant, help: "when the complaint was received (A)"},
				{name: "violation", kind: kDate, help: "the date of the alleged violation (I)"},
				{name: "respondent", kind: kText, help: "the respondent's name"},
				{name: "complainant", kind: kText, help: "the complainant's name"},
				{name: "respondent_user", kind: kUser, help: "the respondent's Slack account: @mention them"},
				{name: "complainant_user", kind: kUser, help: "the complainant's Slack account: @mention them"},
				{name: "section", kind: kText, help: "the section(s) alleged"},
				{name: "summary", kind: kText, help: "the allegation"},
				{name: "election", kind: kDate, help: "the date of an election the respondent stands in (G)"},
				{name: "address", kind: kText, help: "a party's postal address (with party=), lines separated by |"},
				{name: "email", kind: kText, help: "a party's e-mail address (with party=)"},
				{name: "representative", kind: kText, oneLine: true, help: "a party's representative (with party=)"},
				{name: "representative_address", kind: kText, help: "a party's representative's postal address (with party=)"},
				{name: "party", kind: kChoice, choices: []string{string(docket.Respondent), string(docket.Complainant)},
					help: "the party whose address, e-mail or representative is corrected"},
				{name: "officer", kind: kText, oneLine: true,
					help: "the officer with authority to discipline named for the case (E)(2), (F)"},
				{name: "article", kind: kText, help: "a certified mailing's article number (B)"},
				{name: "was", kind: kText,
					help: "with article=: the number as recorded, to say which mailing's number is corrected"},
				{name: "mailed", kind: kDate, help: "the date a certified mailing was sent (B)"},
				{name: "returned", kind: kDate, help: "the date on a return receipt (B)"},
				{name: "signer", kind: kText, oneLine: true, help: "who signed a return receipt (B)"},
				{name: "outcome", kind: kChoice, choices: choices(docket.ReturnedOutcomes),
					help: "how a certified mailing came back: refused, unclaimed or undeliverable (B)"},
				{name: "start", kind: kInstant, help: "a meeting's start (with meeting=)"},
				{name: "place", kind: kText, help: "a meeting's place (with meeting=)"},
				{name: "posted", kind: kInstant, help: "when a meeting's notice was posted (with meeting=)"},
				{name: "meeting", kind: kChoice, choices: choices(docket.MeetingKinds),
					help: "the meeting whose start, place or posting is corrected"},
				{name: "event", kind: kText,
					help: "the event to correct, by its number in /ethics history, where several could be meant"},
			},
			example: `correct 2026-014 received=2026-12-03T16:45 reason="date stamp misread"`, run: runCorrect},
		{name: "void", summary: "withdraw an entry recorded in error, such as a ruling on the wrong case, with a reason",
			modal: true,
			roles: commissioners, why: "Only commissioners may void an entry of the record.",
			params: []param{pCase,
				{name: "event", kind: kText, required: true, positional: true,
					help: "the event's number, as /ethics history lists it"},
				{name: "reason", kind: kText, required: true, oneLine: true, help: "why it was recorded in error"},
			},
			example: `void 2026-014 7 reason="ruling recorded on the wrong case"`, run: runVoid},
		{name: "history", summary: "list a case's events: who recorded what, when, and what corrected or voided it",
			params:  []param{pCase},
			example: "history 2026-014", roles: readers, why: "Case details are confidential.", run: runHistory},
		{name: "report",
			summary: "the year's annual report: complaints received, outcomes, days to each step, deadlines met and missed, " +
				"fines, cases expedited; with a chart", rule: "(A)–(H)",
			params: []param{{name: "year", kind: kText, required: true, positional: true,
				help: "the year the complaints were received, four digits, e.g. 2026"}},
			example: "report 2026", roles: readers, why: "The report names cases, which are confidential.", run: runReport},
		{name: "election", summary: "record an election, or list them", rule: "(G)", roles: readers,
			params: []param{
				{name: "action", kind: kChoice, choices: []string{"add", "list"}, required: true, positional: true,
					help: "add or list"},
				{name: "date", kind: kDate, positional: true, help: "with add: the election's date"},
				{name: "name", kind: kText, positional: true, rest: true, help: "with add: its name"},
			},
			example: "election add 2027-02-23 Consolidated General Election", run: runElection},
		{name: "candidate", summary: "record that the respondent is a candidate at an election; may expedite the case",
			rule: "(G)", modal: true, roles: staff,
			why: "Commissioners and the clerk record candidacies.",
			params: []param{pCase,
				{name: "election", kind: kDate, required: true, positional: true, help: "the election's date"}},
			example: "candidate 2026-014 2027-02-23", run: runCandidate},
		mediaCommand, // media.go
	}
}

func lookup(name string) (*subcommand, bool) {
	for _, s := range table {
		if s.name == name {
			return s, true
		}
	}
	return nil, false
}

func (sub *subcommand) required() []param {
	var out []param
	for _, p := range sub.params {
		if p.required {
			out = append(out, p)
		}
	}
	return out
}

// usage writes the subcommand's form: "/ethics schedule <number> <meeting> <start> place=... [closed=...]".
func (sub *subcommand) usage() string {
	parts := []string{"/ethics", sub.name}
	for _, p := range sub.params {
		var s string
		switch {
		case p.positional && p.kind == kChoice:
			s = strings.Join(p.choices, "|")
		case p.positional:
			s = "<" + p.name + ">"
			if p.rest {
				s = "<" + p.name + "...>"
			}
		default:
			s = p.name + "=..."
		}
		if !p.required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func runHelp(s *Service, ctx context.Context, req Request, a args) (Response, error) {
	votes := s.Settings().Voting.Required
	if name := a.str("command"); name != "" {
		sub, ok := lookup(strings.ToLower(name))
		if !ok {
			return reply(outbox.Format("There is no `/ethics %s`. %s", name, seeHelp)), nil
		}
		return fixed(helpText(helpKey{command: sub.name, votes: votes}, func() outbox.Markup {
			return s.commandHelp(sub)
		})), nil
	}
	role := s.Settings().Roles.Of(req.User)
	return fixed(helpText(helpKey{role: role, votes: votes}, func() outbox.Markup {
		return s.listHelp(role)
	})), nil
}

// fixed is reply for a text that depends on nothing but the table and the settings.
func fixed(text outbox.Markup) Response {
	r := reply(text)
	r.Fixed = true
	return r
}

// helpKey is what a help text depends on: the command asked about, or the role of who
// asks for the list; and whether votes are required, which changes who may use a
// commission's action (rolesOf). Nothing else in it changes while ethicsbot runs: the
// table is fixed at start.
type helpKey struct {
	command string
	role    Role
	votes   bool
}

// helps holds each help text once built: help is the command asked most and depends on
// no record, so it is not built again for every request (the table's concatenation was
// about a quarter of the process's CPU under load).
var helps sync.Map // helpKey → outbox.Markup

// helpText is the help text for k, built by build the first time it is asked for.
func helpText(k helpKey, build func() outbox.Markup) outbox.Markup {
	if t, ok := helps.Load(k); ok {
		return t.(outbox.Markup)
	}
	t, _ := helps.LoadOrStore(k, build())
	return t.(outbox.Markup)
}

// commandHelp is `/ethics help <command>`: its form, an example, each parameter and who
// may use it.
func (s *Service) commandHelp(sub *subcommand) outbox.Markup {
	var text strings.Builder
	text.WriteString(string(outbox.Format("*/ethics %s*: %s", sub.name, sub.summary)))
	if sub.rule != "" {
		text.WriteString(string(outbox.Format(" %s", sub.rule)))
	}
	text.WriteString(string(outbox.Format("\nForm: `%s`\nExample: `/ethics %s`\n", sub.usage(), sub.example)))
	for _, p := range sub.params {
		text.WriteString(string(outbox.Format("• `%s`: %s\n", p.name, p.help)))
	}
	if p, ok := sub.param("override"); ok && p.help == pOverride.help {
		text.WriteString(string(overrideHelp))
	}
	text.WriteString(string(outbox.Format("Who: %s.", rolesText(without(s.rolesOf(sub), Nobody)))))
	if sub.modal {
		text.WriteString(" Typed with nothing after it, it opens a form.")
	}
	return outbox.Markup(text.String())
}

// listHelp is `/ethics help`: the commands role may use, or, for no role, why none.
func (s *Service) listHelp(role Role) outbox.Markup {
	text := outbox.Markup("*/ethics* runs the ethics commission's complaint docket under its ordinance.\n")
	if role == Nobody {
		return text + notAuthorised
	}
	var b strings.Builder
	b.WriteString(string(text))
	for _, sub := range table {
		if s.allowed(sub, role) {
			b.WriteString(string(outbox.Format("• `/ethics %s`: %s\n", sub.name, sub.summary)))
		}
	}
	b.WriteString(string(outbox.Format("Type `/ethics help %s` for its form and an example.", "<command>")))
	return outbox.Markup(b.String())
}

func without(roles []Role, r Role) []Role {
	var out []Role
	for _, x := range roles {
		if x != r {
			out = append(out, x)
		}
	}
	return out
}
