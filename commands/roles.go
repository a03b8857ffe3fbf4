package commands

import (
	"slices"

	"ethicsbot/docket"
)

// Role is what a Slack user is to the commission.
type Role string

// The roles. The configuration (package config) names who holds each.
const (
	Commissioner Role = "commissioner"
	Clerk        Role = "clerk"
	Attorney     Role = "attorney" // the commission's attorney: may read cases
	Nobody       Role = ""
)

// Roles says who is who, by Slack user id. The configuration gives each person one role.
type Roles struct {
	Commissioners []string
	Clerks        []string
	Attorney      string
	// People are their names and titles, for documents and for the console's user
	// fields; the zero Roster names nobody.
	People docket.Roster
}

// Of returns the role of user.
func (r Roles) Of(user string) Role {
	switch {
	case user == "":
		return Nobody
	case slices.Contains(r.Commissioners, user):
		return Commissioner
	case slices.Contains(r.Clerks, user):
		return Clerk
	case user == r.Attorney:
		return Attorney
	}
	return Nobody
}

// Channels are where posts go, by Slack channel id (or name in console mode).
type Channels struct {
	Docket  string // private: complaint details, deadlines, reminders
	Notices string // public: only what the ordinance makes public
}

// Voting is how the commission's roll calls are counted (configuration `voting:`).
type Voting struct {
	// Required makes the (C) ruling, the (E) decision, the (F) final recommendation and
	// the (H) finding take a roll call. Without it, one commissioner records them alone,
	// for towns that record votes elsewhere.
	Required bool
	// Quorum is how many commissioners must be present to act; 0 is a majority of the
	// seated commissioners.
	Quorum int
	// Carry is the majority that carries a motion; "" is docket.MajorityOfVotesCast.
	Carry docket.Carry
}
