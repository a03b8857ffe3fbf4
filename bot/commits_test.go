package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"ethicsbot/bot"
	"ethicsbot/outbox"
)

// TestFilingIsOneCommit counts the record's durable commits (each an fsync of the WAL,
// synchronous=FULL): a signed `/ethics file` over HTTP costs one, its own transaction,
// before its answer; the delivery of what filings say (each its card, its docket line and
// the card's update, three posts) costs two, the claim of the batch and its marks,
// however many filings the batch holds. It was two a post: six a filing.
func TestFilingIsOneCommit(t *testing.T) {
	e := newQuietEnv(t, nil)
	h := (&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler()
	d := e.app.Outbox.(*outbox.Deliverer)
	ctx := context.Background()
	for _, filings := range []int{1, 3} {
		before := e.db.Commits()
		for i := range filings {
			w := post(t, h, "/slack/commands", slashBody(t, e.slack,
				fmt.Sprintf(`file respondent="Jane Roe %d" complainant="John Doe" section=103.10 summary="x"`, i),
				fmt.Sprintf("c%d-%d", filings, i)), time.Now(), "")
			if w.Code != 200 || !strings.Contains(w.Body.String(), "Filed") {
				t.Fatalf("filing: %d %s", w.Code, w.Body)
			}
			if n := e.db.Commits() - before; n != uint64(i+1) {
				t.Fatalf("%d filings over HTTP took %d commits before their answers, want %d", i+1, n, i+1)
			}
		}
		e.app.Wait()
		before = e.db.Commits()
		st, err := d.Drain(ctx, e.now)
		if err != nil || st.Sent != 3*filings {
			t.Fatalf("drain: %+v, %v", st, err)
		}
		if n := e.db.Commits() - before; n != 2 {
			t.Errorf("the delivery of %d filings' %d posts took %d commits, want 2", filings, st.Sent, n)
		}
	}
}
