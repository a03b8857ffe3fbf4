package web

import "time"

// StatusesForTest is the table from docket error codes to HTTP statuses.
func StatusesForTest() map[string]int { return statuses }

// DayOfForTest is where a window beginning on t's day begins (window.go).
func DayOfForTest(t time.Time, loc *time.Location) time.Time { return dayOf(t, loc) }
