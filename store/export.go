package store

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"ethicsbot/csvsafe"
	"ethicsbot/docket"
)

// Export writes all cases and their events as "json" or "csv". With public, it writes
// only PublicRecords. It is ExportNamed with a roster that names nobody.
func (s *Store) Export(ctx context.Context, w io.Writer, format string, public bool) error {
	return s.ExportNamed(ctx, w, format, public, docket.Roster{})
}

// ExportNamed is Export, with the CSV of events giving beside each event's "by" (the Slack
// id, as the record has it) a last column "by_name": the name people configures for that
// id, or the id (exports use names). The JSON export is the record as it is,
// by id.
func (s *Store) ExportNamed(ctx context.Context, w io.Writer, format string, public bool, people docket.Roster) error {
	if format != "json" && format != "csv" {
		return docket.Invalid("", "--format", fmt.Sprintf("%q is not a format: use csv or json", format))
	}
	loc := s.engine.Cal.Location()
	if public {
		recs, err := s.Public(ctx)
		if err != nil {
			return err
		}
		if format == "json" {
			return writeJSON(w, map[string]any{"public_records": nonNil(recs)})
		}
		cw := csvsafe.NewWriter(w)
		cw.Write([]string{"case", "rule", "record", "on", "complainant", "respondent", "ruling", "section", "findings",
			"recommendation", "fine", "text", "tally",
			"meeting", "start", "place", "closed", "authority", "withdrawn", "moved_to", "posted_on_board"})
		for _, r := range recs {
			cw.Write([]string{r.Case, r.Rule, r.Record, r.On.String(), r.Complainant, r.Respondent, r.Ruling, r.Section,
				r.Findings, r.Recommendation, fine(r.Fine), r.Text, r.Tally,
				string(r.Meeting), instant(r.Start, loc), r.Place, yes(r.Closed), r.Authority, r.Withdrawn, instant(r.MovedTo, loc),
				instant(r.Posted, loc)})
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
	cw := csvsafe.NewWriter(w)
	cw.Write([]string{"case", "state", "received", "complainant", "respondent", "sections", "seq", "at", "by", "kind",
		"payload", "hash", "by_name"})
	err := s.EachCase(ctx, false, func(c CaseRecord) error {
		for _, e := range c.Events {
			cw.Write([]string{c.Number, string(c.State), c.Received.Format(time.RFC3339), c.Complainant.Name, c.Respondent.Name,
				strings.Join(c.Sections, " "), strconv.Itoa(e.Seq), e.At.Format(time.RFC3339), e.By, e.Kind, string(e.Payload),
				e.Hash, people.Name(e.By)})
		}
		return cw.Error()
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// instant writes t in the commission's zone, "" for none.
func instant(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(time.RFC3339)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
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
