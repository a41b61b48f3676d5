package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// command is one node of the CLI's one command tree: the root (validatord),
// a command (tx), a group of kinds (tx submit) or a leaf (tx submit gas).
// A node runs its run, its children, or both: when it has both (query,
// keys), a first word naming a child goes to the child and anything else
// to run.
type command struct {
	name string
	// aliases are other words that run the node (q for query, as on Cosmos
	// chains); help and docs/cli.md's tree show them beside the name.
	aliases []string
	summary string
	// usage is the usage line after "validatord " (default: the path,
	// "<noun>" and "[flags]").
	usage string
	// about is printed under the usage line by help (optional).
	about string
	// noun is what the children are called: command, mode, message, kind,
	// subcommand.
	noun string
	// list is how help lists the children.
	list listing
	// hidden children are dispatched and documented but not listed by help
	// (tx sign and tx broadcast, which tx's about names apart from the
	// messages).
	hidden bool
	// unknownTail ends the error for an unknown child (default: the names
	// to choose from and the usage line).
	unknownTail string
	run         func(ctx context.Context, env Env, args []string) error
	sub         []*command
	parent      *command
}

// listing is how help lists a node's children.
type listing int

const (
	listNone  listing = iota // the usage line names them (snapshot list|export|restore)
	listTable                // one line each, name and summary
	listLine                 // one line, the names (kinds spelled out) separated by commas
)

// root is the whole CLI; each command file adds its node in init.
var root = &command{name: "validatord", usage: "<command> [flags]", noun: "command", list: listTable}

// add makes c a child of p and returns c. It panics on a duplicate name,
// which is a programming error caught at start-up.
func (p *command) add(c *command) *command {
	for _, n := range append([]string{c.name}, c.aliases...) {
		if p.child(n) != nil {
			panic("validatord: command registered twice: " + strings.TrimSpace(p.path()+" "+n))
		}
	}
	c.parent = p
	p.sub = append(p.sub, c)
	slices.SortFunc(p.sub, func(a, b *command) int { return strings.Compare(a.name, b.name) })
	return c
}

// child is the child named name (or one of its aliases), or nil.
func (p *command) child(name string) *command {
	for _, c := range p.sub {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c
		}
	}
	return nil
}

// find walks words down the tree from p; nil when a word names no child.
func (p *command) find(words ...string) *command {
	c := p
	for _, w := range words {
		if c = c.child(w); c == nil {
			return nil
		}
	}
	return c
}

// path is the node's words below the root: "tx submit gas".
func (p *command) path() string {
	if p.parent == nil {
		return ""
	}
	return strings.TrimSpace(p.parent.path() + " " + p.name)
}

// top is the node's command: its ancestor just below the root.
func (p *command) top() *command {
	c := p
	for c.parent != nil && c.parent.parent != nil {
		c = c.parent
	}
	return c
}

// usageLine is the node's usage after "validatord ".
func (p *command) usageLine() string {
	if p.usage != "" {
		return p.usage
	}
	if p.noun == "kind" {
		return fmt.Sprintf("%s %s --from KEY [flags]   (validatord %s <kind> -h lists its flags)",
			p.path(), strings.Join(p.names(), "|"), p.path())
	}
	return strings.TrimSpace(p.path() + " <" + p.noun + "> [flags]")
}

// names are the children's names, sorted.
func (p *command) names() []string {
	out := make([]string, len(p.sub))
	for i, c := range p.sub {
		out[i] = c.name
	}
	return out
}

// listed are the names help lists: hidden children left out, a child that
// is a group of kinds spelled out as its kinds ("submit arena").
func (p *command) listed() []*command {
	var out []*command
	for _, c := range p.sub {
		switch {
		case c.hidden:
		case c.noun == "kind":
			if c.run != nil {
				out = append(out, c) // a message that is also a group (tx truth)
			}
			out = append(out, c.sub...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// printHelp writes the help of any node: its usage line, its about, and its
// children as its listing says. A leaf's flags are its own -h (parseFlags).
func printHelp(w io.Writer, p *command) {
	fmt.Fprintf(w, "usage: validatord %s\n", p.usageLine())
	if p.about != "" {
		fmt.Fprintln(w, p.about)
	}
	switch p.list {
	case listTable:
		fmt.Fprintf(w, "%ss:\n", p.noun)
		for _, c := range p.listed() {
			fmt.Fprintf(w, "  %-10s %s\n", c.relPath(p)+c.aliasNote(), c.summary)
		}
	case listLine:
		var names []string
		for _, c := range p.listed() {
			names = append(names, c.relPath(p))
		}
		fmt.Fprintf(w, "%ss: %s\n", p.noun, strings.Join(names, ", "))
	}
}

// aliasNote is " (q)" after a name that has aliases, "" otherwise.
func (p *command) aliasNote() string {
	if len(p.aliases) == 0 {
		return ""
	}
	return " (" + strings.Join(p.aliases, ", ") + ")"
}

// relPath is the node's path below ancestor a.
func (p *command) relPath(a *command) string {
	return strings.TrimPrefix(p.path(), a.path()+" ")
}

// dispatch walks args down from p and runs the node they name. It answers
// a node without run itself: help, a missing child or an unknown one.
func dispatch(ctx context.Context, env Env, p *command, args []string) error {
	for {
		if len(args) > 0 {
			if c := p.child(args[0]); c != nil {
				p, args = c, args[1:]
				continue
			}
		}
		if p.run != nil {
			if len(args) > 0 && args[0] == "help" && len(p.sub) > 0 {
				// "keys help" is "keys -h", as "tx help" is tx's help: a
				// node with children has no child or argument named help.
				args = append([]string{"-h"}, args[1:]...)
			}
			return p.run(ctx, env, args)
		}
		if len(args) > 0 && isHelp(args[0]) {
			printHelp(env.Stdout, p)
			return nil
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return fmt.Errorf("%smissing %s; usage: validatord %s", p.errPrefix(), p.noun, p.usageLine())
		}
		return p.unknown(args[0])
	}
}

// errPrefix names a node below a command in its errors ("submit: "): main
// already names the command.
func (p *command) errPrefix() string {
	if p.parent == nil || p.parent.parent == nil {
		return ""
	}
	return p.relPath(p.top()) + ": "
}

// unknown is the error for a word that names no child of p, with the
// closest names when some are close.
func (p *command) unknown(word string) error {
	msg := fmt.Sprintf("%sunknown %s %q", p.errPrefix(), p.noun, word)
	if near := closest(word, p.names()); len(near) > 0 {
		msg += " (did you mean " + strings.Join(near, " or ") + "?)"
	}
	tail := p.unknownTail
	if tail == "" {
		tail = fmt.Sprintf(", want one of %s; usage: validatord %s", strings.Join(p.names(), ", "), p.usageLine())
	}
	return fmt.Errorf("%s%s", msg, tail)
}

// isHelp is an argument that asks for help.
func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "help" }
