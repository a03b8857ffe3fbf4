package bot

import (
	"context"
	"slices"
	"sync"
)

// homes are the users who have opened the App Home tab since ethicsbot started, and
// whether a refresh of their tabs is running or asked for. Only they get a refresh: the
// others see a fresh tab when they open it, as app_home_opened publishes it then.
type homes struct {
	mu      sync.Mutex
	users   []string
	running bool
	again   bool
}

func (h *homes) opened(user string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !slices.Contains(h.users, user) {
		h.users = append(h.users, user)
	}
}

// RefreshHomes publishes again the Home tab of every user who has opened it, after an
// action changed what it may show. Refreshes are folded together: while one
// runs, any number of further actions cause one more, so a burst of actions costs each
// user two views.publish calls, not one per action, well within the method's rate limit
// (Slack's Tier 4, 100+ a minute).
func (a *App) RefreshHomes() {
	h := &a.home
	h.mu.Lock()
	if h.running {
		h.again = true
		h.mu.Unlock()
		return
	}
	h.running = true
	h.mu.Unlock()
	a.Go(func() {
		for {
			h.mu.Lock()
			h.again = false
			h.mu.Unlock()
			a.RefreshHomesNow(context.Background())
			h.mu.Lock()
			if !h.again {
				h.running = false
				h.mu.Unlock()
				return
			}
			h.mu.Unlock()
		}
	})
}

// RefreshHomesNow publishes again, before it returns, the Home tab of every user who has
// opened it: for the reminder sweep, which finds the desk changed when a step falls due or
// overdue, and which shutdown waits for before the record closes.
func (a *App) RefreshHomesNow(ctx context.Context) {
	a.home.mu.Lock()
	users := slices.Clone(a.home.users)
	a.home.mu.Unlock()
	for _, u := range users {
		a.publishHome(ctx, u)
	}
}
