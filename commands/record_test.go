package commands_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestExportCarriesVotesAndAmendments: what the commission voted, and what was corrected
// or voided, is in every export: the full JSON has the case's votes and amendments and the
// events' payloads, the full CSV has the events, and the public exports have the tally of
// the dismissal, and none of the confidential corrections.
func TestExportCarriesVotesAndAmendments(t *testing.T) {
	s, _ := voting(t)
	db := s.Record.(*store.Store)
	mustDo(t, s, comm, "rule 2026-001 insufficient yes=U_COMM1,U_COMM2 no=U_COMM3",
		"ruling recorded: insufficient (adopted 2–1)")
	mustDo(t, s, clerk,
		`correct 2026-001 summary="Used the city's email to campaign twice." reason="the second message was left out"`,
		"event 1 corrected")
	mustDo(t, s, clerk, `recuse 2026-001 commissioner=U_COMM3 reason="knows the complainant"`, "recused")
	mustDo(t, s, comm, `void 2026-001 8 reason="recorded for the wrong commissioner"`, "event 8 (recuse) voided")

	export := func(format string, public bool) string {
		t.Helper()
		var buf bytes.Buffer
		if err := db.Export(ctx, &buf, format, public); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}

	t.Run("JSON", func(t *testing.T) {
		var doc struct {
			Cases []struct {
				Votes      []docket.Adopted   `json:"votes"`
				Amendments []docket.Amendment `json:"amendments"`
				Events     []struct {
					Seq     int             `json:"seq"`
					Kind    string          `json:"kind"`
					Payload json.RawMessage `json:"payload"`
				} `json:"events"`
			} `json:"cases"`
		}
		if err := json.Unmarshal([]byte(export("json", false)), &doc); err != nil || len(doc.Cases) != 1 {
			t.Fatalf("full export: %v %+v", err, doc)
		}
		c := doc.Cases[0]
		if len(c.Votes) != 1 || c.Votes[0].Action != "rule" || c.Votes[0].Vote.Tally() != "adopted 2–1" ||
			!slices.Equal(c.Votes[0].Vote.No, []string{"U_COMM3"}) {
			t.Errorf("votes %+v", c.Votes)
		}
		if len(c.Amendments) != 2 ||
			c.Amendments[0] != (docket.Amendment{Seq: 7, Event: 1, Kind: "file", Field: "summary",
				From: "Used the city's email to campaign.", To: "Used the city's email to campaign twice.",
				Reason: "the second message was left out", By: clerk, On: c.Amendments[0].On}) ||
			c.Amendments[1] != (docket.Amendment{Seq: 9, Event: 8, Kind: "recuse", Void: true,
				Reason: "recorded for the wrong commissioner", By: comm, On: c.Amendments[1].On}) {
			t.Errorf("amendments %+v", c.Amendments)
		}
		kinds := map[string]string{}
		for _, e := range c.Events {
			kinds[e.Kind] = string(e.Payload)
		}
		if !strings.Contains(kinds["rule"],
			`"vote":{"seated":["U_COMM1","U_COMM2","U_COMM3"],"yes":["U_COMM1","U_COMM2"],"no":["U_COMM3"]`) {
			t.Errorf("the ruling's payload has no roll call: %s", kinds["rule"])
		}
		if !strings.Contains(kinds["correct"], `"seq":1`) || !strings.Contains(kinds["void"], `"seq":8`) {
			t.Errorf("the correction's and the void's payloads: %s; %s", kinds["correct"], kinds["void"])
		}
	})

	t.Run("CSV", func(t *testing.T) {
		rows, err := csv.NewReader(strings.NewReader(export("csv", false))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, row := range rows[1:] {
			kinds[row[9]] = row[10]
		}
		if !strings.Contains(kinds["rule"], `"no":["U_COMM3"]`) ||
			!strings.Contains(kinds["correct"], `"reason":"the second message was left out"`) ||
			!strings.Contains(kinds["void"], `"reason":"recorded for the wrong commissioner"`) {
			t.Errorf("CSV payloads: %q", kinds)
		}
	})

	t.Run("Public", func(t *testing.T) {
		var doc struct {
			Records []docket.PublicRecord `json:"public_records"`
		}
		pub := export("json", true)
		if err := json.Unmarshal([]byte(pub), &doc); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(doc.Records, func(r docket.PublicRecord) bool { return r.Record == "dismissal" })
		if i < 0 || doc.Records[i].Tally != "adopted 2–1" {
			t.Errorf("public JSON: %s", pub)
		}
		rows, err := csv.NewReader(strings.NewReader(export("csv", true))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		tally := slices.Index(rows[0], "tally")
		if i := slices.IndexFunc(rows, func(r []string) bool { return r[2] == "dismissal" }); tally < 0 || i < 0 ||
			rows[i][tally] != "adopted 2–1" {
			t.Errorf("public CSV: %q", rows)
		}
		for _, out := range []string{pub, export("csv", true)} {
			for _, secret := range []string{"twice", "second message", "wrong commissioner", "knows the complainant"} {
				if strings.Contains(out, secret) {
					t.Errorf("a public export tells %q", secret)
				}
			}
		}
	})
}
