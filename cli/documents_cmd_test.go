package cli

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/docket"
	"ethicsbot/store"
)

// TestAttachAndDocuments: `ethicsbot attach` adds files to a case file (with the bot
// stopped), refusing a file that is not a PDF or image by its content, one over the
// configured limit, and anyone but a commissioner or the clerk; while the bot holds the
// record it is refused, saying to stop it. `ethicsbot documents` writes the files back,
// byte for byte, mode 0640 in a 0750 folder, and `verify` checks them.
func TestAttachAndDocuments(t *testing.T) {
	env := apptest.WriteConfig(t,
		"commissioners: [U_COMM1]\nclerk: U_CLERK\nchannels: {docket: C0DOCKET01, notices: C0NOTICE01}\ndocuments: "+
			"{max_mb: 1}\n")
	env["ETHICSBOT_DB"] = filepath.Join(t.TempDir(), "ethicsbot.db")
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DocumentLimit != 1<<20 {
		t.Fatalf("documents.max_mb: limit %d", cfg.DocumentLimit)
	}
	_, db := apptest.MustOpenRecord(t, cfg)
	at := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	if _, err := db.File(context.Background(), docket.Act{By: "U_CLERK", At: at},
		docket.File{Complainant: docket.Person{Name: "John Doe"}, Respondent: docket.Person{Name: "Jane Roe"},
			Sections: []string{"103.10"}, Received: at, Summary: "Used city email to campaign."}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	dir := t.TempDir()
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pdf := []byte(readablePDF)
	complaint := file("complaint.pdf", pdf)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, image.NewGray(image.Rect(0, 0, 2, 2)), nil); err != nil {
		t.Fatal(err)
	}
	photo := file("photo.jpg", jpg.Bytes())
	// A PDF's first and last bytes around anything else are not a PDF.
	passwd := file("passwd.pdf", []byte("%PDF-1.4\nroot:x:0:0:root:/root:/bin/bash\n%%EOF\n"))
	torn := file("torn.jpg", []byte{0xFF, 0xD8, 0xFF, 0xE0, 9, 9})
	fake := file("notes.pdf", []byte("notes.txt, renamed\n"))
	big := file("big.pdf", append(append([]byte("%PDF-1.4\n"), make([]byte, 1<<20)...), "%%EOF"...))
	// Hostile documents (testdata/hostile): arrays nested past the bound, an image whose data
	// is not zlib.
	hostile := func(name string) string {
		data, err := os.ReadFile(apptest.Path(t, filepath.Join("testdata", "hostile", name)))
		if err != nil {
			t.Fatal(err)
		}
		return file(name, data)
	}
	nested, notZlib := hostile("nested-501.pdf"), hostile("not-zlib.png")

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"FakePDF", []string{"attach", "2026-001", fake, "--by", "U_CLERK"}, 2,
			"notes.pdf is not a PDF, PNG or JPEG file (by its content, whatever its name)"},
		{"OverTheLimit", []string{"attach", "2026-001", big, "--by", "U_CLERK"}, 2,
			"big.pdf is 1.0 MB; the limit for a document is 1.0 MB (documents.max_mb)"},
		{"UnreadablePDF", []string{"attach", "2026-001", passwd, "--by", "U_CLERK"}, 2,
			"passwd.pdf cannot be added: it is not a readable PDF (pdfcpu: "},
		{"UnreadableImage", []string{"attach", "2026-001", torn, "--by", "U_CLERK"}, 2,
			"torn.jpg cannot be added: it is not a readable image"},
		{"NestedTooDeep", []string{"attach", "2026-001", nested, "--by", "U_CLERK"}, 2,
			"nested-501.pdf cannot be added: its arrays and dictionaries are nested more than 500 deep; the limit is 500 " +
				"levels"},
		{"ImageNotZlib", []string{"attach", "2026-001", notZlib, "--by", "U_CLERK"}, 2,
			"not-zlib.png cannot be added: it is not a readable image (zlib: invalid header)"},
		{"NotStaff", []string{"attach", "2026-001", complaint, "--by", "U_SOMEONE"}, 2,
			`--by "U_SOMEONE" is not a commissioner or clerk`},
		{"NoCase", []string{"attach", "2026-009", complaint, "--by", "U_CLERK"}, 2, "there is no case 2026-009"},
		{"TitleOfTwo", []string{"attach", "2026-001", complaint, photo, "--title", "x", "--by", "U_CLERK"}, 2,
			"--title names one document"},
		{"BadKind", []string{"attach", "2026-001", complaint, "--kind", "memo", "--by", "U_CLERK"}, 2,
			`--kind "memo" is not one of`},
		{"DocumentsOfNoCase", []string{"documents"}, 2, "give the case number; usage: ethicsbot documents CASE [--out DIR]"},
		{"DocumentsOfTwoCases", []string{"documents", "2026-001", "2026-002"}, 2, `unexpected argument "2026-002"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, env, "", tc.args...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d saying %q", code, out, errOut, tc.code, tc.want)
			}
		})
	}

	t.Run("BotRunning", func(t *testing.T) {
		engine, _ := cfg.Engine()
		bot, err := store.OpenWith(cfg.Database, engine, store.Options{Lock: true})
		if err != nil {
			t.Fatal(err)
		}
		defer bot.Close()
		code, _, errOut := runCLI(t, env, "", "attach", "2026-001", complaint, "--by", "U_CLERK")
		if code != 1 || !strings.Contains(errOut, "is in use by another ethicsbot") ||
			!strings.Contains(errOut, "stop the bot to attach from the command line") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	})

	code, out, errOut := runCLI(t, env, "", "attach", "2026-001", complaint, "--kind", "complaint", "--title",
		"Complaint as received", "--by", "U_CLERK")
	if code != 0 || !strings.Contains(out, "complaint\t"+docket.Size(int64(len(pdf)))+"\tComplaint as received") {
		t.Fatalf("attach: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut = runCLI(t, env, "", "attach", "2026-001", photo, "--by", "U_CLERK"); code != 0 ||
		!strings.Contains(out, "exhibit\t"+docket.Size(int64(jpg.Len()))+"\tphoto.jpg") {
		t.Fatalf("attach: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, env, "", "verify"); code != 0 {
		t.Fatalf("verify: exit %d %s %s", code, out, errOut)
	}
	// The docket channel is told when the bot is back: the line waits in the outbox.
	engine, _ := cfg.Engine()
	ro, err := store.OpenReadOnly(cfg.Database, engine)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ro.Outbox(context.Background())
	ro.Close()
	var said []string
	for _, r := range rows {
		said = append(said, r.Text.Plain())
	}
	if err != nil ||
		!strings.Contains(strings.Join(said, "\n"),
			`2026-001: document added to the case file: "Complaint as received" (complaint, `+docket.Size(int64(len(pdf)))+
				`), recorded by`) {
		t.Errorf("outbox %q %v", said, err)
	}

	outDir := filepath.Join(t.TempDir(), "case-file")
	code, out, errOut = runCLI(t, env, "", "documents", "2026-001", "--out", outDir)
	if code != 0 || strings.Count(out, "\n") != 2 {
		t.Fatalf("documents: exit %d, %q %q", code, out, errOut)
	}
	got, err := os.ReadFile(filepath.Join(outDir, "2026-001-01-Complaint-as-received.pdf"))
	if err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("the complaint as written out: %v", err)
	}
	if fi, _ := os.Stat(outDir); fi.Mode().Perm() != 0o750 {
		t.Errorf("folder mode %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Join(outDir, "2026-001-02-photo-jpg.jpg")); fi == nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("file: %v", fi)
	}
}

// TestDocumentLimitConfig: documents.max_mb sets the limit, default 25 MB; a size out of
// range is refused, naming the setting.
func TestDocumentLimitConfig(t *testing.T) {
	if cfg, err := config.Parse([]byte("timezone: America/Chicago\n")); err != nil ||
		cfg.DocumentLimit != docket.DefaultDocumentLimit {
		t.Errorf("default: %d %v", cfg.DocumentLimit, err)
	}
	for _, bad := range []string{"documents: {max_mb: 0}", "documents: {max_mb: 501}", "documents: {max_mb: -3}"} {
		if _, err := config.Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "max_mb") ||
			!strings.Contains(err.Error(), "from 1 to 500 megabytes") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// TestAttachRefusesWhatIsNotAFile: a device or a pipe is refused before a byte is read:
// /dev/zero would otherwise be read until memory runs out, and a pipe would wait for ever.
func TestAttachRefusesWhatIsNotAFile(t *testing.T) {
	for _, name := range []string{"/dev/zero", t.TempDir()} {
		if _, err := readDocument(name, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v", name, err)
		}
	}
	fifo := filepath.Join(t.TempDir(), "complaint.pdf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	// No writer opens it: a read that opened it first would wait for ever.
	if _, err := readDocument(fifo, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a named pipe: %v", err)
	}
}

// readablePDF is the smallest PDF that pdfcpu reads, as the letters' packets do: a catalog,
// a page tree and one blank page, with its cross-reference table.
const readablePDF = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 " +
	"R] /Count 1 >> endobj\n" +
	"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\nxref\n0 4\n0000000000 65535 f \n" +
	"0000000009 00000 n \n0000000058 00000 n \n0000000115 00000 n \ntrailer << /Size 4 /Root 1 0 R " +
	">>\nstartxref\n186\n%%EOF\n"
