// Package commands turns what a user typed after /ethics, or entered in a modal, into
// docket actions on the record, and the result into replies and posts. It knows who may
// do what, and what may be said where: complaint details only to authorised users and the
// private docket channel; to the public notices channel only what the ordinance makes
// public.
package commands

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"ethicsbot/docket"
	"ethicsbot/letters"
	"ethicsbot/outbox"
)

// Record is what commands needs from the commission's record; store.Store is one.
type Record interface {
	// File records a new complaint and returns it with its number. act.Request, if not "",
	// makes a retry return the first result (Replayed) instead of filing again. What the
	// Service says of the filing (Say, wired into the record once) is put in the outbox in
	// the same transaction.
	File(ctx context.Context, act docket.Act, f docket.File) (docket.Result, error)
	// Apply performs actions on a case in one transaction: all are recorded, or none, with
	// what the Service says of each. A mailing's or delivery's letter as sent that carries
	// its bytes (docket.SentLetter.PDF) is kept in the same transaction.
	Apply(ctx context.Context, act docket.Act, number string, actions ...docket.Action) (docket.Result, error)
	Case(ctx context.Context, number string) (docket.Case, error)
	// Entries is a case's record: each event's action as recorded, in order.
	Entries(ctx context.Context, number string) ([]docket.Entry, error)
	OpenCases(ctx context.Context) ([]*docket.Case, error)
	// AllCases returns every case, open and closed.
	AllCases(ctx context.Context) ([]docket.Case, error)
	// Search returns a page of the cases, open and closed, whose parties' names, article
	// numbers or summary hold every word of query, newest first (at most limit, after the
	// first offset), and how many there are in all, leaving out both ways the cases viewer
	// is recused from; a query with no word to look for is refused with a *docket.Error.
	Search(ctx context.Context, query, viewer string, offset, limit int) (page []docket.Case, total int, err error)
	AddElection(ctx context.Context, e docket.Election) error
	Elections(ctx context.Context) ([]docket.Election, error)
	// Posted gives, by docket.PublicRecord.Key, when each of a case's public records first
	// appeared on the public notice board.
	Posted(ctx context.Context, number string) (map[string]time.Time, error)
	// Stuck returns the posts not yet sent whose delivery has failed or been held back,
	// oldest first: the card and the App Home tab mark them undelivered until they go.
	Stuck(ctx context.Context) ([]outbox.Row, error)
	// Attach adds files to a case file in one transaction with their events (each a PDF or
	// image of at most limit bytes, judged by its content), and what the Service says of
	// each.
	Attach(ctx context.Context, act docket.Act, number string, limit int64, docs []docket.Upload) (docket.Result, error)
	// DocumentData gives the bytes of a document the case file lists, checked against its
	// SHA-256: the letters' packets enclose them (B), (C)(3).
	DocumentData(ctx context.Context, number, sha string) ([]byte, error)
	// LetterData gives the bytes of a letter as sent that a mailing of the case kept.
	LetterData(ctx context.Context, number, sha string) ([]byte, error)
}

// DocketRecord is a Record that reads the docket's page itself: the first limit open cases
// viewer is not recused from, nearest deadline first (docket.Engine.Nearest, then oldest
// first), and how many there are, without reading every open case; store.Store is one.
type DocketRecord interface {
	Docket(ctx context.Context, viewer string, limit int) (shown []*docket.Case, total int, err error)
}

// ClosedRecord is a Record that reads its closed cases the latest received first, one at a
// time, until told to stop: a form that lists them after the open cases reads no more
// than a select holds. The store is one; without it, every case is read.
type ClosedRecord interface {
	ClosedCases(ctx context.Context, fn func(*docket.Case) bool) error
}

// Files fetches a file shared in Slack, by its id, for /ethics attach. The bot's Slack
// client is one (files.info, then the file's private download address, with the
// files:read scope).
type Files interface {
	// Info gives the file's name and size, so that a file over the limit is refused
	// before it is downloaded.
	Info(ctx context.Context, id string) (name string, size int64, err error)
	// Download gives the file's bytes, failing past limit bytes.
	Download(ctx context.Context, id string, limit int64) ([]byte, error)
}

// Settings are who is who and where posts go: the part of the configuration that may
// change while ethicsbot runs (a reload on SIGHUP). Settings in force are never changed
// in place; a reload puts new ones in their stead.
type Settings struct {
	Roles Roles
	// Officers are the keys of the officers with authority to discipline a case may name
	// with /ethics officer (letters.Config.OfficerKeys); nil is the mayor alone.
	Officers []string
	Channels Channels
	Voting   Voting
	// PublicURL is where ethicsbot's web server is reached from outside, such as
	// https://ethics.example.gov, without a trailing slash: the start of each member's
	// calendar feed address (`/ethics calendar`).
	PublicURL string
	// Reminders says when the clerk is reminded of a deadline, by the reminder policy in
	// force; nil: a correction's reply says only that reminders follow the new dates.
	Reminders Reminders
	// DocumentLimit is the largest document of a case file, in bytes; 0 is
	// docket.DefaultDocumentLimit (documents.max_mb).
	DocumentLimit int64
	// Regular is the year's schedule of regular meetings (5 ILCS 120/2.03; schedule_year.go).
	Regular docket.RegularSchedule
	// MailRelay says whether an SMTP relay is configured, through which the news media's
	// copies of the meeting notices are e-mailed (smtp:; 5 ILCS 120/2.02(b)).
	MailRelay bool
}

// Reminders says when the clerk is reminded of each deadline, so that the recalculation
// after a correction or a void can say which reminders are now due and which will not be
// said. reminders.Planner is one; main wires it in.
type Reminders interface {
	// Steps returns the reminders of deadline d as it stands at now, each by its name in
	// the outbox (a name is said once) with when it falls due; of those due at now, only
	// the latest is said. None for a deadline nobody is reminded of.
	Steps(d docket.Deadline, now time.Time) map[string]time.Time
	// Reminded names who is reminded of d, by the routes in force: "the clerk", "the
	// docket channel", or "the clerk and the docket channel".
	Reminded(d docket.Deadline) string
}

// Service runs /ethics.
type Service struct {
	Record Record
	Engine *docket.Engine
	Now    func() time.Time
	Log    *slog.Logger
	// Letters produces the papers and notices of `/ethics letters`; nil refuses it.
	Letters *letters.Maker
	// Calendars keeps the tokens of the private calendar feeds of `/ethics calendar`;
	// nil refuses it.
	Calendars Calendars
	// Observe, if set, is told of each subcommand run, by name, with its outcome (see
	// Outcome) and how long it took: /metrics counts them.
	Observe func(command, outcome string, took time.Duration)
	// Files fetches the files shared in Slack that /ethics attach adds to a case file;
	// nil refuses it.
	Files Files
	// Names turns a member's Slack id into the name and title a document prints (the
	// minutes); nil takes them from the configuration's names and titles (Roles.People),
	// which print the id of a person it does not name. Slack messages keep mentions.
	Names docket.Names

	settings atomic.Pointer[Settings] // see Configure
}

// Configure puts st in force, at start and again on each reload. Requests read the
// settings without a lock, so a reload neither waits for a request nor races one: each
// read sees the old settings or the new, whole.
func (s *Service) Configure(st Settings) { s.settings.Store(&st) }

// Settings returns the settings in force; until Configure, nobody has a role and there
// are no channels. The caller must not change what it points to.
func (s *Service) Settings() *Settings {
	if st := s.settings.Load(); st != nil {
		return st
	}
	return &unconfigured
}

var unconfigured Settings

// Request is one /ethics command or modal submission.
type Request struct {
	User      string // Slack user id
	Text      string // what followed /ethics
	RequestID string // idempotency key: the same for a retry of the same request
	// Escaped says Text is as Slack sends a slash command's text with should_escape
	// (manifest.yml): mentions, channels and links as <...> entities, & < > as &amp; &lt;
	// &gt;. User fields read the mentions; every other field gets the text as typed. The
	// console's text is as typed.
	Escaped bool
}

// Message is a reply to the user who asked, seen only by them (ephemeral).
type Message struct {
	Text   outbox.Markup // the whole message as text: notifications, logs, console
	Blocks []slack.Block // Block Kit, when richer than Text
}

// Response is everything a request makes ethicsbot say.
type Response struct {
	// Messages are the replies to the user who asked.
	Messages []Message
	// Posts are what the request put in the outbox, in the transaction that recorded it:
	// docket lines and public notices. The outbox delivers them; a transport only wakes it.
	Posts []outbox.Post
	// Modal, when set, is a modal to open with the request's trigger_id.
	Modal *slack.ModalViewRequest
	// Files are documents the request produced (`/ethics letters`): the transport
	// uploads them to the private docket channel, all in one share with FilesNote, or the
	// console writes them to a folder.
	Files []File
	// FilesNote is the message Files are shared with in the docket channel: what they are,
	// naming each, and who produced them.
	FilesNote outbox.Markup
	// Fixed says the reply depends on nothing but the command table and the settings: not
	// on the record, nor on what was typed but which of the table's commands it is about
	// (help). Its texts are therefore few, and a transport may keep what it encoded of
	// each, keyed by its text, instead of encoding the same bytes again for every request.
	Fixed bool
}

// File is a document to hand over: its file name, its title and its bytes, and for an
// image its alt text, which a screen reader says in its place.
type File struct {
	Name  string // 2026-001-respondent.pdf
	Title string // Case 2026-001: notice of the complaint to the respondent
	Data  []byte
	Alt   string // an image's alt text, up to MaxAltText characters; "" for a document
}

// MaxAltText is how many characters of alt text Slack takes for an uploaded image
// (files.getUploadURLExternal's alt_txt; longer is refused as alt_txt_too_large).
const MaxAltText = 1000

func reply(text outbox.Markup, blocks ...slack.Block) Response {
	return Response{Messages: []Message{{Text: text, Blocks: blocks}}}
}

// quoteSnippet is the start of text, where an unclosed quote opens, as a reply quotes it.
func quoteSnippet(text string) string {
	if r := []rune(text); len(r) > 30 {
		return string(r[:30]) + "…"
	}
	return text
}

// Handle runs one /ethics request. Every failure becomes a reply that says what is wrong
// and what to do; an error the user cannot act on is logged and reported as internal.
//
// Who asks is checked before anything else: a user without a role gets the same refusal
// for every command but help, whatever it holds; then whether their role may use the
// command; then, for a command that names a case, whether they are recused from it (exec).
func (s *Service) Handle(ctx context.Context, req Request) Response {
	resp, run := s.Prepare(ctx, req)
	if run != nil {
		return run(ctx)
	}
	return resp
}

// Prepare is Handle in two parts. It reads the request and answers at once what reads no
// record: help, and each refusal made before a command runs (no role, no such command, a
// role that may not use it, a line that cannot be read). What reads or writes the record
// it returns instead as run, for the caller to run where it may take its time: a
// transport that must answer Slack within 3 s runs it beside a timer, and needs neither
// timer nor goroutine for the rest.
func (s *Service) Prepare(ctx context.Context, req Request) (resp Response, run func(context.Context) Response) {
	words, open := scan(req.Text, req.Escaped)
	name := "help"
	if len(words) > 0 {
		name = strings.ToLower(words[0].text)
		words = words[1:]
	}
	role := s.Settings().Roles.Of(req.User)
	sub, ok := lookup(name)
	switch {
	case role == Nobody && name != "help":
		return reply(notAuthorised), nil
	case !utf8.ValidString(req.Text):
		return reply(outbox.Markup("Not done: the command is not valid UTF-8 text; retype it rather than pasting it.")), nil
	case open >= 0:
		// An unclosed quote would take the rest of the line into one value: a place that
		// ends in a quote mark on a public notice, or another field swallowed unseen.
		return reply(outbox.Format("Not done: the quote opened at %s is not closed, so everything after it would be one "+
			"value. Close it, e.g. place=\"City Hall, Room 201\".", quoteSnippet(req.Text[open:]))), nil
	case !ok:
		return reply(outbox.Format("There is no `/ethics %s`. %s", name, seeHelp)), nil
	case !s.allowed(sub, role):
		return s.onlyFor(sub), nil
	}
	if len(words) == 0 && sub.modal && len(sub.required()) > 0 {
		return Response{}, func(ctx context.Context) Response {
			return Response{Modal: s.modal(ctx, sub, req.User, nil)}
		}
	}
	a, read, err := sub.bind(words, s.Engine.Cal.Location(), s.Settings().Roles.People)
	if err != nil {
		text, _ := refusal(err)
		return reply(text + outbox.Format(".\nUsage: `%s`\nExample: `/ethics %s`", sub.usage(), sub.example)), nil
	}
	run = func(ctx context.Context) Response { return withReading(s.run(ctx, sub, req, a), read) }
	if sub.fromTable {
		return run(ctx), nil
	}
	return Response{}, run
}

// withReading puts what the command understood of values typed another way than the
// usual one ("2026-1 as case 2026-001") at the head of the reply, so the user can see it
// was what they meant, whatever the command and whether it succeeded: as the first line of
// the text, and as a context block above the blocks, or, where a message has no room for
// one more block, as a message of its own before it.
func withReading(resp Response, read []string) Response {
	if len(read) == 0 {
		return resp
	}
	note := outbox.Format("_Read %s._", strings.Join(read, "; "))
	if len(resp.Messages) == 0 {
		if resp.Modal != nil {
			return resp // a form opens; it shows what it holds
		}
		return reply(note)
	}
	resp.Fixed = false // the reading is what this user typed
	m := resp.Messages[0]
	if len(m.Blocks) >= MaxMessageBlocks {
		resp.Messages = append([]Message{{Text: note}}, resp.Messages...)
		return resp
	}
	m.Text = note + "\n" + m.Text
	if len(m.Blocks) > 0 {
		m.Blocks = append([]slack.Block{slack.NewContextBlock("", mrkdwn(note))}, m.Blocks...)
	}
	resp.Messages = append([]Message{m}, resp.Messages[1:]...)
	return resp
}

// run performs a bound subcommand and turns its errors into replies.
func (s *Service) run(ctx context.Context, sub *subcommand, req Request, a args) Response {
	resp, err := s.exec(ctx, sub, req, a)
	return s.respond(sub, req, resp, err)
}

// exec performs a bound subcommand for a user whose role may use it, typed or submitted
// in a form: the one way in to every subcommand's run. Before anything else it refuses a
// user recused from the case the subcommand names (see mayTouch), and it keys the request
// to its user and subcommand (see requestKey).
func (s *Service) exec(ctx context.Context, sub *subcommand, req Request, a args) (resp Response, err error) {
	if s.Observe != nil {
		start := time.Now()
		defer func() { s.Observe(sub.name, Outcome(err), time.Since(start)) }()
	}
	if err := s.mayTouch(ctx, sub, req.User, a); err != nil {
		return Response{}, err
	}
	req.RequestID = requestKey(sub, req)
	return sub.run(s, ctx, req, a)
}

// Outcome names how a subcommand ended: "ok"; "refused", when the docket said no and the
// reply says why (a deadline passed, a wrong case number); or "failed", when nothing was
// recorded for a reason the user cannot act on (a full disk, a removed database, a bug).
func Outcome(err error) string {
	switch docket.ErrorCode(err) {
	case "":
		return "ok"
	case docket.EINTERNAL, docket.EUNAVAILABLE:
		return "failed"
	}
	return "refused"
}

// mayTouch refuses a user recused from the case that sub names, before sub reads or does
// anything else: a recused member learns nothing of the case from a refusal, neither its
// state ("case 2026-001 is dismissed"), nor its events ("case 2026-001 has no event 9"),
// nor a fact ("event 1 already records respondent ..."). The refusal is the same whatever
// the subcommand and whatever the case holds. A case that does not exist is said so, as to
// anyone: its number tells nothing of a complaint.
func (s *Service) mayTouch(ctx context.Context, sub *subcommand, user string, a args) error {
	if p, ok := sub.param("number"); !ok || p.kind != kCase || !a.has("number") {
		return nil
	}
	c, err := s.Record.Case(ctx, a.str("number"))
	if err != nil {
		return err
	}
	return refuseRecused(&c, user)
}

// refuseRecused refuses user if they are recused from case c, in the same words whatever
// the command: a case step, or an item of a meeting that is the case's.
func refuseRecused(c *docket.Case, user string) error {
	if why, recused := c.Recused(user); recused {
		return docket.Unauthorized("", "",
			fmt.Sprintf("you are recused from case %s (%s), so you may neither see its details nor act or vote on it",
				c.Number, why))
	}
	return nil
}

// requestKey is the idempotency key of req for sub: the transport's key (a trigger_id, a
// response_url, a view's id and hash), made a repeat only for the same user and the same
// subcommand. A key that reaches ethicsbot again from another user, or with another
// subcommand, is another request, never the first one's replay: otherwise it would be
// answered with the first request's case ("Already recorded on case 2026-003"), and not
// recorded. No key stays no key.
func requestKey(sub *subcommand, req Request) string {
	if req.RequestID == "" {
		return ""
	}
	return req.RequestID + "|" + req.User + "|" + sub.name
}

// respond turns a subcommand's error into a reply that says what to do, by its code (see
// refusals); an error the user cannot act on is logged in full.
func (s *Service) respond(sub *subcommand, req Request, resp Response, err error) Response {
	if err == nil {
		return resp
	}
	text, logged := refusal(err)
	if logged {
		s.logger().Error("command failed", "sub", sub.name, "user", req.User, "err", err)
	}
	return reply(text)
}

func (s *Service) logger() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}

// onlyFor refuses sub to a user whose role may not use it.
func (s *Service) onlyFor(sub *subcommand) Response {
	why := sub.why
	if sub.vote && s.Settings().Voting.Required {
		why = commissionVotes
	}
	return reply(outbox.Format("Only %s can use `/ethics %s`. %s", rolesText(s.rolesOf(sub)), sub.name, why))
}

// rolesOf is who may use sub. An action of the commission is taken by vote; when votes are
// required, the clerk may record one as well as a commissioner.
func (s *Service) rolesOf(sub *subcommand) []Role {
	if sub.vote && s.Settings().Voting.Required {
		return staff
	}
	return sub.roles
}

// allowed reports whether role may use sub.
func (s *Service) allowed(sub *subcommand, role Role) bool {
	return slices.Contains(s.rolesOf(sub), role)
}

const (
	notAuthorised outbox.Markup = "Sorry, `/ethics` is for the ethics commission's members, clerk and attorney. If you " +
		"should have access, ask the clerk to add your Slack user id to ethicsbot's configuration."
	seeHelp outbox.Markup = "Type `/ethics help` for the list of commands."
)

func rolesText(roles []Role) string {
	var names []string
	for _, r := range roles {
		names = append(names, string(r)+"s")
	}
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// names is how documents name people: Names if set, or else the configured
// roster in force, as "Ann Alder, Chair", or the Slack id of a person it does not name.
func (s *Service) names() docket.Names {
	if s.Names != nil {
		return s.Names
	}
	return s.Settings().Roles.People.Titled()
}
