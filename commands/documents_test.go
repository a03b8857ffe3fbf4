package commands_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// TestDocumentsList: /ethics documents lists the case file, with title, kind, type, size,
// the SHA-256's start, who added each and when, and the event a void withdraws; a void
// takes a document off the list. A commissioner recused from the case sees none of it:
// the refusal is the recusal's, before anything is read.
func TestDocumentsList(t *testing.T) {
	s, _, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = []string{comm, "U_COMM2"} })
	mustDo(t, s, clerk, fileLine+" respondent_user=U_COMM2", "Filed as case *2026-001*")
	mustDo(t, s, clerk, "documents 2026-001", "Case 2026-001 has no documents in its case file")
	pdf := []byte("%PDF-1.4\nsigned complaint\n%%EOF\n")
	res, err := db.Attach(ctx, docket.Act{By: clerk, At: s.Now()}, "2026-001", docket.DefaultDocumentLimit, []docket.Upload{
		{Name: "complaint.pdf", Data: pdf, Title: "Signed complaint", Kind: docket.ComplaintDocument},
		{Name: "exhibit-a.jpg", Data: []byte{0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3}, Title: "Exhibit A: the e-mail"},
	})
	if err != nil {
		t.Fatal(err)
	}
	sha := res.Case.Documents[0].SHA256
	r := mustDo(t, s, attorney, "documents 2026-001", "Case file of case 2026-001, 2 documents (confidential):")
	for _, want := range []string{
		"• *Signed complaint*: complaint, PDF, 32 bytes, SHA-256 " + sha[:12] + "…, added by <@U_CLERK> on Fri " +
			"2026-12-04 (event 2)",
		"• *Exhibit A: the e-mail*: exhibit, JPEG image, 7 bytes",
		"(event 3)",
	} {
		if !strings.Contains(replyText(r), want) {
			t.Errorf("list lacks %q:\n%s", want, replyText(r))
		}
	}
	const refusal = "Not done: you are recused from case 2026-001 (you are the respondent), so you may neither see its " +
		"details nor act or vote on it"
	if got := replyText(do(s, "U_COMM2", "documents 2026-001")); got != refusal {
		t.Errorf("recused member got:\n%s", got)
	}
	var public bytes.Buffer
	if err := db.Export(ctx, &public, "json", true); err != nil || strings.Contains(public.String(), "Signed complaint") ||
		strings.Contains(public.String(), sha) {
		t.Errorf("export --public holds the case file: %v\n%s", err, public.String())
	}
	mustDo(t, s, comm, `void 2026-001 3 reason="attached to the wrong case"`, "event 3 (document) voided")
	if got := replyText(mustDo(t, s, clerk, "documents 2026-001", "1 documents")); strings.Contains(got, "Exhibit A") {
		t.Errorf("a voided document is listed:\n%s", got)
	}
	hist := replyText(mustDo(t, s, clerk, "history 2026-001", ""))
	if !strings.Contains(hist, `document added to the case file: "Signed complaint" (complaint, 32 bytes)`) {
		t.Errorf("history:\n%s", hist)
	}
}

// slackFiles is a Slack that holds shared files by id.
type slackFiles map[string][]byte

func (f slackFiles) Info(_ context.Context, id string) (string, int64, error) {
	data, ok := f[id]
	if !ok {
		return "", 0, errors.New("file_not_found")
	}
	return id + ".pdf", int64(len(data)), nil
}

func (f slackFiles) Download(_ context.Context, id string, limit int64) ([]byte, error) {
	if int64(len(f[id])) > limit {
		return nil, errors.New("too large")
	}
	return f[id], nil
}

// TestAttachFromSlack: the message shortcut on a message sharing files in the docket
// channel opens the attach form with the files filled in; submitting it adds them to the
// case chosen. Files shared anywhere else, or by someone who is not staff, are refused,
// and so is a recused commissioner's submission, before anything is fetched or recorded.
func TestAttachFromSlack(t *testing.T) {
	s, _, db := MustService(t)
	reconfigure(s, func(st *commands.Settings) { st.Roles.Commissioners = []string{comm, "U_COMM2"} })
	var png bytes.Buffer
	if err := pngEncode(&png); err != nil {
		t.Fatal(err)
	}
	s.Files = slackFiles{"F1": []byte(readablePDF), "F2": []byte("not a pdf at all"), "F3": png.Bytes(),
		// A PDF's first and last bytes around anything else are not a PDF.
		"F4": []byte("%PDF-1.4\nroot:x:0:0:root:/root:/bin/bash\n%%EOF\n"), "F5": []byte("\x89PNG\r\n\x1a\nxx"),
		// Hostile documents (testdata/hostile): arrays nested past the bound, an image whose
		// data is not zlib.
		"F6": hostileFile(t, "nested-501.pdf"), "F7": hostileFile(t, "not-zlib.png")}
	mustDo(t, s, clerk, fileLine+" respondent_user=U_COMM2", "Filed as case *2026-001*")

	if r := s.Shortcut(ctx, clerk, "C_ELSEWHERE", []string{"F1"}); r.Modal != nil ||
		!strings.Contains(replyText(r), "only files shared in the private docket channel") {
		t.Errorf("elsewhere: %q", replyText(r))
	}
	if r := s.Shortcut(ctx, attorney, "C_DOCKET", []string{"F1"}); r.Modal != nil {
		t.Errorf("the attorney may not add to the case file: %q", replyText(r))
	}
	if r := s.Shortcut(ctx, clerk, "C_DOCKET", nil); r.Modal != nil || !strings.Contains(replyText(r), "shares no file") {
		t.Errorf("no file: %q", replyText(r))
	}
	submit := func(user string, files []string, values map[string]string) commands.Submission {
		m := s.Shortcut(ctx, user, "C_DOCKET", files).Modal
		if m == nil {
			t.Fatalf("%s: no form", user)
		}
		state := map[string]map[string]slack.BlockAction{}
		for k, v := range values {
			if k == "kind" || k == "number" {
				state[k] = map[string]slack.BlockAction{k: {SelectedOption: slack.OptionBlockObject{Value: v}}}
			} else {
				state[k] = map[string]slack.BlockAction{k: {Value: v}}
			}
		}
		return s.Submit(ctx, user, "view-"+strings.Join(files, ""),
			slack.View{CallbackID: m.CallbackID, PrivateMetadata: m.PrivateMetadata, State: &slack.ViewState{Values: state}})
	}
	mustDo(t, s, clerk, "attach 2026-001", "a typed command carries no file")
	reconfigure(s, func(st *commands.Settings) { st.DocumentLimit = 20 })
	if sub := submit(clerk, []string{"F1"},
		map[string]string{"number": "2026-001"}); !strings.Contains(fmt.Sprint(sub.Errors)+replyText(sub.Response),
		"F1.pdf is "+docket.Size(int64(len(readablePDF)))+"; the limit for a document is 20 bytes") {
		t.Errorf("over the limit: %+v", sub)
	}
	if sub := submit(clerk, []string{"F9"},
		map[string]string{"number": "2026-001"}); !strings.Contains(fmt.Sprint(sub.Errors)+replyText(sub.Response),
		"the file F9 could not be fetched (file_not_found)") {
		t.Errorf("a file Slack does not give: %+v", sub)
	}
	reconfigure(s, func(st *commands.Settings) { st.DocumentLimit = 0 })

	sub := submit(clerk, []string{"F1", "F2"}, map[string]string{"number": "2026-001"})
	if !strings.Contains(fmt.Sprint(sub.Errors)+replyText(sub.Response), "F2.pdf is not a PDF, PNG or JPEG file") {
		t.Errorf("a text file named .pdf: %+v", sub)
	}
	for file, want := range map[string]string{"F4": "F4.pdf cannot be added: it is not a readable PDF (pdfcpu: ",
		"F5": "F5.pdf cannot be added: it is not a readable image",
		"F6": "F6.pdf cannot be added: its arrays and dictionaries are nested more than 500 deep; the limit is 500 levels",
		"F7": "F7.pdf cannot be added: it is not a readable image (zlib: invalid header)"} {
		sub := submit(clerk, []string{"F1", file}, map[string]string{"number": "2026-001"})
		if got := fmt.Sprint(sub.Errors) + replyText(sub.Response); !strings.Contains(got, want) ||
			!strings.Contains(got, "ordinance (B)") {
			t.Errorf("%s: %s", file, got)
		}
	}
	if c, _ := db.Case(ctx, "2026-001"); len(c.Documents) != 0 {
		t.Fatalf("a refused attach recorded %d documents", len(c.Documents))
	}
	if sub := submit("U_COMM2", []string{"F1"},
		map[string]string{"number": "2026-001"}); !strings.Contains(fmt.Sprint(sub.Errors)+replyText(sub.Response),
		"you are recused from case 2026-001") {
		t.Errorf("recused: %+v", sub)
	}
	sub = submit(clerk, []string{"F1", "F3"}, map[string]string{"number": "2026-001", "kind": "complaint"})
	if len(sub.Errors) > 0 {
		t.Fatalf("errors %v", sub.Errors)
	}
	c, _ := db.Case(ctx, "2026-001")
	if len(c.Documents) != 2 || c.Documents[0].Title != "F1.pdf" || c.Documents[0].Kind != docket.ComplaintDocument ||
		c.Documents[1].MediaType != docket.MediaPNG {
		t.Fatalf("documents %+v", c.Documents)
	}
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil {
		t.Fatalf("verify: %v %v", r.Broken, err)
	}
}

// readablePDF is the smallest PDF that pdfcpu reads, as the letters' packets do: a catalog,
// a page tree and one blank page, with its cross-reference table.
const readablePDF = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 " +
	"R] /Count 1 >> endobj\n" +
	"3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj\nxref\n0 4\n0000000000 65535 f \n" +
	"0000000009 00000 n \n0000000058 00000 n \n0000000115 00000 n \ntrailer << /Size 4 /Root 1 0 R " +
	">>\nstartxref\n186\n%%EOF\n"

// hostileFile is a document of the hostile corpus, testdata/hostile, inflated if it is
// kept gzipped.
func hostileFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", name))
	if err == nil && strings.HasSuffix(name, ".gz") {
		var r *gzip.Reader
		if r, err = gzip.NewReader(bytes.NewReader(data)); err == nil {
			data, err = io.ReadAll(r)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pngEncode writes a 2 by 2 PNG image to w.
func pngEncode(w io.Writer) error { return png.Encode(w, image.NewGray(image.Rect(0, 0, 2, 2))) }
