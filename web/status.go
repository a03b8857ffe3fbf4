package web

import (
	"net/http"

	"ethicsbot/docket"
)

// statuses maps each docket error code to the HTTP status a feed answers it with: the one
// table from codes to statuses. A code not in it is answered as EINTERNAL. The body never
// carries the error's own words, which may name paths or a member.
var statuses = map[string]int{
	docket.EINVALID:      http.StatusBadRequest,
	docket.ENOTFOUND:     http.StatusNotFound,
	docket.ECONFLICT:     http.StatusConflict,
	docket.EUNAUTHORIZED: http.StatusForbidden,
	docket.EUNAVAILABLE:  http.StatusServiceUnavailable, // the record cannot be read or written just now
	docket.EINTERNAL:     http.StatusInternalServerError,
}

// statusOf is the HTTP status of err, by its code.
func statusOf(err error) int {
	if status, ok := statuses[docket.ErrorCode(err)]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// statusText is the body of a failure with status: "Internal error" for a 500, else the
// status's own text.
func statusText(status int) string {
	if status == http.StatusInternalServerError {
		return "Internal error"
	}
	return http.StatusText(status)
}
