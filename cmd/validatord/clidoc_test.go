package main

import (
	"bytes"
	"context"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// cliCommand is a command line (a node of the command tree that runs) with
// the long flags its -h lists and the aliases it names ("(alias: --x)").
type cliCommand struct {
	Name    string
	Flags   []string
	Aliases []string
}

var (
	usageFlag = regexp.MustCompile(`(?m)^  --?([a-z0-9][a-z0-9-]*)`)
	aliasFlag = regexp.MustCompile(`\(alias: --([a-z0-9-]+)\)`)
)

// cliCommands asks every node of the command tree that runs for its flags,
// through -h, as a person would: nothing runs, no node is needed.
func cliCommands(t *testing.T) []cliCommand {
	t.Helper()
	var out []cliCommand
	for _, n := range runnable(root) {
		l := strings.Fields(n.path())
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}, append(l, "-h"))
		if code != 0 {
			t.Fatalf("validatord %s -h: exit %d: %s", strings.Join(l, " "), code, stderr.String())
		}
		c := cliCommand{Name: strings.Join(l, " ")}
		for _, m := range usageFlag.FindAllStringSubmatch(stdout.String(), -1) {
			c.Flags = append(c.Flags, m[1])
		}
		for _, m := range aliasFlag.FindAllStringSubmatch(stdout.String(), -1) {
			c.Aliases = append(c.Aliases, m[1])
		}
		out = append(out, c)
	}
	return out
}

// runnable are the nodes below p that run, in the tree's order.
func runnable(p *command) []*command {
	var out []*command
	for _, c := range p.sub {
		if c.run != nil {
			out = append(out, c)
		}
		out = append(out, runnable(c)...)
	}
	return out
}

// accepts are the flags a command line takes: its own and their aliases.
func (c cliCommand) accepts() []string { return append(append([]string{}, c.Flags...), c.Aliases...) }

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// cliDocSections names the "## " sections of docs/cli.md that document a
// command line (the first that matches, by prefix); a command not listed
// has the section of its own name.
var cliDocSections = []struct {
	prefix   string
	sections []string
}{
	{"tx propose", []string{"Governance", "tx"}},
	{"tx approve", []string{"Governance", "tx"}},
	{"tx", []string{"tx"}},
	{"oracle gas", []string{"oracle gas"}},
	{"score receipt", []string{"score receipt", "score (offline scorer)"}},
	{"score", []string{"score (offline scorer)"}},
	{"replay", []string{"replay and export"}},
	{"export", []string{"replay and export"}},
}

func docSectionsOf(command string) []string {
	for _, s := range cliDocSections {
		if command == s.prefix || strings.HasPrefix(command, s.prefix+" ") {
			return s.sections
		}
	}
	return []string{strings.Fields(command)[0]}
}

// notOurFlags are flags docs/cli.md names of other programs (btcli's weights
// commands).
var notOurFlags = map[string]bool{"uids": true, "weights": true, "help": true,
	// Cosmos flags docs/cli.md names as intentionally absent (no fees, no gas).
	"fees": true, "gas": true, "gas-prices": true, "gas-adjustment": true, "sign-mode": true, "broadcast-mode": true}

// cliDoc splits docs/cli.md into its preamble ("") and "## " sections.
func cliDoc(md string) map[string]string {
	secs := map[string]string{}
	cur := ""
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## ") {
			cur = strings.TrimPrefix(line, "## ")
			continue
		}
		secs[cur] += line + "\n"
	}
	return secs
}

var docFlag = regexp.MustCompile(`--[a-z](?:[a-z0-9{},-]*[a-z0-9}])?`)

// docFlags are the long flags a text names, brace groups expanded
// (--baseline-{min,max}-cost is --baseline-min-cost and --baseline-max-cost).
func docFlags(text string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range docFlag.FindAllString(text, -1) {
		for _, f := range expandBraces(strings.TrimPrefix(tok, "--")) {
			out[f] = true
		}
	}
	return out
}

func expandBraces(s string) []string {
	i := strings.Index(s, "{")
	j := strings.Index(s, "}")
	if i < 0 || j < i {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, expandBraces(s[:i]+alt+s[j+1:])...)
	}
	return out
}

// TestCLIDoc: docs/cli.md documents every command, subcommand and message of
// the CLI with every flag its -h lists, in the command's section (or the
// common flags of the preamble); and every flag it names is one the CLI has:
// a flag after a command's name on the same line (`init --force`,
// `validatord tx approve --proposal 1`) one of that command's, any other one
// of its section's commands. Every gap is listed at once.
func TestCLIDoc(t *testing.T) {
	if gaps := cliDocGaps(readDoc(t, "docs/cli.md"), cliCommands(t)); len(gaps) > 0 {
		t.Fatalf("docs/cli.md and the CLI disagree (%d):\n%s", len(gaps), strings.Join(gaps, "\n"))
	}
}

// cliDocGaps lists where md and cmds disagree.
func cliDocGaps(md string, cmds []cliCommand) []string {
	secs := cliDoc(md)
	var gaps []string
	allowed := map[string]map[string]bool{} // section heading -> the flags of its commands
	for _, c := range cmds {
		var texts []string
		for _, prefix := range docSectionsOf(c.Name) {
			h, ok := findSection(secs, prefix)
			if !ok {
				gaps = append(gaps, "no section \"## "+prefix+"\" for `"+c.Name+"`")
				continue
			}
			texts = append(texts, secs[h])
			if allowed[h] == nil {
				allowed[h] = map[string]bool{}
			}
			for _, f := range c.accepts() {
				allowed[h][f] = true
			}
		}
		all := secs[""] + strings.Join(texts, "")
		named := docFlags(all)
		for _, f := range c.Flags {
			if len(f) == 1 && regexp.MustCompile(`(^|[^-a-z0-9])-`+f+`\b`).MatchString(all) {
				continue // a one-letter shorthand, written -o
			}
			if !named[f] {
				gaps = append(gaps, "`"+c.Name+"` --"+f+": not in docs/cli.md's section "+strings.Join(docSectionsOf(c.Name), " or "))
			}
		}
		if words := strings.Fields(c.Name); len(words) > 1 && !strings.Contains(strings.Join(texts, ""), strings.Join(words[1:], " ")) {
			gaps = append(gaps, "`"+c.Name+"`: not named in its section")
		}
	}
	for _, h := range sortedKeys(secs) {
		for _, line := range strings.Split(secs[h], "\n") {
			for _, loc := range docFlag.FindAllStringIndex(line, -1) {
				for _, f := range expandBraces(line[loc[0]+2 : loc[1]]) {
					if gap := flagGap(h, line[:loc[0]], f, cmds, allowed); gap != "" {
						gaps = append(gaps, gap)
					}
				}
			}
		}
	}
	return gaps
}

// flagGap judges flag f named in section h after the text before: a flag
// after a command's name must be that command's; else one of the section's
// commands' (or, in a section of no command, of any command).
func flagGap(h, before, f string, cmds []cliCommand, allowed map[string]map[string]bool) string {
	if notOurFlags[f] {
		return ""
	}
	if cmd, flags := commandBefore(before, cmds); cmd != "" {
		if !flags[f] {
			return "section \"" + h + "\": `" + cmd + "` --" + f + ": the CLI has no such flag"
		}
		return ""
	}
	if strings.Contains(before, "# ") && anyHas(cmds, f) {
		return "" // a comment may speak of any command
	}
	if a, ok := allowed[h]; ok && !a[f] {
		return "section \"" + h + "\" names --" + f + ", which none of its commands has"
	} else if !ok && !anyHas(cmds, f) {
		return "section \"" + h + "\" names --" + f + ", which no command has"
	}
	return ""
}

// findSection is the heading that starts with prefix.
func findSection(secs map[string]string, prefix string) (string, bool) {
	for _, h := range sortedKeys(secs) {
		if h == prefix || strings.HasPrefix(h, prefix+" ") {
			return h, true
		}
	}
	return "", false
}

// commandBefore finds the command a flag at the end of text belongs to: the
// last invocation on the line, `validatord NAME` or a code span opening with
// NAME (the longest name that ends there), whose span is still open and
// which no " # " comment follows; "" when there is none. The flags are those
// of every command line the name begins.
func commandBefore(text string, cmds []cliCommand) (string, map[string]bool) {
	best, end := "", -1
	for _, c := range cmds {
		words := strings.Fields(c.Name)
		for n := 1; n <= len(words); n++ {
			name := strings.Join(words[:n], " ")
			if e := invocationEnd(text, name); e > end || (e == end && e >= 0 && len(name) > len(best)) {
				best, end = name, e
			}
		}
	}
	if end < 0 || strings.Contains(text[end:], "# ") {
		return "", nil
	}
	flags := map[string]bool{}
	for _, c := range cmds {
		if c.Name == best || strings.HasPrefix(c.Name, best+" ") {
			for _, f := range c.accepts() {
				flags[f] = true
			}
		}
	}
	return best, flags
}

// invocationEnd is where the last invocation of name in text ends
// ("validatord NAME " or "`NAME " with its code span still open); -1 if none.
func invocationEnd(text, name string) int {
	for i := strings.LastIndex(text, name+" "); i >= 0; i = strings.LastIndex(text[:i], name+" ") {
		end := i + len(name)
		switch {
		case strings.HasSuffix(text[:i], "validatord "):
			return end
		case strings.HasSuffix(text[:i], "`") && !strings.Contains(text[end:], "`"):
			return end
		}
	}
	return -1
}

func anyHas(cmds []cliCommand, f string) bool {
	for _, c := range cmds {
		for _, g := range c.accepts() {
			if g == f {
				return true
			}
		}
	}
	return false
}

// TestCLIDocCatchesGaps: the checks see a flag missing from a command's
// section, a flag no command of a section has, and a flag after a command's
// name that this command lacks.
func TestCLIDocCatchesGaps(t *testing.T) {
	cmds := []cliCommand{{Name: "wait", Flags: []string{"height", "timeout"}}, {Name: "init", Flags: []string{"force"}}}
	md := "intro\n## init\n`--force`\n## wait\n`wait --height H`, `--bogus`; `init --poll`\n"
	want := []string{
		"`wait` --timeout: not in docs/cli.md's section wait",
		"section \"wait\" names --bogus, which none of its commands has",
		"section \"wait\": `init` --poll: the CLI has no such flag",
	}
	if got := cliDocGaps(md, cmds); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("gaps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := expandBraces("baseline-{min,max}-{a,b}"); strings.Join(got, " ") != "baseline-min-a baseline-min-b baseline-max-a baseline-max-b" {
		t.Fatalf("expandBraces: %v", got)
	}
}
