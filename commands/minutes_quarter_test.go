package commands_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
)

// minutesQuarter is a stretch of a quarter at two meetings of the commission, as console
// lines: "@ <instant>" moves the clock, "as <user>" changes who types, "want <text>" is
// what the reply to the line before must say, anything else is an /ethics command. At the
// first meeting one complaint is found sufficient with probable cause and its hearing set,
// and another dismissed as time-barred (I); at the second the hearing is held in closed
// session, and the decision, a fine and a reprimand, voted after the return to open
// session (5 ILCS 120/2(e)); then the complainant of the time-barred complaint is heard and
// found to have filed it knowingly frivolous (H), and fined; and the minutes of a meeting held
// before ethicsbot are approved, an item of other business moved with its roll call. The clerk records who moved
// and seconded each motion and a summary of each item, as the draft minutes ask, then
// prints the letters of the two fines ("pdf <text>" is what the letter must say) and mails
// the (H) finding's.
const minutesQuarter = `
@ 2026-12-04T10:30:00-06:00
file respondent="Jane Roe" complainant="John Doe" section=103.10 violation=2026-05-01 received=2026-12-04T10:00 summary="Used the city's email to campaign."
file respondent="Richard Roe" complainant="Mary Major" section=103.10 violation=2025-06-01 received=2026-12-04T10:15 summary="Campaigned on city time."
meeting 2026-12-09T17:00 place="City Hall, Room 201"
meeting 2026-12-16T17:00 place="City Hall, Room 201"
schedule 2026-001 sufficiency meeting=2026-12-09
schedule 2026-002 sufficiency meeting=2026-12-09
posted 2026-12-09
mail 2026-001 respondent 9407 1118 9876 5432 1016 34
mail 2026-001 complainant 9407 1118 9876 5432 1015 35
mail 2026-002 respondent 9407 1118 9876 5432 1014 36
mail 2026-002 complainant 9407 1118 9876 5432 1013 37
@ 2026-12-09T17:00:00-06:00
convene 2026-12-09 present=U_COMM1,U_COMM2,U_COMM3
@ 2026-12-09T17:20:00-06:00
as U_COMM1
rule 2026-001 probable_cause hearing=2026-12-16T17:00 place="City Hall, Room 201" closed="5 ILCS 120/2(c)(4)" yes=U_COMM1,U_COMM2,U_COMM3
want adopted 3–0
@ 2026-12-09T17:40:00-06:00
rule 2026-002 insufficient ground=time_barred yes=U_COMM1,U_COMM2 no=U_COMM3
want adopted 2–1
as U_CLERK
@ 2026-12-09T17:50:00-06:00
adjourn 2026-12-09
posted 2026-12-16
minutes 2026-12-09 moved item=1 mover=U_COMM2 seconder=U_COMM3
minutes 2026-12-09 moved item=2 mover=U_COMM3 seconder=U_COMM2
minutes 2026-12-09 note item=1 "The commission reviewed the complaint and the evidence the complainant presented."
minutes 2026-12-09 note item=2 "The complainant agreed that the alleged violation took place in June 2025."
@ 2026-12-10T10:00:00-06:00
mail 2026-001 ruling_respondent 9407 1118 9876 5432 1012 38
mail 2026-001 ruling_complainant 9407 1118 9876 5432 1011 39
mail 2026-002 dismissal_respondent 9407 1118 9876 5432 1010 30
mail 2026-002 dismissal_complainant 9407 1118 9876 5432 1029 38
schedule 2026-002 frivolous_meeting meeting=2026-12-16
mail 2026-002 frivolous_notice 9407 1118 9876 5432 1028 39
agenda 2026-12-16 add "Approval of the minutes of the meeting of Wednesday 4 November 2026, held before ethicsbot"
posted 2026-12-16
@ 2026-12-16T17:00:00-06:00
convene 2026-12-16 present=U_COMM1,U_COMM2,U_COMM3
session 2026-12-16 close 1 recorded=yes
@ 2026-12-16T18:30:00-06:00
concluded 2026-001
session 2026-12-16 open
@ 2026-12-16T18:40:00-06:00
as U_COMM1
decide 2026-001 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="Jane Roe used the city's email to campaign, knowing it forbidden by §103.10." yes=U_COMM1,U_COMM2 no=U_COMM3
want adopted 2–1
@ 2026-12-16T19:10:00-06:00
frivolous 2026-002 fine=1500 knowingly=yes findings="The complainant knew the violation alleged was more than a year old." yes=U_COMM1,U_COMM2,U_COMM3
want adopted 3–0
@ 2026-12-16T19:15:00-06:00
minutes 2026-12-16 motion item=3 "To approve the minutes of the meeting of 4 November 2026 as presented" yes=U_COMM1,U_COMM2 abstain=U_COMM3
want motion on item 3 recorded
as U_CLERK
@ 2026-12-16T19:20:00-06:00
adjourn 2026-12-16
minutes 2026-12-16 moved item=1 mover=U_COMM1 seconder=U_COMM2
minutes 2026-12-16 moved item=2 mover=U_COMM2 seconder=U_COMM1
minutes 2026-12-16 note item=1 "The commission heard the testimony and evidence of both parties."
minutes 2026-12-16 note item=2 "Mary Major was heard, and presented no evidence."
minutes 2026-12-16 moved item=3 mover=U_COMM3 seconder=U_COMM2
@ 2026-12-17T10:00:00-06:00
party 2026-001 respondent address="34 Oak Avenue | Springfield, IL 62703"
party 2026-002 complainant address="12 Elm Street | Springfield, IL 62702"
letters 2026-001 recommendation_respondent
pdf The hearing was closed to the public.
pdf It must reach the commission by Monday 28 December 2026
pdf demand a public hearing in case 2026-001
pdf The fine of $2,500 is due by Wednesday 27 January 2027, unless a written demand
pdf Pay it to City of Springfield
letters 2026-002 frivolous_finding
pdf found that you knowingly filed a frivolous complaint, and imposed on you a fine of $1,500
pdf not less than $1,001 and not more than $5,000
pdf The fine of $1,500 is due by Friday 15 January 2027. Pay it to City of Springfield
mail 2026-002 frivolous_finding 9407 1118 9876 5432 1027 30
`

// TestMinutesOfAQuarterAsPrinted: the minutes drafted from a quarter's meetings are those
// a commission would approve as printed (testdata/minutes_quarter_*.md, each line read as
// a commission reads its draft; -update rewrites them):
// each motion says what was moved, in the words of the act (the ruling and the hearing it
// set, the time-barred dismissal, the fine and the reprimand with the findings, the (H)
// finding and its fine), followed by its roll call by name; the closed hearing's
// discussion stays in the closed minutes, and the draft says it lacks nothing. No public
// notice names the parties of a case before its (E) decision.
func TestMinutesOfAQuarterAsPrinted(t *testing.T) {
	s, clk, _ := MustService(t)
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.Commissioners = []string{"U_COMM1", "U_COMM2", "U_COMM3"}
		st.Roles.People = docket.NewRoster([]docket.Member{{ID: "U_COMM1", Name: "Ann Alder", Title: "Chair"},
			{ID: "U_COMM2", Name: "Bob Birch"}, {ID: "U_COMM3", Name: "Cal Cobb"}})
	})
	lm, err := letters.New(letters.Config{
		Commission: letters.Addressee{Name: "Ethics Commission", Address: "City Hall\n100 Main Street"},
		Officer:    letters.Addressee{Name: "Pat Mayor", Title: "Mayor", Address: "City Hall\n100 Main Street"},
		Payment: letters.Payment{Payee: "City of Springfield", Address: "City Clerk\n100 Main Street",
			Methods: []string{"by check payable to the City of Springfield"}},
		Engine: s.Engine,
	}, s.Engine.Cal.Location())
	if err != nil {
		t.Fatal(err)
	}
	s.Letters = lm
	user, last, pdf := clerk, "", ""
	for _, line := range strings.Split(strings.TrimSpace(minutesQuarter), "\n") {
		switch {
		case strings.HasPrefix(line, "@ "):
			at, err := time.Parse(time.RFC3339, strings.TrimPrefix(line, "@ "))
			if err != nil {
				t.Fatal(err)
			}
			clk.now = at
		case strings.HasPrefix(line, "as "):
			user = strings.TrimPrefix(line, "as ")
		case strings.HasPrefix(line, "pdf "):
			want := strings.Join(strings.Fields(strings.TrimPrefix(line, "pdf ")), "")
			if !strings.Contains(pdf, want) {
				t.Fatalf("the letter does not say %q:\n%s", want, pdf)
			}
		case strings.HasPrefix(line, "want "):
			if want := strings.TrimPrefix(line, "want "); !strings.Contains(last, want) {
				t.Fatalf("the reply does not say %q:\n%s", want, last)
			}
		default:
			r := do(s, user, line)
			last = replyText(r)
			if len(r.Files) > 0 {
				pdf = pdfText(t, r.Files[0].Data)
			}
			if strings.HasPrefix(last, "Not done") || strings.Contains(last, "refused") {
				t.Fatalf("/ethics %s as %s:\n%s", line, user, last)
			}
			// The public is not told the parties' names before the (E) decision.
			if !strings.HasPrefix(line, "decide ") && !strings.HasPrefix(line, "rule 2026-002") &&
				!strings.HasPrefix(line, "mail 2026-002") && !strings.HasPrefix(line, "frivolous 2026-002") {
				for _, p := range posted(r, "C_NOTICES") {
					if strings.Contains(p, "Jane Roe") || strings.Contains(p, "John Doe") {
						t.Errorf("/ethics %s names a party of case 2026-001 in public: %s", line, p)
					}
				}
			}
		}
	}
	for _, tc := range []struct{ meeting, part string }{
		{"2026-12-09", "open"}, {"2026-12-16", "open"}, {"2026-12-16", "closed"},
	} {
		t.Run(tc.meeting+"-"+tc.part, func(t *testing.T) {
			r := mustDo(t, s, clerk, "minutes "+tc.meeting, "meeting-"+tc.meeting+"-minutes-open.md")
			open, closed := minutesMarkdown(r, tc.meeting)
			got := map[string]string{"open": open, "closed": closed}[tc.part]
			golden(t, filepath.Join("testdata", "minutes_quarter_"+tc.meeting+"_"+tc.part+".md"), got)
		})
	}
}
