package web

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"
)

// Publish writes the board as static files under dir, for a town whose website is hosted
// elsewhere: the same pages and feeds the live board serves, with relative links, and the
// pages and PDFs of each meeting whose agenda was posted. Pages of cases, years or meetings
// that no longer have anything public are removed. It returns the files written, relative
// to dir.
func (b *Board) Publish(ctx context.Context, dir string) ([]string, error) {
	recs, err := b.Records.PublicBetween(ctx, time.Time{}, time.Time{})
	if err != nil {
		return nil, err
	}
	names := []string{"index.html", "feed.atom", "meetings.ics"}
	seen := map[string]bool{}
	add := func(files ...string) {
		for _, name := range files {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	yearOf := func(year int) []string {
		return []string{fmt.Sprintf("archive/%d.html", year), fmt.Sprintf("archive/%d.png", year)}
	}
	for _, r := range recs {
		add("cases/" + r.Case + ".html")
		add(yearOf(r.When(b.Loc).In(b.Loc).Year())...)
	}
	// Each recorded meeting whose agenda was posted has its pages (meetingpage.go), and is
	// in its year's.
	if ms, ok := b.Records.(Meetings); ok {
		all, err := ms.Meetings(ctx)
		if err != nil {
			return nil, err
		}
		for i := range all {
			if files := b.meetingFiles(&all[i], all); len(files) > 0 {
				add(files...)
				add(yearOf(all[i].Start.In(b.Loc).Year())...)
			}
		}
	}
	for _, sub := range boardDirs {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, err
		}
	}
	var written []string
	for _, name := range names {
		body, _, err := b.render(ctx, name)
		if errors.Is(err, errNotFound) && chartFile.MatchString(name) {
			continue // a year with no figures has no chart
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := writeFile(filepath.Join(dir, name), body); err != nil {
			return nil, err
		}
		written = append(written, name)
	}
	// A page whose case or year has nothing public any more (a void) goes, as on the live
	// board; files the board did not write are left alone.
	for _, sub := range boardDirs {
		old, err := filepath.Glob(filepath.Join(dir, sub, "*.*"))
		if err != nil {
			return nil, err
		}
		for _, path := range old {
			name := sub + "/" + filepath.Base(path)
			if slices.ContainsFunc(boardFiles, func(re *regexp.Regexp) bool { return re.MatchString(name) }) &&
				!slices.Contains(written, name) {
				if err := os.Remove(path); err != nil {
					return nil, err
				}
			}
		}
	}
	return written, nil
}

// boardDirs are the folders the board writes its pages in; boardFiles the names of the
// pages it writes there, which it removes when they have nothing public any more.
var (
	boardDirs  = []string{"cases", "archive", "meetings"}
	boardFiles = []*regexp.Regexp{caseFile, yearFile, chartFile, meetingFile, minutesFile, agendaPDFFile, minutesPDFFile}
)

// writeFile replaces path with body whole: a reader sees the old file or the new one.
func writeFile(path string, body []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
