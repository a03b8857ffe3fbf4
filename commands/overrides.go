package commands

import (
	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// pOverride lets a commissioner or the clerk record a step although the record does not
// show the meeting's 48 hours' public notice posted in time ((C)(1), (D), (F)), or, for a
// ruling, both (B) notices mailed, or a complaint filed in time (I). The reason is kept on the case and shown wherever the
// step is. The help fits a form's hint (150 characters).
var pOverride = param{name: "override", kind: kText,
	help: "only if a 48-hour notice or (B) mailing is not on record, or the complaint is time-barred (I): why " +
		"record it anyway"}

// pOfficerOverride lets a commissioner or the clerk name another officer with authority to
// discipline after a paper went to the one named (docket.SetOfficer): why.
var pOfficerOverride = param{name: "override", kind: kText,
	help: "only if a paper already went to the officer named: why name another (the papers sent stay addressed to " +
		"whom they went)"}

// overrideHelp explains, in the help of each step that takes an override, when the step
// is refused and what an override does.
const overrideHelp outbox.Markup = "This is refused unless the record shows the meeting's public notice posted at " +
	"least 48 hours before it started (C)(1), (D), (F), and, for a ruling, both (B) notices mailed with the meeting's " +
	"date, time and place; a ruling on a time-barred complaint (I) other than a dismissal is refused too. The refusal " +
	"says what is missing and the earliest lawful start if the meeting is held again. If the commission goes ahead " +
	"anyway, `override=\"&lt;reason&gt;\"` records it with the reason (one line), shown on the case card, in the docket " +
	"channel and in exports.\n"

// overridden says what overrides a step recorded, for its line in the reply and the
// docket channel: "; recorded without 48 hours' posted notice of the sufficiency meeting
// (C)(1) (override: posted on the board, log lost)". The overrides a step recorded are the
// ones it appended to the case; they share the action's one reason.
func overridden(st docket.Step) outbox.Markup {
	if st.Before == nil || st.After == nil || len(st.After.Overrides) <= len(st.Before.Overrides) {
		return ""
	}
	added := st.After.Overrides[len(st.Before.Overrides):]
	without := make([]outbox.Markup, len(added))
	for i, o := range added {
		without[i] = outbox.Format("%s %s", o.Without, o.Rule)
	}
	return outbox.Format("; recorded without %s (override: %s)", outbox.Join(without, " and without "), added[0].Reason)
}

// overrideLines are the card's lines for the steps recorded by override, so that whoever
// reads the case sees what the record lacks and why it went ahead.
func overrideLines(c *docket.Case) []outbox.Markup {
	if len(c.Overrides) == 0 {
		return nil
	}
	lines := []outbox.Markup{"*Overrides:*"}
	for _, o := range c.Overrides {
		lines = append(lines,
			outbox.Format("• %s recorded without %s %s on %s: %s", o.Step, o.Without, o.Rule, o.On.Long(), o.Reason))
	}
	return lines
}
