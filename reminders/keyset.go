package reminders

import (
	"hash/maphash"

	"ethicsbot/outbox"
)

// keySet is a set of outbox keys, each kept as 128 bits of two seeded hashes of its fields
// instead of the key's five strings: the sweep remembers every reminder of the last week
// it knows to be in the outbox, and after a long outage, or on a record where thousands of
// cases are overdue, that is tens of thousands of keys (50,000 took 8 MB as a map of
// outbox.Key, and 1 MB so). Two different keys are taken for one only if both 64-bit
// hashes agree, about once in 10^29 pairs of keys: a reminder is never skipped for want
// of room.
type keySet struct {
	seeds [2]maphash.Seed
	m     map[[2]uint64]struct{}
}

// newKeySet returns an empty set.
func newKeySet() *keySet {
	return &keySet{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}, m: map[[2]uint64]struct{}{}}
}

// id is k's two hashes. Each field is followed by a zero byte, which no field holds, so
// that no two keys write the same bytes.
func (s *keySet) id(k outbox.Key) [2]uint64 {
	var id [2]uint64
	for i, seed := range s.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, f := range [...]string{k.Case, k.Series, k.Step, k.To.Channel, k.To.User, k.To.Mail} {
			h.WriteString(f)
			h.WriteByte(0)
		}
		id[i] = h.Sum64()
	}
	return id
}

// has reports whether k is in the set.
func (s *keySet) has(k outbox.Key) bool {
	_, ok := s.m[s.id(k)]
	return ok
}

// add puts k in the set.
func (s *keySet) add(k outbox.Key) { s.m[s.id(k)] = struct{}{} }
