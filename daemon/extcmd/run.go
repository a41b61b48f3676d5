package extcmd

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Defaults applied by Run when a Command leaves the field zero.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultMaxOutput = 1 << 20
	// stderrTail is how much of the end of stderr an Error keeps.
	stderrTail = 2 << 10
	// pipeGrace is how long Run waits for the command's pipes to close after
	// it exited (a background child may hold them) before closing them itself.
	pipeGrace = 2 * time.Second
)

// Command is a program to run with its arguments and bounds.
type Command struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH
	// when it has no slash.
	Argv []string
	// Timeout bounds the whole run; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxOutput bounds stdout in bytes; 0 means DefaultMaxOutput.
	MaxOutput int64
	// Dir is the working directory; empty means the daemon's own.
	Dir string
	// Env is the environment; nil means the daemon's own.
	Env []string
}

// Run starts the command in its own process group, writes stdin to it in
// full, and returns its stdout once it exits with status 0. On any failure
// it returns an *Error. On timeout, on cancellation of ctx, or when stdout
// grows past MaxOutput, the whole process group is killed.
func (c Command) Run(ctx context.Context, stdin []byte) ([]byte, error) {
	if len(c.Argv) == 0 {
		return nil, &Error{Reason: ReasonStart, ExitCode: -1, Err: ErrEmpty}
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	over := make(chan struct{})
	stdout := &cappedBuffer{limit: limit, over: over}
	stderr := &tailBuffer{max: stderrTail}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = pipeGrace

	fail := func(reason string, code int, err error) *Error {
		return &Error{
			Argv:     append([]string(nil), c.Argv...),
			Reason:   reason,
			ExitCode: code,
			Stderr:   stderr.String(),
			Err:      err,
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fail(ReasonStart, -1, err)
	}
	pgid := cmd.Process.Pid

	// The watchdog kills the group when the time is up, ctx is canceled or
	// stdout overflows; it stops once Wait has returned.
	exited := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		select {
		case <-runCtx.Done():
			killGroup(pgid)
		case <-over:
			killGroup(pgid)
		case <-exited:
		}
	}()
	waitErr := cmd.Wait()
	close(exited)
	watch.Wait()

	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	switch {
	case stdout.overflowed():
		return nil, fail(ReasonOutputTooLarge, code, nil)
	case waitErr == nil:
		return stdout.Bytes(), nil
	case errors.Is(waitErr, exec.ErrWaitDelay) && code == 0:
		// The command succeeded but left a child holding its pipes open;
		// what it wrote before exiting is its answer, the child is killed.
		killGroup(pgid)
		return stdout.Bytes(), nil
	case ctx.Err() != nil:
		return nil, fail(ReasonCanceled, code, ctx.Err())
	case runCtx.Err() != nil:
		return nil, fail(ReasonTimeout, code, runCtx.Err())
	default:
		return nil, fail(ReasonExit, code, waitErr)
	}
}

// killGroup sends SIGKILL to every process in the group; a group that is
// already gone is not an error.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// errOverflow stops exec's stdout copy once the limit is passed.
var errOverflow = errors.New("extcmd: output limit exceeded")

// cappedBuffer keeps up to limit bytes; the first write past the limit closes
// over (so the watchdog kills the command) and fails, which stops the copy:
// the rest of an endless output is never read.
type cappedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int64
	over  chan struct{}
	hit   bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hit {
		return 0, errOverflow
	}
	if int64(b.buf.Len())+int64(len(p)) > b.limit {
		b.hit = true
		close(b.over)
		return 0, errOverflow
	}
	return b.buf.Write(p)
}

func (b *cappedBuffer) overflowed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.hit
}

func (b *cappedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if n >= t.max {
		t.buf = append(t.buf[:0], p[n-t.max:]...)
		return n, nil
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
