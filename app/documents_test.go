package app

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"ethicsbot/letters"
)

// TestDocumentsHealth: /healthz's "documents" is ok while the documents are printed
// tagged, and "untagged", with what to do, without Chromium or for an hour after a
// document was drawn untagged.
func TestDocumentsHealth(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	missing := &TaggedDocs{log: quiet, missing: "no Chromium is installed: install Debian's chromium package"}
	if state, why := missing.part().Check(time.Now()); state != "untagged" || !strings.Contains(why, "chromium") {
		t.Errorf("without Chromium: %q, %q", state, why)
	}
	docs := &TaggedDocs{log: quiet, engine: letters.NewChromium("/usr/bin/chromium")}
	check := docs.part().Check
	if state, why := check(time.Now()); state != "ok" || why != "" {
		t.Errorf("with Chromium: %q, %q", state, why)
	}
	docs.untagged(errors.New("Agenda of the meeting of 2027-01-12: Chromium could not print the document"))
	if state, why := check(time.Now()); state != "untagged" || !strings.Contains(why, "2027-01-12") {
		t.Errorf("after a document drawn untagged: %q, %q", state, why)
	}
	if state, _ := check(time.Now().Add(2 * untaggedFor)); state != "ok" {
		t.Errorf("long after: %q", state)
	}
}
