package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/mailer"
	"ethicsbot/mailer/mailpittest"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// TestMediaNoticesThroughRefusalAndRestart runs ethicsbot in HTTP mode against Mailpit, a
// real SMTP server, with two news media's requests on record (5 ILCS 120/2.02(b)), and
// schedules meetings while the relay refuses every recipient for a while (451), is down,
// refuses for good (550, which tells the clerks), and takes mail again; ethicsbot is
// killed with SIGKILL in each phase, with copies claimed and not sent, and once more
// between sends, and restarted. In the end every copy of every meeting notice reached
// Mailpit exactly once, counted by its Message-ID, and Mailpit holds nothing else.
func TestMediaNoticesThroughRefusalAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot and Mailpit in child processes")
	}
	mp := mailpittest.Start(t)
	slackAPI := apptest.NewRecordingSlack(t)
	dir := t.TempDir()
	_, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople+fmt.Sprintf(
		"smtp: {host: 127.0.0.1, port: %d, security: none, from: \"Ethics Commission <ethics@city.example>\"}\n",
		mp.SMTPPort))
	dbPath := filepath.Join(dir, "ethicsbot.db")
	addr := apptest.FreeAddr(t)
	engine, err := config.Default().Engine()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// rows reads the outbox's e-mailed copies, read only beside the running bot.
	rows := func() []outbox.Row {
		t.Helper()
		db, err := store.OpenReadOnly(dbPath, engine)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		all, err := db.Outbox(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []outbox.Row
		for _, r := range all {
			if r.Key.To.IsMail() {
				out = append(out, r)
			}
		}
		return out
	}
	// waitFor waits until ok holds of the copies, or fails the test with what.
	waitFor := func(srv *apptest.Server, what string, ok func([]outbox.Row) bool) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if rs := rows(); ok(rs) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: never happened; copies %+v\n%s", what, rows(), srv.Stderr.String())
			}
		}
	}
	// tried says whether every meeting's copies are on record, none went, and the relay was
	// tried again since the attempts counted before (the copies behind the first to each
	// address wait, in order).
	attempts := func(rs []outbox.Row) int {
		a := 0
		for _, r := range rs {
			a += r.Attempts
		}
		return a
	}
	n := 0
	tried := func(before int) func([]outbox.Row) bool {
		return func(rs []outbox.Row) bool {
			for _, r := range rs {
				if !r.Sent.IsZero() {
					return false
				}
			}
			return attempts(rs) > before && len(rs) == 2*n
		}
	}
	kill := func(srv *apptest.Server) {
		srv.Cmd.Process.Signal(syscall.SIGKILL)
		<-srv.Exited
	}
	meeting := func(srv *apptest.Server) {
		t.Helper()
		n++
		c, ok := srv.File(n)
		if !ok || !srv.Schedule(c, n) {
			t.Fatalf("case %d was not filed and scheduled: %s", n, srv.Stderr.String())
		}
	}

	srv := apptest.StartServer(t, env, addr)
	for _, add := range []string{`media add name="Springfield Register" email=news@example.org`,
		`media add name="Capitol Radio" email=desk@radio.example`} {
		if reply, ok := srv.Slash("media-"+add[15:20], add); !ok || !strings.Contains(reply, "Recorded request") {
			t.Fatalf("/ethics %s: %q\n%s", add, reply, srv.Stderr.String())
		}
	}

	// 1. The relay refuses every recipient for now (451): the copies are claimed, tried and
	// not sent; ethicsbot is killed with them in flight.
	mp.Refuse(451)
	meeting(srv)
	meeting(srv)
	waitFor(srv, "the copies tried against a refusing relay", tried(0))
	kill(srv)

	// 2. The relay is down: after the restart, its copies and a new meeting's wait.
	mp.Stop()
	before := attempts(rows())
	srv = apptest.StartServer(t, env, addr)
	meeting(srv)
	waitFor(srv, "the copies tried against a relay that is down", tried(before))
	kill(srv)

	// 3. The relay refuses for good (550): the clerks are told, and the copies wait.
	mp.Restart()
	mp.Refuse(550)
	srv = apptest.StartServer(t, env, addr)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		alerted := false
		for _, m := range slackAPI.Keys() {
			alerted = alerted || strings.Contains(m[0].Text, "The SMTP relay refused it: `smtp_550`")
		}
		if alerted {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clerks were not told of the refusal\n%s", srv.Stderr.String())
		}
	}
	if got := len(mp.Messages()); got != 0 {
		t.Fatalf("a refusing relay holds %d messages", got)
	}
	kill(srv)

	// 4. The relay takes mail again: the restart delivers what waited; then a meeting more,
	// a kill between sends once all is delivered, and a last restart.
	mp.Refuse(0)
	srv = apptest.StartServer(t, env, addr)
	meeting(srv)
	sent := func(rs []outbox.Row) bool {
		for _, r := range rs {
			if r.Sent.IsZero() {
				return false
			}
		}
		return true
	}
	waitFor(srv, "every copy delivered", sent)
	kill(srv)
	srv = apptest.StartServer(t, env, addr)
	meeting(srv)
	waitFor(srv, "every copy delivered after the last restart", sent)
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.Exited; err != nil {
		t.Fatalf("did not stop cleanly: %v\n%s", err, srv.Stderr.String())
	}

	// Each copy once: one message per copy on record, by its Message-ID, and no other.
	copies := rows()
	if want := 2 * n; len(copies) != want {
		t.Fatalf("%d copies on record, want %d (%d meetings, 2 media)", len(copies), want, n)
	}
	count := mp.Count()
	total := 0
	for _, c := range count {
		total += c
	}
	for _, r := range copies {
		id := mailer.MessageID(r.Key, "city.example")
		if got := count[id]; got != 1 || r.Sent.IsZero() || r.TS != "<"+id+">" {
			t.Errorf("%s reached the relay %d times (marked sent %v, recorded as %q)", r.Key, got, !r.Sent.IsZero(), r.TS)
		}
	}
	if total != len(copies) {
		t.Errorf("Mailpit holds %d messages for %d copies", total, len(copies))
	}
	t.Logf("%d meetings, 2 media: %d copies, each received once, through a refusing relay, a relay down, a relay that "+
		"refused for good and four SIGKILLs", n, len(copies))
}
