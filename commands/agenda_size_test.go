package commands_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// TestLongAgendaFitsSlack: 220 items of 199 characters made
// a public notice of 45,348 characters, over Slack's 40,000; the notice and the agenda's
// reply list the items up to a size and count the rest, sending the reader to the board
// and the agenda PDF, which keep every item.
func TestLongAgendaFitsSlack(t *testing.T) {
	s, _, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.PublicURL = "https://ethics.example.gov" })
	mustDo(t, s, clerk, `meeting 2026-12-15T17:00 place="City Hall"`, "created")
	var adds []docket.MeetingAction
	for i := range 220 {
		text := strings.Repeat("x", 196) + " " + string(rune('a'+i%26)) + string(rune('a'+i/26))
		adds = append(adds, docket.AddItem{Item: docket.BusinessItem, Text: text})
	}
	if _, err := db.ChangeMeeting(ctx, docket.Act{By: clerk, At: s.Now()},
		docket.MeetingChange{Meeting: "2026-12-15", Actions: adds}); err != nil {
		t.Fatal(err)
	}
	r := mustDo(t, s, clerk, `posted 2026-12-15`, "for all 220 items")
	got := posted(r, "C_NOTICES")
	if len(got) != 1 {
		t.Fatalf("notices: %d", len(got))
	}
	n := utf8.RuneCountInString(got[0])
	if n > 4000 ||
		!strings.Contains(got[0],
			"more: the whole agenda is on the public notice board, https://ethics.example.gov/#meeting-2026-12-15 and posted "+
				"at the meeting place.") ||
		!strings.Contains(got[0], " 1. "+strings.Repeat("x", 195)) || !strings.HasSuffix(got[0], "Open to the public.") {
		t.Errorf("the notice of a long agenda, %d characters:\n%s", n, got[0])
	}
	reply := replyText(mustDo(t, s, clerk, `agenda 2026-12-15`,
		"more: `/ethics letters 2026-12-15` draws the whole agenda."))
	if n := utf8.RuneCountInString(reply); n > 4000 {
		t.Errorf("the agenda's reply has %d characters", n)
	}
}
