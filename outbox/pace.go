package outbox

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Pacer paces delivery to each destination with a token bucket: about one message a
// second to a channel (a person's direct messages are a channel too), with a small burst,
// as Slack's rate limits ask of chat.postMessage ("1 message per second per channel,
// short bursts allowed"); and, once Slack has answered 429, nothing more to that
// destination until its Retry-After has passed. A catch-up of hundreds of messages then
// reaches Slack at its pace instead of in a second and a half.
//
// Its clock and its sleep are injected, so that a test paces a simulated clock.
type Pacer struct {
	Every time.Duration // one message per Every to a destination, once the burst is spent (1s)
	Burst int           // messages that may go at once to a destination that was quiet (3)
	// Now and Sleep are the pacer's clock; nil: the wall clock, and a sleep that ends
	// early when ctx does.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Observe, if set, is told of each wait before a message, by destination: /metrics
	// shows them. rateLimited is true for a wait that Slack's Retry-After asked for.
	Observe func(to Dest, wait time.Duration, rateLimited bool)

	mu      sync.Mutex
	buckets map[Dest]*rate.Limiter
	held    map[Dest]time.Time // Slack answered 429: nothing to the destination until then
}

// DefaultPace is Slack's pace for posting to one channel: one a second, three at once.
const (
	DefaultPaceEvery = time.Second
	DefaultPaceBurst = 3
)

func (p *Pacer) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Pacer) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits d, or until ctx ends, and then returns ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait waits until a message may go to to, and takes its token. It returns how long it
// waited, or ctx's error if ctx ended first (the message then waits in the outbox).
func (p *Pacer) Wait(ctx context.Context, to Dest) (time.Duration, error) {
	return p.WaitIdle(ctx, to, nil)
}

// WaitIdle is Wait, calling idle, if set, when there is a wait, before it: the deliverer
// commits what it has done in the time it would wait anyway. An error of idle is returned
// without the wait.
func (p *Pacer) WaitIdle(ctx context.Context, to Dest, idle func() error) (time.Duration, error) {
	if p == nil {
		return 0, nil
	}
	now := p.now()
	p.mu.Lock()
	if p.buckets == nil {
		p.buckets, p.held = map[Dest]*rate.Limiter{}, map[Dest]time.Time{}
	}
	b := p.buckets[to]
	if b == nil {
		every, burst := p.Every, p.Burst
		if every <= 0 {
			every = DefaultPaceEvery
		}
		if burst <= 0 {
			burst = DefaultPaceBurst
		}
		b = rate.NewLimiter(rate.Every(every), burst)
		p.buckets[to] = b
	}
	held := p.held[to].Sub(now)
	start := now
	if held > 0 {
		start = now.Add(held)
	}
	wait := b.ReserveN(start, 1).DelayFrom(now)
	p.mu.Unlock()
	if wait <= 0 {
		return 0, nil
	}
	if idle != nil {
		if err := idle(); err != nil {
			return 0, err
		}
	}
	if p.Observe != nil {
		p.Observe(to, wait, held > 0)
	}
	return wait, p.sleep(ctx, wait)
}

// Hold leaves to alone for wait: Slack answered 429 with Retry-After wait.
func (p *Pacer) Hold(to Dest, wait time.Duration) {
	if p == nil || wait <= 0 {
		return
	}
	until := p.now().Add(wait)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held == nil {
		p.buckets, p.held = map[Dest]*rate.Limiter{}, map[Dest]time.Time{}
	}
	if until.After(p.held[to]) {
		p.held[to] = until
	}
}
