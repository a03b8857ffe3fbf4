package letters_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ethicsbot/docket"
	"ethicsbot/letters"
)

// TestLettersAreBounded: a configured template that prints a 1,400-character summary
// hundreds of times, or breaks page after page, is refused with an error that names the
// limit, and no PDF is made; the built-in letters of a case whose every text is at the
// docket's limit are made well within the bounds.
func TestLettersAreBounded(t *testing.T) {
	c := received()
	c.Summary = strings.Repeat("The respondent used the city's e-mail to campaign. ", 28)[:1400]
	for _, tc := range []struct{ name, tmpl, want string }{
		{"Output", "{{range 400}}{{$.Summary}}\n{{end}}",
			"would be more than 200000 characters of text, the limit for one document"},
		{"EndlessOutput", "{{range 1000000000}}{{$.Summary}}\n{{end}}",
			"would be more than 200000 characters of text, the limit for one document"},
		{"Pages", "{{range 25}}{{$.Summary}}\n@page\n{{end}}",
			"would be more than 20 pages long, the limit for one document"},
		{"PagesOfShortLines", "{{range 3000}}.\n{{end}}", "would be more than 20 pages long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "respondent.tmpl"), []byte(tc.tmpl), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := config
			cfg.Templates = dir
			d, err := mustMaker(t, cfg).Make(c, "respondent", today)
			if err == nil {
				t.Fatalf("a document of %d bytes was made", len(d.Data))
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "respondent.tmpl") ||
				docket.ErrorCode(err) != docket.ECONFLICT {
				t.Errorf("error %q (%s), want one naming the limit: %q", err, docket.ErrorCode(err), tc.want)
			}
		})
	}
	t.Run("LongestCase", func(t *testing.T) {
		c := final()
		long := func(n int) string { return strings.Repeat("Findings of fact and the reasons for them. ", n/43+1)[:n] }
		c.Summary, c.Decision.Findings, c.Decision.Recommendation, c.Final.Text = long(docket.MaxSummary),
			long(docket.MaxText), long(docket.MaxText), long(docket.MaxText)
		c.Complainant.Name, c.Respondent.Name = long(docket.MaxName), long(docket.MaxName)
		m := mustMaker(t, config)
		for _, k := range letters.Kinds() {
			if letters.Due(c) == nil {
				t.Fatal("nothing due")
			}
			d, err := m.Make(c, k, today)
			if err != nil {
				if docket.ErrorCode(err) == docket.ECONFLICT && strings.Contains(err.Error(), "limit") {
					t.Errorf("%s of the longest case is refused: %v", k, err)
				}
				continue // not called for by this case
			}
			if len(d.Data) > 1<<20 {
				t.Errorf("%s is %d bytes", k, len(d.Data))
			}
		}
	})
}
