package bot_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
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

func percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkSlashFileVsFloor measures a signed `/ethics file` over HTTP on loopback, end to
// end (signature, parse, durable commit, reply), against a baseline server that only
// verifies the signature with slack-go and answers 200: the floor for any Slack app.
// Both run in the same benchmark, alternating, so noise falls on both.
func BenchmarkSlashFileVsFloor(b *testing.B) {
	vsFloor(b, `file respondent="Jane Roe" complainant="John Doe" section=103.10 summary="Used city email to campaign."`)
}

// BenchmarkSlashHelpVsFloor is BenchmarkSlashFileVsFloor for a read: a signed
// `/ethics help` from a clerk, which writes nothing and says nothing to the outbox.
func BenchmarkSlashHelpVsFloor(b *testing.B) {
	vsFloor(b, "help")
}

// vsFloor sends text as a signed slash command to ethicsbot's handler and to the floor,
// 500 requests to each per round, one to each in turn (which goes first alternates), so
// that what else the machine does in a moment falls on both alike; it reports both's
// percentiles.
func vsFloor(b *testing.B, text string) {
	e := newEnv(b)
	e.app.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	e.app.Service.Now = time.Now
	ours := httptest.NewServer((&bot.HTTP{App: e.app, Secret: secret, Now: time.Now, DB: e.db}).Handler())
	defer ours.Close()
	floor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sv, err := slack.NewSecretsVerifier(r.Header, secret)
		if err != nil {
			w.WriteHeader(401)
			return
		}
		body, _ := io.ReadAll(r.Body)
		sv.Write(body)
		if sv.Ensure() != nil {
			w.WriteHeader(401)
			return
		}
		w.WriteHeader(200)
	}))
	defer floor.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	const n = 500
	var oursAll, floorAll []time.Duration
	for round := 0; b.Loop(); round++ {
		for i := 0; i < n; i++ {
			toOurs := signedRequest(b, ours.URL, text, fmt.Sprintf("r%d-%d", round, i))
			toFloor := signedRequest(b, floor.URL, text, fmt.Sprintf("f%d-%d", round, i))
			if i%2 == 0 {
				oursAll = append(oursAll, latency(b, client, toOurs))
				floorAll = append(floorAll, latency(b, client, toFloor))
			} else {
				floorAll = append(floorAll, latency(b, client, toFloor))
				oursAll = append(oursAll, latency(b, client, toOurs))
			}
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
	op50, op99, fp50, fp99 := percentile(oursAll, .5), percentile(oursAll, .99), percentile(floorAll, .5),
		percentile(floorAll, .99)
	b.ReportMetric(float64(op50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(op99.Microseconds()), "p99-µs")
	b.ReportMetric(float64(fp50.Microseconds()), "floor-p50-µs")
	b.ReportMetric(float64(fp99.Microseconds()), "floor-p99-µs")
	b.ReportMetric(float64(op99)/float64(fp99), "p99-ratio")
	b.ReportMetric(float64(op50)/float64(fp50), "p50-ratio")
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
