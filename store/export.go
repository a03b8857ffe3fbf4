package store

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
)

// PublicRecord is one thing about a case that the ordinance makes public: a meeting
// notice, a (C)(2) dismissal, an (E) decision with its findings, recommendation and fine,
// or an (F) final recommendation.
type PublicRecord struct {
	Case           string      `json:"case"`
	Rule           string      `json:"rule"`
	Record         string      `json:"record"` // meeting_notice, dismissal, decision, final_recommendation
	On             docket.Date `json:"on"`
	Complainant    string      `json:"complainant,omitempty"` // only once the case is public
	Respondent     string      `json:"respondent,omitempty"`
	Ruling         string      `json:"ruling,omitempty"`
	Findings       string      `json:"findings,omitempty"`
	Recommendation string      `json:"recommendation,omitempty"`
	Fine           int         `json:"fine,omitempty"`
	Text           string      `json:"text,omitempty"`
}

// PublicRecords lists what the ordinance makes public about c, and nothing else: no
// allegation text, and no party names unless the case has been made public.
func PublicRecords(c *docket.Case, loc *time.Location) []PublicRecord {
	var out []PublicRecord
	add := func(r PublicRecord) {
		r.Case = c.Number
		if c.Public() {
			r.Complainant, r.Respondent = c.Complainant.Name, c.Respondent.Name
		}
		out = append(out, r)
	}
	for _, k := range docket.MeetingKinds {
		m := c.Meeting(k)
		if !m.Scheduled() {
			continue
		}
		rule := map[docket.MeetingKind]string{docket.SufficiencyMeeting: "(C)(1)", docket.HearingMeeting: "(D)", docket.RecessedHearing: "(D)", docket.PublicHearing: "(F)"}[k]
		add(PublicRecord{Rule: rule, Record: "meeting_notice", On: docket.DateIn(m.Start, loc), Text: MeetingNotice(k, m, loc)})
	}
	if c.State == docket.StateDismissed && c.Decision == nil {
		add(PublicRecord{Rule: "(C)(2)", Record: "dismissal", On: c.RulingDate, Ruling: string(c.Ruling)})
	}
	if d := c.Decision; d != nil {
		add(PublicRecord{Rule: "(E)", Record: "decision", On: d.On, Findings: d.Findings, Recommendation: d.Recommendation, Fine: d.Fine,
			Text: map[bool]string{true: "complaint dismissed (E)(1)", false: "recommendation and/or fine (E)(2)"}[d.Dismissed]})
	}
	if f := c.Final; f != nil {
		add(PublicRecord{Rule: "(F)", Record: "final_recommendation", On: f.On, Text: f.Text, Fine: f.Fine})
	}
	return out
}

// MeetingNotice is a meeting's public notice in one line: kind, date, time, place, and
// whether it is open or closed, with the Open Meetings Act authority for a closed one.
func MeetingNotice(k docket.MeetingKind, m docket.Meeting, loc *time.Location) string {
	access := "open to the public"
	if m.Closed {
		access = "closed to the public under " + m.Authority
	}
	return fmt.Sprintf("%s on %s at %s, %s", k.Name(), m.Start.In(loc).Format("Mon 2 Jan 2006 at 15:04 MST"), m.Place, access)
}

// Export writes all cases and their events as "json" or "csv". With public, it writes
// only PublicRecords.
func (s *Store) Export(ctx context.Context, w io.Writer, format string, public bool) error {
	if format != "json" && format != "csv" {
		return &docket.Error{Code: docket.EINVALID, Field: "--format", Message: fmt.Sprintf("%q is not a format: use csv or json", format)}
	}
	loc := s.engine.Cal.Location()
	if public {
		cases, err := s.AllCases(ctx)
		if err != nil {
			return err
		}
		var recs []PublicRecord
		for i := range cases {
			recs = append(recs, PublicRecords(&cases[i], loc)...)
		}
		if format == "json" {
			return writeJSON(w, map[string]any{"public_records": nonNil(recs)})
		}
		cw := csv.NewWriter(w)
		cw.Write([]string{"case", "rule", "record", "on", "complainant", "respondent", "ruling", "findings", "recommendation", "fine", "text"})
		for _, r := range recs {
			cw.Write([]string{r.Case, r.Rule, r.Record, r.On.String(), r.Complainant, r.Respondent, r.Ruling, r.Findings, r.Recommendation, fine(r.Fine), r.Text})
		}
		cw.Flush()
		return cw.Error()
	}

	if format == "json" {
		// Streamed: one case at a time, however large the record.
		if _, err := fmt.Fprintf(w, "{\n  \"schema_version\": %d,\n  \"cases\": [", SchemaVersion()); err != nil {
			return err
		}
		sep := "\n    "
		err := s.EachCase(ctx, false, func(r CaseRecord) error {
			r.Events = nonNil(r.Events)
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%s%s", sep, b)
			sep = ",\n    "
			return err
		})
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, "\n  ]\n}\n")
		return err
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"case", "state", "received", "complainant", "respondent", "sections", "seq", "at", "by", "kind", "payload", "hash"})
	err := s.EachCase(ctx, false, func(c CaseRecord) error {
		for _, e := range c.Events {
			cw.Write([]string{c.Number, string(c.State), c.Received.Format(time.RFC3339), c.Complainant.Name, c.Respondent.Name,
				strings.Join(c.Sections, " "), strconv.Itoa(e.Seq), e.At.Format(time.RFC3339), e.By, e.Kind, string(e.Payload), e.Hash})
		}
		return cw.Error()
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

func fine(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
