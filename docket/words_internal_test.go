package docket

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestEveryActionSaysWhatItDid walks every kind of action the event log holds: each says
// what it did in words of its own, from the entry alone as a case's history says it (no
// case before or after), and an act with a public notice gives none without the case it
// left, rather than failing.
func TestEveryActionSaysWhatItDid(t *testing.T) {
	at := time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC)
	w := Wording{Loc: time.UTC, Ord: DefaultOrdinance(), At: at}
	seen := map[string]string{}
	for _, kind := range slices.Sorted(func(yield func(string) bool) {
		for k := range actionDecoders {
			if !yield(k) {
				return
			}
		}
	}) {
		t.Run(kind, func(t *testing.T) {
			act, err := DecodeAction(kind, []byte(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			words := act.Did(w).String()
			if strings.TrimSpace(words) == "" {
				t.Fatalf("a %s says nothing of what it did", kind)
			}
			if other, ok := seen[words]; ok {
				t.Fatalf("a %s says %q, as a %s does", kind, words, other)
			}
			seen[words] = kind
			if n, ok := act.(Noticed); ok {
				if _, ok := n.Notice(w); ok {
					t.Fatalf("a %s gives a public notice without the case it left", kind)
				}
			}
		})
	}
}

// TestRecuseNamesTheMemberApart: the member a recusal names is a fact of its words, by id,
// never text, so that the renderer mentions them and a reason cannot pass for a mention.
func TestRecuseNamesTheMemberApart(t *testing.T) {
	words := Recuse{User: "U_COMM2", Reason: "<@U_COMM1> is my neighbour"}.Did(Wording{})
	if len(words) != 2 || words[0].Member != "U_COMM2" || words[0].Text != "" || words[1].Member != "" ||
		words[1].Text != " recused: <@U_COMM1> is my neighbour" {
		t.Fatalf("got %#v", words)
	}
}
