package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"ethicsbot/docket"
	"ethicsbot/outbox"
)

// RestoreSeries is the series of the docket channel's note of what a restore lost; it
// carries the restored record's anchor.
const RestoreSeries = "restore"

// RestoreMark is what a restore leaves in the record for the bot's next start: which
// backup was put in place, and the anchor it ended at.
type RestoreMark struct {
	Backup   string    `json:"backup"`
	Anchor   string    `json:"anchor"`
	LastAt   time.Time `json:"last_event_at"` // when the backup's last event was recorded
	Restored time.Time `json:"restored"`
}

// RestoreReport is what Restore did.
type RestoreReport struct {
	Backup, Database string
	Report                  // the backup's verification, with its anchor
	Replaced         string // where the database it replaced was kept; "" if there was none
	ReplacedAnchor   string // that database's anchor, if it could be read
	// Beyond are how many case events and meeting events the replaced database holds
	// after the backup's last ones: what the restore loses. Meeting actions that post
	// nothing to Slack (a roll, a closed session, an adjournment) are known only from here.
	BeyondEvents, BeyondMeetings int64
	Pending                      int // messages the backup had not yet said: each is looked for in Slack before it is sent
}

// String says what was done, and what the bot does next, for the administrator.
func (r RestoreReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Restored %s from %s: %d events in %d cases; the chain is intact.\n", r.Database, r.Backup,
		r.Events, r.Cases)
	fmt.Fprintf(&b, "anchor %s\n", r.Anchor)
	if r.Replaced != "" {
		fmt.Fprintf(&b, "The database it replaced is kept as %s", r.Replaced)
		if r.ReplacedAnchor != "" {
			fmt.Fprintf(&b, " (anchor %s)", r.ReplacedAnchor)
		}
		b.WriteString(".\n")
		if r.BeyondEvents > 0 || r.BeyondMeetings > 0 {
			fmt.Fprintf(&b,
				"It holds %d case events and %d meeting events after the backup's last ones, which the restored record lacks: "+
					"the clerk enters them again from the kept file (a meeting's agenda, posting, roll, closed sessions and "+
					"adjournment among them; Slack shows only its notices).\n", r.BeyondEvents, r.BeyondMeetings)
		}
	} else {
		fmt.Fprintf(&b, "There was no database at %s: the backup is now the record there.\n", r.Database)
	}
	fmt.Fprintf(&b,
		"%d messages the backup had not yet said will each be looked for in Slack before they are sent.\n", r.Pending)
	b.WriteString("Start ethicsbot now. Before it numbers a new case it reads the docket and notices channels for what " +
		"was announced after the backup, keeps those case numbers from being used again, and tells the docket channel what " +
		"the restore lost, so the clerk can enter it again.\n")
	return b.String()
}

// RestoreOptions are the choices an administrator makes at a restore.
type RestoreOptions struct {
	// OtherRecord allows a backup whose chain is not the replaced record's: a record of
	// another commission, or one begun afresh. Without it such a restore is refused.
	OtherRecord bool
}

// Restore puts the backup at backup in place of the database at live, with the bot
// stopped. It verifies the backup first and refuses one that does not verify, or one that
// is not a backup of the record it replaces; it refuses while any program has live open or
// an ethicsbot holds its lock; it keeps the file it replaces beside it, never deleting a
// record, and the path always holds a database, whenever it is interrupted. In the
// restored record it marks every message the backup had not yet said to be looked for in
// Slack before it is sent, and leaves a RestoreMark for the bot's next start (see
// Reconcile).
func Restore(ctx context.Context, backup, live string, engine *docket.Engine, now func() time.Time,
	o RestoreOptions) (RestoreReport, error) {
	rep := RestoreReport{Backup: backup, Database: live}
	if abs, err := filepath.Abs(backup); err == nil {
		rep.Backup = abs
	}
	// A symbolic link at live is followed: the record is the file it names.
	if real, err := filepath.EvalSymlinks(live); err == nil {
		live = real
	}
	rep.Database = live
	bi, err := os.Stat(backup)
	if err != nil {
		return rep, fmt.Errorf("backup %s: %w; nothing was changed", backup, err)
	}
	if li, err := os.Stat(live); err == nil && os.SameFile(bi, li) {
		return rep, fmt.Errorf("backup %s is the database itself; give the path of a backup; nothing was changed", backup)
	}
	if !bi.Mode().IsRegular() {
		return rep, fmt.Errorf("backup %s is not a file; nothing was changed", backup)
	}
	if bi.Size() == 0 {
		return rep, fmt.Errorf("backup %s is empty: it is not a backup of the record; nothing was changed", backup)
	}
	if err := checkHeader(backup); err != nil {
		return rep, fmt.Errorf("backup %s is not an SQLite database, so not a backup of the record; nothing "+
			"was changed", backup)
	}
	b, err := OpenReadOnly(backup, engine)
	if err != nil {
		return rep, fmt.Errorf("backup %s: %w", backup, err)
	}
	defer b.Close()
	if b.Version() < 3 {
		return rep, fmt.Errorf("backup %s is at schema version %d, older than any ethicsbot that can restore it; nothing "+
			"was changed", backup, b.Version())
	}
	if rep.Report, err = b.Verify(ctx); err != nil {
		return rep, fmt.Errorf("backup %s cannot be verified: %w; nothing was changed", backup, err)
	}
	if rep.Broken != nil {
		return rep, fmt.Errorf("backup %s does not verify: BROKEN at %s; nothing was changed. Restore an earlier backup",
			backup, rep.Broken)
	}
	dir := filepath.Dir(live)
	if _, err := os.Stat(dir); err != nil {
		return rep, fmt.Errorf("restoring %s: its folder: %w; set ETHICSBOT_DB to the bot's database; nothing "+
			"was changed", live, err)
	}
	lock, err := lockRecord(live)
	if err != nil {
		return rep, err
	}
	defer lock.Close()
	_, err = os.Stat(live)
	exists := err == nil
	if exists {
		if old, err := OpenReadOnly(live, engine); err == nil {
			if a, err := old.Head(ctx); err == nil {
				rep.ReplacedAnchor = a.String()
				rep.BeyondEvents = max(a.Events-rep.Anchor.Events, 0)
				rep.BeyondMeetings = max(a.Meetings-rep.Anchor.Meetings, 0)
			}
			if problem, err := sameLineage(ctx, old, b, rep.Anchor); err == nil && problem != "" && !o.OtherRecord {
				old.Close()
				return rep, fmt.Errorf("backup %s is not a backup of the record at %s: %s. If that is meant (the record is begun "+
					"afresh, or is another commission's), run restore again with --other-record; nothing was changed", backup,
					live, problem)
			}
			old.Close()
		}
		if err := exclusive(live); err != nil {
			return rep, err
		}
	}
	// What an interrupted restore left is ours to clear: it was never put in place.
	if left, _ := filepath.Glob(live + ".restoring-*"); len(left) > 0 {
		for _, f := range left {
			os.Remove(f)
		}
	}
	stamp := now().UTC().Format("20060102T150405.000000000Z")
	tmp := live + ".restoring-" + stamp
	if err := b.copyTo(ctx, tmp); err != nil {
		return rep, fmt.Errorf("restoring %s: %w; nothing was changed", live, err)
	}
	mark := RestoreMark{Backup: rep.Backup, Anchor: rep.Anchor.String(), LastAt: rep.Anchor.At, Restored: now().UTC()}
	if rep.Pending, err = markRestored(ctx, tmp, engine, b.Version(), mark); err != nil {
		os.Remove(tmp)
		return rep, fmt.Errorf("restoring %s: %w; nothing was changed", live, err)
	}
	if exists {
		// A second name for the record first, then the restored copy renamed over the
		// path: at every moment the path holds a database, and the replaced record is kept
		// under a name no earlier restore took (a link fails if the name exists).
		for n := 1; ; n++ {
			rep.Replaced = live + ".replaced-" + stamp
			if n > 1 {
				rep.Replaced += "-" + strconv.Itoa(n)
			}
			err := os.Link(live, rep.Replaced)
			if err == nil {
				break
			}
			if !errors.Is(err, fs.ErrExist) || n == 100 {
				os.Remove(tmp)
				return rep, fmt.Errorf("restoring %s: keeping the replaced file as %s: %w; nothing was changed", live,
					rep.Replaced, err)
			}
		}
	}
	if err := os.Rename(tmp, live); err != nil {
		os.Remove(tmp)
		if exists {
			os.Remove(rep.Replaced) // the record is still at live
			rep.Replaced = ""
		}
		return rep, fmt.Errorf("restoring %s: %w; nothing was changed", live, err)
	}
	// The replaced record's shared-memory file is stale (exclusive folded its WAL in).
	os.Remove(live + "-shm")
	os.Remove(live + "-wal")
	return rep, syncDir(dir)
}

// sameLineage says how the backup b, whose head is anchor, is not of the record old: a
// backup of the record shares its first event, and either old holds the backup's head
// (old went on after the backup) or the backup holds old's head (old lost events since).
func sameLineage(ctx context.Context, old, b *Store, anchor Anchor) (string, error) {
	oldHead, err := old.Head(ctx)
	if err != nil || oldHead.Events == 0 || anchor.Events == 0 {
		return "", err
	}
	first := func(s *Store) (string, error) {
		var h string
		err := s.r.QueryRowContext(ctx, `SELECT hash FROM events WHERE id = 1`).Scan(&h)
		return h, err
	}
	of, err := first(old)
	if err != nil {
		return "", err
	}
	bf, err := first(b)
	if err != nil {
		return "", err
	}
	if of != bf {
		return "their first events differ, so they are different records", nil
	}
	// The lineage is the cases' chain: the meetings' may have lost events either way.
	oldHead.Meetings, oldHead.MeetingHash = 0, ""
	anchor.Meetings, anchor.MeetingHash = 0, ""
	if anchor.Events <= oldHead.Events {
		return old.CheckAnchor(ctx, anchor)
	}
	return b.CheckAnchor(ctx, oldHead)
}

// markRestored writes the restore's mark into the copy at path, and marks every message it
// had not yet said to be looked for in Slack before it is sent: the backup may have been
// taken between its sending and its marking, or it may have been said after. It returns
// how many.
func markRestored(ctx context.Context, path string, engine *docket.Engine, version int, mark RestoreMark) (int, error) {
	s, err := open(path, engine, version, Options{})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	doc, err := json.Marshal(mark)
	if err != nil {
		return 0, err
	}
	var pending int64
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO meta (key, value) VALUES ('restored', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
			string(doc)); err != nil {
			return err
		}
		// Claim returns the first claim's time to the deliverer, which then looks for the
		// message in Slack from then on before it sends it: from when it fell due.
		res, err := tx.ExecContext(ctx,
			`UPDATE outbox SET claimed = CASE WHEN claimed = '' OR claimed > due THEN due ELSE claimed END, attempts = max(attempts, 1) WHERE sent = ''`)
		if err != nil {
			return err
		}
		pending, err = res.RowsAffected()
		return err
	})
	return int(pending), err
}

// Restored returns the mark of a restore that the bot has not yet reconciled with Slack,
// or nil.
func (s *Store) Restored(ctx context.Context) (*RestoreMark, error) {
	return restoredMark(ctx, s.r)
}

func restoredMark(ctx context.Context, q querier) (*RestoreMark, error) {
	var doc string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'restored'`).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m RestoreMark
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		return nil, fmt.Errorf("the record's restore mark cannot be read: %w", err)
	}
	return &m, nil
}

var mention = regexp.MustCompile(`<@([UW][A-Z0-9_]+)>`)

// quoteSaid quotes a line that Slack shows ethicsbot said: as text, whoever wrote it, but
// with its mentions of members kept as mentions.
func quoteSaid(line string) outbox.Markup {
	var out outbox.Markup
	for {
		loc := mention.FindStringSubmatchIndex(line)
		if loc == nil {
			return out + outbox.Escape(line)
		}
		out += outbox.Escape(line[:loc[0]]) + outbox.Mention(line[loc[2]:loc[3]])
		line = line[loc[1]:]
	}
}

// errUnreconciled refuses a new case number until a restore is reconciled with Slack.
var errUnreconciled = docket.Conflict("(A)", "",
	"the record was restored from a backup, and ethicsbot has not yet read Slack for the case numbers announced after "+
		"it; a new case is numbered once it has (see the log). Nothing was recorded")

var caseNumber = regexp.MustCompile(`^([0-9]{4})-([0-9]{3,})$`)

// Lost is what a restore lost, as Slack shows it: the events announced after the backup's
// anchor, and the case numbers among them that the restored record does not hold.
type Lost struct {
	Events   map[int64]outbox.Said  // by event id
	Meetings map[string]outbox.Said // the meetings' notices the record does not hold, by their key's step
	Numbers  []string               // case numbers announced but not in the record, now kept from reuse
}

// Reconcile finishes a restore with what Slack shows ethicsbot said since the backup's last
// event (said): every case number announced is kept from being used again; every message
// the record still has to say and Slack already shows is marked said; and the docket
// channel (report) is told what the restore lost, so the clerk can enter it again. All in
// one transaction, which also clears the restore's mark.
func (s *Store) Reconcile(ctx context.Context, said []outbox.Said, report outbox.Dest, now time.Time) (Lost, error) {
	lost := Lost{Events: map[int64]outbox.Said{}, Meetings: map[string]outbox.Said{}}
	err := s.write(ctx, func(tx *sql.Tx) error {
		mark, err := restoredMark(ctx, tx)
		if err != nil || mark == nil {
			return err
		}
		anchor, err := ParseAnchor(mark.Anchor)
		if err != nil {
			return fmt.Errorf("the record's restore mark: %w", err)
		}
		numbers := map[string]bool{}
		for _, m := range said {
			if id, ok := m.Key.Event(); ok && id > anchor.Events {
				if _, seen := lost.Events[id]; !seen || m.Key.To.Channel != "" {
					lost.Events[id] = m
				}
			}
			if caseNumber.MatchString(m.Key.Case) {
				numbers[m.Key.Case] = true
			}
			if m.Key.Series == outbox.MeetingSeries {
				// A meeting's notice the record does not hold was said by a meeting action
				// after the backup (the meetings' events are not numbered with the cases').
				var have int
				if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM outbox WHERE series = ? AND step = ?`, m.Key.Series,
					m.Key.Step).Scan(&have); err != nil {
					return err
				}
				if have == 0 {
					lost.Meetings[m.Key.Step] = m
				}
			}
			if _, err := tx.ExecContext(ctx,
				`UPDATE outbox SET sent = ?, channel = ?, ts = ? WHERE case_number = ? AND series = ? AND step = ? AND dest = ? AND sent = ''`,
				stamp(now), m.Channel, m.TS, m.Key.Case, m.Key.Series, m.Key.Step, m.Key.To.String()); err != nil {
				return err
			}
		}
		for n := range numbers {
			var have int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM cases WHERE number = ?`, n).Scan(&have); err != nil {
				return err
			}
			if have > 0 {
				continue
			}
			lost.Numbers = append(lost.Numbers, n)
			p := caseNumber.FindStringSubmatch(n)
			year, _ := strconv.Atoi(p[1])
			seq, _ := strconv.Atoi(p[2])
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO case_numbers (year, last) VALUES (?, ?) ON CONFLICT (year) DO UPDATE SET last = max(last, excluded.last)`, year, seq); err != nil {
				return err
			}
		}
		sort.Strings(lost.Numbers)
		if report != (outbox.Dest{}) {
			post := outbox.Post{Key: outbox.Key{Series: RestoreSeries, Step: mark.Anchor + "@" + stamp(mark.Restored),
				To: report},
				Text: lostText(mark, lost, s.engine.Cal.Location()), Due: now}
			if err := enqueue(ctx, tx, 0, []outbox.Post{post}); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'restored'`)
		return err
	})
	return lost, err
}

// lostText is the docket channel's note of what a restore lost.
func lostText(mark *RestoreMark, lost Lost, loc *time.Location) outbox.Markup {
	head := outbox.Format("*The record was restored* from the backup %s, which ends at anchor %s (its last event "+
		"recorded %s).",
		mark.Backup, mark.Anchor, mark.LastAt.In(loc).Format("Mon 2 Jan 2006 15:04 MST"))
	if len(lost.Events) == 0 && len(lost.Meetings) == 0 {
		return head + " Slack shows nothing announced after it that the restored record lacks."
	}
	firstLine := func(m outbox.Said) outbox.Markup {
		first, _, _ := strings.Cut(m.Text.Plain(), "\n")
		if r := []rune(first); len(r) > 200 {
			first = string(r[:200]) + "…"
		}
		return quoteSaid(first)
	}
	lines := []outbox.Markup{head}
	if len(lost.Events) > 0 {
		ids := make([]int64, 0, len(lost.Events))
		for id := range lost.Events {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		lines = append(lines,
			outbox.Format("Slack shows these %d steps were announced after it; the restored record does not have them, so "+
				"enter them again:", len(ids)))
		for _, id := range ids {
			m := lost.Events[id]
			lines = append(lines, outbox.Format("• case %s, event %d: ", m.Key.Case, id)+firstLine(m))
		}
	}
	if len(lost.Meetings) > 0 {
		steps := make([]string, 0, len(lost.Meetings))
		for step := range lost.Meetings {
			steps = append(steps, step)
		}
		sort.Strings(steps)
		lines = append(lines,
			outbox.Format("Slack shows these %d notices of the commission's meetings were posted after it; the restored "+
				"record does not have the meeting actions behind them (a meeting, its agenda, a posting, a move or a "+
				"cancellation), so enter them again, and any roll, session or adjournment recorded since:", len(steps)))
		for _, step := range steps {
			m := lost.Meetings[step]
			name, _, _ := strings.Cut(step, ".")
			lines = append(lines, outbox.Format("• meeting %s: ", name)+firstLine(m))
		}
	}
	if len(lost.Numbers) > 0 {
		lines = append(lines,
			outbox.Format("Case numbers %s were announced and will not be used again.", strings.Join(lost.Numbers, ", ")))
	}
	return outbox.Join(lines, "\n")
}
