package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/query"
)

// commandTreeText is the command tree as docs/cli.md's "Command tree"
// shows it: every node, indented by its depth, with its summary.
func commandTreeText() string {
	var b strings.Builder
	var walk func(p *command, depth int)
	walk = func(p *command, depth int) {
		for _, c := range p.sub {
			line := fmt.Sprintf("%-26s %s", strings.Repeat("  ", depth)+c.name+c.aliasNote(), c.summary)
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			walk(c, depth+1)
		}
	}
	b.WriteString("validatord\n")
	walk(root, 1)
	return b.String()
}

// docBlock is the first ``` block of the "## heading" section of md.
func docBlock(md, heading string) string {
	sec := cliDoc(md)[heading]
	_, rest, ok := strings.Cut(sec, "```text\n")
	if !ok {
		return ""
	}
	block, _, _ := strings.Cut(rest, "```")
	return block
}

// TestCommandTreeDoc: docs/cli.md's command tree is the registry's, node for
// node, so the two cannot drift.
func TestCommandTreeDoc(t *testing.T) {
	want := commandTreeText()
	if got := docBlock(readDoc(t, "docs/cli.md"), "Command tree"); got != want {
		t.Fatalf("docs/cli.md's \"## Command tree\" block is not the CLI's; it should read:\n```text\n%s```", want)
	}
}

// TestFlagAliasesDoc: docs/cli.md's alias table lists flagAliases, in order.
func TestFlagAliasesDoc(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)` \\| `--([a-z0-9-]+)` \\|")
	var got, want []string
	for _, m := range row.FindAllStringSubmatch(cliDoc(readDoc(t, "docs/cli.md"))["Flag aliases"], -1) {
		got = append(got, m[1]+" "+m[2])
	}
	for _, a := range flagAliases {
		want = append(want, a.Canonical+" "+a.Alias)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("docs/cli.md's \"## Flag aliases\" rows (canonical, alias) %q, want %q", got, want)
	}
}

// TestFlagAliases: on every command that has a canonical flag, its -h lists
// the canonical name with "(alias: --old)" and never the alias on its own
// line; on every tx message the alias parses to the same value as the
// canonical name and counts as the canonical flag given.
func TestFlagAliases(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range cliCommands(t) {
		for _, a := range flagAliases {
			if otherConcept[c.Name+" --"+a.Canonical] {
				continue
			}
			has := slices.Contains(c.Flags, a.Canonical)
			if slices.Contains(c.Flags, a.Alias) {
				t.Errorf("%s -h lists the alias --%s as a flag", c.Name, a.Alias)
			}
			if has != slices.Contains(c.Aliases, a.Alias) {
				t.Errorf("%s -h: --%s listed %v, (alias: --%s) shown %v", c.Name, a.Canonical, has, a.Alias, !has)
			}
			seen[a.Canonical] = seen[a.Canonical] || has
		}
	}
	for _, e := range txMessages {
		for _, a := range flagAliases {
			canon, canonSet := parseTxMessageFlags(t, e.name, e.m, "--"+a.Canonical, "7")
			if canon == nil {
				continue
			}
			alias, aliasSet := parseTxMessageFlags(t, e.name, e.m, "--"+a.Alias, "7")
			if canon.Value.String() != "7" || alias.Value.String() != "7" || !canonSet || !aliasSet {
				t.Errorf("tx %s: --%s 7 gives %s (given %v), --%s 7 gives %s (given %v)", e.name,
					a.Canonical, canon.Value, canonSet, a.Alias, alias.Value, aliasSet)
			}
		}
	}
	for _, a := range flagAliases {
		if !seen[a.Canonical] {
			t.Errorf("no command has --%s: the alias --%s is dead", a.Canonical, a.Alias)
		}
	}
}

// otherConcept are flags named like a canonical flag for another thing:
// score arena's --task is a file of a task's answers, not a task id, and
// takes no alias (score modes parse with parseScoreFlags).
var otherConcept = map[string]bool{"score arena --task": true}

// parseTxMessageFlags parses flag and value with the flags of a tx message
// as runTxMessage does; it returns the canonical flag of flag's concept
// (nil when the message has none) and whether it counts as given.
func parseTxMessageFlags(t *testing.T, name string, m txMessage, flagArg, value string) (*flag.Flag, bool) {
	t.Helper()
	fs := newFlags("tx " + name)
	defineTxFlags(fs, m.wait)
	m.defineOn(fs, Env{})
	canonical := canonicalFlag(strings.TrimPrefix(flagArg, "--"))
	if fs.Lookup(canonical) == nil {
		return nil, false
	}
	if _, _, err := parseFlags(Env{}, fs, "tx", []string{flagArg, value}); err != nil {
		t.Fatalf("tx %s %s %s: %v", name, flagArg, value, err)
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == canonical })
	return fs.Lookup(canonical), given
}

// TestQueryPathsMatchDoc: queryPaths are the paths of docs/queries.md's table.
func TestQueryPathsMatchDoc(t *testing.T) {
	cell := regexp.MustCompile("`([^`]+)`")
	var doc []string
	for _, line := range strings.Split(readDoc(t, "docs/queries.md"), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.ReplaceAll(line[2:], `\|`, "\x00"), " |")
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			doc = append(doc, strings.ReplaceAll(m[1], "\x00", "|"))
		}
	}
	var cli []string
	for _, p := range queryPaths {
		cli = append(cli, p.Path)
	}
	if !slices.Equal(doc, cli) {
		t.Fatalf("docs/queries.md's paths:\n%q\nqueryPaths:\n%q", doc, cli)
	}
}

// TestQueryPathsMatchApp: the CLI's paths have the first words the app
// answers (app/query's routes, and simulate, which the App answers itself),
// so a path the app knows is never refused before it is asked.
func TestQueryPathsMatchApp(t *testing.T) {
	app := append(query.FirstWords(), "simulate")
	slices.Sort(app)
	if cli := queryFirstWords(); !slices.Equal(cli, app) {
		t.Fatalf("queryPaths' first words %q, the app's %q", cli, app)
	}
}

func TestKnownQueryPath(t *testing.T) {
	cases := []struct {
		path, want string
	}{
		{"miner/1", ""},
		{"epoch/latest/u16", ""}, // the node judges the arguments
		{"status", ""},
		{"minr/1", `unknown query path "minr/1" (did you mean miner/<uid>?)`},
		{"epch/latest", `unknown query path "epch/latest" (did you mean epoch/latest or epoch/<n>?)`},
		{"leaderbord/gas", `(did you mean leaderboard/<track>?)`},
		{"txx/AB", `unknown query path "txx/AB" (did you mean tx?)`}, // a query word of its own, no path
		{"metagrph", `(did you mean metagraph?)`},
		{"nothing-like-it", `unknown query path "nothing-like-it"; the paths are in docs/queries.md`},
	}
	for _, c := range cases {
		err := knownQueryPath(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
	}
}

// TestDispatch: the one dispatcher's answers at each level of the tree, and
// their exit codes (2 for the root's usage errors, 1 below).
func TestDispatch(t *testing.T) {
	cases := []struct {
		args    []string
		code    int
		stdout  string // a prefix
		stderrs []string
	}{
		{[]string{"qurey"}, 2, "", []string{"validatord: unknown command \"qurey\" (did you mean query?)\nusage: validatord <command> [flags]\ncommands:\n"}},
		{[]string{"bogus"}, 2, "", []string{"validatord: unknown command \"bogus\"\nusage:"}},
		{nil, 2, "", []string{"usage: validatord <command> [flags]\n"}},
		{[]string{"help"}, 0, "", []string{"usage: validatord <command> [flags]\n"}},
		{[]string{"tx", "sumbit"}, 1, "", []string{`validatord tx: unknown message "sumbit" (did you mean submit?), want one of `}},
		{[]string{"tx", "submit", "wrokflow"}, 1, "", []string{`validatord tx: submit: unknown kind "wrokflow" (did you mean workflow?), want one of arena, gas, workflow`}},
		{[]string{"tx", "submit", "--task", "3"}, 1, "", []string{"validatord tx: submit: missing kind; usage: validatord tx submit arena|gas|workflow"}},
		{[]string{"snapshot", "lst"}, 1, "", []string{`validatord snapshot: unknown subcommand "lst" (did you mean list?)`}},
		{[]string{"oracle", "help"}, 0, "usage: validatord oracle <sidecar> [flags]\nsidecars:\n  gas ", nil},
		{[]string{"query", "minr/1"}, 1, "", []string{`validatord query: unknown query path "minr/1" (did you mean miner/<uid>?)`}},
		{[]string{"query", "--node", "tcp://127.0.0.1:1", "tasks", "-h"}, 0, "usage: validatord query tasks", nil},
		{[]string{"query", "--task-id", "3", "submissions", "-h"}, 0, "usage: validatord query submissions", nil}, // an alias's value is no query word
		{[]string{"keys", "lst"}, 1, "", []string{`unknown subcommand "lst" (did you mean list?)`}},
		{[]string{"q", "minr/1"}, 1, "", []string{`validatord query: unknown query path "minr/1" (did you mean miner/<uid>?)`}}, // q is query
		{[]string{"q", "tasks", "-h"}, 0, "usage: validatord query tasks", nil},
		{[]string{"q", "-h"}, 0, "usage: validatord query <path...>", nil},
		{[]string{"keys", "help"}, 0, "usage: validatord keys add|list|show", nil},
		{[]string{"query", "help"}, 0, "usage: validatord query <path...>", nil},
	}
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, append(c.args, "--home", home))
		if len(c.args) == 0 || c.args[0] == "help" || c.args[0] == "qurey" || c.args[0] == "bogus" {
			out.Reset()
			errOut.Reset()
			code = run(context.Background(), Env{Stdout: &out, Stderr: &errOut}, c.args)
		}
		ok := code == c.code && strings.HasPrefix(out.String(), c.stdout)
		for _, s := range c.stderrs {
			ok = ok && strings.Contains(errOut.String(), s)
		}
		if !ok {
			t.Errorf("validatord %s: exit %d stdout %q stderr %q, want %d, %q, %q", strings.Join(c.args, " "), code, out.String(), errOut.String(), c.code, c.stdout, c.stderrs)
		}
	}
}

// TestHelpShowsAliases: the root's help names q beside query.
func TestHelpShowsAliases(t *testing.T) {
	code, _, errOut := runCmd(t, "help")
	if code != 0 || !regexp.MustCompile(`(?m)^  query \(q\) +ask the app`).MatchString(errOut) {
		t.Fatalf("help: exit %d, no \"query (q)\" line:\n%s", code, errOut)
	}
}

func TestAliasTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("adding q, an alias of query, as a command did not panic")
		}
	}()
	root.add(&command{name: "q"})
}

func TestAddTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("adding tx twice did not panic")
		}
	}()
	root.add(&command{name: "tx"})
}

// TestQueryHelpListsPaths: `query -h` (and `query help`) ends with every
// path of the registry and its line, then the query words.
func TestQueryHelpListsPaths(t *testing.T) {
	for _, h := range []string{"-h", "help"} {
		code, out, errOut := runCmd(t, "query", h)
		if code != 0 || errOut != "" {
			t.Fatalf("query %s: exit %d, stderr %q", h, code, errOut)
		}
		_, list, ok := strings.Cut(out, "\npaths (")
		if !ok || !strings.HasPrefix(out, "usage: validatord query ") {
			t.Fatalf("query %s: no usage line or no paths:\n%s", h, out)
		}
		for _, p := range queryPaths {
			if p.About == "" {
				t.Errorf("path %s has no line for query -h", p.Path)
			}
			if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(p.Path) + ` +` + regexp.QuoteMeta(p.About) + `$`).MatchString(list) {
				t.Errorf("query %s does not list %s with %q:\n%s", h, p.Path, p.About, list)
			}
		}
		for _, c := range queryCmd.sub {
			if !strings.Contains(list, "  "+c.name+" ") {
				t.Errorf("query %s does not list the query %s", h, c.name)
			}
		}
	}
}

// TestHelpSaysDefaultsOnce: no flag's help line names its default twice
// (the flag package adds "(default …)" to what a usage text says).
func TestHelpSaysDefaultsOnce(t *testing.T) {
	for _, n := range runnable(root) {
		_, out, _ := runCmd(t, append(strings.Fields(n.path()), "-h")...)
		for _, line := range strings.Split(out, "\n") {
			if strings.Count(line, "(default ") > 1 {
				t.Errorf("validatord %s -h: %q", n.path(), strings.TrimSpace(line))
			}
		}
	}
}
