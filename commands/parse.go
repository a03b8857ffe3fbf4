package commands

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"ethicsbot/docket"
)

// word is one token of a command: a bare or quoted value, or key=value.
type word struct {
	key  string // "" for a positional word
	text string
	// escaped: text is as Slack sent it (should_escape: true in manifest.yml), with its
	// mentions, channels and links as entities (<@U024BE7LH|ann>, <#C0123|general>,
	// <https://example.gov|example.gov>) and & < > as &amp; &lt; &gt;. See typed.
	escaped bool
}

// slackEscapes are the three characters Slack escapes in command text.
var slackEscapes = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">")

// tokenize splits command text into words. Values may be quoted with "..." or with the
// curly quotes a phone or a Mac puts in, either closing either (a phone's “ is often closed
// by a typed "); key="a value" keeps its spaces. An unclosed quote runs to the end of the
// text, and scan reports it. escaped says the text is as Slack sent it (Request.Escaped):
// then an entity <...> is one piece of a word, whatever it holds, since a '<' there is
// always Slack's (a '<' the user typed comes as &lt;).
func tokenize(text string, escaped bool) []word {
	words, _ := scan(text, escaped)
	return words
}

// scan is tokenize, and also where the quoted value of a key= that is never closed was
// opened: the byte offset of its quote mark, or -1. (A quote elsewhere, in words searched
// for, say, is taken as it comes.)
func scan(text string, escaped bool) ([]word, int) {
	var words []word
	open := -1
	var cur strings.Builder
	// plain says cur could be a key so far (letters and underscores), kept as cur grows:
	// matching cur again at each '=' made a word of many '=' cost its length squared, and
	// a line is read before Slack's ack.
	plain := true
	add := func(r rune) {
		cur.WriteRune(r)
		plain = plain && isKeyRune(r)
	}
	var key string
	inWord, quoted := false, false
	var closing string
	flush := func() {
		if inWord {
			words = append(words, word{key: key, text: cur.String(), escaped: escaped})
		}
		cur.Reset()
		plain = true
		key, inWord, quoted = "", false, false
	}
	entity := false
	for i, r := range text {
		switch {
		case entity:
			add(r)
			entity = r != '>'
		case escaped && r == '<':
			inWord, entity = true, true
			add(r)
		case quoted && strings.ContainsRune(closing, r):
			quoted, open = false, -1
		case quoted:
			add(r)
		case r == '"' || r == '“' || r == '”' || r == '\'' && cur.Len() == 0:
			if key != "" && cur.Len() == 0 {
				open = i // the quoted value of key=: one never closed is refused (see Handle)
			}
			inWord, quoted = true, true
			closing = map[rune]string{'"': `"”`, '“': `”"`, '”': `”"`, '\'': `'’`}[r]
		case unicode.IsSpace(r):
			flush()
		case r == '=' && key == "" && cur.Len() > 0 && plain:
			key = strings.ToLower(cur.String())
			cur.Reset()
			plain = true
		default:
			inWord = true
			add(r)
		}
	}
	flush()
	return words, open
}

// isKeyRune says whether r may be in the key of key=value.
func isKeyRune(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_' }

// kind is what a parameter holds.
type kind int

const (
	kText    kind = iota // free text
	kCase                // a case number, YYYY-NNN
	kChoice              // one of choices
	kDate                // YYYY-MM-DD
	kInstant             // YYYY-MM-DDTHH:MM in the commission's zone, or RFC 3339
	kDollars             // whole dollars: 2500, $2,500
	kUser                // a Slack member id, U024BE7LH: a people picker in a form
	kUsers               // Slack member ids, comma-separated: a multi-person picker in a form
)

// param is one input of a subcommand.
type param struct {
	name       string
	kind       kind
	choices    []string
	required   bool
	positional bool // given in order, without name=
	rest       bool // a positional that takes every remaining positional word
	oneLine    bool // free text kept to one line, though its name is usually multi-line
	orMeeting  bool // a case number, or in its place a meeting's name (2027-01-12), set as meeting_name
	// member marks a kUser or kUsers that names seated commissioners: a form offers them by
	// name, without those recused from its case (Service.memberChoices), not a people picker.
	member bool
	// max is the docket's own limit on the value, in characters, when it is lower than
	// maxValue: checked first, so that the user is told the limit that applies.
	max  int
	help string
}

// args are a subcommand's inputs, converted and checked.
type args map[string]any

func (a args) str(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a args) date(name string) docket.Date {
	d, _ := a[name].(docket.Date)
	return d
}

func (a args) instant(name string) time.Time {
	t, _ := a[name].(time.Time)
	return t
}

func (a args) dollars(name string) int {
	n, _ := a[name].(int)
	return n
}

func (a args) users(name string) []string {
	u, _ := a[name].([]string)
	return u
}

// whole reads the whole number given as name=, and whether one was given.
func (a args) whole(name string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(a.str(name)))
	return n, err == nil && a.has(name)
}

func (a args) has(name string) bool {
	_, ok := a[name]
	return ok
}

// maxValue bounds any one value, in characters (runes) as the docket counts them; the
// docket has its own, tighter limits per field.
const maxValue = 4000

// bind matches words to the subcommand's parameters and converts each value. read says
// how it understood the values it normalised ("2026-1 as case 2026-001"), for the reply.
// people names whom a user field may name by name.
func (sub *subcommand) bind(words []word, loc *time.Location, people docket.Roster) (a args, read []string, err error) {
	a = args{}
	var positional []param
	for _, p := range sub.params {
		if p.positional {
			positional = append(positional, p)
		}
	}
	escaped := len(words) > 0 && words[0].escaped
	set := func(p param, value string) error {
		r, err := a.set(p, value, escaped, loc, people)
		if r != "" {
			read = append(read, r)
		}
		return err
	}
	var rest []string
	restParam := param{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		var p param
		switch {
		case w.key == "" && len(positional) == 0 && restParam.name != "":
			rest = append(rest, w.text)
			continue
		case w.key == "" && len(positional) == 0:
			return nil, nil, docket.Invalid("", "", fmt.Sprintf("unexpected %q", w.text))
		case w.key == "" && positional[0].rest:
			restParam = positional[0]
			rest = append(rest, w.text)
			positional = nil
			continue
		case w.key == "":
			p, positional = positional[0], positional[1:]
		case w.key == "meeting" &&
			(meetingPattern.MatchString(strings.TrimSpace(typed(w.text))) || isNextRegular(typed(w.text))) &&
			sub.hasParam("meeting_name"):
			// meeting=2027-01-12 names a meeting of the commission, not a kind of step.
			p, _ = sub.param("meeting_name")
			if a.has(p.name) {
				return nil, nil, p.errorf("is given twice")
			}
		default:
			var ok bool
			if p, ok = sub.param(w.key); !ok {
				return nil, nil, docket.Invalid("", "", fmt.Sprintf("`%s` has no option %q", sub.name, w.key))
			}
			if a.has(p.name) {
				return nil, nil, p.errorf("is given twice")
			}
		}
		value := w.text
		// A date and a time typed apart, as people write them: 2026-12-04 10:00.
		if p.kind == kInstant && i+1 < len(words) && words[i+1].key == "" && datePattern.MatchString(value) &&
			clockPattern.MatchString(words[i+1].text) {
			i++
			value += " " + words[i].text
		}
		if err := set(p, value); err != nil {
			return nil, nil, err
		}
	}
	if restParam.name != "" {
		if err := set(restParam, strings.Join(rest, " ")); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range sub.params {
		if p.required && !a.has(p.name) && !(p.orMeeting && a.has("meeting_name")) {
			return nil, nil, p.errorf("is missing: %s", p.help)
		}
	}
	return a, read, nil
}

// errorf is an error about p's value, on p's field: "start: ...".
func (p param) errorf(format string, a ...any) error {
	return docket.Invalid("", p.name, fmt.Sprintf(format, a...))
}

// hasParam reports whether sub has a parameter named name.
func (sub *subcommand) hasParam(name string) bool {
	_, ok := sub.param(name)
	return ok
}

func (sub *subcommand) param(name string) (param, bool) {
	for _, p := range sub.params {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

var (
	casePattern  = regexp.MustCompile(`^(\d{4})-(\d{1,6})$`)
	memberID     = regexp.MustCompile(`^[UW][A-Z0-9_]{2,20}$`)
	datePattern  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	clockPattern = regexp.MustCompile(`^\d{1,2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)?$`) // a time, with an offset if any
)

// set converts value for p. An empty value counts as not given. read, if not "", says how
// a value written another way than the usual one was understood. escaped says value is as
// Slack sent it in a command's text: a user field reads its mentions, any other field gets
// the text back as the user typed it (typed).
func (a args) set(p param, value string, escaped bool, loc *time.Location,
	people docket.Roster) (read string, err error) {
	if escaped && p.kind != kUser && p.kind != kUsers {
		value = typed(value)
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return "", nil
	}
	if !utf8.ValidString(value) {
		return "", p.errorf("is not valid text")
	}
	limit := maxValue
	if p.max > 0 && p.max < limit {
		limit = p.max
	}
	if n := utf8.RuneCountInString(value); n > limit {
		return "", p.errorf("is %d characters long; the limit is %d", n, limit)
	}
	switch p.kind {
	case kText:
		a[p.name] = value
	case kUser, kUsers:
		users, err := members(value, people)
		if err != nil {
			return "", p.errorf("%v", err)
		}
		if p.kind == kUsers {
			a[p.name] = users
		} else if len(users) > 1 {
			return "", p.errorf("names %d people; @mention one", len(users))
		} else {
			a[p.name] = users[0]
		}
	case kCase:
		if p.orMeeting && meetingPattern.MatchString(value) {
			a["meeting_name"] = value
			return "", nil
		}
		number, err := caseNumber(value)
		if err != nil {
			return "", p.errorf("%v", err)
		}
		a[p.name] = number
		if number != value {
			read = fmt.Sprintf("%s as case %s", value, number)
		}
	case kChoice:
		v := strings.ToLower(strings.ReplaceAll(value, "-", "_"))
		for _, c := range p.choices {
			if v == c {
				a[p.name] = c
				return "", nil
			}
		}
		return "", p.errorf("%q is not one of %s", value, strings.Join(p.choices, ", "))
	case kDate:
		d, err := docket.ParseDate(value)
		if err != nil {
			return "", p.errorf("%v, e.g. 2026-12-04", err)
		}
		a[p.name] = d
	case kInstant:
		t, err := parseInstant(value, loc)
		var twice *ambiguousErr
		switch {
		case errors.Is(err, errSkipped):
			return "", p.errorf("%s does not exist in %s: the clocks skip that hour for daylight saving time; choose "+
				"another time", value, loc)
		case errors.As(err, &twice):
			return "", p.errorf("%v", twice)
		}
		if err != nil {
			return "", p.errorf("%q is not a date and time like 2026-12-10T17:00 or 2026-12-10 17:00 (%s time), or "+
				"2026-12-10T17:00:00-06:00", value, loc)
		}
		a[p.name] = t
		if strings.ContainsRune(value, ' ') {
			read = fmt.Sprintf("%s as %s", value, whenIn(t, loc))
		}
	case kDollars:
		n, err := strconv.Atoi(strings.NewReplacer("$", "", ",", "").Replace(value))
		if err != nil || n < 0 {
			return "", p.errorf("%q is not a whole number of dollars, e.g. 2500", value)
		}
		a[p.name] = n
	}
	return read, nil
}

// mentionPattern is a user mention as Slack writes it in a command's text: <@U024BE7LH>,
// or <@U024BE7LH|ann> with the name the user saw.
var mentionPattern = regexp.MustCompile(`<@([UW][A-Z0-9_]{2,20})(?:\|[^<>]*)?>`)

// members reads the people a user field names, separated by commas or semicolons: each an
// @mention as Slack sends it (<@U024BE7LH|ann>), a member id with or without an @ before it,
// or a name from the configured roster: in the console, which Slack does not
// fill in, people are given by name ("Ann Alder", or "Alder" when only one person has it).
// Ids and mentions may also be separated by spaces. A name that fits nobody, or several
// people, is refused, never guessed: a roll call must name who voted.
func members(value string, people docket.Roster) ([]string, error) {
	value = mentionPattern.ReplaceAllString(value, " $1 ")
	var users []string
	for _, piece := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ';' }) {
		fields := strings.Fields(piece)
		ids, notID := make([]string, 0, len(fields)), ""
		for _, f := range fields {
			if id := strings.TrimPrefix(f, "@"); memberID.MatchString(id) {
				ids = append(ids, id)
			} else if notID == "" {
				notID = f
			}
		}
		if notID == "" {
			users = append(users, ids...)
			continue
		}
		if len(people.Members()) == 0 {
			return nil, fmt.Errorf("%q is not a Slack user id such as U024BE7LH: @mention them (in the console, which has no "+
				"mentions, type their member id, or their name once the configuration gives names); separate several "+
				"with commas", notID)
		}
		name := strings.TrimPrefix(strings.TrimSpace(piece), "@")
		id, err := people.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("%v: @mention them, or give their member id or their name as the configuration gives it; "+
				"separate several with commas", err)
		}
		users = append(users, id)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("names nobody: @mention them")
	}
	return users, nil
}

// typed is a command's text as the user typed it, from the text as Slack sent it with
// should_escape: a mention <@U024BE7LH|ann> is @ann again, a channel <#C0123|general> is
// #general, a special mention <!here> is @here, a link <https://example.gov|example.gov>
// is the text the user typed for it (or its address), and &amp; &lt; &gt; are & < >.
// Nothing becomes markup: the result is user text, data, escaped again where a message is
// built (outbox.Markup), so what Slack made a ping or a link is shown as plain text.
func typed(s string) string {
	s = slackEntity.ReplaceAllStringFunc(s, func(m string) string {
		target, label, _ := strings.Cut(m[1:len(m)-1], "|")
		switch {
		case strings.HasPrefix(target, "@") || strings.HasPrefix(target, "#"):
			if label != "" {
				return target[:1] + strings.TrimPrefix(label, target[:1])
			}
			return target
		case strings.HasPrefix(target, "!"):
			name, _, _ := strings.Cut(target[1:], "^")
			switch {
			case name == "here" || name == "channel" || name == "everyone":
				return "@" + name
			case label != "":
				return label // a user group's @handle, a date's text as written
			}
			return "@" + name
		case label != "":
			return label
		}
		return target
	})
	return slackEscapes.Replace(s)
}

// slackEntity is one of Slack's entities in escaped text: <...>, holding no '<' or '>'.
var slackEntity = regexp.MustCompile(`<[^<>]*>`)

// caseNumber reads a case number as people type it: 2026-1, 2026-01 and 2026-001 are all
// case 2026-001, as the store numbers cases (YYYY-NNN, at least three digits).
func caseNumber(value string) (string, error) {
	m := casePattern.FindStringSubmatch(value)
	if m == nil {
		return "", fmt.Errorf("%q is not a case number: a case number is the year of receipt and the case's number in that "+
			"year, e.g. 2026-014 (or 2026-14)", value)
	}
	n, _ := strconv.Atoi(m[2])
	if n == 0 {
		return "", fmt.Errorf("%q is not a case number: the cases of a year are numbered from 1, e.g. 2026-001", value)
	}
	return fmt.Sprintf("%s-%03d", m[1], n), nil
}

// parseInstant reads RFC 3339, with or without the seconds (2027-11-07T01:30-06:00), or a
// local date and time in loc without an offset (with a T or a space between the date and
// the time, and a space allowed before an offset). A local time that does not exist
// (skipped by daylight saving) or that happens twice (the hour repeated when the clocks go
// back) is refused rather than guessed: a meeting's notice must give its one time.
func parseInstant(s string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00",
		"2006-01-02 15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return checkYear(t)
		}
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"} {
		wall, err := time.Parse(layout, s) // the wall clock as written, read as UTC
		if err != nil {
			continue
		}
		if _, err := checkYear(wall); err != nil {
			return time.Time{}, err
		}
		readings := localReadings(wall, loc)
		switch len(readings) {
		case 0:
			return time.Time{}, errSkipped
		case 1:
			return readings[0], nil
		}
		return time.Time{}, &ambiguousErr{wall: wall, loc: loc, readings: readings}
	}
	return time.Time{}, fmt.Errorf("not a date and time")
}

// localReadings are the instants at which loc's clocks show wall (a wall clock written as
// UTC): none in the hour skipped when the clocks go forward, two in the hour repeated when
// they go back, else one. Every offset loc uses within a day of wall is tried.
func localReadings(wall time.Time, loc *time.Location) []time.Time {
	var out []time.Time
	for _, near := range []time.Duration{-26 * time.Hour, 0, 26 * time.Hour} {
		_, offset := wall.Add(near).In(loc).Zone()
		t := wall.Add(-time.Duration(offset) * time.Second).In(loc)
		if sameWall(t, wall) && !slices.ContainsFunc(out, t.Equal) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// sameWall reports whether t shows the wall clock of wall (read as UTC) in its own zone.
func sameWall(t, wall time.Time) bool {
	y, m, d := t.Date()
	wy, wm, wd := wall.Date()
	return y == wy && m == wm && d == wd && t.Hour() == wall.Hour() && t.Minute() == wall.Minute() &&
		t.Second() == wall.Second()
}

// errSkipped is a local time that daylight saving time skips.
var errSkipped = errors.New("the local time does not exist")

// ambiguousErr is a local time that happens twice, when the clocks go back: its readings,
// earliest first.
type ambiguousErr struct {
	wall     time.Time
	loc      *time.Location
	readings []time.Time
}

// Error says both readings and how to choose, the clocks having gone back: "1:30 on Sun 7
// Nov 2027 happens twice in America/Chicago: 01:30 CDT (-05:00) or 01:30 CST (-06:00);
// add the offset, e.g. 2027-11-07T01:30-05:00 or 2027-11-07T01:30-06:00".
func (e *ambiguousErr) Error() string {
	readings := make([]string, len(e.readings))
	for i, t := range e.readings {
		readings[i] = t.Format("15:04 MST (-07:00)")
	}
	clock := strings.TrimPrefix(e.wall.Format("15:04"), "0")
	if e.wall.Second() != 0 {
		clock = strings.TrimPrefix(e.wall.Format("15:04:05"), "0")
	}
	return fmt.Sprintf("%s on %s happens twice in %s: %s; add the offset, e.g. %s or %s",
		clock, e.wall.Format("Mon 2 Jan 2006"), e.loc, strings.Join(readings, " or "),
		e.readings[0].Format("2006-01-02T15:04-07:00"), e.readings[len(e.readings)-1].Format("2006-01-02T15:04-07:00"))
}

func checkYear(t time.Time) (time.Time, error) {
	if t.Year() < docket.MinYear || t.Year() > docket.MaxYear {
		return time.Time{}, fmt.Errorf("year %d is out of range", t.Year())
	}
	return t, nil
}
