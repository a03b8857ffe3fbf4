package bot

import (
	"context"
	"testing"
	"time"
)

// SlackError is slackError, for the external tests.
var SlackError = slackError

// AuthWait is the wait CheckAuth uses between attempts in production.
var AuthWait = authWait

// SetAuthWait makes CheckAuth wait with f instead, until the test ends.
func SetAuthWait(t testing.TB, f func(ctx context.Context, d time.Duration) error) {
	old := authWait
	authWait = f
	t.Cleanup(func() { authWait = old })
}
