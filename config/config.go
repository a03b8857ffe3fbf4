// Package config is ethicsbot's configuration: the file ethicsbot.yml and the environment
// variables that override it, read and checked with errors that name the file, the line and
// the problem; who is who and where posts go; and what a reload (SIGHUP) changes.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	"go.yaml.in/yaml/v3"

	"ethicsbot/commands"
	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/mailer"
	"ethicsbot/reminders"
)

// DefaultPath is read when ETHICSBOT_CONFIG is not set, if it exists.
const DefaultPath = "ethicsbot.yml"

// DefaultDatabase is the database file unless ETHICSBOT_DB or the configuration moves it.
const DefaultDatabase = "ethicsbot.db"

// DefaultUndeliveredAfter is how long the oldest undelivered message may wait before
// /healthz says "degraded": long enough for Slack's usual hiccups and ethicsbot's own
// retries, short enough that a meeting notice stuck for a quarter of an hour reaches a
// person well within the 48 hours' notice the Open Meetings Act asks (5 ILCS 120/2.02).
const DefaultUndeliveredAfter = 15 * time.Minute

// Config is ethicsbot's configuration, from ethicsbot.yml. Every field has a default, so an
// empty file, or none, configures this city's ordinance in America/Chicago.
type Config struct {
	Path      string // the file it came from; "" for the defaults
	Database  string // the SQLite file; ETHICSBOT_DB overrides it
	Roles     commands.Roles
	Channels  commands.Channels
	Voting    commands.Voting
	Reminders reminders.Policy
	Sweep     string // cron schedule of the reminder sweep
	Calendar  docket.CalendarConfig
	Ordinance docket.Ordinance
	Letters   letters.Config
	Mail      docket.MailPolicy // the next step after certified mail came back (mail:)
	// DocumentLimit is the largest document of a case file, in bytes (documents.max_mb).
	DocumentLimit int64
	// LettersOut is the folder where the console and `ethicsbot letters` write documents;
	// "" is a folder "ethicsbot-letters" beside the database (not "letters", the package).
	LettersOut string
	// PublicURL is where ethicsbot's web server (ETHICSBOT_ADDR) is reached from outside,
	// without a trailing slash: the start of each member's calendar feed address. Unset,
	// it is http://localhost at ETHICSBOT_ADDR's port (see withEnv).
	PublicURL string
	// UndeliveredAfter is how long the oldest undelivered message may wait before /healthz
	// says "degraded" (healthz.undelivered_after; DefaultUndeliveredAfter).
	UndeliveredAfter time.Duration
	// Regular is the year's schedule of regular meetings (meetings.regular; 5 ILCS 120/2.03).
	Regular docket.RegularSchedule
	// Deprecated are the warnings of the settings this release accepts in a form the next
	// refuses (deprecated.go), each at its line, saying what to change.
	Deprecated []string
	// SMTP is the city's SMTP relay, through which the news media's copies of the meeting
	// notices are e-mailed (smtp:; 5 ILCS 120/2.02(b)); zero when none is configured. Its
	// password comes from the environment (SMTPPasswordEnv).
	SMTP mailer.Config
}

// fileConfig is the file's layout.
type fileConfig struct {
	Database      string `yaml:"database"`
	PublicURL     string `yaml:"public_url"`
	Commissioners people `yaml:"commissioners"` // ids, or {id, name, title} (people.go)
	Clerk         people `yaml:"clerk"`         // one clerk, or a list
	Attorney      people `yaml:"attorney"`      // one
	Channels      struct {
		Docket  string `yaml:"docket"`
		Notices string `yaml:"notices"`
	} `yaml:"channels"`
	Timezone string `yaml:"timezone"`
	Voting   struct {
		Required *bool  `yaml:"required"`
		Quorum   *int   `yaml:"quorum"`
		Carry    string `yaml:"carry"`
	} `yaml:"voting"`
	Reminders struct {
		At           string             `yaml:"at"`
		DaysBefore   []int              `yaml:"days_before"`
		MentionAfter *int               `yaml:"mention_after"`
		NoticeLead   string             `yaml:"notice_lead"`
		MeetingLead  string             `yaml:"meeting_lead"`
		DigestAt     string             `yaml:"digest_at"`
		DigestWithin *int               `yaml:"digest_within"`
		Sweep        string             `yaml:"sweep"`
		To           fileReminderRoutes `yaml:"to"` // reminders.go
	} `yaml:"reminders"`
	Holidays struct {
		Remove   []string    `yaml:"remove"`
		Add      []string    `yaml:"add"`
		Closures []*yamlDate `yaml:"closures"` // pointers, so a null entry is seen, not dropped
		// Proclaimed are legal holidays the Governor proclaims (205 ILCS 630/17): unlike
		// closures, they extend periods counted in days (5 ILCS 70/1.11).
		Proclaimed []*yamlDate `yaml:"proclaimed"`
	} `yaml:"holidays"`
	Ordinance struct {
		Periods map[string]struct {
			Amount int         `yaml:"amount"`
			Unit   docket.Unit `yaml:"unit"`
		} `yaml:"periods"`
		Fines *struct {
			Min int `yaml:"min"`
			Max int `yaml:"max"`
		} `yaml:"fines"`
		Sections *struct {
			Hearing  string `yaml:"hearing"`
			Referral string `yaml:"referral"`
		} `yaml:"sections"`
	} `yaml:"ordinance"`
	Healthz struct {
		UndeliveredAfter string `yaml:"undelivered_after"`
	} `yaml:"healthz"`
	Letters struct {
		Commission fileAddressee `yaml:"commission"`
		Officer    fileAddressee `yaml:"officer"`
		Attorney   fileAddressee `yaml:"attorney"`
		Templates  string        `yaml:"templates"`
		Out        string        `yaml:"out"`
		Signers    fileSigners   `yaml:"signers"`  // people.go
		Officers   fileOfficers  `yaml:"officers"` // people.go
	} `yaml:"letters"`
	Mail      fileMail      `yaml:"mail"`
	Documents fileDocuments `yaml:"documents"`
	Meetings  fileMeetings  `yaml:"meetings"`  // meetings.go
	SMTP      fileSMTP      `yaml:"smtp"`      // smtp.go
	Payment   filePayment   `yaml:"payment"`   // payment.go
	Referrals fileReferrals `yaml:"referrals"` // referrals.go
}

// fileAddressee is a sender or recipient of letters in the file.
type fileAddressee struct {
	Name    string `yaml:"name"`
	Title   string `yaml:"title"`
	Address string `yaml:"address"`
}

// parseLetters applies the letters section to cfg. The templates are read now, so that a
// template that does not parse, or an override misnamed, stops ethicsbot at start with
// its line rather than at the first letter.
func parseLetters(cfg *Config, f fileConfig) error {
	l := f.Letters
	addr := func(a fileAddressee) letters.Addressee {
		// An address's lines are separated by new lines (a YAML block, address: |) or by
		// "|", as in a slash command (docket.AddressLines).
		return letters.Addressee{Name: strings.TrimSpace(a.Name), Title: strings.TrimSpace(a.Title),
			Address: docket.AddressLines(a.Address)}
	}
	cfg.Letters = letters.Config{Commission: addr(l.Commission), Officer: addr(l.Officer), Attorney: addr(l.Attorney),
		Templates: l.Templates}
	cfg.LettersOut = l.Out
	_, err := letters.New(cfg.Letters, time.UTC)
	return err
}

// LettersFor is the letters' configuration with the engine by which they count (F)'s
// window to demand a public hearing and a fine's due date, and state (H)'s range: the
// commission's own calendar and ordinance (holidays:, ordinance:, payment.due_days).
func (c Config) LettersFor(engine *docket.Engine) letters.Config {
	l := c.Letters
	l.Engine = engine
	return l
}

// LettersFolder is the folder documents are written to: letters.out, or "ethicsbot-letters" beside the
// database.
func (c Config) LettersFolder() string {
	if c.LettersOut != "" {
		return c.LettersOut
	}
	return filepath.Join(filepath.Dir(c.Database), "ethicsbot-letters")
}

// parseReminders applies the reminders section to cfg.
func parseReminders(cfg *Config, f fileConfig) error {
	r, p := f.Reminders, &cfg.Reminders
	for _, t := range []struct {
		name, value string
		dst         *time.Duration
	}{{"at", r.At, &p.At}, {"digest_at", r.DigestAt, &p.DigestAt}} {
		if t.value == "" {
			continue
		}
		clock, err := time.Parse("15:04", t.value)
		if err != nil {
			return fmt.Errorf("%s %q is not a time of day such as 09:00", t.name, t.value)
		}
		*t.dst = time.Duration(clock.Hour())*time.Hour + time.Duration(clock.Minute())*time.Minute
	}
	for _, d := range []struct {
		name, value string
		dst         *time.Duration
	}{{"notice_lead", r.NoticeLead, &p.NoticeLead}, {"meeting_lead", r.MeetingLead, &p.MeetingLead}} {
		if d.value == "" {
			continue
		}
		v, err := time.ParseDuration(d.value)
		if err != nil || v <= 0 || v > 14*24*time.Hour {
			return fmt.Errorf("%s %q is not a duration such as 24h or 90m, up to 14 days", d.name, d.value)
		}
		*d.dst = v
	}
	if r.DaysBefore != nil {
		for _, n := range r.DaysBefore {
			if n < 1 || n > 30 {
				return fmt.Errorf("days_before %d is not a number of business days from 1 to 30", n)
			}
		}
		p.DaysBefore = r.DaysBefore
	}
	for _, n := range []struct {
		name string
		v    *int
		dst  *int
	}{{"mention_after", r.MentionAfter, &p.MentionAfter}, {"digest_within", r.DigestWithin, &p.DigestWithin}} {
		if n.v == nil {
			continue
		}
		if *n.v < 0 || *n.v > 60 {
			return fmt.Errorf("%s %d is not a number of business days from 0 to 60", n.name, *n.v)
		}
		*n.dst = *n.v
	}
	if r.Sweep != "" {
		if _, err := cron.ParseStandard(r.Sweep); err != nil {
			return fmt.Errorf("sweep %q is not a cron schedule such as \"@every 1m\" or \"*/5 * * * *\": %v", r.Sweep, err)
		}
		cfg.Sweep = r.Sweep
	}
	return parseReminderRoutes(r.To, p)
}

// yamlDate is a date written YYYY-MM-DD; an impossible one is refused with its line.
type yamlDate struct{ docket.Date }

func (d *yamlDate) UnmarshalYAML(n *yaml.Node) error {
	v, err := docket.ParseDate(n.Value)
	if err != nil || n.Kind != yaml.ScalarNode {
		return lineError{n.Line, fmt.Sprintf("%q is not a date written YYYY-MM-DD", n.Value)}
	}
	d.Date = v
	return nil
}

// lineError is a problem at one line of the file.
type lineError struct {
	line int
	msg  string
}

func (e lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// Load reads the configuration named by ETHICSBOT_CONFIG, or ./ethicsbot.yml if that
// exists, or returns the defaults. Errors name the file, the line and the problem.
func Load(getenv func(string) string) (Config, error) {
	path, explicit := getenv("ETHICSBOT_CONFIG"), true
	if path == "" {
		path, explicit = DefaultPath, false
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !explicit {
		return Default().withEnv(getenv), nil
	}
	return Read(path, getenv)
}

// Read reads the configuration file at path: at start, and again on SIGHUP.
func Read(path string, getenv func(string) string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: cannot read it: %w", path, err)
	}
	cfg, err := Parse(b)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", path, err)
	}
	cfg.Path = path
	return cfg.withEnv(getenv), nil
}

// withEnv applies the settings the environment overrides.
func (c Config) withEnv(getenv func(string) string) Config {
	if db := getenv("ETHICSBOT_DB"); db != "" {
		c.Database = db
	}
	if c.PublicURL == "" {
		c.PublicURL = localURL(getenv("ETHICSBOT_ADDR"))
	}
	if c.SMTP.Enabled() {
		c.SMTP.Password = getenv(SMTPPasswordEnv)
	}
	return c
}

// localURL is the address of the web server listening on addr (ETHICSBOT_ADDR, default
// :3000) from the machine itself, for when public_url is not set: http://localhost:3000.
func localURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		host, port = "", "3000"
	}
	if host == "" || net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Engine builds the deadline engine the configuration describes.
func (c Config) Engine() (*docket.Engine, error) {
	cal, err := docket.NewCalendar(c.Calendar)
	if err != nil {
		return nil, err
	}
	return &docket.Engine{Cal: cal, Ord: c.Ordinance, Mail: c.Mail}, nil
}

// ParsePublicURL checks public_url: an http or https address with a host, and nothing
// after its path, since the feed addresses are built by adding to it.
func ParsePublicURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" ||
		u.Fragment != "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#") {
		return "", fmt.Errorf("public_url %q is not a web address such as https://ethics.example.gov: give http:// or "+
			"https://, the host at which ETHICSBOT_ADDR is reached, and optionally a path, with no ?query or #fragment", s)
	}
	return strings.TrimRight(s, "/"), nil
}

// Default is the configuration when there is no file: this city's ordinance.
func Default() Config {
	return Config{Database: DefaultDatabase, Ordinance: docket.DefaultOrdinance(), Reminders: reminders.Defaults(),
		Sweep:  "@every 1m",
		Voting: commands.Voting{Required: true}, UndeliveredAfter: DefaultUndeliveredAfter,
		DocumentLimit: docket.DefaultDocumentLimit}
}

// parseVoting applies the voting section to cfg: how the commission's roll calls are
// counted. The quorum, if set, must be possible with the commissioners named.
func parseVoting(cfg *Config, f fileConfig) error {
	v := f.Voting
	if v.Required != nil {
		cfg.Voting.Required = *v.Required
	}
	if v.Quorum != nil {
		if n := len(f.Commissioners); *v.Quorum < 1 || n > 0 && *v.Quorum > n {
			return fmt.Errorf("quorum %d is not a number of commissioners from 1 to the %d seated", *v.Quorum, n)
		}
		cfg.Voting.Quorum = *v.Quorum
	}
	if v.Carry != "" {
		if !slices.Contains(docket.Carries, docket.Carry(v.Carry)) {
			return fmt.Errorf("carry %q is not one of %s", v.Carry, joinCarries())
		}
		cfg.Voting.Carry = docket.Carry(v.Carry)
	}
	return nil
}

func joinCarries() string {
	s := make([]string, len(docket.Carries))
	for i, c := range docket.Carries {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// Parse reads and checks a configuration file's contents. The strict decode catches
// unknown keys and wrong types with their lines; the values are then checked against the
// docket, and a refusal is placed at the line of the key that holds the bad value.
func Parse(b []byte) (Config, error) {
	var f fileConfig
	var root yaml.Node
	var renames []string
	if yaml.Unmarshal(b, &root) == nil { // if not, the decode below says why
		var err error
		if b, renames, err = renamed(b, &root); err != nil {
			return Config{}, err
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && err != io.EOF {
		return Config{}, errors.New(yamlMessage(err))
	}
	root = yaml.Node{}
	_ = yaml.Unmarshal(b, &root) // it decoded above, so it parses
	at := func(path ...string) func(error) error {
		return func(err error) error { return lineError{lineOf(&root, path...), err.Error()} }
	}

	cfg := Default()
	cfg.Deprecated = renames
	if f.Database != "" {
		cfg.Database = f.Database
	}
	if f.PublicURL != "" {
		u, err := ParsePublicURL(f.PublicURL)
		if err != nil {
			return Config{}, at("public_url")(err)
		}
		cfg.PublicURL = u
	}
	if err := checkPeople(&root, f); err != nil {
		return Config{}, err
	}
	if err := checkNames(f); err != nil {
		return Config{}, err
	}
	for key, ch := range map[string]string{"docket": f.Channels.Docket, "notices": f.Channels.Notices} {
		if ch != "" && !slackChannel.MatchString(ch) {
			return Config{}, at("channels",
				key)(fmt.Errorf("channel %q is not a Slack channel id such as C0123456789 (in Slack, open the channel's details; "+
				"the id is at the bottom)", ch))
		}
	}
	if f.Channels.Docket != "" && f.Channels.Docket == f.Channels.Notices {
		return Config{}, at("channels")(errors.New("the docket channel is private and the notices channel public: they " +
			"must be two different channels"))
	}
	if err := parseReminders(&cfg, f); err != nil {
		return Config{}, at("reminders")(err)
	}
	if v := f.Healthz.UndeliveredAfter; v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 24*time.Hour {
			return Config{}, at("healthz",
				"undelivered_after")(fmt.Errorf("undelivered_after %q is not a duration such as 15m or 1h, from 1m to 24h", v))
		}
		cfg.UndeliveredAfter = d
	}
	if err := parseVoting(&cfg, f); err != nil {
		return Config{}, at("voting")(err)
	}
	if err := parseLetters(&cfg, f); err != nil {
		return Config{}, at("letters", "templates")(err)
	}
	if err := parseSigners(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := parseOfficers(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := checkAddressees(&cfg, at); err != nil {
		return Config{}, err
	}
	if err := parseMail(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := parseDocuments(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := parseMeetings(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := parseSMTP(&cfg, f, at); err != nil {
		return Config{}, err
	}
	cfg.Roles = commands.Roles{Commissioners: f.Commissioners.ids(), Clerks: f.Clerk.ids(), Attorney: f.Attorney.first(),
		People: roster(f)}
	cfg.Channels = commands.Channels{Docket: f.Channels.Docket, Notices: f.Channels.Notices}
	cfg.Calendar = docket.CalendarConfig{
		Zone:   f.Timezone,
		Remove: f.Holidays.Remove,
		Add:    f.Holidays.Add,
	}
	for _, d := range f.Holidays.Closures {
		if d == nil || d.Date.IsZero() {
			return Config{}, at("holidays", "closures")(errors.New("a closure has no date; write each as YYYY-MM-DD"))
		}
		cfg.Calendar.Closures = append(cfg.Calendar.Closures, d.Date)
	}
	for _, d := range f.Holidays.Proclaimed {
		if d == nil || d.Date.IsZero() {
			return Config{}, at("holidays",
				"proclaimed")(errors.New("a proclaimed holiday has no date; write each as YYYY-MM-DD"))
		}
		cfg.Calendar.Proclaimed = append(cfg.Calendar.Proclaimed, d.Date)
	}
	if _, err := docket.NewCalendar(cfg.Calendar); err != nil {
		where := at("holidays")
		if f.Timezone != "" && strings.HasPrefix(err.Error(), "time zone") {
			where = at("timezone")
		}
		return Config{}, where(err)
	}
	for id, p := range f.Ordinance.Periods {
		if err := cfg.Ordinance.Override(docket.DeadlineID(id), p.Amount, p.Unit); err != nil {
			return Config{}, at("ordinance", "periods", id)(err)
		}
	}
	if fines := f.Ordinance.Fines; fines != nil {
		if err := cfg.Ordinance.SetFines(fines.Min, fines.Max); err != nil {
			return Config{}, at("ordinance", "fines")(err)
		}
	}
	if s := f.Ordinance.Sections; s != nil {
		if err := cfg.Ordinance.SetSections(s.Hearing, s.Referral); err != nil {
			return Config{}, at("ordinance", "sections")(err)
		}
	}
	if err := parsePayment(&cfg, f, at); err != nil {
		return Config{}, err
	}
	if err := parseReferrals(&cfg, f, at); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// checkPeople checks that each commissioner, clerk and attorney is a Slack user id, and
// that nobody is listed twice: one person in two roles would have the powers of both (a
// clerk who is also the attorney, a commissioner who is also the clerk), and one listed
// twice as a commissioner would count twice. A refusal is placed at the later entry and
// names both.
func checkPeople(root *yaml.Node, f fileConfig) error {
	type entry struct {
		role commands.Role
		user string
		line int
	}
	var entries []entry
	for _, p := range f.Commissioners {
		entries = append(entries, entry{commands.Commissioner, p.ID, p.line})
	}
	for _, p := range f.Clerk {
		entries = append(entries, entry{commands.Clerk, p.ID, p.line})
	}
	for _, p := range f.Attorney {
		entries = append(entries, entry{commands.Attorney, p.ID, p.line})
	}
	for _, e := range entries {
		if !slackUser.MatchString(e.user) {
			return lineError{e.line,
				fmt.Sprintf("%s %q is not a Slack user id such as U024BE7LH (find it in the member's profile, under More, "+
					"Copy member ID)", e.role, e.user)}
		}
	}
	as := func(r commands.Role) string {
		if r == commands.Attorney {
			return "the attorney" // there is one
		}
		return "a " + string(r)
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return a.line - b.line })
	seen := make(map[string]entry, len(entries))
	for _, e := range entries {
		first, ok := seen[e.user]
		switch {
		case ok && first.role == e.role:
			return lineError{e.line,
				fmt.Sprintf("%s is listed twice as %s (also on line %d); list each person once", e.user, e.role, first.line)}
		case ok:
			return lineError{e.line,
				fmt.Sprintf("%s is %s here and %s on line %d; give each person one role", e.user, as(e.role), as(first.role),
					first.line)}
		}
		seen[e.user] = e
	}
	return nil
}

var (
	slackUser    = regexp.MustCompile(`^[UW][A-Z0-9_]{2,20}$`)
	slackChannel = regexp.MustCompile(`^[CGD][A-Z0-9]{2,20}$|^#[a-z0-9_-]{1,80}$`)
)

// lineOf returns the line of the deepest key along path that exists in the document.
func lineOf(n *yaml.Node, path ...string) int {
	line := 1
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, key := range path {
		if n.Kind != yaml.MappingNode {
			break
		}
		found := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				line, n, found = n.Content[i].Line, n.Content[i+1], true
				break
			}
		}
		if !found {
			break
		}
	}
	return line
}

// yamlMessage strips the library's prefixes so the message reads "line 3: ...".
func yamlMessage(err error) string {
	var le lineError
	if errors.As(err, &le) {
		return le.Error()
	}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return strings.Join(te.Errors, "; ")
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
