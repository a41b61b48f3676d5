//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// env of the harness.
var (
	binDir   = envOr("E2E_BIN_DIR", filepath.Join("..", "..", "bin"))
	basePort = envInt("E2E_PORT", 24000)
)

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

func bin(name string) string {
	p, err := filepath.Abs(filepath.Join(binDir, name))
	if err != nil {
		panic(err)
	}
	return p
}

// proc is one process the harness started; it is always stopped by the test's cleanup.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error // the exit error, once done is closed
	log  *os.File
}

// procs tracks the processes of a test so that cleanup stops every one of them.
type procs struct {
	mu  sync.Mutex
	all []*proc
}

// start runs path with args, stdout+stderr appended to logPath, in its own process group
// (a Ctrl-C of the test run does not reach it; cleanup stops it by pid).
func (ps *procs) start(t *testing.T, name, logPath string, env []string, path string, args ...string) *proc {
	t.Helper()
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{}), log: f}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	ps.mu.Lock()
	ps.all = append(ps.all, p)
	ps.mu.Unlock()
	return p
}

// running reports whether p has not exited.
func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL to p and waits (bounded) for it to exit.
func (p *proc) kill() error {
	if !p.running() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	return p.wait(10 * time.Second)
}

// stop sends SIGTERM, then SIGKILL after grace.
func (p *proc) stop(grace time.Duration) error {
	if !p.running() {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.wait(grace); err == nil {
		return nil
	}
	return p.kill()
}

// wait waits at most d for p to exit.
func (p *proc) wait(d time.Duration) error {
	select {
	case <-p.done:
		return nil
	case <-time.After(d):
		return fmt.Errorf("%s (pid %d) still running after %s", p.name, p.cmd.Process.Pid, d)
	}
}

// exitCode is p's exit status (-1 when killed by a signal or still running).
func (p *proc) exitCode() int {
	if p.running() {
		return -1
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode()
	}
	if p.err == nil {
		return 0
	}
	return -1
}

// stopAll stops every process still running, the ones started last first.
func (ps *procs) stopAll() {
	ps.mu.Lock()
	all := append([]*proc(nil), ps.all...)
	ps.mu.Unlock()
	for i := len(all) - 1; i >= 0; i-- {
		_ = all[i].stop(15 * time.Second)
	}
}

// newProcs returns a tracker whose processes are stopped when t ends, pass or fail.
func newProcs(t *testing.T) *procs {
	ps := &procs{}
	t.Cleanup(ps.stopAll)
	return ps
}

// run runs a command to completion (bounded by timeout) and returns its stdout; stderr
// goes to the test log on failure.
func run(t *testing.T, timeout time.Duration, env []string, path string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return stdout.Bytes(), fmt.Errorf("%s %v: %w\n%s", filepath.Base(path), args, err, stderr.String())
		}
		return stdout.Bytes(), nil
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		<-done
		return stdout.Bytes(), fmt.Errorf("%s %v: still running after %s", filepath.Base(path), args, timeout)
	}
}
