package docket

import (
	"encoding/json"
	"reflect"
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

// TestEveryVotedActionSaysItsMotion: an action that carries a roll call (a Vote field) is
// taken by a motion, so it says what was moved (Voted), for the minutes.
func TestEveryVotedActionSaysItsMotion(t *testing.T) {
	voted := 0
	for kind := range actionDecoders {
		act, err := DecodeAction(kind, []byte(`{"vote":{"seated":["U_A"],"yes":["U_A"]}}`))
		if err != nil {
			t.Fatal(err)
		}
		f, ok := reflect.TypeOf(act).FieldByName("Vote")
		if !ok || f.Type != reflect.TypeOf((*Vote)(nil)) {
			continue
		}
		voted++
		v, ok := act.(Voted)
		if !ok {
			t.Errorf("a %s carries a roll call but does not say what was moved (Voted)", kind)
			continue
		}
		if v.Roll() == nil || !slices.Equal(v.Roll().Yes, []string{"U_A"}) {
			t.Errorf("a %s does not give its roll call: %v", kind, v.Roll())
		}
		if words := v.Motion(Wording{Loc: time.UTC}).String(); !strings.HasPrefix(words, "that ") {
			t.Errorf("a %s moves %q, not a motion that ...", kind, words)
		}
	}
	if voted != 5 {
		t.Errorf("%d kinds of action carry a roll call; the ruling, the decision, the final recommendation, the (H) "+
			"finding and a fine's waiver do", voted)
	}
}

// TestMotionsFoundByTheirRollCall: the minutes word each motion from the entry that
// recorded its roll call: two rulings at one instant, the first failed and the second
// carried, each by its own roll; a correction read as corrected; a voided entry not at all;
// and the hearing recorded with the ruling, not a later step.
func TestMotionsFoundByTheirRollCall(t *testing.T) {
	at := time.Date(2026, 12, 9, 23, 20, 0, 0, time.UTC)
	failed := &Vote{Seated: []string{"U_A", "U_B", "U_C"}, Yes: []string{"U_A"}, No: []string{"U_B", "U_C"}}
	carried := &Vote{Seated: []string{"U_A", "U_B", "U_C"}, Yes: []string{"U_A", "U_B", "U_C"}}
	hearing := ScheduleMeeting{Meeting: HearingMeeting, Start: at.Add(7 * 24 * time.Hour), Place: "City Hall"}
	corrected := Rule{Ruling: ProbableCause, Vote: carried}
	payload, err := json.Marshal(corrected)
	if err != nil {
		t.Fatal(err)
	}
	entries := []Entry{
		{Seq: 1, At: at.Add(-time.Hour), Action: File{}},
		{Seq: 2, At: at, Action: Rule{Ruling: Insufficient, Vote: failed}},
		{Seq: 3, At: at, Action: Rule{Ruling: NoProbableCause, Vote: carried}},
		{Seq: 4, At: at, Action: hearing},
		{Seq: 5, At: at.Add(time.Minute), Action: PostNotice{Meeting: HearingMeeting}},
		{Seq: 6, At: at.Add(time.Hour), Action: Correct{Seq: 3, Of: "rule", Field: "ruling", Action: payload}},
	}
	used := map[int]bool{}
	act, with, ok := votedAs(entries, MeetingMotion{At: at, Action: "rule", Roll: carried}, used)
	if !ok || act.(Rule).Ruling != ProbableCause || len(with) != 1 || with[0] != Action(hearing) {
		t.Fatalf("the carried ruling: %v %v %v", act, with, ok)
	}
	act, with, ok = votedAs(entries, MeetingMotion{At: at, Action: "rule", Roll: failed}, used)
	if !ok || act.(Rule).Ruling != Insufficient || len(with) != 0 {
		t.Fatalf("the failed ruling: %v %v %v", act, with, ok)
	}
	if _, _, ok := votedAs(entries, MeetingMotion{At: at, Action: "rule", Roll: carried}, used); ok {
		t.Fatal("a roll call matched twice")
	}
	entries = append(entries, Entry{Seq: 7, At: at.Add(2 * time.Hour), Action: Void{Seq: 3, Of: "rule"}})
	if _, _, ok := votedAs(entries, MeetingMotion{At: at, Action: "rule", Roll: carried}, map[int]bool{}); ok {
		t.Fatal("a voided ruling worded")
	}
	if _, _, ok := votedAs(entries, MeetingMotion{Action: "rule", Roll: carried}, map[int]bool{}); ok {
		t.Fatal("a roll call of a record without its instant matched")
	}
}
