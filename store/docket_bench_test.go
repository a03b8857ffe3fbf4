package store_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/commands"
	"ethicsbot/store"
)

// BenchmarkDocket10k is `/ethics docket` as a clerk types it on a record of 10,000 open
// cases (each filed and its sufficiency meeting scheduled, bulk-loaded): the 50 nearest
// listed, the rest counted. The same file, run against a tree whose docket counts every
// open case's deadlines, gives the baseline.
func BenchmarkDocket10k(b *testing.B) {
	svc := bulkService(b)
	docket := func() string {
		r := svc.Handle(ctx, commands.Request{User: "U_CLERK", Text: "docket"})
		if len(r.Messages) == 0 {
			b.Fatalf("no reply: %+v", r)
		}
		return string(r.Messages[0].Text)
	}
	if got := docket(); !strings.HasPrefix(got, "Open cases (10000), nearest deadline first:") {
		b.Fatalf("docket: %.200s", got)
	}
	b.ResetTimer()
	for b.Loop() {
		docket()
	}
}

// BenchmarkHome10k is the App Home tab of a clerk on the record of BenchmarkDocket10k:
// what needs attention (every case's notice (B) overdue by then), the next meeting, and
// the open cases nearest first, as many as the view holds, the rest counted.
func BenchmarkHome10k(b *testing.B) {
	svc := bulkService(b)
	home := func() string {
		var text strings.Builder
		for _, bl := range svc.HomeBlocks(ctx, "U_CLERK") {
			if sec, ok := bl.(*slack.SectionBlock); ok && sec.Text != nil {
				text.WriteString(sec.Text.Text + "\n")
			}
		}
		return text.String()
	}
	if got := home(); !strings.Contains(got, "*Needs your attention (") || !strings.Contains(got, "more lines") {
		b.Fatalf("home: %.500s", got)
	}
	b.ResetTimer()
	for b.Loop() {
		home()
	}
}

// bulkService is a clerk's Service on a record of 10,000 open cases, each filed and its
// sufficiency meeting scheduled (store.BulkLoad), opened as the bot opens it after the
// load, on 20 January 2026.
func bulkService(b *testing.B) *commands.Service {
	path := filepath.Join(b.TempDir(), "ethicsbot.db")
	e := MustEngine(b)
	s, err := store.Open(path, e)
	if err != nil {
		b.Fatal(err)
	}
	if err := store.BulkLoad(s, 10000, 2, T(b, "2026-01-05T09:00:00-06:00")); err != nil {
		b.Fatal(err)
	}
	s.Close()
	s = MustOpenPath(b, path) // as the bot opens it after the load
	svc := &commands.Service{Record: s, Engine: e,
		Now: func() time.Time { return T(b, "2026-01-20T10:00:00-06:00") }}
	svc.Configure(commands.Settings{Roles: commands.Roles{Clerks: []string{"U_CLERK"}}})
	return svc
}
