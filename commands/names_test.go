package commands_test

import (
	"strings"
	"testing"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// named gives the voting service's people names, as the configuration may.
func named(s *commands.Service) {
	reconfigure(s, func(st *commands.Settings) {
		st.Roles.People = docket.NewRoster([]docket.Member{
			{ID: comm, Name: "Ann Alder", Title: "Chair"},
			{ID: "U_COMM2", Name: "Ann Birch"},
			{ID: "U_COMM3", Name: "Cal Cobb"},
			{ID: clerk, Name: "Dana Dale", Title: "Clerk"},
		})
	})
}

// TestUserFieldsTakeNames: in the console, which has no @mentions, a user field takes a
// name from the configured roster, whole or a first or last name only one person has;
// ids and mentions still work beside them.
func TestUserFieldsTakeNames(t *testing.T) {
	s, _ := voting(t)
	named(s)
	mustDo(t, s, clerk, `recuse 2026-001 commissioner="cal cobb"`, "recused")
	mustDo(t, s, comm, `rule 2026-001 insufficient yes="Ann Alder, @Birch"`, "ruling recorded")
	c, err := s.Record.Case(ctx, "2026-001")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Recused("U_COMM3"); !ok {
		t.Error("the recusal by name was not recorded")
	}
	if len(c.Votes) != 1 || strings.Join(c.Votes[0].Vote.Yes, ",") != comm+",U_COMM2" {
		t.Errorf("votes %+v", c.Votes)
	}
}

// TestUserFieldsRefuseUnclearNames: a name that fits several people, or nobody, is refused
// naming the field, and nothing is recorded.
func TestUserFieldsRefuseUnclearNames(t *testing.T) {
	for _, tc := range []struct{ name, roll, want string }{
		{"Ambiguous", `yes=U_COMM1,U_COMM3 no=Ann`,
			`no: "Ann" could be Ann Alder (U_COMM1) or Ann Birch (U_COMM2): give the full name or the member id`},
		{"Unknown", `yes="Ann Alder, Ann Birch" absent="Eve Example"`,
			`absent: "Eve Example" is not the name of anyone the configuration names`},
		{"NotCommissioner", `yes="Ann Alder, Ann Birch, Dana Dale"`, "U_CLERK is not a seated commissioner"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := voting(t)
			named(s)
			r := mustDo(t, s, comm, "rule 2026-001 insufficient "+tc.roll, tc.want)
			if len(r.Posts) != 0 {
				t.Errorf("a refused roll call posted %v", r.Posts)
			}
			c, _ := s.Record.Case(ctx, "2026-001")
			if len(c.Votes)+len(c.Motions) != 0 || c.Ruling != "" {
				t.Errorf("a refused roll call recorded %+v %+v", c.Votes, c.Motions)
			}
		})
	}
}

// TestUserFieldsWithoutNames: with no names configured, a word that is not an id is
// refused by itself, as before names were allowed, however the ids around it are separated.
func TestUserFieldsWithoutNames(t *testing.T) {
	s, _ := voting(t)
	mustDo(t, s, comm, `rule 2026-001 insufficient yes="U_COMM1 Jane U_COMM2" no=U_COMM3`,
		`yes: "Jane" is not a Slack user id such as U024BE7LH: @mention them`)
}
