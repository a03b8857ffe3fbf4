package bot_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
)

// TestSlackFiles: a shared file is known by files.info (its name, size and private
// download address) and downloaded from there with the bot's token; the download stops
// past the limit, and Slack's refusal is said.
func TestSlackFiles(t *testing.T) {
	pdf := []byte("%PDF-1.4\nthe complaint\n%%EOF\n")
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/files.info":
			r.ParseForm()
			w.Header().Set("Content-Type", "application/json")
			if r.Form.Get("file") != "F1" {
				fmt.Fprint(w, `{"ok":false,"error":"file_not_found"}`)
				return
			}
			fmt.Fprintf(w,
				`{"ok":true,"file":{"id":"F1","name":"complaint.pdf","size":%d,"url_private_download":"%s/files-pri/T1-F1/download/complaint.pdf"}}`, len(pdf), srv.URL)
		case r.URL.Path == "/files-pri/T1-F1/download/complaint.pdf":
			if r.Header.Get("Authorization") != "Bearer xoxb-test" {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			w.Write(pdf)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	f := bot.SlackFiles{API: slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/api/"))}
	ctx := context.Background()
	name, size, err := f.Info(ctx, "F1")
	if err != nil || name != "complaint.pdf" || size != int64(len(pdf)) {
		t.Fatalf("Info = %q %d %v", name, size, err)
	}
	data, err := f.Download(ctx, "F1", 1000)
	if err != nil || string(data) != string(pdf) {
		t.Fatalf("Download = %q %v", data, err)
	}
	if _, err := f.Download(ctx, "F1", 10); err == nil ||
		!strings.Contains(err.Error(), "larger than the limit of 10 bytes") {
		t.Errorf("past the limit: %v", err)
	}
	if _, _, err := f.Info(ctx, "F9"); err == nil || !strings.Contains(err.Error(), "file_not_found") {
		t.Errorf("a file Slack does not give: %v", err)
	}
}

// TestAttachShortcut is the message shortcut in Slack: on a message sharing files in the
// docket channel, it opens the attach form (views.open with the trigger); elsewhere it
// answers through the response_url and opens nothing.
func TestAttachShortcut(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	shortcut := func(channel string) slack.InteractionCallback {
		cb := slack.InteractionCallback{Type: slack.InteractionTypeMessageAction, CallbackID: "ethics_attach",
			TriggerID: "T123", ResponseURL: e.slack.URL + "/response/1"}
		cb.User.ID, cb.Channel.ID = "U2147483697", channel
		cb.Message.Files = []slack.File{{ID: "F1"}, {ID: "F2"}}
		return cb
	}
	e.app.Interaction(ctx, shortcut("C_DOCKET"))
	calls := e.slack.wait(t, 1)
	if calls[0].Method != "views.open" || !strings.Contains(fmt.Sprint(calls[0].Fields["view"]), `F1,F2`) {
		t.Fatalf("calls %+v", calls)
	}
	e.app.Interaction(ctx, shortcut("C_GENERAL"))
	calls = e.slack.wait(t, 2)
	if calls[1].Method != "response_url" {
		t.Fatalf("elsewhere: %+v", calls[1])
	}
}

// TestLocalFiles: in the console, /ethics attach reads files of this machine by path:
// a regular file, within the limit; a folder or a missing path is refused.
func TestLocalFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "complaint.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4\n%%EOF\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var f bot.LocalFiles
	if name, size, err := f.Info(context.Background(), path); err != nil || name != "complaint.pdf" || size != 15 {
		t.Errorf("Info: %q %d %v", name, size, err)
	}
	if b, err := f.Download(context.Background(), path, 100); err != nil || string(b) != "%PDF-1.4\n%%EOF\n" {
		t.Errorf("Download: %q %v", b, err)
	}
	if _, err := f.Download(context.Background(), path, 10); err == nil {
		t.Error("a file over the limit was read whole")
	}
	fifo := filepath.Join(dir, "pipe.pdf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "nothere.pdf"), fifo} {
		if _, _, err := f.Info(context.Background(), bad); err == nil {
			t.Errorf("Info(%s) accepted", bad)
		}
		if _, err := f.Download(context.Background(), bad, 100); err == nil {
			t.Errorf("Download(%s) accepted", bad)
		}
	}
}
