package bot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/outbox"
	"ethicsbot/privatefile"
)

// Clock is a simulated clock for the console: it starts at the real time and moves only
// when told, never before the record's last event (Console.Earliest).
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock set to start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Console runs /ethics from lines of text, for trying ethicsbot without Slack and for
// scripts. Every message is printed on its own line, prefixed by where it would go.
type Console struct {
	Service *commands.Service
	Clock   *Clock
	User    string // the user lines run as
	// Tick, if set, is called with the clock's time after it moves: the reminder sweep,
	// putting what falls due as simulated time passes in the outbox.
	Tick func(ctx context.Context, now time.Time)
	// Deliver, if set, drains the outbox at now after each command and each Tick, printing
	// each post to out as it is sent. Without it (on a real record) the posts a command
	// committed are printed as queued: the bot delivers them to Slack.
	Deliver func(ctx context.Context, now time.Time, out io.Writer)
	// RealTime refuses :clock: on a real record, events carry the real time.
	RealTime bool
	// Earliest, if set, gives the earliest time :clock may set: the record's last event, or
	// the zero time for a record without events, where any time may be set. The record keeps
	// its events in the order they happened, so the clock never goes back before the last
	// one; before any, nothing can be out of order. Without it the clock moves only forward.
	Earliest func(ctx context.Context) (time.Time, error)
	// Files is the folder where documents a command produces (`/ethics letters`) are
	// written; Slack would upload them to the docket channel.
	Files string
	seq   int
}

// Run reads lines from in until :quit or the end of input.
func (c *Console) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	// A line longer than the longest command ethicsbot takes is refused, and the console
	// goes on: a bufio.Scanner would stop at it, and every later line would be lost.
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		if ctx.Err() != nil {
			return nil
		}
		raw, err := readLine(r, maxConsoleLine)
		if errors.Is(err, errLineTooLong) {
			fmt.Fprintf(out, "[console] that line is over %d bytes, longer than any command ethicsbot takes; it was not run\n",
				maxConsoleLine)
			continue
		}
		if err != nil && raw == "" {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		line := strings.TrimSpace(raw)
		if line == ":quit" {
			return nil
		}
		c.Line(ctx, line, out)
	}
}

// maxConsoleLine is the longest console line run: well above the longest command (a
// filing with every field at its limit).
const maxConsoleLine = 1 << 20

var errLineTooLong = errors.New("line too long")

// readLine reads one line from r, without its end; a line over max bytes is read to its end
// and refused with errLineTooLong. The last line may lack its end; then err is io.EOF too.
func readLine(r *bufio.Reader, max int) (string, error) {
	var b []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if len(b)+len(chunk) > max {
			long = true
		} else {
			b = append(b, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			return "", errLineTooLong
		}
		return strings.TrimRight(string(b), "\r\n"), err
	}
}

// Line runs one console line.
func (c *Console) Line(ctx context.Context, line string, out io.Writer) {
	switch {
	case line == "" || strings.HasPrefix(line, "#"):
		return
	case line == "/ethics" || strings.HasPrefix(line, "/ethics "):
		c.seq++
		resp := c.Service.Handle(ctx,
			commands.Request{User: c.User, Text: strings.TrimPrefix(line, "/ethics"),
				RequestID: fmt.Sprintf("console:%d:%d", time.Now().UnixNano(), c.seq)})
		if resp.Modal != nil {
			fmt.Fprintln(out, "[ephemeral] "+modalText(resp.Modal))
		}
		out := c.naming(out)
		Print(out, resp.Messages)
		c.write(out, resp.Files)
		if c.Deliver != nil {
			c.Deliver(ctx, c.Clock.Now(), out)
		} else {
			PrintPosts(out, resp.Posts, "(queued for Slack) ")
		}
	case strings.HasPrefix(line, ":as "):
		c.User = strings.TrimSpace(strings.TrimPrefix(line, ":as "))
		if id, err := c.Service.Settings().Roles.People.Lookup(c.User); err == nil {
			c.User = id // :as Ann Alder, by the name the configuration gives
		}
		fmt.Fprintf(out, "[console] now acting as %s (%s)\n", c.User, roleName(c.Service.Settings().Roles.Of(c.User)))
	case strings.HasPrefix(line, ":clock") && c.RealTime:
		fmt.Fprintln(out,
			"[console] :clock works only in the demo console, so that a real record is never written at a simulated time")
	case strings.HasPrefix(line, ":clock"):
		arg := strings.TrimSpace(strings.TrimPrefix(line, ":clock"))
		if arg == "" {
			fmt.Fprintf(out, "[console] the time is %s\n",
				c.Clock.Now().In(c.Service.Engine.Cal.Location()).Format(time.RFC3339))
			return
		}
		floor, err := c.earliest(ctx)
		if err != nil {
			fmt.Fprintf(out, "[console] the time was not changed: %v\n", err)
			return
		}
		t, err := moveClock(c.Clock.Now(), floor, arg)
		if err != nil {
			fmt.Fprintf(out, "[console] %v\n", err)
			return
		}
		c.Clock.Set(t)
		fmt.Fprintf(out, "[console] the time is now %s\n",
			t.In(c.Service.Engine.Cal.Location()).Format("Mon 2006-01-02 15:04 MST"))
		if c.Tick != nil {
			c.Tick(ctx, t)
		}
		if c.Deliver != nil {
			c.Deliver(ctx, t, c.naming(out))
		}
	default:
		fmt.Fprintln(out,
			"[console] type /ethics <command> (try /ethics help), :as <user-id or configured name>, :clock <RFC 3339 time> or "+
				":clock +36h / +3d, or :quit")
	}
}

// naming is out with every mention of a person the configuration names written as their
// name, @Ann Alder: the console is read outside Slack, which would show the mention by
// name. A mention of someone with no configured name stays <@U024BE7LH>.
func (c *Console) naming(out io.Writer) io.Writer {
	people := c.Service.Settings().Roles.People
	if len(people.Members()) == 0 {
		return out
	}
	return namingWriter{out, func(id string) string { return people.Name(id) }}
}

// namingWriter writes through w with mentions replaced by names. The console writes
// whole lines, each with one Write, so no mention is split across two.
type namingWriter struct {
	w    io.Writer
	name func(id string) string
}

var consoleMention = regexp.MustCompile(`<@([UW][A-Z0-9_]{2,20})(?:\|[^<>]*)?>`)

func (n namingWriter) Write(p []byte) (int, error) {
	named := consoleMention.ReplaceAllFunc(p, func(m []byte) []byte {
		id := string(consoleMention.FindSubmatch(m)[1])
		if name := n.name(id); name != id {
			return []byte("@" + name)
		}
		return m
	})
	if _, err := n.w.Write(named); err != nil {
		return 0, err
	}
	return len(p), nil
}

// write puts the files a command produced in the console's folder, and prints their
// paths. A file of the same name is replaced: it is the same document, produced again.
func (c *Console) write(out io.Writer, files []commands.File) {
	if len(files) == 0 {
		return
	}
	if c.Files == "" {
		fmt.Fprintln(out, "[console] the documents were not written: no folder is set for them (letters.out)")
		return
	}
	if err := privatefile.MkdirAll(c.Files, 0o750); err != nil {
		fmt.Fprintf(out, "[console] the documents were not written: %v\n", err)
		return
	}
	for _, f := range files {
		path := filepath.Join(c.Files, filepath.Base(f.Name))
		if err := privatefile.WriteFile(path, f.Data, 0o640); err != nil {
			fmt.Fprintf(out, "[console] %s was not written: %v\n", f.Name, err)
			continue
		}
		fmt.Fprintf(out, "[console] wrote %s\n", path)
	}
}

func roleName(r commands.Role) string {
	if r == commands.Nobody {
		return "no role: refused by /ethics"
	}
	return string(r)
}

// earliest is the earliest time :clock may set, and whether it is the record's last
// event (rather than the clock's own time).
func (c *Console) earliest(ctx context.Context) (clockFloor, error) {
	if c.Earliest == nil {
		return clockFloor{at: c.Clock.Now()}, nil
	}
	at, err := c.Earliest(ctx)
	return clockFloor{at: at.In(c.Service.Engine.Cal.Location()), record: true}, err
}

// clockFloor is the earliest time :clock may set: the clock's own time, or the record's
// last event (the zero time when the record has none).
type clockFloor struct {
	at     time.Time
	record bool
}

// moveClock reads ":clock" arguments: an RFC 3339 time, or +<duration> where days (3d)
// are allowed besides Go's units (36h, 90m). A step moves on from now; a time may be any
// time from floor on.
func moveClock(now time.Time, floor clockFloor, arg string) (time.Time, error) {
	if rest, ok := strings.CutPrefix(arg, "+"); ok {
		if days, ok := strings.CutSuffix(rest, "d"); ok {
			n, err := strconv.Atoi(days)
			if err != nil || n < 0 || n > 3660 {
				return now, fmt.Errorf("%q is not a number of days such as +3d", arg)
			}
			return now.AddDate(0, 0, n), nil
		}
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return now, fmt.Errorf("%q is not a step forward such as +36h or +3d", arg)
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339, arg)
	if err != nil {
		return now, fmt.Errorf("%q is not a time such as 2026-12-07T09:00:00-06:00, or a step such as +36h", arg)
	}
	// The record is in the order things happened: an event written at an earlier time than
	// the one before it would make the docket's dates run backwards.
	switch {
	case floor.record && t.Before(floor.at):
		return now, fmt.Errorf("%s is before the record's last event, at %s: the record keeps its events in the order "+
			"they happened, so the clock goes back no further; to begin again at an earlier date, start the console in "+
			"a fresh folder (or delete the demo's database)", t.Format(time.RFC3339), floor.at.Format(time.RFC3339))
	case !floor.record && t.Before(floor.at):
		return now, fmt.Errorf("%s is before the console's time, %s: the clock moves only forward, as the record does",
			t.Format(time.RFC3339), floor.at.Format(time.RFC3339))
	}
	return t, nil
}

// Print writes replies as the console shows them: each line prefixed by [ephemeral], with
// any Block Kit buttons listed after the text.
func Print(out io.Writer, msgs []commands.Message) {
	for _, m := range msgs {
		text := string(m.Text)
		if buttons := buttonLabels(m.Blocks); buttons != "" {
			text += "\nButtons: " + buttons
		}
		printLines(out, "[ephemeral] ", text)
	}
}

// PrintPosts writes posts as the console shows them: each line prefixed by where it goes,
// [#channel] or [@user], then note.
func PrintPosts(out io.Writer, posts []outbox.Post, note string) {
	for _, p := range posts {
		printPost(out, p, note)
	}
}

// printPost writes one post, each of its lines prefixed by where it goes.
func printPost(out io.Writer, p outbox.Post, note string) {
	if p.Key.Series == outbox.CardSeries && !strings.HasPrefix(string(p.Text), "(card updated)") {
		note += "(card) " // a case's card, the parent of its thread: every line marked
	}
	printLines(out, "["+p.Key.To.String()+"] "+note, string(p.Text))
}

// printLines writes text with prefix on every line, so a script can pick out what went
// where.
func printLines(out io.Writer, prefix, text string) {
	for _, line := range strings.Split(text, "\n") {
		fmt.Fprintln(out, prefix+line)
	}
}

func buttonLabels(blocks []slack.Block) string {
	var labels []string
	for _, b := range blocks {
		if a, ok := b.(*slack.ActionBlock); ok {
			for _, e := range a.Elements.ElementSet {
				if btn, ok := e.(*slack.ButtonBlockElement); ok {
					labels = append(labels, "["+btn.Text.Text+"]")
				}
			}
		}
	}
	return strings.Join(labels, " ")
}

// modalText describes a modal in the console, which cannot show one.
func modalText(m *slack.ModalViewRequest) string {
	var fields []string
	for _, b := range m.Blocks.BlockSet {
		if in, ok := b.(*slack.InputBlock); ok {
			f := in.BlockID
			if in.Optional {
				f = "[" + f + "]"
			}
			fields = append(fields, f)
		}
	}
	return fmt.Sprintf("In Slack this opens the form %q with fields %s. In the console, type the one-line form: see "+
		"/ethics help %s.",
		m.Title.Text, strings.Join(fields, ", "), strings.TrimPrefix(m.CallbackID, commands.ModalPrefix))
}

// Printing returns a Console.Deliver that drains d's outbox through a ConsoleSender, so
// that the console prints what the outbox says, exactly as the bot would post it. It
// replaces d's Sender. Each post is printed as it is sent, before the deliverer marks it
// sent: a console killed between the two prints that line again when it restarts, and
// never marks sent a line it did not print.
func Printing(d *outbox.Deliverer) func(ctx context.Context, now time.Time, out io.Writer) {
	sender := &ConsoleSender{}
	d.Sender, d.Mail = sender, sender // e-mail is printed too, never sent
	return func(ctx context.Context, now time.Time, out io.Writer) {
		sender.mu.Lock()
		sender.out = out
		sender.mu.Unlock()
		if _, err := d.Drain(ctx, now); err != nil && d.Log != nil {
			d.Log.Error("outbox drain failed", "err", err)
		}
		sender.mu.Lock()
		sender.out = nil
		sender.mu.Unlock()
	}
}

// ConsoleSender is the console's outbox.Sender: it prints what the outbox says, as it is
// sent, to the console's output of the drain under way.
type ConsoleSender struct {
	mu  sync.Mutex
	out io.Writer // nil between drains: what is sent then is not printed
	n   int       // posts printed, for their timestamps
}

// Send prints the message.
func (c *ConsoleSender) Send(ctx context.Context, d outbox.Dest, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.print(outbox.Post{Key: key, Text: text})
	return d.String(), strconv.Itoa(c.n), nil
}

// print writes p to the output of the drain under way; c.mu is held.
func (c *ConsoleSender) print(p outbox.Post) {
	c.n++
	if c.out != nil {
		printPost(c.out, p, "")
	}
}

// Find never finds: the console's messages do not outlive it.
func (c *ConsoleSender) Find(ctx context.Context, d outbox.Dest, key outbox.Key,
	since time.Time) (string, string, bool, error) {
	return "", "", false, nil
}

// Reply prints the message, as Send does: the console shows a reply in a case's thread
// in the docket channel as a line of that channel.
func (c *ConsoleSender) Reply(ctx context.Context, d outbox.Dest, thread string, text outbox.Markup,
	key outbox.Key) (string, string, error) {
	return c.Send(ctx, d, text, key)
}

// FindReply never finds, as Find.
func (c *ConsoleSender) FindReply(ctx context.Context, d outbox.Dest, thread string,
	key outbox.Key) (string, string, bool, error) {
	return "", "", false, nil
}

// Update records that the card was updated, by its first line: the card itself was
// printed when it was posted.
func (c *ConsoleSender) Update(ctx context.Context, channel, ts string, text outbox.Markup, actions []outbox.Action,
	key outbox.Key) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.print(outbox.Post{Key: key, Text: "(card updated) " + text.FirstLine(200)})
	return nil
}
