package letters

import (
	"context"
	"errors"
	"fmt"
	"html"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Engine prints a document's HTML (htmlOf) as a tagged PDF. Chromium is the one ethicsbot
// runs; a Maker without one draws untagged PDFs with the layout of layout.go.
type Engine interface {
	// PrintPDF prints doc, with footer at the foot of every page and header, if not "",
	// at the head of every page (both HTML).
	PrintPDF(ctx context.Context, doc, header, footer string) ([]byte, error)
}

// Browsers are the names Chromium's executable goes by, in the order FindChromium tries
// them: Debian's package installs chromium.
var Browsers = []string{"chromium", "chromium-browser", "google-chrome-stable", "google-chrome"}

// FindChromium is the path of the Chromium executable on PATH, or an error saying how to
// install it.
func FindChromium() (string, error) {
	for _, name := range Browsers {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium is installed (chromium, chromium-browser or google-chrome on PATH): " +
		"install Debian's chromium package (apt-get install chromium), which prints the tagged, accessible PDFs " +
		"(PDF/UA-1) that the documents posted to the board and the letters must be")
}

// PrintTimeout bounds the printing of one document: a document is at most MaxPages pages
// of text, which Chromium prints in well under a second.
var PrintTimeout = 60 * time.Second

// Chromium is headless Chromium, started on the first document and kept for the next,
// until it has been idle for Idle; a browser that died is started again for the next
// document. It runs with an environment of its own (none of the bot's tokens), a profile
// in a temporary directory removed when it stops, and is only ever given ethicsbot's own
// HTML, whose fonts are in the page: it loads nothing from anywhere.
type Chromium struct {
	Path string
	Idle time.Duration

	mu      sync.Mutex
	browser context.Context // nil when not running
	stop    context.CancelFunc
	timer   *time.Timer
	busy    int
	// printing holds the one tab documents are printed in, one at a time.
	printing sync.Mutex
	tab      context.Context
	closeTab context.CancelFunc
	tabOf    context.Context // the browser the tab is in
	starts   int             // how many times the browser was started, for the tests
}

// NewChromium is Chromium at path, kept for a minute after its last document.
func NewChromium(path string) *Chromium { return &Chromium{Path: path, Idle: time.Minute} }

// Starts is how many times a browser process was started.
func (c *Chromium) Starts() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.starts
}

// acquire returns the running browser, starting it if need be.
func (c *Chromium) acquire() (context.Context, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.browser != nil && c.browser.Err() == nil {
		c.busy++
		return c.browser, nil
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(c.Path), chromedp.Headless, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.DisableGPU, chromedp.NoInheritEnv,
		chromedp.Env("PATH=/usr/bin:/bin", "HOME="+os.TempDir(), "TMPDIR="+os.TempDir()),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("mute-audio", true), chromedp.Flag("no-pings", true),
		// V8 without its compiler: the page's one script waits for the fonts, and the
		// service's unit forbids memory both writable and executable (MemoryDenyWriteExecute).
		chromedp.Flag("js-flags", "--jitless"),
		// Nothing the page could ask for is fetched: there is no proxy at this address.
		chromedp.ProxyServer("127.0.0.1:9"),
	}
	if os.Geteuid() == 0 {
		// Chromium's sandbox refuses to run as root (a test machine; the service runs as
		// its own user, with the sandbox).
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		return nil, fmt.Errorf("starting Chromium (%s): %w", c.Path, err)
	}
	c.starts++
	c.browser, c.stop = bctx, func() { cancelBrowser(); cancelAlloc() }
	c.busy++
	return c.browser, nil
}

// release ends a document's use of the browser, which stops once idle for Idle.
func (c *Chromium) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy--
	if c.busy > 0 || c.browser == nil {
		return
	}
	stop := c.stop
	browser := c.browser
	c.timer = time.AfterFunc(c.Idle, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.busy == 0 && c.browser == browser {
			stop()
			c.browser, c.stop = nil, nil
		}
	})
}

// Close stops the browser.
func (c *Chromium) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.stop != nil {
		c.stop()
	}
	c.browser, c.stop = nil, nil
	return nil
}

// PrintPDF prints doc in a tab of its own, with PDF tags from the HTML's structure
// (PDF/UA-1) and the document outline from its headings.
func (c *Chromium) PrintPDF(ctx context.Context, doc, header, footer string) ([]byte, error) {
	browser, err := c.acquire()
	if err != nil {
		return nil, err
	}
	defer c.release()
	c.printing.Lock()
	defer c.printing.Unlock()
	if c.tab == nil || c.tab.Err() != nil || c.tabOf != browser {
		c.tab, c.closeTab = chromedp.NewContext(browser)
		c.tabOf = browser
	}
	tab, closeTab := c.tab, c.closeTab
	ctx, cancel := context.WithTimeout(ctx, PrintTimeout)
	defer cancel()
	// The tab's actions run under tab; a document that takes too long ends with ctx, and
	// the tab with it: the next document opens another.
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-ctx.Done():
			closeTab()
		case <-stopped:
		}
	}()
	yes, no := true, false
	out, err := chromedp.Run(tab, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			return nil, err
		}
		tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		if _, err := cdp.Call(ctx, t, page.SetDocumentContent,
			page.SetDocumentContentParams{FrameID: tree.FrameTree.Frame.ID, HTML: doc}); err != nil {
			return nil, err
		}
		// The fonts are in the page; printing waits until they are ready.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`,
			chromedp.EvalAwaitPromise)); err != nil {
			return nil, err
		}
		return chromedp.Run(ctx, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperLetter),
			func(p *page.PrintToPDFParams) {
				p.PreferCSSPageSize = &yes
				p.GenerateTaggedPDF = &yes
				p.GenerateDocumentOutline = &yes
				p.PrintBackground = &no
				p.DisplayHeaderFooter = &yes
				p.HeaderTemplate = header
				p.FooterTemplate = footer
			}))
	})
	if ctx.Err() != nil && err != nil {
		return nil, fmt.Errorf("Chromium did not print the document within %s: %w", PrintTimeout, ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("Chromium could not print the document: %w", err)
	}
	return out, nil
}

// footerHTML is the foot of every page, as layout.go writes it: the title and the page
// number, in 8-point type, centred 15 mm from the page's bottom.
func footerHTML(title string) string {
	return `<style>` + goFaces + `</style>` +
		`<div style="width:100%;font-family:Go;font-size:8pt;text-align:center;margin:0 25mm 10mm 25mm">` +
		html.EscapeString(regular.printable(title)) + `, page <span class="pageNumber"></span></div>`
}

// headerHTML is the mark at the head of every page (draftMark, reprintMark), in bold red
// 9-point type as layout.go sets it; "" draws none, and an empty header.
func headerHTML(mark string) string {
	if mark == "" {
		return `<span></span>`
	}
	return `<style>` + goFaces + `</style>` +
		`<div style="width:100%;font-family:Go;font-size:9pt;font-weight:bold;color:#b40000;` +
		`text-align:center;margin:4mm 25mm 0 25mm">` + html.EscapeString(regular.printable(mark)) + `</div>`
}

// FontFaces is the CSS that puts the Go fonts in a page, as the letters' pages carry them
// (family "Go", normal and bold): a page printed by PrintArchival in them needs no font of
// the system's, and draws the glyphs fpdf draws, so its untagged twin looks the same.
func FontFaces() string { return goFaces }

// PrintArchival prints doc, a complete HTML page of ethicsbot's own (another package's
// document: the mailing book), by e as a tagged PDF (PDF/UA-1) made archival (PDF/A-2b),
// as the letters are: what Chromium paints outside the tags, an element hidden from the
// accessibility tree included, is marked as an artifact. title is the document's title
// (the page's <title>), made when it is made. No head or foot is printed on its pages.
func PrintArchival(ctx context.Context, e Engine, doc, title string, made time.Time) ([]byte, error) {
	pdf, err := e.PrintPDF(ctx, doc, `<span></span>`, `<span></span>`)
	if err != nil {
		return nil, err
	}
	return archival(pdf, title, made, false)
}
