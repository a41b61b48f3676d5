package extcmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func sh(script string) Command {
	return Command{Argv: []string{"/bin/sh", "-c", script}}
}

func runErr(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	return e
}

func TestRunStdinToStdout(t *testing.T) {
	in := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB, larger than a pipe buffer
	out, err := Command{Argv: []string{"cat"}, MaxOutput: 2 << 20}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("got %d bytes back, want the %d written", len(out), len(in))
	}
}

func TestRunIgnoresUnreadStdin(t *testing.T) {
	out, err := sh("echo done").Run(context.Background(), bytes.Repeat([]byte{'x'}, 1<<20))
	if err != nil || string(out) != "done\n" {
		t.Fatalf("out %q, err %v", out, err)
	}
}

func TestRunDirAndEnv(t *testing.T) {
	dir := t.TempDir()
	c := sh(`pwd; echo "$GREETING"`)
	c.Dir, c.Env = dir, []string{"GREETING=hello"}
	out, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := string(out); got != real+"\nhello\n" && got != dir+"\nhello\n" {
		t.Fatalf("out %q", got)
	}
}

func TestRunExit(t *testing.T) {
	_, err := sh("echo first >&2; echo 'bad input: no task' >&2; exit 3").Run(context.Background(), nil)
	e := runErr(t, err)
	if e.Reason != ReasonExit || e.ExitCode != 3 || !strings.Contains(e.Stderr, "first") {
		t.Fatalf("%+v", e)
	}
	msg := e.Error()
	for _, want := range []string{"/bin/sh", "exit", "status 3", "bad input: no task"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Error() = %q, lacks %q", msg, want)
		}
	}
	if !strings.HasSuffix(msg, "stderr: bad input: no task") {
		t.Errorf("Error() = %q does not end with stderr's last line", msg)
	}
}

func TestRunStart(t *testing.T) {
	_, err := Command{Argv: []string{"/nonexistent/solver"}}.Run(context.Background(), nil)
	if e := runErr(t, err); e.Reason != ReasonStart || !strings.Contains(e.Error(), "/nonexistent/solver") {
		t.Fatalf("%v", e)
	}
	if _, err := (Command{}).Run(context.Background(), nil); runErr(t, err).Reason != ReasonStart {
		t.Fatal(err)
	}
}

func TestRunStderrTail(t *testing.T) {
	_, err := sh(`i=0; while [ $i -lt 500 ]; do echo "line $i of noise" >&2; i=$((i+1)); done; exit 1`).Run(context.Background(), nil)
	e := runErr(t, err)
	if len(e.Stderr) > stderrTail || !strings.HasSuffix(e.Stderr, "line 499 of noise\n") {
		t.Fatalf("stderr tail of %d bytes: ...%q", len(e.Stderr), e.Stderr[max(0, len(e.Stderr)-40):])
	}
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// childPid waits for the script to write its background child's pid.
func childPid(t *testing.T, path string) int {
	t.Helper()
	for range 100 {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the script never wrote its child's pid")
	return 0
}

// waitDead fails unless pid dies soon (SIGKILL delivery is asynchronous).
func waitDead(t *testing.T, pid int) {
	t.Helper()
	for range 100 {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("child %d outlived the command", pid)
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := sh(`sleep 30 & echo $! > "$PIDFILE"; wait`)
	c.Env = append(os.Environ(), "PIDFILE="+pidFile)
	c.Timeout = 300 * time.Millisecond
	start := time.Now()
	_, err := c.Run(context.Background(), nil)
	if e := runErr(t, err); e.Reason != ReasonTimeout || !strings.Contains(e.Error(), "time limit") {
		t.Fatalf("%v", e)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Run took %v with a 300ms timeout", d)
	}
	waitDead(t, childPid(t, pidFile))
}

func TestRunCanceledKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := sh(`sleep 30 & echo $! > "$PIDFILE"; wait`)
	c.Env = append(os.Environ(), "PIDFILE="+pidFile)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		childPid(t, pidFile)
		cancel()
	}()
	_, err := c.Run(ctx, nil)
	if e := runErr(t, err); e.Reason != ReasonCanceled {
		t.Fatalf("%v", e)
	}
	waitDead(t, childPid(t, pidFile))
}

func TestRunOutputTooLarge(t *testing.T) {
	start := time.Now()
	c := Command{Argv: []string{"yes", "endless"}, MaxOutput: 1000, Timeout: 10 * time.Second}
	_, err := c.Run(context.Background(), nil)
	if e := runErr(t, err); e.Reason != ReasonOutputTooLarge {
		t.Fatalf("%v", e)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v: the endless output was not cut", d)
	}
	// Exactly the limit is fine.
	out, err := Command{Argv: []string{"head", "-c", "1000", "/dev/zero"}, MaxOutput: 1000}.Run(context.Background(), nil)
	if err != nil || len(out) != 1000 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
}

func TestRunDefaults(t *testing.T) {
	out, err := Command{Argv: []string{"head", "-c", strconv.Itoa(DefaultMaxOutput + 1), "/dev/zero"}}.Run(context.Background(), nil)
	if e := runErr(t, err); e.Reason != ReasonOutputTooLarge || out != nil {
		t.Fatalf("%v", e)
	}
}

// A command that succeeds but leaves a child holding stdout still answers
// (after a grace period), and the child is killed.
func TestRunLingeringChild(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := sh(`sleep 30 & echo $! > "$PIDFILE"; echo answer`)
	c.Env = append(os.Environ(), "PIDFILE="+pidFile)
	out, err := c.Run(context.Background(), nil)
	if err != nil || string(out) != "answer\n" {
		t.Fatalf("out %q, err %v", out, err)
	}
	waitDead(t, childPid(t, pidFile))
}
