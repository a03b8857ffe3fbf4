// Package letters produces, as PDF files, the papers the ordinance's procedure sends and
// posts: the (B) notices to the parties, the (C) notices of the ruling or of dismissal,
// the (C)(2) request for judicial adjudication and the (C)(3) referral to the attorney,
// the (E)(2) and (F) recommendations to the respondent and to the officer with authority
// to discipline, and the public notice of each meeting for posting. For a meeting of the
// commission as a body it draws the agenda posted with its notice (Maker.AgendaPDF) and
// the open and closed minutes (Maker.MinutesPDF, Maker.MinutesMarkdown), from agenda.tmpl
// and minutes.tmpl, given an AgendaData and a MinutesData.
//
// # Templates
//
// Each document has a template, a Go text/template file named for its kind:
// respondent.tmpl, ruling_complainant.tmpl, notice_hearing.tmpl and so on (see Kinds).
// The defaults are built in. A town changes a letter's wording by putting a file of the
// same name in the directory named by the configuration's letters.templates; the files
// whose names begin with "_" hold the parts that the letters share ({{define "letterhead"}}
// in _letterhead.tmpl, {{define "signature"}} in _signature.tmpl), and are overridden the
// same way. A file there that is not one of these names is refused, so a misspelt override
// is not silently ignored.
//
// A template writes a small line-based layout. A line that begins with @ is a directive:
//
//	@title TEXT     large, bold and centred: the document's name
//	@heading TEXT   a bold heading
//	@bold TEXT      a bold line
//	@center TEXT    a centred line
//	@right TEXT     a line set to the right margin (the date)
//	@size N         the type size in points, from here on (6 to 72; 11 by default)
//	@space          a blank line
//	@rule           a horizontal line
//	@page           a new page
//	@item TEXT      an item of a list: items in a row, blank lines between them or not,
//	                are one list (the agenda's items, the enclosures)
//	@row A | B ...  a row of a table: the first cell heads the row (a vote), the others
//	                are its data (the members who voted so); rows in a row are one table
//	@at POSITION    on the first page, move to a position of the No. 10 window envelope's
//	                layout (see layout.go): top (1/2 in. down, for the date beside the
//	                return address), below (under all written so far), endorsement (the
//	                certified-mail line), window (the lines up to @at body are the
//	                recipient's address, printed in the window) and body
//
// Any other line is printed as text, wrapped at the margin; an empty line is half a
// line's space. A long text runs on to further pages.
//
// # What a template is given
//
// A letter's template is executed with a Letter (Data) and a meeting notice's with a
// Notice (NoticeData): see their fields. Every value that comes from outside ethicsbot's
// templates (a name, a place, the complaint, the commission's address) is a Text, printed
// with {{.Field}}: its line breaks stay inside the line that prints it, and it can never
// begin a line, so no name or summary can make a directive. Test it with
// {{if not .Field.Empty}}. A NoticeData has no field for the complaint or the parties'
// names, so no notice template can put them on the public notice board.
//
// # Tagged and archival
//
// A Maker given an Engine (SetEngine; Chromium, engine.go) prints every document from the
// same blocks as a tagged PDF (PDF/UA-1): the blocks are written as semantic HTML with a
// print stylesheet that keeps the layout and the window envelope's places (html.go), the
// engine tags what the HTML holds, what it draws outside the tags (the page's foot and
// mark) is marked as an artifact (artifact.go), and the PDF/A-2b metadata and output
// intent are added (pdfa.go). Without an engine, or when it fails, the document is drawn
// untagged with fpdf, as the layout language above describes.
//
// Characters the Go fonts cannot draw (emoji, most non-Latin scripts) are printed as
// their code points, [U+1F600], never dropped.
package letters

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"text/template"
	"time"

	"ethicsbot/docket"
)

// Kind names one document. A letter's kind is the docket.Paper it is; a meeting notice's
// is notice_ and the meeting's kind.
type Kind string

// The meeting notices, for physical posting (C)(1), (D), (F). MakeDue, given a record of
// the commission's meetings (Meetings), gives each as the agenda of the meeting that holds
// the step (meetingNotice); Make draws the notice of the case's meeting alone.
const (
	NoticeSufficiency     Kind = "notice_sufficiency"
	NoticeHearing         Kind = "notice_hearing"
	NoticeRecessedHearing Kind = "notice_recessed_hearing"
	NoticePublicHearing   Kind = "notice_public_hearing"
	NoticeFrivolous       Kind = "notice_frivolous_meeting" // (H)
)

// noticeOf pairs each notice with its meeting.
var noticeOf = map[Kind]docket.MeetingKind{
	NoticeSufficiency:     docket.SufficiencyMeeting,
	NoticeHearing:         docket.HearingMeeting,
	NoticeRecessedHearing: docket.RecessedHearing,
	NoticePublicHearing:   docket.PublicHearing,
	NoticeFrivolous:       docket.FrivolousMeeting,
}

// Kinds lists every document, letters in the order of docket.Papers, then the notices.
func Kinds() []Kind {
	var out []Kind
	for _, p := range docket.Papers() {
		out = append(out, Kind(p.Paper))
	}
	for _, k := range docket.MeetingKinds {
		out = append(out, NoticeFor(k))
	}
	return out
}

// NoticeFor is the kind of the public notice of meeting k.
func NoticeFor(k docket.MeetingKind) Kind { return Kind("notice_" + string(k)) }

// Rule is the ordinance's subsection that calls for the document: "(B)", "(C)(2)".
func (k Kind) Rule() string {
	if info, ok := docket.Paper(k).Info(); ok {
		return info.Rule
	}
	if m, ok := noticeOf[k]; ok {
		return m.Rule()
	}
	return ""
}

// Name says what the document is: "notice of the complaint to the respondent".
func (k Kind) Name() string {
	if info, ok := docket.Paper(k).Info(); ok {
		return info.Name
	}
	if m, ok := noticeOf[k]; ok {
		return "public notice of the " + m.Name()
	}
	return string(k)
}

// Addressee is someone a letter is from or to: a name, a title, and a postal address of
// one or more lines.
type Addressee struct {
	Name    string
	Title   string // "Corporation Counsel", "Mayor"; may be ""
	Address string
}

// Config is the letters' part of the configuration (letters: in ethicsbot.yml).
type Config struct {
	Commission Addressee // the commission's name and address, for the letterhead
	Officer    Addressee // the chief executive or other officer with authority to discipline (E)(2), (F): the mayor, the default
	// Officers are the other officers with authority to discipline a case may name
	// (docket.SetOfficer), by key: a department head, the council (letters.officers).
	// The key docket.DefaultOfficer is Officer.
	Officers map[string]Addressee
	Attorney Addressee // the attorney designated by the corporate authorities (C)(2), (C)(3)
	// Templates is a directory of templates that replace the built-in ones of the same
	// name; "" uses the built-in ones only.
	Templates string
	// Chair and Clerk are who sign the letters for the commission, with their names and
	// titles: the commissioner titled Chair and the first clerk with a name
	// (docket.Roster.Signature). Without a name, a letter is signed "For the" commission.
	Chair, Clerk Addressee
	// Signers overrides, per paper, who signs it: docket.ChairSigns or ClerkSigns
	// (letters.signers); a paper not in it is signed as docket's table of papers says.
	Signers map[docket.Paper]docket.Signer
	// Payment is to whom, where and how a fine is paid (payment: in ethicsbot.yml): a
	// letter that imposes or confirms a fine on its recipient gives them, with the date
	// due; without them, such a letter is refused, naming the setting.
	Payment Payment
	// Engine is the ordinance and calendar by which a letter counts (F)'s window to demand
	// a public hearing and a fine's due date, and the (H) range it states; nil: this
	// city's ordinance and holidays, in the letters' zone.
	Engine *docket.Engine
}

// Payment is to whom, where and how a fine is paid. The ordinance imposes fines (E)(2),
// (F), (H) but says nothing of their payment: these are the commission's.
type Payment struct {
	Payee   string   // to whom a check is made payable: "City of Springfield"
	Address string   // where a payment is mailed or brought, lines separated by "\n"
	Methods []string // each way to pay, a sentence each
}

// OfficerKeys are the keys of the officers a case may name (/ethics officer): the mayor,
// docket.DefaultOfficer, first, then the others of Officers in order.
func (c Config) OfficerKeys() []string {
	keys := []string{docket.DefaultOfficer}
	for _, k := range slices.Sorted(maps.Keys(c.Officers)) {
		if k != docket.DefaultOfficer {
			keys = append(keys, k)
		}
	}
	return keys
}

// officer is the officer with authority to discipline c's respondent (E)(2), (F): the one
// the case names (docket.SetOfficer), else the mayor (Officer), with the setting that
// configures them, for a refusal. A paper already sent to an officer is addressed to the
// officer it went to. A key the configuration no longer lists is refused.
func (c Config) officer(cs *docket.Case, k Kind) (Addressee, string, error) {
	key := cs.OfficerKey()
	if ml, ok := cs.Sent(docket.Paper(k)); ok && cs.SentTo(ml) != "" {
		// A paper printed again after its mailing goes to whom it went.
		key = cs.SentTo(ml)
	}
	if key == docket.DefaultOfficer {
		if a, ok := c.Officers[key]; ok {
			return a, "officers." + key, nil
		}
		return c.Officer, "officer", nil
	}
	a, ok := c.Officers[key]
	if !ok {
		return Addressee{}, "", docket.Invalid(k.Rule(), "officer", fmt.Sprintf(
			"case %s names the officer %q, whom letters.officers in ethicsbot.yml does not list: add them there, or name "+
				"another with /ethics officer %s <key>", cs.Number, key, cs.Number))
	}
	return a, "officers." + key, nil
}

// officerNamed names the officer with authority to discipline listed under key, as words
// name them: "the Mayor", by their title, or by their name without one; otherwise, as
// the ordinance does (fallback).
func (c Config) officerNamed(key, fallback string) string {
	a, ok := c.Officers[key]
	if !ok && key == docket.DefaultOfficer {
		a, ok = c.Officer, true
	}
	switch {
	case !ok:
		return fallback
	case strings.TrimSpace(a.Title) != "":
		return "the " + a.Title
	case strings.TrimSpace(a.Name) != "":
		return a.Name
	}
	return fallback
}

// signer is who signs paper p, by the configuration or else by docket's table of papers;
// the zero Party when that person has no configured name.
func (c Config) signer(p docket.PaperInfo) Party {
	s := p.Signer
	if o, ok := c.Signers[p.Paper]; ok {
		s = o
	}
	switch s {
	case docket.ChairSigns:
		return party(c.Chair)
	case docket.ClerkSigns:
		return party(c.Clerk)
	}
	return Party{}
}

// Document is one produced PDF.
type Document struct {
	Kind  Kind
	Rule  string // "(B)"
	Title string // "Case 2026-001: notice of the complaint to the respondent"
	Name  string // the file name: 2026-001-respondent.pdf
	Data  []byte
	// Sent is the record of the letter as sent when Data is that copy; nil for a document
	// made now (a paper's draft, or a meeting notice).
	Sent *docket.SentLetter
	// Draft is true when the document is a paper made now, marked on every page: DRAFT,
	// or RE-PRINT when Mailed is set.
	Draft bool
	// Mailed is the day a paper made now was mailed, when its mailing kept no copy as
	// sent: the document is a re-print, not the letter as sent. Zero otherwise.
	Mailed docket.Date
	// Bears and Article are, for a copy as sent whose article number was corrected since,
	// the number the copy bears and the corrected one, in groups of four; "" otherwise.
	Bears, Article string
}

//go:embed templates/*.tmpl
var builtin embed.FS

// Maker produces documents from the templates.
type Maker struct {
	cfg   Config
	loc   *time.Location
	sets  map[Kind]*template.Template
	files []string // the templates' file names, for errors
	// signers are the chair and the clerk who sign, once SetSigners has replaced cfg's
	// (a reload of the configuration's people); nil until then.
	signers atomic.Pointer[[2]Addressee]
	// engine prints the tagged documents; nil draws untagged ones (SetEngine).
	engine   Engine
	untagged func(error)
	now      func() time.Time
}

// SetEngine has every document printed from now on by e as a tagged PDF (PDF/UA-1) made
// archival (PDF/A-2b): see html.go and pdfa.go. A document e fails to print is drawn
// untagged instead, with the layout of layout.go, and untagged is told why: a meeting's
// notice posted on time, untagged, serves the Open Meetings Act better than none (5 ILCS
// 120/2.02), and the administrator is warned to mend the engine. Call it before the
// Maker is used.
func (m *Maker) SetEngine(e Engine, untagged func(error)) {
	m.engine, m.untagged = e, untagged
}

// render draws blocks titled title, with mark on every page (see render): by the engine
// as a tagged, archival PDF when the Maker has one, else untagged. The untagged layout is
// drawn first in either case: its checks (the address in the envelope's window, the
// first page's places, MaxPages) hold for both.
func (m *Maker) render(blocks []block, title, mark string) ([]byte, error) {
	pdf, err := render(blocks, title, mark)
	if err != nil || m.engine == nil {
		return pdf, err
	}
	tagged, err := m.engine.PrintPDF(context.Background(), htmlOf(blocks, title, addressType(blocks)), headerHTML(mark),
		footerHTML(title))
	if err == nil {
		tagged, err = archival(tagged, title, m.clock(), addressType(blocks) > 0)
	}
	if err != nil {
		if m.untagged != nil {
			m.untagged(fmt.Errorf("%s: drawn untagged, as the tagged PDF could not be made: %w", title, err))
		}
		return pdf, nil
	}
	return tagged, nil
}

// clock is the time a document is made.
func (m *Maker) clock() time.Time {
	if m.now != nil {
		return m.now()
	}
	return time.Now()
}

// SetSigners puts in force who signs the letters from now on: the chair and the clerk the
// configuration's people name (Config.Chair, Config.Clerk), as a reload of the file gives
// them, so that letters are signed by the roster every other part of ethicsbot uses. Safe
// while letters are being made.
func (m *Maker) SetSigners(chair, clerk Addressee) {
	m.signers.Store(&[2]Addressee{chair, clerk})
}

// signer is who signs paper p: Config.signer, with the chair and clerk SetSigners gave.
func (m *Maker) signer(p docket.PaperInfo) Party {
	c := m.cfg
	if s := m.signers.Load(); s != nil {
		c.Chair, c.Clerk = s[0], s[1]
	}
	return c.signer(p)
}

// New reads the templates, the built-in ones and cfg.Templates' overrides, and checks
// that each parses. loc is the commission's time zone, in which dates and times are
// printed.
func New(cfg Config, loc *time.Location) (*Maker, error) {
	files := map[string]string{}
	entries, err := fs.ReadDir(builtin, "templates")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		b, err := fs.ReadFile(builtin, "templates/"+e.Name())
		if err != nil {
			return nil, err
		}
		files[e.Name()] = string(b)
	}
	if cfg.Templates != "" {
		over, err := os.ReadDir(cfg.Templates)
		if err != nil {
			return nil, fmt.Errorf("letters.templates: %w", err)
		}
		for _, e := range over {
			if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, ok := files[e.Name()]; !ok {
				return nil, fmt.Errorf("letters.templates: %s is not the name of a template; the names are %s",
					filepath.Join(cfg.Templates, e.Name()), strings.Join(names(files), ", "))
			}
			b, err := os.ReadFile(filepath.Join(cfg.Templates, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("letters.templates: %w", err)
			}
			files[e.Name()] = string(b)
		}
	}
	if cfg.Engine == nil {
		// The calendar counts dates, which carry no zone; a zone that is no IANA name (a
		// fixed offset in a test) counts them in the default one.
		cal, err := docket.NewCalendar(docket.CalendarConfig{Zone: loc.String()})
		if err != nil {
			cal, err = docket.NewCalendar(docket.CalendarConfig{})
		}
		if err != nil {
			return nil, fmt.Errorf("letters: %w", err)
		}
		cfg.Engine = &docket.Engine{Cal: cal, Ord: docket.DefaultOrdinance()}
	}
	m := &Maker{cfg: cfg, loc: loc, sets: map[Kind]*template.Template{}, files: names(files)}
	for _, k := range append(Kinds(), bodyKinds...) {
		name := string(k) + ".tmpl"
		src, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("letters: no template %s", name)
		}
		t := template.New(name).Option("missingkey=error")
		for f, s := range files {
			if strings.HasPrefix(f, "_") {
				if _, err := t.New(f).Parse(s); err != nil {
					return nil, fmt.Errorf("letters template %s: %w", f, err)
				}
			}
		}
		if _, err := t.New(name).Parse(src); err != nil {
			return nil, fmt.Errorf("letters template %s: %w", name, err)
		}
		m.sets[k] = t
	}
	return m, nil
}

func names(files map[string]string) []string {
	var out []string
	for f := range files {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// ParseKind reads a document kind as a user types it, refusing one that does not exist.
func ParseKind(s string) (Kind, error) {
	k := Kind(s)
	if slices.Contains(Kinds(), k) {
		return k, nil
	}
	var all []string
	for _, k := range Kinds() {
		all = append(all, string(k))
	}
	return "", docket.Invalid("", "kind",
		fmt.Sprintf("there is no document %q: the documents are %s", s, strings.Join(all, ", ")))
}

// Due lists the documents case c calls for as it stands, in the order of the procedure:
// each once the step that calls for it has been taken, and still after it has been sent,
// so that a letter can be printed again with its article number.
func Due(c *docket.Case) []Kind {
	var out []Kind
	for _, k := range Kinds() {
		if why(c, k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// why says why case c does not call for document k yet, or nil if it does. The error
// names the rule.
func why(c *docket.Case, k Kind) error {
	notYet := func(rule, format string, a ...any) error {
		return docket.Conflict(rule, "",
			fmt.Sprintf("case %s does not call for the %s yet: ", c.Number, k.Name())+fmt.Sprintf(format, a...))
	}
	if m, ok := noticeOf[k]; ok {
		if !c.Meeting(m).Scheduled() {
			return notYet(k.Rule(), "no %s is scheduled", m.Name())
		}
		return nil
	}
	if _, ok := docket.Paper(k).Info(); ok {
		// A paper already sent stays listed, as sent, whatever came after: the (H) notice
		// is no longer needed once the finding is made, but it went out, and the record
		// keeps it.
		if _, sent := c.Sent(docket.Paper(k)); sent {
			return nil
		}
		// The record of mailings asks the same question: docket decides which papers a
		// case needs, so that a letter is produced exactly when its mailing may be recorded.
		return c.Needs(docket.Paper(k))
	}
	return docket.Invalid("", "kind", fmt.Sprintf("there is no document %q", k))
}

// Make produces document k for case c, dated on today. A document the case does not call
// for yet, or one whose recipient's or sender's address is not configured, is an error
// that names the rule or the setting.
//
// Make produces the letter alone; Packet adds what it encloses from the case file.
func (m *Maker) Make(c *docket.Case, k Kind, today docket.Date) (Document, error) {
	return m.make(c, k, today, false, "")
}

// make produces document k; enclosed says that the complaint as received goes with it
// from the case file, so the letter does not print the complaint's text itself.
func (m *Maker) make(c *docket.Case, k Kind, today docket.Date, enclosed bool, mark string) (Document, error) {
	if err := why(c, k); err != nil {
		return Document{}, err
	}
	data, err := m.data(c, k, today)
	if err != nil {
		return Document{}, err
	}
	if d, ok := data.(*Data); ok {
		d.ComplaintEnclosed = enclosed
	}
	out := capped{max: MaxOutput}
	if err := m.sets[k].ExecuteTemplate(&out, string(k)+".tmpl", data); errors.Is(err, errTooLong) {
		return Document{}, tooBig(k, fmt.Sprintf("more than %d characters of text, the limit for one document", MaxOutput))
	} else if err != nil {
		return Document{}, fmt.Errorf("letters template %s.tmpl: %w", k, err)
	}
	blocks, err := parseLayout(out.String())
	if err != nil {
		return Document{}, fmt.Errorf("letters template %s.tmpl: %w", k, err)
	}
	title := fmt.Sprintf("Case %s: %s", c.Number, k.Name())
	pdf, err := m.render(blocks, title, mark)
	var win errWindow
	switch {
	case errors.Is(err, errTooManyPages):
		return Document{}, tooBig(k, fmt.Sprintf("more than %d pages long, the limit for one document", MaxPages))
	case errors.As(err, &win):
		// The letter goes in a No. 10 window envelope (see layout.go): an address that
		// does not show in the window would not be delivered.
		return Document{}, docket.Invalid(k.Rule(), "address",
			fmt.Sprintf("the %s cannot be mailed in a window envelope: %v", k.Name(), err))
	case err != nil:
		return Document{}, fmt.Errorf("letters template %s.tmpl: %w", k, err)
	}
	return Document{Kind: k, Rule: k.Rule(), Title: title, Name: FileName(c.Number, k), Data: pdf}, nil
}

// FileName is the file a document is written to: 2026-001-respondent.pdf.
func FileName(number string, k Kind) string { return number + "-" + string(k) + ".pdf" }

// MakeDue gives every document case c calls for (Due), or the one named by only if it is
// not "". A paper whose mailing or delivery kept the letter as sent is that copy, byte for
// byte, read from files: never made again, never re-dated, and needing no configuration. A
// paper not yet mailed is made as its Packet, dated today and marked as a draft; one mailed
// without a copy kept, made the same way and marked as a re-print of the paper mailed.
//
// One document that cannot be produced does not keep back the others: MakeDue gives every
// document it could produce, and a Refusals listing each it could not, with why. With only,
// the one refusal is returned as it is.
func (m *Maker) MakeDue(ctx context.Context, c *docket.Case, only Kind, today docket.Date,
	files Files) ([]Document, error) {
	kinds := Due(c)
	if only != "" {
		if _, err := ParseKind(string(only)); err != nil {
			return nil, err
		}
		kinds = []Kind{only}
	}
	if len(kinds) == 0 {
		return nil, docket.Conflict("(B)", "",
			fmt.Sprintf("case %s calls for no document yet: the (B) notices come once the sufficiency meeting "+
				"is scheduled", c.Number))
	}
	var out []Document
	var refused Refusals
	for _, k := range kinds {
		d, err := m.due(ctx, c, k, today, files)
		if err != nil {
			if only != "" {
				return nil, err
			}
			refused = append(refused, Refusal{Kind: k, Err: err})
			continue
		}
		out = append(out, d)
	}
	if len(refused) > 0 {
		return out, refused
	}
	return out, nil
}

// due produces document k of case c for MakeDue.
func (m *Maker) due(ctx context.Context, c *docket.Case, k Kind, today docket.Date, files Files) (Document, error) {
	ml, mailed := c.Sent(docket.Paper(k))
	if mailed && ml.Letter != nil {
		if files == nil {
			return Document{}, docket.Unavailable(fmt.Sprintf("the %s as sent is kept in the record, which cannot "+
				"be read here", k.Name()))
		}
		data, err := files.LetterData(ctx, c.Number, ml.Letter.SHA256)
		if err != nil {
			return Document{}, err
		}
		d := Document{Kind: k, Rule: k.Rule(), Title: fmt.Sprintf("Case %s: %s, as sent", c.Number, k.Name()),
			Name: FileName(c.Number, k), Data: data, Sent: ml.Letter}
		if was := c.ArticleAsMailed(ml); was != ml.Article {
			// The copy as sent is never changed: it bears the number typed at mailing.
			d.Bears, d.Article = groups(was), groups(ml.Article)
		}
		return d, nil
	}
	if step, notice := noticeOf[k]; notice {
		if meetings, ok := files.(Meetings); ok {
			return m.meetingNotice(ctx, c, k, step, today, meetings)
		}
	}
	if _, paper := docket.Paper(k).Info(); !paper {
		return m.packet(ctx, c, k, today, files, "")
	}
	if mailed {
		d, err := m.packet(ctx, c, k, today, files, reprintMark(m.day(ml.Mailed)))
		d.Mailed = ml.Mailed
		return d, err
	}
	return m.packet(ctx, c, k, today, files, draftMark)
}

// Meetings is the record of the commission's meetings, folded with the case steps each
// holds (docket.Engine.Fold); a Files that keeps them lets MakeDue give a case step's
// notice as its meeting's agenda.
type Meetings interface {
	Meetings(ctx context.Context) ([]docket.CommissionMeeting, error)
}

// meetingNotice gives the public notice of case c's step (kind k) as the one agenda of the
// commission meeting that holds the step, under the case's file name for the notice: a
// meeting has one notice with its whole agenda (5 ILCS 120/2.02(a)), so a
// notice of the case alone would contradict the agenda posted. It is dated by the
// agenda's posting, never by the day it is drawn; an agenda not yet posted
// is drawn as a draft, marked so. Every scheduled step is an item of a meeting, one
// recorded or one folded from its cases, so the meeting is always found; if the record
// does not hold it, that is said rather than a notice of the case alone drawn.
func (m *Maker) meetingNotice(ctx context.Context, c *docket.Case, k Kind, step docket.MeetingKind, today docket.Date,
	meetings Meetings) (Document, error) {
	all, err := meetings.Meetings(ctx)
	if err != nil {
		return Document{}, err
	}
	held := docket.HoldsItem(all, c.Number, step)
	if held == nil {
		return Document{}, docket.NotFound(docket.OMANotice, "meeting",
			fmt.Sprintf("no meeting of the commission holds the %s of case %s", step.Name(), c.Number))
	}
	d, err := m.AgendaPDF(held.Doc(), today)
	if err != nil {
		return Document{}, err
	}
	// The step's rule, as the list of the case's papers gives it; the agenda cites 2.02.
	d.Kind, d.Rule, d.Name = k, k.Rule(), FileName(c.Number, k)
	d.Title = fmt.Sprintf("Case %s: %s, item of meeting %s: %s", c.Number, step.Name(), held.Name, d.Title)
	return d, nil
}

// Refusal is a document MakeDue could not produce, and why.
type Refusal struct {
	Kind Kind
	Err  error
}

// Refusals are the documents MakeDue could not produce, each with why.
type Refusals []Refusal

func (r Refusals) Error() string {
	var b strings.Builder
	for i, x := range r {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s: %v", x.Kind, x.Kind.Rule(), x.Err)
	}
	return b.String()
}

// Unwrap gives each refusal's error, for errors.As.
func (r Refusals) Unwrap() []error {
	out := make([]error, len(r))
	for i, x := range r {
		out[i] = x.Err
	}
	return out
}
