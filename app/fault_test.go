package app

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ethicsbot/app/apptest"
	"ethicsbot/config"
	"ethicsbot/store"
)

// TestServeChild is the re-executed test binary running ethicsbot; it does nothing in a
// normal run.
func TestServeChild(t *testing.T) {
	if os.Getenv(apptest.ServeEnv) != "1" {
		t.Skip("runs only as the child of a fault test")
	}
	if path := os.Getenv(heapProfileEnv); path != "" {
		time.AfterFunc(5*time.Second, func() { writeHeapProfile(path) })
	}
	os.Exit((&App{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now}).Run())
}

// heapProfileEnv, if set to a file name when BenchmarkStartAndMemory runs, makes each
// child write its heap profile there 5 s after it starts, when the benchmark reads its
// resident memory, and its runtime.MemStats and /proc/self/smaps_rollup (what is resident,
// anonymous and mapped from files) to the name + ".txt": `go tool pprof
// -sample_index=inuse_space -top app.test heap.prof` shows what it holds.
const heapProfileEnv = "ETHICSBOT_TEST_HEAPPROFILE"

// writeHeapProfile writes the heap profile and the memory statistics of this process.
func writeHeapProfile(path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "heap profile:", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "heap profile:", err)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	stats := fmt.Appendf(nil, "HeapAlloc %d MB\nHeapInuse %d MB\nHeapSys %d MB\nHeapReleased %d MB\nStackSys %d MB\n"+
		"Sys %d MB\nNextGC %d MB\nNumGC %d\n", m.HeapAlloc>>20, m.HeapInuse>>20, m.HeapSys>>20, m.HeapReleased>>20,
		m.StackSys>>20, m.Sys>>20, m.NextGC>>20, m.NumGC)
	rollup, _ := os.ReadFile("/proc/self/smaps_rollup")
	if err := os.WriteFile(path+".txt", append(stats, rollup...), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "heap profile:", err)
	}
}

// TestKill9 runs ethicsbot in HTTP mode, files cases and schedules their meetings as fast
// as a client can, kills the server with SIGKILL mid-burst, restarts it, and checks that
// every filing answered 200 is there, the chain verifies, every committed event has all
// its posts, and each post reached Slack exactly once: every scheduled meeting has
// exactly one public notice.
func TestKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := apptest.NewRecordingSlack(t)
	dir := t.TempDir()
	_, env := apptest.ChildEnv(t, dir, slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	dbPath := filepath.Join(dir, "ethicsbot.db")
	addr := apptest.FreeAddr(t)

	var acknowledged, scheduled []string
	var mu sync.Mutex
	for round := 0; round < 3; round++ {
		srv := apptest.StartServer(t, env, addr)
		var mine []string
		stop := time.Now().Add(time.Duration(300+round*100) * time.Millisecond)
		for i := 0; time.Now().Before(stop); i++ {
			if n, ok := srv.File(round*100000 + i); ok {
				acknowledged = append(acknowledged, n)
				mine = append(mine, n)
			}
		}
		// Schedule this round's cases, and file more, while the kill lands, so it may hit
		// a commit or a delivery in flight.
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i, n := range mine {
				if srv.Schedule(n, round*100000+i) {
					mu.Lock()
					scheduled = append(scheduled, n)
					mu.Unlock()
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if n, ok := srv.File(round*100000 + 50000 + i); ok {
					mu.Lock()
					acknowledged = append(acknowledged, n)
					mu.Unlock()
				}
			}
		}()
		time.Sleep(time.Duration(60+round*40) * time.Millisecond)
		srv.Cmd.Process.Signal(syscall.SIGKILL)
		<-srv.Exited
		wg.Wait()
	}
	if len(acknowledged) < 10 || len(scheduled) < 3 {
		t.Fatalf("only %d filings and %d meetings were acknowledged", len(acknowledged), len(scheduled))
	}
	// Restart once more: it starts on the killed database and delivers what the killed
	// processes left in the outbox; then it stops cleanly on SIGTERM.
	srv := apptest.StartServer(t, env, addr)
	engine, err := config.Default().Engine()
	if err != nil {
		t.Fatal(err)
	}
	// Read only, as every reader beside the running bot must: a store opened to write
	// builds its search index and checks the file's identity, and the bot's commits
	// meanwhile would read as another program writing the file.
	db, err := store.OpenReadOnly(dbPath, engine)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pending, err := db.Pending(ctx, time.Now(), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after restart the outbox still holds %+v", pending[0])
		}
	}
	srv.Cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.Exited; err != nil {
		t.Fatalf("did not stop cleanly on SIGTERM: %v\n%s", err, srv.Stderr.String())
	}

	for _, n := range acknowledged {
		if _, err := db.Case(ctx, n); err != nil {
			t.Errorf("case %s was acknowledged with a 200 but is missing: %v", n, err)
		}
	}
	for _, n := range scheduled {
		if c, err := db.Case(ctx, n); err != nil || !c.Sufficiency.Scheduled() {
			t.Errorf("case %s's meeting was acknowledged with a 200 but is not on record: %v", n, err)
		}
	}
	// Every committed event has its posts, and each reached Slack exactly once.
	said := slackAPI.Keys()
	all, err := db.Outbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	posts := map[string]bool{}
	for _, r := range all {
		posts[r.Key.String()] = true
		if r.Edit {
			// An update of a case's card (chat.update) posts nothing: its card is checked.
			if r.Sent.IsZero() {
				t.Errorf("%s was never made", r.Key)
			}
			continue
		}
		if got := len(said[r.Key.String()]); got != 1 || r.Sent.IsZero() {
			t.Errorf("%s reached Slack %d times (marked sent: %v)", r.Key, got, !r.Sent.IsZero())
		}
	}
	for k := range said {
		if !posts[k] {
			t.Errorf("Slack got %s, which is not on record", k)
		}
	}
	meetings := 0
	err = db.EachCase(ctx, false, func(c store.CaseRecord) error {
		for _, e := range c.Events {
			rows, err := db.EventPosts(ctx, e.ID)
			if err != nil {
				return err
			}
			var notices []string
			for _, r := range rows {
				if r.Key.To.Channel == "C0NOTICE1" {
					for _, m := range said[r.Key.String()] {
						notices = append(notices, m.Text)
					}
				}
			}
			switch {
			case len(rows) == 0:
				t.Errorf("event %d (%s of %s) is on record but caused no post", e.ID, e.Kind, c.Number)
			case e.Kind == "schedule_meeting":
				meetings++
				if len(notices) != 1 ||
					!strings.HasPrefix(notices[0], "PUBLIC NOTICE. Ethics Commission, case "+c.Number+": sufficiency meeting") {
					t.Errorf("meeting of %s (event %d) has public notices %q, want exactly one", c.Number, e.ID, notices)
				}
			case len(notices) != 0:
				t.Errorf("a %s of %s reached the public channel: %q", e.Kind, c.Number, notices)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d filings and %d meetings acknowledged across three SIGKILLs; %d meetings on record, each with one public "+
		"notice; %d posts, each delivered once",
		len(acknowledged), len(scheduled), meetings, len(all))
	// The chains verify, as `ethicsbot verify` walks them (cli's tests run verify itself).
	if r, err := db.Verify(ctx); err != nil || r.Broken != nil || r.Differs != nil {
		t.Errorf("verify after SIGKILL: %v; broken at %v; differs at %v", err, r.Broken, r.Differs)
	}
}

// TestSIGHUPReloads runs ethicsbot in HTTP mode, adds a commissioner to ethicsbot.yml and
// sends SIGHUP: the new commissioner's signed command is then accepted. A broken file and
// another SIGHUP are refused with the file, the line and the problem on stderr, and the
// configuration in force goes on working.
func TestSIGHUPReloads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ethicsbot in a child process")
	}
	slackAPI := apptest.NewRecordingSlack(t)
	cfg, env := apptest.ChildEnv(t, t.TempDir(), slackAPI.URL, "commissioners: [U_COMM1]\n"+apptest.FaultPeople)
	write := func(body string) {
		if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := apptest.StartServer(t, env, apptest.FreeAddr(t))
	defer srv.Cmd.Process.Kill()
	seq := 0
	allowed := func(user string) bool {
		seq++
		reply, ok := srv.SlashAs(user, fmt.Sprint("hup-", seq), "docket")
		if !ok {
			t.Fatalf("no answer to %s's /ethics docket:\n%s", user, srv.Stderr.String())
		}
		return !strings.HasPrefix(reply, "Sorry")
	}
	// waitFor sends SIGHUP and waits for the log line it causes.
	waitFor := func(line string) {
		t.Helper()
		before := strings.Count(srv.Stderr.String(), line)
		if err := srv.Cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); strings.Count(srv.Stderr.String(),
			line) == before; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q after SIGHUP:\n%s", line, srv.Stderr.String())
			}
		}
	}
	if allowed("U_COMM2") {
		t.Fatal("U_COMM2 is allowed before being configured")
	}

	write("commissioners: [U_COMM1, U_COMM2]\n" + apptest.FaultPeople)
	waitFor(`msg="configuration reloaded"`)
	if !allowed("U_COMM2") || !allowed("U_COMM1") || !allowed("U_CLERK") {
		t.Errorf("after SIGHUP, a configured user is refused:\n%s", srv.Stderr.String())
	}

	write("commissioners: [U_COMM1, U_COMM2]\n" + apptest.FaultPeople + "attorney: U_COMM2\n")
	waitFor(`msg="configuration not reloaded`)
	if want := cfg + ": line 5: U_COMM2 is the attorney here and a " +
		"commissioner on line 1"; !strings.Contains(srv.Stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, srv.Stderr.String())
	}
	if !allowed("U_COMM2") || !allowed("U_CLERK") {
		t.Errorf("after a refused reload, the configuration in force is lost:\n%s", srv.Stderr.String())
	}

	srv.Cmd.Process.Signal(syscall.SIGTERM)
	if err := <-srv.Exited; err != nil {
		t.Fatalf("did not stop cleanly on SIGTERM: %v\n%s", err, srv.Stderr.String())
	}
}

// BenchmarkStartAndMemory starts ethicsbot in HTTP mode and reports the time to healthy
// and the resident memory 5 s later, and the most it was resident until then (VmHWM): on an empty record, and on the store benchmarks'
// database of 10,000 open cases and 1,000,000 events (run `go test ./store -run '^$'
// -bench OpenCases10k$` first to build it with store.BulkLoad; without it that half is
// skipped). /healthz is probed where ethicsbot serves it, on ETHICSBOT_ADMIN_ADDR.
func BenchmarkStartAndMemory(b *testing.B) {
	b.Run("empty", func(b *testing.B) { benchStart(b, "") })
	b.Run("cases=10000", func(b *testing.B) {
		src := filepath.Join(os.TempDir(), "ethicsbot-bench-10000x100.db")
		if _, err := os.Stat(src); err != nil {
			b.Skip("no benchmark database: run go test ./store -run '^$' -bench OpenCases10k$ first")
		}
		benchStart(b, src)
	})
}

// benchStart is BenchmarkStartAndMemory on a copy of the database src ("" for none).
func benchStart(b *testing.B, src string) {
	slackAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"user_id":"UBOT","channel":"C1","ts":"1.1"}`)
	}))
	defer slackAPI.Close()
	var starts, rsss, peaks []float64
	for b.Loop() {
		dir := b.TempDir()
		db := filepath.Join(dir, "ethicsbot.db")
		if src != "" {
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(db, data, 0o600); err != nil {
				b.Fatal(err)
			}
		}
		cfg := filepath.Join(dir, "ethicsbot.yml")
		os.WriteFile(cfg,
			[]byte("commissioners: [U0COMM1]\nclerk: U0CLERK1\nchannels: {docket: C0DOCKET1, notices: C0NOTICE1}\n"), 0o600)
		addr, admin := apptest.FreeAddr(b), apptest.FreeAddr(b)
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), apptest.ServeEnv+"=1", "ETHICSBOT_ADDR="+addr, "ETHICSBOT_ADMIN_ADDR="+admin,
			"ETHICSBOT_CONFIG="+cfg, "ETHICSBOT_DB="+db,
			"SLACK_BOT_TOKEN=xoxb-test", "SLACK_SIGNING_SECRET=s", "SLACK_API_URL="+slackAPI.URL+"/api/", "SLACK_APP_TOKEN=")
		var stderr apptest.LockedBuffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		for {
			select {
			case err := <-exited:
				b.Fatalf("ethicsbot exited at start (%v):\n%s", err, stderr.String())
			default:
			}
			resp, err := http.Get("http://" + admin + "/healthz")
			if err == nil {
				health, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 && strings.Contains(string(health), `"slack":"ok"`) {
					break
				}
			}
			if time.Since(start) > time.Minute {
				cmd.Process.Kill()
				b.Fatalf("not healthy after a minute:\n%s", stderr.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		ready := time.Since(start)
		time.Sleep(5 * time.Second)
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		rss := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(status)
		peak := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
		cmd.Process.Signal(syscall.SIGTERM)
		<-exited
		starts = append(starts, float64(ready.Microseconds())/1000)
		if rss != nil {
			kb, _ := strconv.Atoi(string(rss[1]))
			rsss = append(rsss, float64(kb)/1024)
		}
		if peak != nil {
			kb, _ := strconv.Atoi(string(peak[1]))
			peaks = append(peaks, float64(kb)/1024)
		}
	}
	b.ReportMetric(median(starts), "start-ms")
	if len(rsss) > 0 {
		b.ReportMetric(median(rsss), "rss-MB")
	}
	if len(peaks) > 0 {
		b.ReportMetric(median(peaks), "peak-rss-MB")
	}
}

// median is the middle of xs (the mean of the two middles for an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
