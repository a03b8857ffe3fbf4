package bot_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"ethicsbot/bot"
	"ethicsbot/docket"
)

// signedRequest is a signed slash command for text from the clerk, ready to send to base.
func signedRequest(b testing.TB, base, text, trigger string) *http.Request {
	return slashAs(b, base, "U2147483697", text, trigger)
}

// latency sends req and returns how long the answer took.
func latency(b *testing.B, client *http.Client, req *http.Request) time.Duration {
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("status %d", resp.StatusCode)
	}
	return time.Since(start)
}

// percentile is the nearest-rank percentile p of d: the smallest value that at least p of
// the values do not exceed (the 1,485th of 1,500 for the 99th).
func percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[max(0, min(len(s)-1, int(math.Ceil(float64(len(s))*p))-1))]
}

// BenchmarkSlashFileVsFloor measures a signed `/ethics file` over HTTP on loopback, end to
// end (signature, parse, durable commit, reply), against a baseline server that only
// verifies the signature with slack-go and answers 200: the floor for any Slack app.
// They run in the same benchmark, their requests mixed (vsFloor), so noise falls on
// each alike. A third server, the durable floor, verifies the signature and commits the request's text as one row to
// SQLite with the store's settings (WAL, synchronous=FULL) before it answers: the least
// any app that answers only what is on disk can do, on this machine's disk.
func BenchmarkSlashFileVsFloor(b *testing.B) {
	vsFloor(b, fileLine, floors{durable: true})
}

// BenchmarkSlashFileVsFloorQuiet is BenchmarkSlashFileVsFloor with no outbox deliverer
// running beside the requests: the filings' posts wait in the outbox. It tells the
// deliverer's share of the filing's tail (its commits share the disk and the cores with
// the requests) from the filing's own.
func BenchmarkSlashFileVsFloorQuiet(b *testing.B) {
	vsFloor(b, fileLine, floors{durable: true, quiet: true})
}

// fileLine is the filing the benchmarks against the floor send.
const fileLine = `file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="Used city email to campaign."`

// BenchmarkSlashHelpVsFloor is BenchmarkSlashFileVsFloor for a read: a signed
// `/ethics help` from a clerk, which writes nothing and says nothing to the outbox, against
// the floor alone.
func BenchmarkSlashHelpVsFloor(b *testing.B) {
	vsFloor(b, "help", floors{})
}

// floors says what vsFloor runs beside ethicsbot and the floor.
type floors struct {
	durable bool // the durable floor too (durableFloor)
	quiet   bool // no outbox deliverer beside the requests
}

// verified answers 401 to a request whose Slack signature does not verify, and otherwise
// returns its body.
func verified(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	sv, err := slack.NewSecretsVerifier(r.Header, secret)
	if err != nil {
		w.WriteHeader(401)
		return nil, false
	}
	body, _ := io.ReadAll(r.Body)
	sv.Write(body)
	if sv.Ensure() != nil {
		w.WriteHeader(401)
		return nil, false
	}
	return body, true
}

// durableFloor is a server that verifies the signature, commits the body as one row in
// its own SQLite file with the pragmas the store insists on, and answers 200.
func durableFloor(b *testing.B) *httptest.Server {
	// The write connection's settings as store.Open makes them (dsn and open in
	// store/store.go).
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(b.TempDir(), "floor.db")+
		"?_foreign_keys=on&_busy_timeout=10000&_stmt_cache_size=128&_journal_mode=WAL&_synchronous=FULL&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE requests (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := verified(w, r)
		if !ok {
			return
		}
		if _, err := db.ExecContext(r.Context(), `INSERT INTO requests (body) VALUES (?)`, body); err != nil {
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(200)
	}))
}

// vsFloor sends text as a signed slash command to ethicsbot's handler and to the floor
// (and to the durable floor if asked), 500 requests to each per round, one at a time, the
// round's requests in a random order, so that what else the machine does in a moment falls
// on all alike. That includes what ethicsbot does after it has answered (its deliverer's
// drain, kicked by a filing): the request after one of ethicsbot's is as likely to be
// ethicsbot's own as a floor's. It reports each's percentiles.
func vsFloor(b *testing.B, text string, with floors) {
	var e *env
	if with.quiet {
		e = newQuietEnv(b, nil)
	} else {
		e = newEnv(b)
	}
	e.app.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	e.app.Service.Now = time.Now
	ours := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer ours.Close()
	floor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := verified(w, r); ok {
			w.WriteHeader(200)
		}
	}))
	defer floor.Close()
	type target struct {
		url string
		lat []time.Duration
	}
	targets := []*target{{url: ours.URL}, {url: floor.URL}}
	if with.durable {
		df := durableFloor(b)
		defer df.Close()
		targets = append(targets, &target{url: df.URL})
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	const n = 500
	order := make([]*target, 0, n*len(targets))
	for range n {
		order = append(order, targets...)
	}
	shuffle := rand.New(rand.NewPCG(1, 2)) // the same orders in every run
	for round := 0; b.Loop(); round++ {
		shuffle.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, t := range order {
			req := signedRequest(b, t.url, text, fmt.Sprintf("r%d-%d", round, i))
			t.lat = append(t.lat, latency(b, client, req))
		}
	}
	e.app.Wait()
	// What the outbox's deliverer, running beside the requests, had not yet sent when the
	// last request was answered: its commits kept up with the requests', or fell behind.
	behind, _, err := e.db.Undelivered(context.Background(), time.Now().AddDate(1, 0, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(behind), "undelivered")
	oursAll, floorAll := targets[0].lat, targets[1].lat
	op50, op99, fp50, fp99 := percentile(oursAll, .5), percentile(oursAll, .99), percentile(floorAll, .5),
		percentile(floorAll, .99)
	b.ReportMetric(float64(op50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(op99.Microseconds()), "p99-µs")
	b.ReportMetric(float64(fp50.Microseconds()), "floor-p50-µs")
	b.ReportMetric(float64(fp99.Microseconds()), "floor-p99-µs")
	b.ReportMetric(float64(op99)/float64(fp99), "p99-ratio")
	b.ReportMetric(float64(op50)/float64(fp50), "p50-ratio")
	if with.durable {
		dp50, dp99 := percentile(targets[2].lat, .5), percentile(targets[2].lat, .99)
		b.ReportMetric(float64(dp50.Microseconds()), "durable-p50-µs")
		b.ReportMetric(float64(dp99.Microseconds()), "durable-p99-µs")
	}
}

// BenchmarkLoad sends signed requests at a steady 200 a second, mixing file (20%), case
// (60%) and docket (20%), against 10,000 existing cases, for ETHICSBOT_LOAD_SECONDS
// (default 60). It reports errors and latency percentiles. Run it alone:
//
//	go test ./bot -run '^$' -bench Load -benchtime 1x -timeout 30m
func BenchmarkLoad(b *testing.B) {
	seconds := 60
	if s, err := strconv.Atoi(os.Getenv("ETHICSBOT_LOAD_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	e := newEnv(b)
	e.app.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	e.app.Service.Now = time.Now
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < 10000; i++ {
		at := time.Now()
		if _, err := e.db.File(ctx, docket.Act{By: "U2147483697", At: at},
			docket.File{Complainant: docket.Person{Name: "C"}, Respondent: docket.Person{Name: fmt.Sprint("R", i)},
				Sections: []string{"103.10"}, Received: at, Summary: "x"}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("10,000 cases filed in %v", time.Since(start))
	// As in production, channel posts are committed with their events and delivered by the
	// outbox's deliverer, which newEnv runs.
	srv := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer srv.Close()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	year := time.Now().Year()
	for b.Loop() {
		var mu sync.Mutex
		var lat []time.Duration
		var errs, busy atomic.Int64
		var wg sync.WaitGroup
		deadline := time.Now().Add(time.Duration(seconds) * time.Second)
		sent := 0
		begin := time.Now()
		for i := 0; time.Now().Before(deadline); i++ {
			sent++
			// Open loop: the i-th request goes out at its time, or at once if the sender is
			// late, so that a busy machine still offers 200 a second rather than dropping
			// the ticks it missed.
			if d := time.Until(begin.Add(time.Duration(i) * 5 * time.Millisecond)); d > 0 {
				time.Sleep(d)
			}
			var text string
			switch i % 5 {
			case 0:
				text = fmt.Sprintf(`file respondent="Load %d" complainant="C" section=103.10 summary="x"`, i)
			case 1, 2, 3:
				text = fmt.Sprintf("case %d-%03d", year, i%10000+1)
			default:
				text = "docket"
			}
			req := signedRequest(b, srv.URL, text, fmt.Sprintf("load-%d", i))
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				resp, err := client.Do(req)
				d := time.Since(t0)
				if err != nil {
					errs.Add(1)
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || bytes.Contains(body, []byte("Internal error")) {
					errs.Add(1)
				}
				if bytes.Contains(body, []byte("locked")) || bytes.Contains(body, []byte("SQLITE_BUSY")) {
					busy.Add(1)
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}()
		}
		wg.Wait()
		e.app.Wait()
		// What was offered, and what was served: every request sent came back.
		b.ReportMetric(float64(sent)/float64(seconds), "offered/s")
		b.ReportMetric(float64(len(lat))/float64(seconds), "req/s")
		b.ReportMetric(float64(errs.Load()), "errors")
		b.ReportMetric(float64(busy.Load()), "busy")
		b.ReportMetric(float64(percentile(lat, .5).Microseconds()), "p50-µs")
		b.ReportMetric(float64(percentile(lat, .99).Microseconds()), "p99-µs")
		b.ReportMetric(float64(percentile(lat, 1).Microseconds()), "max-µs")
	}
}
