package web

import "net/http"

// Public is everything ethicsbot serves on the web besides /healthz: the public notice
// board with its feeds, and each member's private calendar feed at /calendar/<token>.ics.
func Public(board *Board, calendars *CalendarFeed) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", board.Handler())
	mux.Handle("GET /calendar/{token}", calendars)
	return mux
}
