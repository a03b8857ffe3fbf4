// Package mailer says the outbox's e-mail through the city's SMTP relay: the copies of the
// commission's meeting notices for the news media that asked for them (5 ILCS
// 120/2.02(b)). It is the outbox.Sender for e-mail destinations (outbox.Dest.Mail).
//
// SMTP has no idempotency: a relay cannot be asked whether it already took a message. The
// outbox marks a post sent as soon as the relay has answered 250 to the end of its DATA;
// a crash in the moment between that answer and the mark sends the copy again after the
// restart. Each copy's Message-ID is derived from its outbox key, so a copy sent twice is
// the same message twice, which the recipient's mail system can recognise; see
// docs/setup.md, "E-mail".
package mailer

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"ethicsbot/outbox"
)

// Security is how the connection to the relay is protected.
type Security string

// The ways to the relay.
const (
	// STARTTLS requires the relay to offer STARTTLS and uses it (port 587 by default): the
	// default, since the password and the copies must not cross the network in clear.
	STARTTLS Security = "starttls"
	// TLS connects with TLS from the first byte (SMTPS, port 465 by default).
	TLS Security = "tls"
	// Opportunistic uses STARTTLS if the relay offers it, and goes on in clear if not.
	Opportunistic Security = "opportunistic"
	// None never encrypts: only for a relay on this machine or a network that is trusted.
	None Security = "none"
)

// Securities are the ways to the relay a configuration may name.
var Securities = []Security{STARTTLS, TLS, Opportunistic, None}

// DefaultTimeout bounds one message's whole exchange with the relay, from the connection
// to the answer to its DATA.
const DefaultTimeout = 30 * time.Second

// Config is the relay and how ethicsbot signs in to it.
type Config struct {
	Host     string
	Port     int      // 0: 587 for STARTTLS, 465 for TLS, 25 otherwise
	From     string   // the sender, "Ethics Commission <ethics@city.example>"
	Username string   // "" for a relay that takes mail without signing in
	Password string   // from ETHICSBOT_SMTP_PASSWORD (a file or a systemd credential)
	Security Security // STARTTLS when ""
	// CAFile, if set, is a PEM file of the certificate authorities that sign the relay's
	// certificate, for a relay whose certificate a private authority of the city signed.
	CAFile  string
	Timeout time.Duration // DefaultTimeout when 0
}

// Enabled reports whether a relay is configured.
func (c Config) Enabled() bool { return c.Host != "" }

// DefaultPort is the relay's port when none is given.
func (c Config) DefaultPort() int {
	switch c.security() {
	case STARTTLS:
		return 587
	case TLS:
		return 465
	}
	return 25
}

func (c Config) security() Security {
	if c.Security == "" {
		return STARTTLS
	}
	return c.Security
}

// Check checks the configuration without connecting or reading a file: a host, a known
// security, a sender that is one plain address, and a password only with a user name. New
// reads the CA file.
func (c Config) Check() error {
	if c.Host == "" {
		return errors.New("host is missing: give the city's SMTP relay, e.g. smtp.city.example")
	}
	if strings.ContainsAny(c.Host, " /:@") {
		return fmt.Errorf("host %q is not a host name such as smtp.city.example (give the port as port:)", c.Host)
	}
	if c.Port < 0 || c.Port > 65535 {
		return fmt.Errorf("port %d is not a TCP port", c.Port)
	}
	known := false
	for _, s := range Securities {
		known = known || c.security() == s
	}
	if !known {
		return fmt.Errorf("security %q is not one of starttls (the default), tls, opportunistic or none", c.Security)
	}
	if _, err := c.from(); err != nil {
		return err
	}
	if c.Username == "" && c.Password != "" {
		return errors.New("a password is given (ETHICSBOT_SMTP_PASSWORD) but no username: give the relay's user name")
	}
	return nil
}

// from reads the sender.
func (c Config) from() (*mail.Address, error) {
	a, err := mail.ParseAddress(c.From)
	if err != nil || strings.Count(a.Address, "@") != 1 {
		return nil, fmt.Errorf("from %q is not a sender such as \"Ethics Commission <ethics@city.example>\"", c.From)
	}
	return a, nil
}

// roots reads CAFile.
func (c Config) roots() (*x509.CertPool, error) {
	b, err := os.ReadFile(c.CAFile)
	if err != nil {
		return nil, fmt.Errorf("ca_file: cannot read %s: %v", c.CAFile, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("ca_file: %s holds no PEM certificate", c.CAFile)
	}
	return pool, nil
}

// Sender sends e-mail through the relay; it is an outbox.Sender for e-mail destinations.
type Sender struct {
	Config Config
	Log    *slog.Logger
	// Now is the clock of the messages' Date header; time.Now when nil.
	Now func() time.Time

	roots *x509.CertPool // Config.CAFile's, read by New
}

// New returns a Sender for c, or why c cannot be used: a configuration Check refuses, a
// user name without a password, or a CA file that cannot be read.
func New(c Config, log *slog.Logger) (*Sender, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if c.Username != "" && c.Password == "" {
		return nil, errors.New("smtp.username is set but no password is given: give it as ETHICSBOT_SMTP_PASSWORD_FILE, " +
			"the systemd credential smtp-password, or ETHICSBOT_SMTP_PASSWORD (docs/setup.md, \"E-mail\")")
	}
	s := &Sender{Config: c, Log: log}
	if c.CAFile != "" {
		var err error
		if s.roots, err = c.roots(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// MessageID is the Message-ID of the message keyed k, without its angle brackets: a hash
// of the key, at the sender's domain. It is the same at every attempt, so that a copy sent
// again after a crash is recognisably the same message.
func MessageID(k outbox.Key, fromDomain string) string {
	sum := sha256.Sum256([]byte(k.String()))
	return "ethicsbot." + hex.EncodeToString(sum[:16]) + "@" + fromDomain
}

// Subject is the subject of an e-mail saying text: its first line, cut at a word to at
// most 150 characters.
func Subject(text outbox.Markup) string {
	line, _, _ := strings.Cut(text.Text(), "\n")
	line = strings.TrimSpace(line)
	r := []rune(line)
	if len(r) <= 150 {
		return line
	}
	cut := string(r[:150])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + " …"
}

// Send e-mails text to to, as one message with its own connection, and returns the
// address and the message's Message-ID, which the outbox records. It returns once the
// relay has answered the end of the message's DATA: the connection is closed after, so
// that the outbox's mark follows the relay's acceptance as closely as it can. An error
// wraps outbox.ErrRelayUnreachable when the relay cannot be reached, and is an
// *outbox.Refusal when the relay refuses for good (a 5xx reply).
func (s *Sender) Send(ctx context.Context, to outbox.Dest, text outbox.Markup, key outbox.Key) (string, string, error) {
	if !to.IsMail() {
		return "", "", fmt.Errorf("mailer: %s is not an e-mail address", to)
	}
	from, err := s.Config.from()
	if err != nil {
		return "", "", err
	}
	id := MessageID(key, from.Address[strings.LastIndexByte(from.Address, '@')+1:])
	msg := gomail.NewMsg()
	if err := msg.From(from.String()); err != nil {
		return "", "", fmt.Errorf("mailer: from: %w", err)
	}
	if err := msg.To(to.Mail); err != nil {
		return "", "", s.refusal("address", to, err)
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	msg.Subject(Subject(text))
	msg.SetMessageIDWithValue(id)
	msg.SetDateWithValue(now())
	// RFC 3834: sent by a program, so that no vacation message answers it.
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	msg.SetBodyString(gomail.TypeTextPlain, text.Text()+"\n")

	client, err := s.client()
	if err != nil {
		return "", "", err
	}
	timeout := s.Config.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return "", "", s.dialError(err)
	}
	err = client.SendWithSMTPClient(conn, msg)
	// The relay has the message once it answered its DATA, whatever happens after (the
	// QUIT, a dropped connection): it must not be sent again.
	delivered := msg.IsDelivered()
	go func() {
		if cerr := client.CloseWithSMTPClient(conn); cerr != nil && s.Log != nil && delivered {
			s.Log.Debug("the SMTP relay took the message; closing the connection after failed", "err", cerr)
		}
	}()
	if delivered {
		return to.String(), "<" + id + ">", nil
	}
	return "", "", s.sendError(to, err)
}

// Find cannot look into a relay's past: it reports the message not found, and the outbox
// sends it again, with the same Message-ID.
func (s *Sender) Find(context.Context, outbox.Dest, outbox.Key, time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// client is a go-mail client for the configuration: one per message, so that nothing is
// shared between a message and the closing of the one before.
func (s *Sender) client() (*gomail.Client, error) {
	c := s.Config
	port := c.Port
	if port == 0 {
		port = c.DefaultPort()
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tc := &tls.Config{ServerName: c.Host, MinVersion: tls.VersionTLS12, RootCAs: s.roots}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(timeout), gomail.WithTLSConfig(tc),
		gomail.WithoutNoop()}
	switch c.security() {
	case STARTTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case TLS:
		opts = append(opts, gomail.WithSSL())
	case Opportunistic:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case None:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if c.Username != "" {
		// The strongest mechanism the relay offers over TLS; without TLS, PLAIN, which the
		// SMTP client sends in clear only to a relay on this machine.
		auth := gomail.SMTPAuthAutoDiscover
		if c.security() == None {
			auth = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(auth), gomail.WithUsername(c.Username), gomail.WithPassword(c.Password))
	}
	client, err := gomail.NewClient(c.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("mailer: %w", err)
	}
	return client, nil
}

// code is the SMTP reply code in err, 0 if there is none.
func code(err error) int {
	var tp *textproto.Error
	if errors.As(err, &tp) {
		return tp.Code
	}
	var se *gomail.SendError
	if errors.As(err, &se) {
		return se.ErrorCode()
	}
	// go-mail's SMTP client reports some replies as text alone: "535 5.7.8 ...".
	msg := err.Error()
	for _, f := range strings.Fields(msg) {
		if n, err := strconv.Atoi(f); err == nil && n >= 400 && n < 600 {
			return n
		}
	}
	return 0
}

// dialError is the error of a connection that failed: a sign-in the relay refused (5xx)
// is a Refusal that holds every e-mail; anything else is the relay out of reach, tried
// again at the next drain.
func (s *Sender) dialError(err error) error {
	var ne net.Error
	if !errors.As(err, &ne) && code(err) >= 500 && s.Config.Username != "" {
		return &outbox.Refusal{Code: "smtp_" + strconv.Itoa(code(err)),
			Why: "the SMTP relay refused ethicsbot's sign-in: " + oneLine(err),
			Fix: outbox.Format("check smtp.username in ethicsbot.yml and the password (ETHICSBOT_SMTP_PASSWORD_FILE) with " +
				"the city's IT, then reload ethicsbot"),
			Relay: true}
	}
	return fmt.Errorf("%w (%s:%d): %s", outbox.ErrRelayUnreachable, s.Config.Host, s.port(), oneLine(err))
}

func (s *Sender) port() int {
	if s.Config.Port != 0 {
		return s.Config.Port
	}
	return s.Config.DefaultPort()
}

// sendError is the error of a message the relay did not take: a 5xx reply is a Refusal
// (of the address at RCPT, of the sender at MAIL FROM, of the message at DATA); a 4xx
// reply, or a connection lost, is tried again at the next drain.
func (s *Sender) sendError(to outbox.Dest, err error) error {
	var se *gomail.SendError
	if errors.As(err, &se) && !se.IsTemp() && se.ErrorCode() >= 500 {
		switch se.Reason {
		case gomail.ErrSMTPRcptTo:
			return s.refusal("address", to, err)
		case gomail.ErrSMTPMailFrom:
			return &outbox.Refusal{Code: "smtp_" + strconv.Itoa(se.ErrorCode()),
				Why:   "the SMTP relay refused the sender " + s.Config.From + ": " + oneLine(err),
				Fix:   outbox.Format("ask the city's IT which sender the relay takes from ethicsbot, and set smtp.from to it"),
				Relay: true}
		}
		return s.refusal("message", to, err)
	}
	if errors.As(err, &se) && (se.Reason == gomail.ErrConnCheck || se.Reason == gomail.ErrSMTPReset) {
		return fmt.Errorf("%w (%s:%d): %s", outbox.ErrRelayUnreachable, s.Config.Host, s.port(), oneLine(err))
	}
	return fmt.Errorf("the SMTP relay did not take the message to %s: %s", to.Mail, oneLine(err))
}

// refusal is the relay's refusal of the address to, or of the message to it.
func (s *Sender) refusal(what string, to outbox.Dest, err error) error {
	c := code(err)
	if c == 0 {
		c = 550
	}
	ref := &outbox.Refusal{Code: "smtp_" + strconv.Itoa(c),
		Why: "the SMTP relay refused the address " + to.Mail + ": " + oneLine(err),
		Fix: outbox.Format("check the address with the news medium; if it changed, record its request again with the new " +
			"address (`/ethics media withdraw` then `/ethics media add`), and send this copy by hand")}
	if what == "message" {
		ref.Why = "the SMTP relay refused the message to " + to.Mail + ": " + oneLine(err)
		ref.Fix = outbox.Format("ask the city's IT why the relay refused it (its log names the message's Message-ID), and " +
			"send this copy by hand")
	}
	return ref
}

// oneLine is err's text on one line.
func oneLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
