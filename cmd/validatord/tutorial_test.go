package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/internal/longtest"
)

// The documents whose shell blocks run (docs/tutorial.md says how): a block
// fenced "```sh" runs, "```sh no-run" and other languages do not. A command
// is one line, or lines joined by a trailing backslash; a comment line
// "#> TEXT" after a command is text its output (stdout and stderr) must hold;
// other comment lines and blank lines are skipped.

// docCommand is one command of a document, as a person types it.
type docCommand struct {
	Line    int      // of the command's first line in the document
	Section string   // the "## " heading above it
	Text    string   // verbatim, continuation lines included
	Expect  []string // the "#> " lines after it
}

// docCommands reads the runnable commands of md; with section != "", only
// those under the "## " heading that starts with section.
func docCommands(md, section string) ([]docCommand, error) {
	var cmds []docCommand
	var heading, fence string
	inBlock, runs, pending, blockCmds := false, false, "", 0
	pendingLine := 0
	for i, line := range strings.Split(md, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case !inBlock && strings.HasPrefix(line, "## "):
			heading = strings.TrimPrefix(line, "## ")
		case !inBlock && strings.HasPrefix(trimmed, "```"):
			inBlock, fence = true, strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
			runs = fence == "sh" && (section == "" || strings.HasPrefix(heading, section))
			blockCmds = 0
		case inBlock && trimmed == "```":
			if pending != "" {
				return nil, fmt.Errorf("line %d: the block ends inside a command continued by a backslash", n)
			}
			inBlock = false
		case !inBlock || !runs:
		case pending != "":
			pending += "\n" + line
			if !strings.HasSuffix(line, "\\") {
				cmds = append(cmds, docCommand{Line: pendingLine, Section: heading, Text: pending})
				pending, blockCmds = "", blockCmds+1
			}
		case strings.HasPrefix(trimmed, "#> "):
			if blockCmds == 0 {
				return nil, fmt.Errorf("line %d: %q follows no command", n, trimmed)
			}
			cmds[len(cmds)-1].Expect = append(cmds[len(cmds)-1].Expect, strings.TrimPrefix(trimmed, "#> "))
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasSuffix(line, "\\"):
			pending, pendingLine = line, n
		default:
			cmds = append(cmds, docCommand{Line: n, Section: heading, Text: line})
			blockCmds++
		}
	}
	if inBlock {
		return nil, fmt.Errorf("a ``` block is never closed")
	}
	return cmds, nil
}

// TestDocCommands: the reading rules on a small document.
func TestDocCommands(t *testing.T) {
	md := "# t\n## 1. A\n```sh\necho one\n#> one\n# a comment\n\necho two \\\n  three\n#> two three\n```\n" +
		"```sh no-run\nvalidatord start\n```\n```json\n{}\n```\n## 2. B\n```sh\necho four\n```\n"
	cmds, err := docCommands(md, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []docCommand{
		{Line: 4, Section: "1. A", Text: "echo one", Expect: []string{"one"}},
		{Line: 8, Section: "1. A", Text: "echo two \\\n  three", Expect: []string{"two three"}},
		{Line: 20, Section: "2. B", Text: "echo four"},
	}
	if fmt.Sprint(cmds) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", cmds, want)
	}
	if cmds, _ := docCommands(md, "2."); len(cmds) != 1 || cmds[0].Text != "echo four" {
		t.Fatalf("section 2: %+v", cmds)
	}
	for _, bad := range []string{"```sh\n#> x\n```\n", "```sh\necho\n```\n```sh\n#> x\n```\n", "```sh\necho \\\n```\n", "```sh\necho\n"} {
		if _, err := docCommands(bad, ""); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// personPause is the time between two commands, like a person reading the
// output before typing the next one.
const personPause = time.Second

// docShell runs commands one at a time in one bash, as typed into a terminal.
type docShell interface {
	// Run types text and returns what the command printed and its exit status.
	Run(t *testing.T, text string) (out string, status int)
}

// pipeShell is a bash reading commands from a pipe; its own process group,
// so that what it started in the background (the node) ends with it.
type pipeShell struct {
	cmd   *exec.Cmd
	stdin io.Writer
	lines chan string
	n     int
}

var statusLine = regexp.MustCompile(`^@@doc-command (\d+) exited (\d+)@@$`)

func startPipeShell(t *testing.T, env []string, dir string) *pipeShell {
	t.Helper()
	cmd := exec.Command("bash", "--norc", "--noprofile")
	cmd.Env, cmd.Dir = env, dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s := &pipeShell{cmd: cmd, stdin: stdin, lines: make(chan string, 1024)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { endGroup(cmd) })
	fmt.Fprintln(stdin, "set -o pipefail")
	return s
}

// endGroup stops the shell and everything it started (the node, when a
// document leaves it running): SIGTERM to the group, then SIGKILL to what
// is left after 15 s; it returns when the whole group is gone.
func endGroup(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	deadline := time.Now().Add(15 * time.Second)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	<-done
}

func (s *pipeShell) Run(t *testing.T, text string) (string, int) {
	t.Helper()
	s.n++
	fmt.Fprintf(s.stdin, "%s\nprintf '\\n@@doc-command %d exited %%d@@\\n' $?\n", text, s.n)
	var out strings.Builder
	timeout := time.After(3 * time.Minute)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				t.Fatalf("the shell ended during %q; output:\n%s", text, out.String())
			}
			if m := statusLine.FindStringSubmatch(line); m != nil && m[1] == fmt.Sprint(s.n) {
				var status int
				fmt.Sscan(m[2], &status)
				return out.String(), status
			}
			out.WriteString(line + "\n")
		case <-timeout:
			t.Fatalf("%q still running after 3 minutes; output:\n%s", text, out.String())
		}
	}
}

// docSession is a fresh $HOME with a freshly built validatord first on PATH.
type docSession struct {
	home string
	env  []string
}

func newDocSession(t *testing.T) docSession {
	t.Helper()
	if testing.Short() {
		t.Skip("runs a document's commands against a CometBFT node")
	}
	for _, port := range []string{"26656", "26657", "26680", "26690"} {
		l, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatalf("port %s is taken (%v): the documented commands run a node on the default ports (RPC, p2p, the leaderboard page) and the tutorial's miner daemon on 26690; stop what listens there", port, err)
		}
		l.Close()
	}
	bin := t.TempDir()
	build := exec.Command(goTool(), "build", "-o", filepath.Join(bin, "validatord"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// the example solver, price and measurement commands, as `make build`
	// puts them beside validatord for the daemons the documents run
	examples := exec.Command(goTool(), "build", "-o", bin+string(os.PathSeparator), exampleCommands[0], exampleCommands[1], exampleCommands[2])
	if out, err := examples.CombinedOutput(); err != nil {
		t.Fatalf("go build (example commands): %v\n%s", err, out)
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "LANG=C", "TERM=xterm"}
	return docSession{home: home, env: env}
}

// exampleCommands are the example commands a newcomer's daemons run.
var exampleCommands = [3]string{
	"github.com/scoringsubnet/validatord/scripts/examples/solver",
	"github.com/scoringsubnet/validatord/scripts/examples/price",
	"github.com/scoringsubnet/validatord/scripts/examples/measure",
}

// goTool is the go command that runs this test.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// runDocCommand runs c in sh after a person's pause and checks its status
// and expected output; it returns the output and when c was typed.
func runDocCommand(t *testing.T, sh docShell, doc string, c docCommand) (string, time.Time) {
	t.Helper()
	time.Sleep(personPause)
	typed := time.Now()
	out, status := sh.Run(t, c.Text)
	if status != 0 {
		t.Fatalf("%s:%d (%s): exit status %d:\n$ %s\n%s", doc, c.Line, c.Section, status, c.Text, out)
	}
	for _, want := range c.Expect {
		if !strings.Contains(out, want) {
			t.Fatalf("%s:%d (%s): the output lacks %q:\n$ %s\n%s", doc, c.Line, c.Section, want, c.Text, out)
		}
	}
	return out, typed
}

func readDoc(t *testing.T, rel string) string {
	t.Helper()
	bz, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(bz)
}

// TestTutorial runs every ```sh block of docs/tutorial.md verbatim against a
// fresh node, a person's pause between commands: an exit status other than 0
// or an output without its "#> " text fails it. The commands of its "Miner"
// sections are typed into a real terminal (tmux, a second bash: they must not
// use the shell variables of other sections), and the subtest "terminal"
// checks what the miner's screen showed. At the end it checks what the
// auditor's last step says: the live node's score digest is the replay's.
//
// It logs the newcomer's figure: the time from typing `validatord miner
// init` to the end of the first command after it that waits for a scored
// submission (the daemons' part), person's pauses included.
func TestTutorial(t *testing.T) {
	longtest.Skip(t)
	s := newDocSession(t)
	cmds, err := docCommands(readDoc(t, "docs/tutorial.md"), "")
	if err != nil {
		t.Fatalf("docs/tutorial.md: %v", err)
	}
	term := tutorialTerminal(t, s)
	sh := startPipeShell(t, s.env, s.home)
	typed := 0
	var minerInit time.Time
	scored := false
	for _, c := range cmds {
		var at time.Time
		if term != nil && strings.Contains(c.Section, "Miner") {
			_, at = runDocCommand(t, term, "docs/tutorial.md", c)
			typed++
		} else {
			_, at = runDocCommand(t, sh, "docs/tutorial.md", c)
		}
		switch {
		case strings.HasPrefix(c.Text, "validatord miner init"):
			minerInit = at
		case !minerInit.IsZero() && !scored && strings.Contains(c.Text, `"status": "scored"`):
			scored = true
			t.Logf("tutorial: miner init → first scored submission: %.1f s", time.Since(minerInit).Seconds())
		}
	}
	if minerInit.IsZero() || !scored {
		t.Fatalf("docs/tutorial.md: no `validatord miner init` followed by a command waiting for \"status\": \"scored\": the daemons' part moved?")
	}
	live := jsonField(t, filepath.Join(s.home, "digest.json"), "score_digest")
	replayed := jsonField(t, filepath.Join(s.home, "replay.json"), "score_digest_sha256")
	if live == "" || live != replayed {
		t.Fatalf("score digest: live %q, replay %q", live, replayed)
	}
	if term != nil {
		checkTerminal(t, term, typed)
	}
}

// jsonField reads a top-level string field of a JSON file the commands wrote.
func jsonField(t *testing.T, path, name string) string {
	t.Helper()
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(bz, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v, _ := m[name].(string)
	return v
}

// TestReadmeUsingIt runs the ```sh blocks of README.md's "Using it" section
// the same way against a fresh node.
func TestReadmeUsingIt(t *testing.T) {
	longtest.Skip(t)
	s := newDocSession(t)
	cmds, err := docCommands(readDoc(t, "README.md"), "Using it")
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if len(cmds) < 10 {
		t.Fatalf("README.md's \"Using it\" has %d commands to run; its ```sh blocks moved?", len(cmds))
	}
	sh := startPipeShell(t, s.env, s.home)
	for _, c := range cmds {
		runDocCommand(t, sh, "README.md", c)
	}
}
