package store

import "testing"

// TestMayName: a stored case is decoded to ask whether it names the viewer only when it
// holds the viewer's id, or when the id is one JSON might write otherwise.
func TestMayName(t *testing.T) {
	doc := []byte(`{"number":"2026-001","respondent":{"name":"Jane Roe","slack":"U_RESP"},` +
		`"recusals":[{"user":"U_COMM2","on":"2026-12-04"}]}`)
	for _, tc := range []struct {
		user string
		want bool
	}{
		{"U_RESP", true},
		{"U_COMM2", true},
		{"U_COMM1", false},
		{"", false},
		{"U<1>", true}, // JSON may write < as \u003c: decoded to be sure
	} {
		if got := mayName(doc, tc.user); got != tc.want {
			t.Errorf("mayName(%q) = %v, want %v", tc.user, got, tc.want)
		}
	}
}
