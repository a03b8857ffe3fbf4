package letters

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the scanned images a case file holds: their decoders, for image.Decode
	_ "image/png"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"ethicsbot/docket"
)

// The documents of a case file are read in a process of their own: the same program,
// started again with readerEnv in its environment, which this package's init sees before
// main, or a test, runs. Every program that links this package, the bot, the command line
// and each test binary, is so its own reader, and nothing needs wiring. A process of its
// own, because a stack overflow in Go is a fatal error, not a panic: no recover survives
// it, and pdfcpu overflowed on a PDF of arrays nested 1.9 million deep. The reading
// process has limits the kernel enforces (RLIMIT_DATA, RLIMIT_CPU), a stack of
// ReaderStack, one thread of Go code, an environment of its own (none of the bot's
// tokens) and a time limit the bot enforces by killing it; whatever a document makes the
// PDF library do, a stack overflow, a runaway allocation or a loop, ends that process,
// and the bot refuses the document, naming the limit, and goes on.
const (
	readerEnv      = "ETHICSBOT_DOCUMENT_READER"
	readerProtocol = "1" // the readJob and readFrame below; the value readerEnv must have
)

func init() {
	if os.Getenv(readerEnv) == readerProtocol {
		os.Exit(serveReading(os.Stdin, os.Stdout))
	}
}

// readJob is the work of one reading process: each document read in turn, or, with
// Merge, the documents merged into one PDF in order.
type readJob struct {
	Bounds readBounds
	Docs   []readDoc
	Merge  bool
}

// readDoc is a document to read: its media type and bytes.
type readDoc struct {
	Media string
	Data  []byte
}

// readFrame is what the reading process says: which document it starts on (At) as it
// goes, so that a process that dies is known to have died on that document, and at the
// end either why document At cannot be read (Refusal) or what it read (Done).
type readFrame struct {
	At      int
	Refusal string
	Broken  string // the reader cannot work here: no document's fault
	Done    bool
	Pages   []int    // each document's pages
	PDFs    [][]byte // each image's page as a PDF (nil for a PDF)
	Merged  []byte   // the merged PDF

	cpu    time.Duration // what the process cost, as the kernel counted it
	maxRSS int64         // bytes; the kernel counts the bot's own size when it started the process
}

// unreadable is a document a reading refused, or died reading: which one, and why.
type unreadable struct {
	at  int
	err error
}

func (e *unreadable) Error() string { return e.err.Error() }
func (e *unreadable) Unwrap() error { return e.err }

// readers holds a place for each reading process that may run at once.
var readers = make(chan struct{}, Readers)

// read runs job in a reading process within its bounds and returns the frame that ends
// it. A document refused, or one on which the process died, is an *unreadable.
func read(ctx context.Context, job readJob) (readFrame, error) {
	select {
	case readers <- struct{}{}:
		defer func() { <-readers }()
	case <-ctx.Done():
		return readFrame{}, ctx.Err()
	}
	var size int64
	for _, d := range job.Docs {
		size += int64(len(d.Data))
	}
	job.Bounds = job.Bounds.forBytes(size)
	var in bytes.Buffer
	if err := gob.NewEncoder(&in).Encode(job); err != nil {
		return readFrame{}, err
	}
	exe, err := self()
	if err != nil {
		return readFrame{}, fmt.Errorf("the document reader cannot be started: %w", err)
	}
	b := job.Bounds
	tctx, cancel := context.WithTimeout(ctx, b.Time)
	defer cancel()
	out := &bounded{max: 2*int64(in.Len()) + 16<<20}
	stderr := &bounded{max: 16 << 10}
	cmd := exec.CommandContext(tctx, exe)
	// One thread of Go code, so that the time limit is also a limit of processor time; no
	// variable of the bot's (its tokens) reaches the process that reads what anyone sent.
	cmd.Env = []string{readerEnv + "=" + readerProtocol, "GOMAXPROCS=1"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, out, stderr
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return readFrame{}, ctx.Err()
	}
	if cmd.ProcessState == nil { // it did not start: no document's fault
		return readFrame{}, fmt.Errorf("the document reader cannot be started: %w", runErr)
	}
	var last readFrame
	dec := gob.NewDecoder(bytes.NewReader(out.Bytes()))
	for {
		var f readFrame
		if dec.Decode(&f) != nil {
			break
		}
		last = f
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		last.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		last.maxRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	switch {
	case last.Broken != "":
		return last, errors.New(last.Broken)
	case last.Refusal != "":
		return last, &unreadable{last.At, errors.New(last.Refusal)}
	case last.Done && !out.over:
		return last, nil
	}
	return last, &unreadable{last.At, died(runErr, tctx.Err() != nil, out.over, stderr.String(), b)}
}

// died says why a reading process ended without its answer, by the limit it met.
func died(err error, late, over bool, stderr string, b readBounds) error {
	var how string
	var ee *exec.ExitError
	switch {
	case late:
		how = "it took longer than " + seconds(b.Time)
	case over:
		how = "what it would be made into is too large"
	case strings.Contains(stderr, "stack overflow") || strings.Contains(stderr, "stack exceeds"):
		how = "it needed more than " + bytesOf(b.Stack) + " of stack"
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate memory"),
		// The Go runtime refused memory by RLIMIT_DATA while it grows the heap may fault
		// instead of saying so ("SIGSEGV: segmentation violation", no panic); a fault in
		// the reading's own code is a panic, which the default case reports.
		strings.Contains(stderr, "SIGSEGV") && !strings.Contains(stderr, "panic:"):
		how = "it needed more than " + bytesOf(b.Memory) + " of memory"
	case errors.As(err, &ee) && ee.ProcessState != nil && !ee.Exited():
		how = fmt.Sprintf("it was stopped (%v)", ee.ProcessState) // killed at RLIMIT_CPU
	default:
		first, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n")
		how = fmt.Sprintf("the reading failed (%v: %s)", err, first)
	}
	return fmt.Errorf("it cannot be read within the limits of a reading (%s of memory, %s of stack, %s): %s",
		bytesOf(b.Memory), bytesOf(b.Stack), seconds(b.Time), how)
}

// seconds writes d as the documents give the time limit: "60 seconds".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " seconds"
}

// self is the path by which this program starts again: /proc/self/exe where there is one,
// which is this program even if its file was replaced since it started (an upgrade).
func self() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// bounded keeps what is written to it up to max bytes and notes the rest as over: a
// reading process's output is read in full, but never held past its bound.
type bounded struct {
	bytes.Buffer
	max  int64
	over bool
}

func (c *bounded) Write(p []byte) (int, error) {
	if room := c.max - int64(c.Len()); int64(len(p)) > room {
		c.over = true
		c.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

// serveReading is the reading process: it reads a readJob from in, sets its limits and
// answers on out, and returns its exit code.
func serveReading(in io.Reader, out *os.File) int {
	// What a library prints goes to the standard error, never into the answer.
	os.Stdout = os.Stderr
	var job readJob
	if err := gob.NewDecoder(in).Decode(&job); err != nil {
		fmt.Fprintf(os.Stderr, "the document reader was started without its work: %v\n", err)
		return 2
	}
	enc := gob.NewEncoder(out)
	say := func(f readFrame) int {
		if err := enc.Encode(f); err != nil {
			fmt.Fprintf(os.Stderr, "the document reader cannot answer: %v\n", err)
			return 2
		}
		return 0
	}
	b := job.Bounds
	secs := uint64(b.Time/time.Second) + 1
	for _, l := range []struct {
		res int
		max uint64
	}{{syscall.RLIMIT_DATA, uint64(b.Memory)}, {syscall.RLIMIT_CPU, secs}, {syscall.RLIMIT_FSIZE, 0}} {
		// A limit the service already has that is lower (systemd's LimitDATA=, say) stays.
		var was syscall.Rlimit
		err := syscall.Getrlimit(l.res, &was)
		if err == nil {
			err = syscall.Setrlimit(l.res, &syscall.Rlimit{Cur: min(l.max, was.Max), Max: min(l.max, was.Max)})
		}
		if err != nil {
			// Nothing is read without its limits.
			say(readFrame{Broken: fmt.Sprintf("the document reader cannot set its limits (setrlimit: %v); a systemd "+
				"unit must allow the system call prlimit64 (docs/setup.md, \"Reading documents\")", err)})
			return 2
		}
	}
	debug.SetMaxStack(int(b.Stack))
	debug.SetMemoryLimit(b.Memory / 4 * 3) // collect garbage before the hard limit is near
	done := readFrame{Done: true}
	if job.Merge {
		merged, at, err := mergeWithin(job.Docs, func(i int) { say(readFrame{At: i}) })
		if err != nil {
			return say(refusal(at, err))
		}
		done.Merged = merged
		return say(done)
	}
	for i, d := range job.Docs {
		say(readFrame{At: i})
		pdf, pages, err := readWithin(d, b)
		if err != nil {
			return say(refusal(i, err))
		}
		done.Pages = append(done.Pages, pages)
		done.PDFs = append(done.PDFs, pdf)
	}
	return say(done)
}

// refusal is the frame that refuses document at for err.
func refusal(at int, err error) readFrame {
	return readFrame{At: at, Refusal: err.Error()}
}

// readWithin reads a document of the case file as a packet encloses it, within b: a PDF
// scanned, read and validated by pdfcpu and its pages counted; an image decoded and put on
// a page of its own, which it returns as a PDF.
func readWithin(d readDoc, b readBounds) ([]byte, int, error) {
	switch d.Media {
	case docket.MediaPDF:
		if err := scanPDF(d.Data, b); err != nil {
			return nil, 0, err
		}
		n, err := api.PageCount(bytes.NewReader(d.Data), pdfConfig())
		switch {
		case err != nil:
			return nil, 0, fmt.Errorf("it is not a readable PDF (%v)", err)
		case n == 0:
			return nil, 0, errors.New("it is a PDF without pages")
		case n > b.Pages:
			return nil, 0, &beyond{"it has " + count(int64(n)) + " pages", count(int64(b.Pages)) + " pages"}
		}
		return nil, n, nil
	case docket.MediaPNG, docket.MediaJPEG:
		// The image is decoded whole, as no copy of it is trusted that was not: a PNG whose
		// data does not inflate, a JPEG cut short. Its size is looked at first.
		cfg, _, err := image.DecodeConfig(bytes.NewReader(d.Data))
		if err != nil {
			return nil, 0, fmt.Errorf("it is not a readable image (%v)", err)
		}
		if px := int64(cfg.Width) * int64(cfg.Height); px > b.Pixels {
			return nil, 0, &beyond{fmt.Sprintf("it is an image of %d by %d pixels, %s", cfg.Width, cfg.Height, count(px)),
				count(b.Pixels) + " pixels"}
		}
		if _, _, err := image.Decode(bytes.NewReader(d.Data)); err != nil {
			return nil, 0, fmt.Errorf("it is not a readable image (%v)", err)
		}
		pdf, err := imagePage(d.Media, d.Data)
		if err != nil {
			return nil, 0, fmt.Errorf("it is not a readable image (%v)", err)
		}
		return pdf, 1, nil
	}
	return nil, 0, fmt.Errorf("it is a %s, neither a PDF nor an image", d.Media)
}

// mergeWithin joins PDFs into one, in order, as pdfcpu's api.MergeRaw does, saying which
// it starts on; on failure it returns the one it failed on.
func mergeWithin(docs []readDoc, starting func(int)) ([]byte, int, error) {
	conf := pdfConfig()
	conf.Cmd = model.MERGECREATE
	conf.CreateBookmarks = false
	// A cross-reference table, not a stream: the packet of a tagged letter gets an
	// incremental update with a table of its own (enclosing), and a table whose /Prev is a
	// stream is a hybrid that not every reader follows (ISO 32000-1, 7.5.8.4).
	conf.WriteObjectStream, conf.WriteXRefStream = false, false
	starting(0)
	dest, err := api.ReadAndValidate(bytes.NewReader(docs[0].Data), conf)
	if err != nil {
		return nil, 0, err
	}
	dest.EnsureVersionForWriting()
	for i, d := range docs[1:] {
		starting(i + 1)
		src, err := api.ReadAndValidate(bytes.NewReader(d.Data), dest.Configuration)
		if err != nil {
			return nil, i + 1, err
		}
		if dest.XRefTable.Version() < model.V20 && src.XRefTable.Version() == model.V20 {
			return nil, i + 1, pdfcpu.ErrUnsupportedVersion
		}
		if err := pdfcpu.MergeXRefTables(strconv.Itoa(i), src, dest, false, false); err != nil {
			return nil, i + 1, err
		}
	}
	starting(len(docs)) // the merged whole, no one document
	if conf.OptimizeBeforeWriting {
		if err := api.OptimizeContext(dest); err != nil {
			return nil, len(docs), err
		}
	}
	var out bytes.Buffer
	if err := api.WriteContext(dest, &out); err != nil {
		return nil, len(docs), err
	}
	return out.Bytes(), 0, nil
}
