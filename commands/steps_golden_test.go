package commands_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/reminders"
	"ethicsbot/report"
	"ethicsbot/store"
	"ethicsbot/web"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// lifecycles are whole cases, each a script of console lines: "@ <instant>" moves the
// clock, "as <user>" changes who types, anything else is an /ethics command. Between the
// clock's moves every reminder the planner makes is said once, as a sweep would.
var lifecycles = map[string]string{
	// The clerk's guide's walk-through (docs/clerk.md): probable cause, a closed hearing,
	// a demand, the (F) public hearing and the final recommendation, with every paper; then
	// the Mayor's response and the fine paid, which close the case.
	"hearing_to_final": `
@ 2026-12-04T10:30:00-06:00
file respondent="Jane Roe" complainant="John Doe" section=103.10 violation=2026-05-01 received=2026-12-04T10:00 candidate=2027-02-23 summary="Used city email to campaign."
schedule 2026-001 sufficiency 2026-12-07T17:00 place="City Hall, Room 201"
posted 2026-001 sufficiency
mail 2026-001 respondent 9407 1118 9876 5432 1013 44
@ 2026-12-07T09:30:00-06:00
mail 2026-001 complainant 9407 1118 9876 5432 1013 51
@ 2026-12-07T18:00:00-06:00
as U_COMM1
rule 2026-001 probable_cause hearing=2026-12-10T10:00 place="Council Chambers" closed="5 ILCS 120/2(c)(4)" yes=U_COMM1,U_COMM2,U_COMM3
posted 2026-001 hearing
as U_CLERK
@ 2026-12-08T11:00:00-06:00
mail 2026-001 ruling_respondent 9407 1118 9876 5432 1013 68
delivered 2026-001 ruling_complainant
@ 2026-12-10T15:00:00-06:00
concluded 2026-001
as U_COMM1
decide 2026-001 recommend recommendation="Written reprimand" fine=2500 intentional=yes findings="Violated 103.10." yes=U_COMM1,U_COMM2 no=U_COMM3
as U_CLERK
@ 2026-12-11T10:00:00-06:00
delivered 2026-001 recommendation_respondent
@ 2026-12-14T10:00:00-06:00
delivered 2026-001 recommendation_officer
demand 2026-001
@ 2026-12-21T10:00:00-06:00
schedule 2026-001 public_hearing 2026-12-28T18:00 place="Council Chambers"
@ 2026-12-28T20:00:00-06:00
posted 2026-001 public_hearing at=2026-12-22T09:00
held 2026-001
as U_COMM1
final 2026-001 text="Reprimand and fine affirmed." fine=2500 intentional=yes yes=U_COMM1,U_COMM2 absent=U_COMM3
as U_CLERK
@ 2027-01-08T10:00:00-06:00
delivered 2026-001 final_respondent
delivered 2026-001 final_officer
case 2026-001
@ 2027-01-12T10:00:00-06:00
response 2026-001 text="Written reprimand issued by the Mayor"
fine 2026-001 paid amount=2500 receipt=R-0100
case 2026-001
`,
	// (C)(2) dismissal, its certified notices late, then (H): the meeting on a frivolous
	// complaint, its notice to the complainant, the finding and its certified notice, and
	// the fine paid in two parts (a waiver without a roll call, a payment with one, and a
	// referral for collection before it is due, refused).
	"dismissal_frivolous": `
@ 2026-12-04T10:30:00-06:00
file respondent="Ann Poe" complainant="Bob Loe" section=103.10 received=2026-12-04T10:00 summary="x"
schedule 2026-001 sufficiency 2026-12-09T17:00 place="City Hall"
@ 2026-12-07T09:00:00-06:00
posted 2026-001 sufficiency at=2026-12-04T11:00
mail 2026-001 respondent 9407 1118 9876 5432 1014 05
mail 2026-001 complainant 9407 1118 9876 5432 1014 12
@ 2026-12-09T18:00:00-06:00
as U_COMM1
rule 2026-001 insufficient yes=U_COMM1,U_COMM2,U_COMM3
as U_CLERK
@ 2026-12-17T10:00:00-06:00
mail 2026-001 dismissal_respondent 9407 1118 9876 5432 1014 29
case 2026-001
@ 2026-12-21T10:00:00-06:00
mail 2026-001 dismissal_complainant 9407 1118 9876 5432 1014 36
schedule 2026-001 frivolous_meeting 2027-01-06T17:00 place="City Hall"
@ 2026-12-30T10:00:00-06:00
mail 2026-001 frivolous_notice 9407 1118 9876 5432 1014 43
@ 2027-01-06T18:00:00-06:00
posted 2026-001 frivolous_meeting at=2027-01-04T09:00
as U_COMM1
frivolous 2026-001 fine=1500 knowingly=yes findings="Knew it false." yes=U_COMM1,U_COMM2,U_COMM3
as U_CLERK
case 2026-001
@ 2027-01-08T10:00:00-06:00
mail 2026-001 frivolous_finding 9407 1118 9876 5432 1014 50
case 2026-001
@ 2027-01-20T10:00:00-06:00
fine 2026-001 waived
fine 2026-001 paid amount=500 receipt=R-0042 yes=U_COMM1,U_COMM2,U_COMM3
fine 2026-001 paid amount=500 receipt=R-0042
fine 2026-001 collection to="Corporation Counsel"
fine 2026-001 paid amount=1000 receipt=R-0043
case 2026-001
`,
	// A complaint alleging both sections: the §103.10 part to judicial adjudication (C)(2),
	// the §103.05 part to the attorney (C)(3); tasks without a time limit.
	"referrals": `
@ 2026-12-04T10:30:00-06:00
file respondent="Cy Doe" complainant="Di Roe" section=103.10,103.05 received=2026-12-04T10:00 summary="y"
schedule 2026-001 sufficiency 2026-12-09T17:00 place="City Hall"
posted 2026-001 sufficiency
mail 2026-001 respondent 9407 1118 9876 5432 1015 04
mail 2026-001 complainant 9407 1118 9876 5432 1015 11
@ 2026-12-09T18:00:00-06:00
as U_COMM1
rule 2026-001 judicial_referral referral_ruling=attorney_referral yes=U_COMM1,U_COMM2,U_COMM3
as U_CLERK
@ 2026-12-11T10:00:00-06:00
delivered 2026-001 ruling_respondent
delivered 2026-001 ruling_complainant
@ 2026-12-16T10:00:00-06:00
delivered 2026-001 adjudication_request
@ 2026-12-22T10:00:00-06:00
delivered 2026-001 referral
case 2026-001
@ 2026-12-24T10:00:00-06:00
referral 2026-001 status="under review"
referral 2026-001 paper=referral status="under review"
@ 2027-01-20T10:00:00-06:00
referral 2026-001 paper=adjudication_request status="complaint filed in circuit court"
referral 2026-001 paper=referral status="charges filed" outcome="referred to the State's Attorney"
case 2026-001
`,
	// A recessed hearing whose reconvened session's notice is never recorded, a
	// correction of the receipt that moves every deadline, and an (E)(1) dismissal after
	// the hearing with its two papers.
	"recess_dismiss": `
@ 2026-12-04T10:30:00-06:00
file respondent="Ed Moe" complainant="Flo Noe" section=103.10 received=2026-12-04T10:00 summary="z"
correct 2026-001 received=2026-12-03T16:45 reason="date stamp misread"
schedule 2026-001 sufficiency 2026-12-08T17:00 place="City Hall"
posted 2026-001 sufficiency
mail 2026-001 respondent 9407 1118 9876 5432 1016 03
mail 2026-001 complainant 9407 1118 9876 5432 1016 10
@ 2026-12-08T18:00:00-06:00
as U_COMM1
rule 2026-001 probable_cause yes=U_COMM1,U_COMM2,U_COMM3
as U_CLERK
@ 2026-12-14T10:00:00-06:00
schedule 2026-001 hearing 2026-12-29T10:00 place="Council Chambers"
mail 2026-001 ruling_respondent 9407 1118 9876 5432 1016 27
@ 2026-12-16T10:00:00-06:00
mail 2026-001 ruling_complainant 9407 1118 9876 5432 1016 34
@ 2026-12-29T12:00:00-06:00
posted 2026-001 hearing at=2026-12-15T09:00
recess 2026-001
schedule 2026-001 recessed_hearing 2027-01-05T10:00 place="Council Chambers"
@ 2027-01-05T12:00:00-06:00
concluded 2026-001 override="notice posted, not recorded"
@ 2027-01-20T10:00:00-06:00
as U_COMM1
decide 2026-001 dismiss findings="Not proven." yes=U_COMM1,U_COMM2,U_COMM3
as U_CLERK
@ 2027-01-25T10:00:00-06:00
delivered 2026-001 decision_dismissal_respondent
delivered 2026-001 decision_dismissal_complainant
case 2026-001
@ 2027-01-27T10:00:00-06:00
`,
	// An expedited complaint nobody acts on: every reminder up to overdue, with the
	// commissioners mentioned, and the (G) daily reminder.
	"neglected_expedited": `
@ 2026-12-04T10:30:00-06:00
file respondent="Gus Poe" complainant="Hal Loe" section=103.05 received=2026-12-04T10:00 candidate=2026-12-20 summary="w"
schedule 2026-001 sufficiency 2026-12-11T17:00 place="City Hall"
docket
@ 2026-12-17T10:00:00-06:00
docket
case 2026-001
`,
}

// TestLifecycleGolden runs each lifecycle and compares everything ethicsbot says along the
// way (replies, docket lines, public notices, cards, the docket list and every reminder)
// with testdata/lifecycle_<name>.golden, byte for byte. It pins what the steps of the
// procedure say, so that moving their wording into docket's table of steps changes none
// of it. It compares the public board the lifecycle leaves, every page and feed
// `ethicsbot publish` writes, with testdata/lifecycle_<name>_board/ too. go test
// ./commands -run TestLifecycleGolden -update rewrites the files.
func TestLifecycleGolden(t *testing.T) {
	// The golden files of a lifecycle renamed or removed go with it.
	found, err := filepath.Glob(filepath.Join("testdata", "lifecycle_*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range found {
		name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "lifecycle_"), ".golden"),
			"_board")
		if _, ok := lifecycles[name]; ok {
			continue
		}
		if *update {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is the golden file of no lifecycle (-update removes it)", path)
	}
	for name, script := range lifecycles {
		t.Run(name, func(t *testing.T) {
			run := runLifecycle(t, script)
			golden(t, filepath.Join("testdata", "lifecycle_"+name+".golden"), run.said)
			apptest.GoldenDir(t, filepath.Join("testdata", "lifecycle_"+name+"_board"), run.published(t), *update)
		})
	}
}

// golden compares got with the golden file at path (apptest.Golden).
func golden(t *testing.T, path, got string) {
	t.Helper()
	apptest.Golden(t, path, []byte(got), *update)
}

// lifecycleRun is a lifecycle as run: what was said, and the record as its script left it.
type lifecycleRun struct {
	said   string
	db     *store.Store
	engine *docket.Engine
	end    time.Time // the script's last instant
}

// published is the public board of the run's record at its end: each file `ethicsbot
// publish` writes, by its name.
func (run lifecycleRun) published(t *testing.T) map[string][]byte {
	t.Helper()
	db, e, now := run.db, run.engine, run.end
	board := &web.Board{Records: db, Commission: "Ethics Commission of Testville", Address: "City Hall\n1 Main St",
		URL: "https://ethics.example.gov/", Loc: e.Cal.Location(), Now: func() time.Time { return now },
		Figures: func(ctx context.Context, year int, now time.Time) (web.Figures, error) {
			cases, err := db.AllCases(ctx)
			return report.PublicOf(cases, year, e, now), err
		}}
	return apptest.Written(t, func(dir string) error { _, err := board.Publish(ctx, dir); return err })
}

// runLifecycle runs script on a new record.
func runLifecycle(t *testing.T, script string) lifecycleRun {
	t.Helper()
	s, clk, db := MustService(t)
	clk.now = time.Time{} // the script sets it
	e := s.Engine
	cal := e.Cal
	planner := &reminders.Planner{Engine: e, Policy: reminders.Defaults(), People: reminders.People{
		Clerks: []string{clerk}, Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"}, Docket: "C_DOCKET"}}
	s.Configure(commands.Settings{
		Roles: commands.Roles{Commissioners: []string{"U_COMM1", "U_COMM2", "U_COMM3"}, Clerks: []string{clerk},
			Attorney: attorney},
		Channels:  commands.Channels{Docket: "C_DOCKET", Notices: "C_NOTICES"},
		Reminders: planner,
	})
	var out strings.Builder
	said := map[string]bool{}
	// sweep says, hour by hour up to to, each reminder not said before.
	sweep := func(to time.Time) {
		for now := clk.now.Truncate(time.Hour).Add(time.Hour); !now.After(to); now = now.Add(time.Hour) {
			cases, err := db.AllCases(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for i := range cases {
				for _, r := range planner.Plan(&cases[i], now) {
					if k := r.Key().String(); !said[k] {
						said[k] = true
						fmt.Fprintf(&out, "  [%s %s] %s\n", now.In(cal.Location()).Format("Mon 2006-01-02 15:04"), r.To, r.Text())
					}
				}
			}
		}
	}
	user := clerk
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "@ "):
			to, err := time.Parse(time.RFC3339, line[2:])
			if err != nil {
				t.Fatal(err)
			}
			if !clk.now.IsZero() {
				sweep(to)
			}
			clk.now = to
			fmt.Fprintf(&out, "@ %s\n", to.In(cal.Location()).Format("Mon 2006-01-02 15:04"))
		case strings.HasPrefix(line, "as "):
			user = line[3:]
		default:
			r := do(s, user, line)
			fmt.Fprintf(&out, "> %s\n%s\n", line, replyText(r))
			for _, ch := range []string{"C_DOCKET", "C_NOTICES"} {
				for _, p := range posted(r, ch) {
					fmt.Fprintf(&out, "  [%s] %s\n", ch, p)
				}
			}
		}
	}
	return lifecycleRun{said: out.String(), db: db, engine: e, end: clk.now}
}
