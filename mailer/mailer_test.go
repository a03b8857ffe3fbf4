package mailer_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"ethicsbot/mailer"
	"ethicsbot/mailer/mailpittest"
	"ethicsbot/outbox"
)

func sender(port int) *mailer.Sender {
	return &mailer.Sender{Config: mailer.Config{Host: "127.0.0.1", Port: port, Security: mailer.None,
		From: "Ethics Commission <ethics@city.example>", Timeout: 5 * time.Second}}
}

var notice = outbox.Markup("PUBLIC NOTICE. Ethics Commission, special meeting on Tue 12 Jan 2027 at 17:00 CST at " +
	"City Hall &amp; Annex. Agenda: 1. Case 2026-014. Open to the public.\n\nSee <https://ethics.example.gov/|the board>.")

func TestSendToMailpit(t *testing.T) {
	mp := mailpittest.Start(t)
	s := sender(mp.SMTPPort)
	key := outbox.MediaCopyKey(outbox.Key{Series: outbox.MeetingSeries, Step: "2027-01-12.1.0",
		To: outbox.Dest{Channel: "C0NOTICE1"}}, outbox.Dest{Mail: "news@example.org"})
	ch, id, err := s.Send(context.Background(), key.To, notice, key)
	if err != nil {
		t.Fatal(err)
	}
	want := "<" + mailer.MessageID(key, "city.example") + ">"
	if ch != "mailto:news@example.org" || id != want {
		t.Fatalf("Send = %q, %q; want mailto:news@example.org, %q", ch, id, want)
	}
	msgs := mp.Messages()
	if len(msgs) != 1 {
		t.Fatalf("mailpit has %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if "<"+m.MessageID+">" != want || m.To[0].Address != "news@example.org" ||
		m.Subject != "PUBLIC NOTICE. Ethics Commission, special meeting on Tue 12 Jan 2027 at 17:00 CST at City Hall & "+
			"Annex. Agenda: 1. Case 2026-014. Open to the public." {
		t.Fatalf("received %+v", m)
	}
	text := mp.Text(m.ID)
	if !strings.Contains(text, "City Hall & Annex") || !strings.Contains(text, "the board (https://ethics.example.gov/)") {
		t.Errorf("the body is not the notice as plain text:\n%s", text)
	}
	if raw := mp.Raw(m.ID); !strings.Contains(raw, "Auto-Submitted: auto-generated") {
		t.Errorf("no Auto-Submitted header:\n%s", raw)
	}
	// The same key, sent again (after a crash between the relay's answer and the outbox's
	// mark), is the same message: Mailpit holds two with one Message-ID.
	if _, _, err := s.Send(context.Background(), key.To, notice, key); err != nil {
		t.Fatal(err)
	}
	if n := mp.Count()[strings.Trim(want, "<>")]; n != 2 {
		t.Fatalf("%d messages with the Message-ID, want 2", n)
	}
}

func TestRelayRefuses(t *testing.T) {
	mp := mailpittest.Start(t)
	s := sender(mp.SMTPPort)
	to := outbox.Dest{Mail: "news@example.org"}
	key := outbox.Key{Series: outbox.MediaSeries, Step: "x", To: to}

	mp.Refuse(550)
	_, _, err := s.Send(context.Background(), to, notice, key)
	var ref *outbox.Refusal
	if !errors.As(err, &ref) || ref.Code != "smtp_550" || ref.Relay || !strings.Contains(ref.Why, "news@example.org") {
		t.Fatalf("a 550 to the recipient gave %v (%#v), want a refusal of the address", err, ref)
	}
	if errors.Is(err, outbox.ErrRelayUnreachable) {
		t.Fatal("a refused address holds every e-mail")
	}

	mp.Refuse(451)
	_, _, err = s.Send(context.Background(), to, notice, key)
	if err == nil || errors.As(err, &ref) || errors.Is(err, outbox.ErrRelayUnreachable) {
		t.Fatalf("a 451 gave %v, want an error to retry, neither a refusal nor the relay out of reach", err)
	}

	mp.Refuse(0)
	if _, _, err := s.Send(context.Background(), to, notice, key); err != nil {
		t.Fatal(err)
	}
	if n := len(mp.Messages()); n != 1 {
		t.Fatalf("mailpit took %d messages, want only the one sent after the refusals", n)
	}
}

func TestRelayDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now
	to := outbox.Dest{Mail: "news@example.org"}
	_, _, err = sender(port).Send(context.Background(), to, notice, outbox.Key{Series: "x", Step: "y", To: to})
	if !errors.Is(err, outbox.ErrRelayUnreachable) {
		t.Fatalf("a closed port gave %v, want ErrRelayUnreachable", err)
	}
}

// TestSTARTTLSRequired: with the default security, a relay that offers no STARTTLS gets
// nothing, rather than the copies and the password in clear.
func TestSTARTTLSRequired(t *testing.T) {
	mp := mailpittest.Start(t)
	s := sender(mp.SMTPPort)
	s.Config.Security = ""
	to := outbox.Dest{Mail: "news@example.org"}
	_, _, err := s.Send(context.Background(), to, notice, outbox.Key{Series: "x", Step: "y", To: to})
	if !errors.Is(err, outbox.ErrRelayUnreachable) {
		t.Fatalf("a relay without STARTTLS gave %v, want ErrRelayUnreachable", err)
	}
	if n := len(mp.Messages()); n != 0 {
		t.Fatalf("%d messages went in clear", n)
	}
}

// TestNewRefuses: what Check cannot see without the environment and the disk.
func TestNewRefuses(t *testing.T) {
	ok := mailer.Config{Host: "smtp.city.example", From: "ethics@city.example"}
	for _, c := range []struct {
		name string
		edit func(*mailer.Config)
		want string
	}{
		{"NoPassword", func(c *mailer.Config) { c.Username = "ethicsbot" }, "no password is given"},
		{"CAFile", func(c *mailer.Config) { c.CAFile = "/nonexistent/ca.pem" }, "ca_file: cannot read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok
			c.edit(&cfg)
			if _, err := mailer.New(cfg, nil); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New() = %v, want %q", err, c.want)
			}
		})
	}
	if _, err := mailer.New(ok, nil); err != nil {
		t.Fatal(err)
	}
}

func TestSubjectIsCut(t *testing.T) {
	long := outbox.Markup(strings.Repeat("word ", 40) + "\nsecond line")
	got := mailer.Subject(long)
	if len([]rune(got)) > 152 || !strings.HasSuffix(got, "word …") {
		t.Fatalf("Subject = %q, want the first line cut at a word to 150 characters", got)
	}
}

func TestSignsIn(t *testing.T) {
	mp := mailpittest.Start(t)
	s := sender(mp.SMTPPort)
	s.Config.Username, s.Config.Password = "ethicsbot", "secret"
	to := outbox.Dest{Mail: "news@example.org"}
	if _, _, err := s.Send(context.Background(), to, notice, outbox.Key{Series: "x", Step: "y", To: to}); err != nil {
		t.Fatal(err)
	}
}

func TestConfigCheck(t *testing.T) {
	ok := mailer.Config{Host: "smtp.city.example", From: "Ethics Commission <ethics@city.example>"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(*mailer.Config)
		want string
	}{
		{"NoHost", func(c *mailer.Config) { c.Host = "" }, "host is missing"},
		{"HostWithPort", func(c *mailer.Config) { c.Host = "smtp.city.example:587" }, "give the port as port:"},
		{"BadFrom", func(c *mailer.Config) { c.From = "ethics" }, "is not a sender"},
		{"Security", func(c *mailer.Config) { c.Security = "ssl" }, `security "ssl"`},
		{"PasswordAlone", func(c *mailer.Config) { c.Password = "x" }, "no username"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok
			c.edit(&cfg)
			if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check() = %v, want %q", err, c.want)
			}
		})
	}
}
