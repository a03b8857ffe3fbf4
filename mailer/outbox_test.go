package mailer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/mailer"
	"ethicsbot/mailer/mailpittest"
	"ethicsbot/outbox"
	"ethicsbot/store"
)

// slack is the deliverer's Slack for these tests: it keeps what it was asked to say.
type slack struct{ said []outbox.Key }

func (s *slack) Send(_ context.Context, to outbox.Dest, _ outbox.Markup, k outbox.Key) (string, string, error) {
	s.said = append(s.said, k)
	return to.Channel + to.User, "1.1", nil
}

func (s *slack) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// record opens the record at path.
func record(t *testing.T, path string) *store.Store {
	t.Helper()
	cal, err := docket.NewCalendar(docket.CalendarConfig{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queueCopies records three news media's requests and a meeting notice that asks for
// their copies: three copies to e-mail.
func queueCopies(t *testing.T, db *store.Store, now time.Time) {
	t.Helper()
	today := docket.NewDate(now.Year(), now.Month(), now.Day())
	for _, e := range []string{"a@example.org", "b@example.org", "c@example.org"} {
		if _, _, err := db.AddMediaRequest(context.Background(), "U_CLERK", now, today,
			docket.MediaRequest{Name: e, Email: e, Filed: today, Year: now.Year()}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Enqueue(context.Background(), []outbox.Post{{
		Key:  outbox.Key{Series: outbox.MeetingSeries, Step: "2026-12-15.1.0", To: outbox.Dest{Channel: "C_NOTICES"}},
		Text: "PUBLIC NOTICE. Ethics Commission, special meeting on Tue 15 Dec 2026 at 17:00 CST.", Due: now,
		Media: &outbox.MediaCopies{Years: []int{now.Year()}}}}); err != nil {
		t.Fatal(err)
	}
}

func mailRows(t *testing.T, db *store.Store) []outbox.Row {
	t.Helper()
	all, err := db.Outbox(context.Background())
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

// TestDelivererMailsEachCopyOnce: the outbox's deliverer, with Mailpit as the relay, says
// the notice in Slack at once whatever the relay does; holds every e-mail after one
// attempt when the relay is down; tells the clerks once when it refuses an address for
// good; and, restarted with copies claimed and not sent, sends each copy exactly once.
func TestDelivererMailsEachCopyOnce(t *testing.T) {
	mp := mailpittest.Start(t)
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	db := record(t, path)
	queueCopies(t, db, now)
	sl := &slack{}
	deliverer := func(db *store.Store) *outbox.Deliverer {
		return &outbox.Deliverer{Store: db, Sender: sl, Mail: sender(mp.SMTPPort),
			Alert: []outbox.Dest{{User: "U_CLERK"}}}
	}
	ctx := context.Background()

	// Down: one attempt; the other copies are held back without one; Slack goes on.
	mp.Stop()
	st, err := deliverer(db).Drain(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	rows := mailRows(t, db)
	attempts := 0
	for _, r := range rows {
		attempts += r.Attempts
		if !r.Sent.IsZero() || r.LastError == "" {
			t.Errorf("with the relay down %s: %+v", r.Key, r)
		}
	}
	if attempts != 1 || st.Failed != 1 || len(sl.said) != 1 {
		t.Fatalf("relay down: %d attempts, %+v, Slack said %v; want 1 attempt and the notice in Slack", attempts, st,
			sl.said)
	}
	if !strings.Contains(rows[1].LastError, "held back: the SMTP relay could not be reached") {
		t.Errorf("a copy behind the relay that is down: %q", rows[1].LastError)
	}

	// Refused for good: the clerks are told, once per copy refused.
	mp.Restart()
	mp.Refuse(550)
	if _, err := deliverer(db).Drain(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	alerts := 0
	for _, k := range sl.said {
		if k.Series == outbox.AlertSeries && k.To.User == "U_CLERK" {
			alerts++
		}
	}
	if alerts != 3 {
		t.Fatalf("%d alerts to the clerk, want one per refused copy: %v", alerts, sl.said)
	}

	// Restart: a new process on the same file; every copy was claimed and none sent.
	db.Close()
	db = record(t, path)
	mp.Refuse(0)
	if _, err := deliverer(db).Drain(ctx, now.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := deliverer(db).Drain(ctx, now.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	count := mp.Count()
	for _, r := range mailRows(t, db) {
		if got := count[mailer.MessageID(r.Key, "city.example")]; got != 1 || r.Sent.IsZero() {
			t.Errorf("%s: received %d times, sent %v", r.Key, got, r.Sent)
		}
	}
	if len(count) != 3 {
		t.Errorf("Mailpit holds %v", count)
	}
}

// TestCrashAfterTheRelayTookACopy shows the window SMTP leaves open (docs/setup.md,
// "E-mail"): a crash after the relay answered 250 to a copy and before the outbox marked it
// sent sends that copy again after the restart, with the same Message-ID, so that the
// recipient's mail system can tell it is the same message. It is the only way a copy goes
// twice.
func TestCrashAfterTheRelayTookACopy(t *testing.T) {
	mp := mailpittest.Start(t)
	path := filepath.Join(t.TempDir(), "ethicsbot.db")
	now := time.Date(2026, 12, 4, 16, 30, 0, 0, time.UTC)
	db := record(t, path)
	queueCopies(t, db, now)
	ctx := context.Background()
	rows := mailRows(t, db)
	// The crash: claimed, handed to the relay, never marked.
	r := rows[0]
	if _, held, err := db.Claim(ctx, r.Key, now); err != nil || !held {
		t.Fatal(held, err)
	}
	if _, _, err := sender(mp.SMTPPort).Send(ctx, r.Key.To, r.Text, r.Key); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = record(t, path)
	d := &outbox.Deliverer{Store: db, Sender: &slack{}, Mail: sender(mp.SMTPPort)}
	if _, err := d.Drain(ctx, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	count := mp.Count()
	if got := count[mailer.MessageID(r.Key, "city.example")]; got != 2 {
		t.Errorf("the copy in the window was received %d times, want twice with one Message-ID", got)
	}
	for _, o := range rows[1:] {
		if got := count[mailer.MessageID(o.Key, "city.example")]; got != 1 {
			t.Errorf("%s was received %d times, want once", o.Key, got)
		}
	}
}
