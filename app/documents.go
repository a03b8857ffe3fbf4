package app

import (
	"log/slog"
	"sync"
	"time"

	"ethicsbot/bot"
	"ethicsbot/letters"
)

// TaggedDocs is the engine that prints every document as a tagged, archival PDF (PDF/UA-1,
// PDF/A-2b): Debian's Chromium, found on PATH at start and shared by every Maker of the
// process. Without it, or when it fails on a document, the documents are drawn untagged:
// a meeting's notice and agenda must be posted on time (5 ILCS 120/2.02), and one posted
// untagged can be printed again tagged, while one not posted voids the meeting. So the
// bot goes on, logs a warning for each document drawn untagged, and /healthz reports
// "documents" degraded, with what to do.
type TaggedDocs struct {
	engine  *letters.Chromium // nil without Chromium
	missing string            // why there is none
	log     *slog.Logger

	mu       sync.Mutex
	failed   string // the last document drawn untagged for a failure, and why
	failedAt time.Time
}

// NewTaggedDocs finds Chromium, warning once if there is none.
func NewTaggedDocs(logger *slog.Logger) *TaggedDocs {
	t := &TaggedDocs{log: logger}
	path, err := letters.FindChromium()
	if err != nil {
		t.missing = err.Error()
		logger.Warn("documents are drawn untagged, neither accessible nor archival", "err", err)
		return t
	}
	t.engine = letters.NewChromium(path)
	return t
}

// Use has m print with the engine, if there is one.
func (t *TaggedDocs) Use(m *letters.Maker) *letters.Maker {
	if t != nil && t.engine != nil {
		m.SetEngine(t.engine, t.untagged)
	}
	return m
}

// Engine is the engine, for a document drawn outside a Maker (the mailing book), or nil
// without Chromium; and what to call when it fails on a document (the warning, and
// /healthz's "documents" degraded for a while).
func (t *TaggedDocs) Engine() (letters.Engine, func(error)) {
	if t.engine == nil {
		return nil, t.untagged
	}
	return t.engine, t.untagged
}

// untagged notes a document drawn untagged because the engine failed on it.
func (t *TaggedDocs) untagged(err error) {
	t.log.Warn("a document was drawn untagged, neither accessible nor archival: print it again once Chromium works",
		"err", err)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failed, t.failedAt = err.Error(), time.Now()
}

// untaggedFor is how long a document drawn untagged keeps /healthz's "documents" degraded:
// long enough for the check that runs every few minutes to see it.
const untaggedFor = time.Hour

// part is "documents" for /healthz: ok while the documents are tagged.
func (t *TaggedDocs) part() bot.Part {
	return bot.Part{Name: "documents", Check: func(now time.Time) (string, string) {
		if t.engine == nil {
			return "untagged", t.missing
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.failed != "" && now.Sub(t.failedAt) < untaggedFor {
			return "untagged", "a document was drawn untagged at " + t.failedAt.UTC().Format(time.RFC3339) + " (" +
				t.failed + "): see the journal, and print it again once Chromium works"
		}
		return "ok", ""
	}}
}

// Close stops the engine's browser.
func (t *TaggedDocs) Close() error {
	if t == nil || t.engine == nil {
		return nil
	}
	return t.engine.Close()
}
