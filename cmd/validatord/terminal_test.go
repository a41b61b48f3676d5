package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tmuxShell is bash in a real terminal: a tmux session of its own server
// (socket), typed into with send-keys and read with capture-pane, as a
// person at a keyboard would type and read. Its prompt shows the last exit
// status: "[rc N] $ ".
type tmuxShell struct {
	socket string
	n      int // commands typed
}

var tmuxPrompt = regexp.MustCompile(`(?m)^\[rc (\d+)\] \$ `)

func startTmuxShell(t *testing.T, env []string, dir string) *tmuxShell {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g history-limit 100000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &tmuxShell{socket: fmt.Sprintf("validatord-doc-%d", os.Getpid())}
	argv := append([]string{"-f", conf, "new-session", "-d", "-s", "doc", "-x", "160", "-y", "48", "-c", dir,
		"env", "-i"}, env...)
	argv = append(argv, `PS1=[rc $?] $ `, "HISTFILE=", "bash", "--norc", "--noprofile", "-i")
	if out, err := s.tmux(argv...); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _, _ = s.tmux("kill-server") })
	s.waitPrompts(t, 1, "the first prompt")
	return s
}

func (s *tmuxShell) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// screen is the terminal's text: with history, every line since the start.
func (s *tmuxShell) screen(t *testing.T, history bool) string {
	t.Helper()
	args := []string{"capture-pane", "-p", "-J", "-t", "doc"}
	if history {
		args = append(args, "-S", "-")
	}
	out, err := s.tmux(args...)
	if err != nil {
		t.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return out
}

// waitPrompts waits until the terminal shows n prompts and returns its text.
func (s *tmuxShell) waitPrompts(t *testing.T, n int, what string) string {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		text := s.screen(t, true)
		if len(tmuxPrompt.FindAllStringIndex(text, -1)) >= n {
			return text
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal shows no prompt after %s in 3 minutes:\n%s", what, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Run types text line by line, Enter after each, and reads the output
// between its prompt and the next one.
func (s *tmuxShell) Run(t *testing.T, text string) (string, int) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if out, err := s.tmux("send-keys", "-t", "doc", "-l", line); err != nil {
			t.Fatalf("tmux send-keys: %v\n%s", err, out)
		}
		if out, err := s.tmux("send-keys", "-t", "doc", "Enter"); err != nil {
			t.Fatalf("tmux send-keys: %v\n%s", err, out)
		}
	}
	s.n++
	screen := s.waitPrompts(t, s.n+1, fmt.Sprintf("%q", text))
	prompts := tmuxPrompt.FindAllStringSubmatchIndex(screen, -1)
	from, to := prompts[s.n-1][1], prompts[s.n][0]
	status, _ := strconv.Atoi(screen[prompts[s.n][2]:prompts[s.n][3]])
	// the typed lines (the first after the prompt, then the continuations)
	// are not the command's output
	out := strings.SplitN(screen[from:to], "\n", strings.Count(text, "\n")+2)
	return out[len(out)-1], status
}

// tutorialTerminal is the real terminal TestTutorial types the miner's
// steps into, or nil without tmux (the "terminal" subtest then says why it
// skipped).
func tutorialTerminal(t *testing.T, s docSession) *tmuxShell {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Run("terminal", func(t *testing.T) {
			t.Skip("tmux is not installed: the miner's steps run in the plain shell, not typed into a real terminal (apt-get install tmux; .ci/run installs it)")
		})
		return nil
	}
	return startTmuxShell(t, s.env, s.home)
}

// checkTerminal: what a person at the miner's terminal saw. The leaderboard
// with its place and the warmed-up score, the receipt's score 0.84 and its
// verification; last, on the screen as the miner leaves it, the list of its
// submissions with the daemon's scored one and the daemon's "stopped" line.
func checkTerminal(t *testing.T, term *tmuxShell, typed int) {
	t.Run("terminal", func(t *testing.T) {
		if typed < 8 {
			t.Fatalf("only %d commands typed into the terminal: the tutorial's Miner sections moved?", typed)
		}
		all := term.screen(t, true)
		for _, want := range []string{"validatord query leaderboard workflow", `"uid": 1`, `"score": "0.042000000000000000"`,
			`"score": "0.840000000000000000"`, `"verified":true`} {
			if !strings.Contains(all, want) {
				t.Fatalf("the terminal never showed %q:\n%s", want, all)
			}
		}
		screen := term.screen(t, false)
		for _, want := range []string{"validatord query submissions --miner miner1", "scored", "miner: stopped"} {
			if !strings.Contains(screen, want) {
				t.Fatalf("the terminal's last screen lacks %q:\n%s", want, screen)
			}
		}
	})
}
