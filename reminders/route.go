package reminders

import (
	"fmt"
	"slices"
	"strings"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Kind is a kind of reminder, routed as one (each kind of reminder goes to
// one place, by configuration).
type Kind string

// The kinds of reminder, and which are whose.
const (
	// ClerkTasks are the deadlines the clerk meets by hand: a paper to send or deliver, a
	// meeting's notice to post, the next step of certified mail that came back
	// (docket.Period.Clerical). The clerk's, so by direct message to the clerks.
	ClerkTasks Kind = "clerk_tasks"
	// CommissionSteps are the deadlines the commission meets as a body, at a meeting: the
	// (C)(1) ruling, the (C)(2) hearing date, the (E) decision, the (F) public hearing and
	// final recommendation. The commission's, so in the docket channel, which the
	// commission reads together; from the MentionAfter'th business day overdue they mention
	// the commissioners.
	CommissionSteps Kind = "commission_steps"
	// Expedited is the (G) daily reminder of a candidate's case until its decision: the
	// decision is the commission's, so in the docket channel.
	Expedited Kind = "expedited"
	// MeetingReminders are the reminders of a meeting to the commissioners who sit in it. By
	// direct message: a recused commissioner gets none (docs/commissioners.md), and the
	// docket channel cannot leave one out. "channel" posts one line there instead.
	MeetingReminders Kind = "meetings"
	// Digest is the morning digest: each clerk's own by direct message; "channel" posts one
	// to the docket channel instead, "both" does both.
	Digest Kind = "digest"
)

// Kinds are the kinds of reminder, in the order the configuration lists them.
var Kinds = []Kind{ClerkTasks, CommissionSteps, Expedited, MeetingReminders, Digest}

// Route is where a kind of reminder goes: the people's direct messages (the clerks', or
// for MeetingReminders the sitting commissioners'), the docket channel, or both.
type Route string

// The routes.
const (
	DM      Route = "dm"
	Channel Route = "channel"
	Both    Route = "both"
)

// Routes says where each kind of reminder goes; a kind it leaves out goes where
// DefaultRoutes says.
type Routes map[Kind]Route

// DefaultRoutes: direct messages for the clerk's tasks, the docket channel for the
// commission's steps, direct messages for meetings (recusal) and the digest.
func DefaultRoutes() Routes {
	return Routes{ClerkTasks: DM, CommissionSteps: Channel, Expedited: Channel, MeetingReminders: DM, Digest: DM}
}

// ParseRoute reads where kind goes, as the configuration says it, refusing an unknown kind
// or route by name.
func ParseRoute(kind, route string) (Kind, Route, error) {
	k := Kind(kind)
	if !slices.Contains(Kinds, k) {
		return "", "", fmt.Errorf("%q is not a kind of reminder: use %s", kind, kindList())
	}
	switch r := Route(route); r {
	case DM, Channel, Both:
		return k, r, nil
	}
	return "", "", fmt.Errorf("%s: %q is not where a reminder can go: use dm, channel or both", kind, route)
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// route is where kind goes under p's policy.
func (p *Planner) route(k Kind) Route {
	if r, ok := p.Policy.Routes[k]; ok {
		return r
	}
	return DefaultRoutes()[k]
}

// deadlineKind is the kind of a deadline's reminders.
func deadlineKind(d docket.Deadline) Kind {
	if d.Period.Clerical() {
		return ClerkTasks
	}
	return CommissionSteps
}

// dests is where kind goes: people (the clerks, or the sitting commissioners) by direct
// message, the docket channel, or both.
func (p *Planner) dests(k Kind, people []string) []outbox.Dest {
	r := p.route(k)
	var to []outbox.Dest
	if r != Channel {
		to = append(to, dests(people)...)
	}
	if r != DM && p.People.Docket != "" {
		// As the outbox stores it, so that the sweep knows a reminder already planned: a
		// console's "#name" is kept without its "#" (outbox.Dest.String adds it back).
		to = append(to, outbox.Dest{Channel: strings.TrimPrefix(p.People.Docket, "#")})
	}
	return to
}

// Reminded names who is reminded of deadline d, by the routes in force, for a correction's
// reply: "the clerk", "the docket channel", or "the clerk and the docket channel".
func (p *Planner) Reminded(d docket.Deadline) string {
	switch p.route(deadlineKind(d)) {
	case Channel:
		return "the docket channel"
	case Both:
		return "the clerk and the docket channel"
	}
	return "the clerk"
}
