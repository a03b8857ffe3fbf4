// Package apptest is what the tests of ethicsbot as a whole share: a configuration file
// and a record to run it on, a fake Slack, scans and documents to read, and ethicsbot
// running in HTTP mode in a child process (server.go). The packages that run ethicsbot
// (app, through App.Run; cli, through Run) import it from their tests.
package apptest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"github.com/ledongthuc/pdf"

	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/store"
)

// Root is the module's root, where go.mod is: the tests of the packages below it read the
// repository's documents, deployment files and test data from there.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// Path is the file at rel, a path from the module's root (Root).
func Path(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(Root(t), rel)
}

// defaults points ETHICSBOT_CONFIG at an empty file, so a developer's own ./ethicsbot.yml
// cannot change what the tests see.
func Defaults(t *testing.T) map[string]string { return WriteConfig(t, "") }

// WriteConfig writes body as a configuration file of its own and returns the environment
// that points ETHICSBOT_CONFIG at it.
func WriteConfig(t *testing.T, body string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ethicsbot.yml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"ETHICSBOT_CONFIG": path}
}

// SlackConfig is a configuration complete enough to connect to Slack.
const SlackConfig = "commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"

// MustOpenRecord opens the database cfg names, with the engine cfg describes; the caller
// closes it.
func MustOpenRecord(t *testing.T, cfg config.Config) (*docket.Engine, *store.Store) {
	t.Helper()
	engine, err := cfg.Engine()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(cfg.Database, engine)
	if err != nil {
		t.Fatal(err)
	}
	return engine, db
}

// RecordEnv returns an environment whose database holds two cases, one dismissed.
func RecordEnv(t *testing.T) map[string]string {
	t.Helper()
	env := Defaults(t)
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	_, db := MustOpenRecord(t, cfg)
	defer db.Close()
	at := time.Date(2026, 12, 4, 16, 0, 0, 0, time.UTC)
	for _, name := range []string{"Hidden Respondent", "Public Respondent"} {
		_, err := db.File(context.Background(), docket.Act{By: "U_CLERK", At: at}, docket.File{
			Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: name},
			Sections: []string{"103.10"}, Received: at, Summary: "Confidential allegation.",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	// The meeting, its posted notice (C)(1) and both (B) notices: what a ruling needs.
	if _, err := db.Apply(ctx, docket.Act{By: "U_CLERK", At: at}, "2026-002",
		docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting, Start: at.Add(72 * time.Hour), Place: "City Hall"},
		docket.PostNotice{Meeting: docket.SufficiencyMeeting},
		docket.RecordMailing{Recipient: docket.Respondent, Article: "94071118987654321712"},
		docket.RecordMailing{Recipient: docket.Complainant, Article: "94071118987654321613"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Apply(ctx, docket.Act{By: "U_COMM1", At: at.Add(73 * time.Hour)}, "2026-002",
		docket.Rule{Ruling: docket.Insufficient}); err != nil {
		t.Fatal(err)
	}
	return env
}

// AuthSlack is a fake Slack whose auth.test answers with status and body, and counts calls.
func AuthSlack(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/auth.test" {
			t.Errorf("unexpected call %s", r.URL.Path)
		}
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// WriteScan writes a one-page PDF saying text at name, as a scanner would make a scan.
func WriteScan(t *testing.T, name, text string) {
	t.Helper()
	p := fpdf.New("P", "mm", "Letter", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 14)
	p.Text(20, 30, text)
	if err := p.OutputFileAndClose(name); err != nil {
		t.Fatal(err)
	}
}

// LettersConfig is the letters section of a configuration: the commission, the officer and
// the attorney, for the tests that draw letters.
const LettersConfig = `
letters:
  commission:
    name: Ethics Commission of Springfield
    address: |
      City Hall, Room 201
      Springfield, IL 62701
  officer: {name: Pat Quimby, title: Mayor, address: "100 Main Street"}
  attorney: {name: Lionel Hutz, title: Corporation Counsel, address: "Law Department"}
`

// PDFText extracts a PDF's text with its spacing removed, since the extractor joins a
// line wrapped at the margin to the next.
func PDFText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		rows, err := r.Page(i).GetTextByRow()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, w := range row.Content {
				out.WriteString(w.S)
			}
		}
	}
	return strings.Join(strings.Fields(out.String()), "")
}

// DocSection is the text of the document's "## heading" section, up to the next "## "
// heading; a test that reads a table or a walk-through from the documentation reads it here.
func DocSection(t *testing.T, file, heading string) string {
	t.Helper()
	b, err := os.ReadFile(Path(t, file))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("%s has no \"## %s\" section", file, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// PreviousRecord makes, in a folder of the test's own, the record an earlier release left:
// testdata/records/NAME.sql is its `sqlite3 .dump`, with its user_version, kept as text
// so that no database file is committed (the repository holds no record, public or not)
// and a reviewer reads what it holds. The events' payloads and hashes are its bytes.
func PreviousRecord(t *testing.T, name string) string {
	t.Helper()
	dump, err := os.ReadFile(Path(t, filepath.Join("testdata", "records", name+".sql")))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(string(dump)); err != nil {
		t.Fatalf("%s.sql: %v", name, err)
	}
	if _, err := raw.Exec(`PRAGMA journal_mode = WAL`); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// NewerRecord makes a database at path that a newer ethicsbot wrote: its schema version is
// past this one's.
func NewerRecord(t *testing.T, path string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", path)
	if err == nil {
		_, err = raw.Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1))
		raw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}
