package commands_test

import (
	"errors"
	"testing"

	"ethicsbot/commands"
	"ethicsbot/docket"
)

// TestRefusals: every docket error code has its reply, and a store that cannot be written
// is told apart from a bug; neither shows the error's own words, which may name paths.
func TestRefusals(t *testing.T) {
	const (
		unavailable = "Not done: the commission's record cannot be written just now; nothing was recorded. The problem has " +
			"been logged for the city's IT staff."
		internal   = "Internal error: nothing was changed. The problem has been logged for the city's IT staff."
		actionable = "Not done: start: a &lt;b&gt; (rule (C)(1))" // the error's own words, escaped once
	)
	want := map[string]struct {
		text   string
		logged bool
	}{
		docket.EINVALID:      {actionable, false},
		docket.ENOTFOUND:     {actionable, false},
		docket.ECONFLICT:     {actionable, false},
		docket.EUNAUTHORIZED: {actionable, false},
		docket.EUNAVAILABLE:  {unavailable, true},
		docket.EINTERNAL:     {internal, true},
	}
	for _, code := range docket.Codes {
		t.Run(code, func(t *testing.T) {
			w, ok := want[code]
			if !ok {
				t.Fatalf("no reply is expected for code %q: add it to this test and to commands' refusals", code)
			}
			err := &docket.Error{Code: code, Field: "start", Rule: "(C)(1)", Message: "a <b>"}
			text, logged := commands.RefusalForTest(err)
			if text != w.text || logged != w.logged {
				t.Errorf("refusal = %q, logged %v; want %q, logged %v", text, logged, w.text, w.logged)
			}
		})
	}
	t.Run("NotAnAppError", func(t *testing.T) {
		if text, logged := commands.RefusalForTest(errors.New("disk I/O error at /var/lib/ethicsbot.db")); text != internal || !logged {
			t.Errorf("refusal = %q, logged %v", text, logged)
		}
	})
	t.Run("UnknownCode", func(t *testing.T) {
		if text, logged := commands.RefusalForTest(&docket.Error{Code: "nonsense",
			Message: "x"}); text != internal || !logged {
			t.Errorf("refusal = %q, logged %v", text, logged)
		}
	})
}
