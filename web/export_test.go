package web

// StatusesForTest is the table from docket error codes to HTTP statuses.
func StatusesForTest() map[string]int { return statuses }
