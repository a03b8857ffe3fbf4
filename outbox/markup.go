package outbox

import (
	"fmt"
	"regexp"
	"strings"
)

// Markup is Slack mrkdwn that ethicsbot wrote. User text becomes Markup only through
// Escape, Quote or Format, which escape it, so what a user typed is shown as typed and can
// never become a mention, a link or a formatting of ethicsbot's own. Only ethicsbot's
// templates, through Mention and the format strings of Format, produce markup.
type Markup string

// String returns the markup as Slack receives it.
func (m Markup) String() string { return string(m) }

// escaper escapes the three characters Slack gives meaning to in message text.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Escape makes user text safe to show in a message: &, < and > are escaped, as Slack asks,
// so "<!channel>" is shown as typed and pings no one.
func Escape(s string) Markup { return Markup(escaper.Replace(s)) }

// Quote shows multi-line user text as a block quote: every line starts with "> ", so none
// of it can pass for a line of ethicsbot's own, such as a second "PUBLIC NOTICE". It starts
// on a new line of its own.
func Quote(s string) Markup {
	s = lineBreaks.Replace(s)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("\n> ")
		b.WriteString(escaper.Replace(l))
	}
	return Markup(b.String())
}

// lineBreaks are the ways text can break a line, each made a plain newline so that Quote
// marks every line.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", "\v", "\n", "\f", "\n")

// slackID is a Slack user id as ethicsbot accepts one.
var slackID = regexp.MustCompile(`^[UW][A-Z0-9_]{2,20}$`)

// Mention is a mention of a Slack user, <@U024BE7LH>. Anything that is not a user id is
// shown as escaped text instead, so a mention can never carry markup.
func Mention(user string) Markup {
	if !slackID.MatchString(user) {
		return Escape(user)
	}
	return Markup("<@" + user + ">")
}

// Format is fmt.Sprintf for messages: the format is ethicsbot's own markup, and every
// argument is escaped unless it is already Markup. Numbers pass as they are; any other
// value is formatted with %v and escaped like text.
func Format(format string, args ...any) Markup {
	safe := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case Markup:
			safe[i] = string(v)
		case string:
			safe[i] = escaper.Replace(v)
		case fmt.Stringer:
			safe[i] = escaper.Replace(v.String())
		case error:
			safe[i] = escaper.Replace(v.Error())
		case int, int64, float64, bool:
			safe[i] = v
		default:
			safe[i] = escaper.Replace(fmt.Sprint(v))
		}
	}
	return Markup(fmt.Sprintf(format, safe...))
}

// unescaper reverses escaper.
var unescaper = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">")

// Plain is the markup as plain text, for places Slack shows as typed (a modal's field
// errors, plain_text objects): the escaped characters read as themselves again.
func (m Markup) Plain() string { return unescaper.Replace(string(m)) }

// Join joins markup with sep, which is ethicsbot's own.
func Join(parts []Markup, sep string) Markup {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = string(p)
	}
	return Markup(strings.Join(s, sep))
}

// slackChannelID is a Slack channel id as ethicsbot accepts one.
var slackChannelID = regexp.MustCompile(`^[CGD][A-Z0-9]{2,20}$`)

// Markup shows d in a message: a channel as a link to it (<#C0123>), a user as a mention.
// A destination that is not an id (a #name in the console) is shown as escaped text.
func (d Dest) Markup() Markup {
	switch {
	case d.User != "":
		return Mention(d.User)
	case slackChannelID.MatchString(d.Channel):
		return Markup("<#" + d.Channel + ">")
	}
	return Escape(d.String())
}

// FirstLine is m's first line, cut to at most max characters at a space, never inside a
// link, a mention or an escaped character: a few words that name a message.
func (m Markup) FirstLine(max int) Markup {
	line, _, more := strings.Cut(string(m), "\n")
	r := []rune(line)
	if len(r) <= max {
		if more {
			line += " …"
		}
		return Markup(line)
	}
	cut := string(r[:max])
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	// Never end inside <…> or &…;: drop an unclosed one.
	if i := strings.LastIndexByte(cut, '<'); i > strings.LastIndexByte(cut, '>') {
		cut = cut[:i]
	}
	if i := strings.LastIndexByte(cut, '&'); i > strings.LastIndexByte(cut, ';') {
		cut = cut[:i]
	}
	return Markup(strings.TrimRight(cut, " ") + " …")
}

// slackLink is a link, mention or channel in Slack's markup: <target> or <target|label>.
var slackLink = regexp.MustCompile(`<([^<>|]*)(?:\|([^<>]*))?>`)

// Text is m as plain text for an e-mail: a link is its label with its address after it
// ("the board (https://…)"), a mention or channel its id, and the escaped characters read as
// themselves again. User text was escaped on its way into m, so no "<" of a user's is
// taken for a link.
func (m Markup) Text() string {
	s := slackLink.ReplaceAllStringFunc(string(m), func(l string) string {
		p := slackLink.FindStringSubmatch(l)
		target, label := p[1], p[2]
		switch {
		case strings.HasPrefix(target, "#") || strings.HasPrefix(target, "@"):
			if label != "" {
				return label
			}
			return target
		case strings.HasPrefix(target, "!"):
			return "" // a special mention (<!here>) means nothing in an e-mail
		case label != "" && label != target:
			return label + " (" + target + ")"
		}
		return target
	})
	return unescaper.Replace(s)
}
