package store_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ethicsbot/docket"
	"ethicsbot/store"
)

// crashChildEnv names the database a re-executed test binary files cases into until it
// is killed.
const crashChildEnv = "ETHICSBOT_STORE_CRASH_CHILD"

// TestCrashKeepsEveryAcknowledgedFiling re-executes the test binary as a child that files
// cases in a loop and prints each number once its commit has returned, kills it with
// SIGKILL at a random moment, and checks that every printed number survived and the
// chain verifies.
func TestCrashKeepsEveryAcknowledgedFiling(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(t, path)
		return
	}
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for round := 0; round < 4; round++ {
		path := filepath.Join(t.TempDir(), "ethicsbot.db")
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashKeepsEveryAcknowledgedFiling$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var printed []string
		first := make(chan struct{})
		read := make(chan struct{})
		go func() {
			defer close(read)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if n, ok := strings.CutPrefix(sc.Text(), "FILED "); ok {
					mu.Lock()
					printed = append(printed, n)
					if len(printed) == 1 {
						close(first)
					}
					mu.Unlock()
				}
			}
		}()
		select {
		case <-first:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the child filed nothing in 60 s")
		}
		time.Sleep(time.Duration(r.IntN(400)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		<-read

		s := MustOpenPath(t, path)
		cases, err := s.AllCases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		have := make(map[string]bool, len(cases))
		for _, c := range cases {
			have[c.Number] = true
		}
		mu.Lock()
		for _, n := range printed {
			if !have[n] {
				t.Errorf("round %d: case %s was acknowledged but is missing after the crash", round, n)
			}
		}
		t.Logf("round %d: killed after %d acknowledged filings; %d on disk", round, len(printed), len(cases))
		mu.Unlock()
		mustVerify(t, s)
		s.Close()
	}
}

// crashChild files cases until it is killed, printing each number after its commit.
func crashChild(t *testing.T, path string) {
	s, err := store.Open(path, MustEngine(t))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	deadline := time.Now().Add(2 * time.Minute) // bounded, should the parent vanish
	for i := 0; time.Now().Before(deadline); i++ {
		when := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
		res, err := s.File(ctx, docket.Act{By: "U_CLERK", At: when}, complaint(when, fmt.Sprintf("Respondent %d", i)))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Fprintf(os.Stdout, "FILED %s\n", res.Case.Number)
		if i%5 == 0 {
			s.Apply(ctx, docket.Act{By: "U_CLERK", At: when.Add(time.Minute)}, res.Case.Number,
				docket.ScheduleMeeting{Meeting: docket.SufficiencyMeeting,
					Start: when.Add(72 * time.Hour), Place: "City Hall"})
		}
	}
	os.Exit(0)
}
