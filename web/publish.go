package web

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Publish writes the board as static files under dir, for a town whose website is hosted
// elsewhere: the same pages and feeds the live board serves, with relative links. Pages of
// cases or years that no longer have anything public are removed. It returns the files
// written, relative to dir.
func (b *Board) Publish(ctx context.Context, dir string) ([]string, error) {
	recs, err := b.Records.PublicBetween(ctx, time.Time{}, time.Time{})
	if err != nil {
		return nil, err
	}
	names := []string{"index.html", "feed.atom", "meetings.ics"}
	seen := map[string]bool{}
	for _, r := range recs {
		year := r.When(b.Loc).In(b.Loc).Year()
		for _, name := range []string{"cases/" + r.Case + ".html", fmt.Sprintf("archive/%d.html", year),
			fmt.Sprintf("archive/%d.png", year)} {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	for _, sub := range []string{"cases", "archive"} {
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
	for _, sub := range []string{"cases", "archive"} {
		old, err := filepath.Glob(filepath.Join(dir, sub, "*.*"))
		if err != nil {
			return nil, err
		}
		for _, path := range old {
			name := sub + "/" + filepath.Base(path)
			if (caseFile.MatchString(name) || yearFile.MatchString(name) || chartFile.MatchString(name)) &&
				!slices.Contains(written, name) {
				if err := os.Remove(path); err != nil {
					return nil, err
				}
			}
		}
	}
	return written, nil
}

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
