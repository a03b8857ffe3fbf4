package store

import (
	"context"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// Sayer derives what ethicsbot says about what the record records: the store calls it
// inside the transaction that records a step or a meeting's change, and its posts are
// committed with the events, or not at all. ctx is the request's, as given to File,
// Apply, Attach or ChangeMeeting, so a sayer may tell one request's posts from another's.
// commands.Service is one.
type Sayer interface {
	// Say derives what a recorded step causes ethicsbot to say.
	Say(ctx context.Context, st docket.Step) []outbox.Post
	// SayMeeting derives what a change of meeting m causes ethicsbot to say, from m as it
	// then stands among all the meetings, folded with their case steps.
	SayMeeting(ctx context.Context, m docket.CommissionMeeting, all []docket.CommissionMeeting) []outbox.Post
}

// SayWith wires say into s, once, before its first write: what it derives is said with
// every step and meeting's change recorded after. Without it, or with nil, s records and
// says nothing.
func (s *Store) SayWith(say Sayer) { s.sayer = say }

// stepSayer is the sayer's Say for the request ctx, or nil to say nothing.
func (s *Store) stepSayer(ctx context.Context) func(docket.Step) []outbox.Post {
	if s.sayer == nil {
		return nil
	}
	return func(st docket.Step) []outbox.Post { return s.sayer.Say(ctx, st) }
}

// meetingSayer is the sayer's SayMeeting for the request ctx, or nil to say nothing.
func (s *Store) meetingSayer(ctx context.Context) func(docket.CommissionMeeting,
	[]docket.CommissionMeeting) []outbox.Post {
	if s.sayer == nil {
		return nil
	}
	return func(m docket.CommissionMeeting, all []docket.CommissionMeeting) []outbox.Post {
		return s.sayer.SayMeeting(ctx, m, all)
	}
}
