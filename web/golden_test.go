package web_test

import (
	"flag"
	"path/filepath"
	"testing"

	"ethicsbot/app/apptest"
	"ethicsbot/web"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// published is every file `ethicsbot publish` writes of b's board (the same bytes the live
// board serves: TestPublish), by its name.
func published(t *testing.T, b *web.Board) map[string][]byte {
	t.Helper()
	return apptest.Written(t, func(dir string) error { _, err := b.Publish(ctx, dir); return err })
}

// TestBoardGolden compares the public board of the tests' records, every page, chart and
// feed, and a member's private calendar, with testdata/golden/, byte for byte. It pins
// what the public and the members are shown, so that a change made for speed or for the
// code's sake changes none of it. go test ./web -run TestBoardGolden -update rewrites the
// files; the board of each lifecycle of the commands' tests is pinned beside their
// replies (TestLifecycleGolden). TestBoardFollowsEveryChange pins its record's last board.
func TestBoardGolden(t *testing.T) {
	t.Run("notices", func(t *testing.T) {
		// a dismissal made public, a confidential case's meeting to come, a cancelled
		// meeting in a hostile place
		f := newFixture(t)
		apptest.GoldenDir(t, filepath.Join("testdata", "golden", "notices"), published(t, f.board), *update)
	})
	t.Run("ended_year", func(t *testing.T) {
		// the year's figures, a meeting's pages with its agenda, approved minutes and
		// released closed minutes, and their PDFs as fakePapers draws them
		b := endedYearBoard(t)
		b.Papers = fakePapers{}
		apptest.GoldenDir(t, filepath.Join("testdata", "golden", "ended_year"), published(t, b), *update)
	})
	t.Run("member_calendar", func(t *testing.T) {
		// a commissioner's feed (recused from one case) and the clerk's, with the clerk's tasks
		f := newCalFixture(t)
		_, comm2Feed := f.fetch(t, f.token(t, comm2, "calendar"))
		_, clerkFeed := f.fetch(t, f.token(t, clerk, "calendar"))
		apptest.GoldenDir(t, filepath.Join("testdata", "golden", "member_calendar"), map[string][]byte{
			"commissioner.ics": []byte(comm2Feed), "clerk.ics": []byte(clerkFeed)}, *update)
	})
}
