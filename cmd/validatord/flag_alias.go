package main

import (
	"flag"
	"slices"
	"strings"
)

// flagAliases are the old names of flags that name one thing the same way
// on every command. A flag set that has the canonical flag accepts the alias
// too; help lists the canonical flag only, with "(alias: --old)" in its text.
var flagAliases = []struct {
	Canonical, Alias string
}{
	{"task", "task-id"},           // tx submit workflow|arena said --task-id; tx reveal and query submissions --task
	{"evm-chain-id", "evm-chain"}, // tx reveal said --evm-chain; tx submit gas, tx truth and oracle gas --evm-chain-id
}

// canonicalFlag is the canonical name of a flag name (itself when it is
// no alias).
func canonicalFlag(name string) string {
	for _, a := range flagAliases {
		if a.Alias == name {
			return a.Canonical
		}
	}
	return name
}

// aliasValue is an alias flag's value: setting it sets the canonical flag,
// so that the canonical one counts as given (flag.FlagSet.Visit,
// requireSet) whichever name was typed.
type aliasValue struct {
	fs        *flag.FlagSet
	canonical *flag.Flag
}

func (a aliasValue) String() string {
	if a.canonical == nil {
		return ""
	}
	return a.canonical.Value.String()
}

func (a aliasValue) Set(s string) error { return a.fs.Set(a.canonical.Name, s) }

// IsBoolFlag lets an alias of a boolean flag stand without a value.
func (a aliasValue) IsBoolFlag() bool {
	b, ok := a.canonical.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// aliasMark starts the usage text of an alias flag, which printUsage hides.
const aliasMark = "alias of --"

// addAliases registers the aliases of the canonical flags fs has.
func addAliases(fs *flag.FlagSet) {
	for _, a := range flagAliases {
		c := fs.Lookup(a.Canonical)
		if c == nil || fs.Lookup(a.Alias) != nil {
			continue
		}
		fs.Var(aliasValue{fs: fs, canonical: c}, a.Alias, aliasMark+a.Canonical)
		c.Usage += " (alias: --" + a.Alias + ")"
	}
}

// withoutAliases is a copy of fs for help: the same flags and defaults,
// aliases left out.
func withoutAliases(fs *flag.FlagSet) *flag.FlagSet {
	shown := newFlags(fs.Name())
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, aliasMark) {
			return
		}
		shown.Var(f.Value, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	return shown
}

// withSuggestion adds the closest flag names to an unknown flag's error:
// "flag provided but not defined: --taks; did you mean --task?".
func withSuggestion(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	_, name, ok := strings.Cut(msg, "flag provided but not defined: ")
	if !ok {
		return err
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	var near []string
	for _, n := range closest(strings.TrimLeft(name, "-"), names) {
		// an alias close to the typo suggests its canonical flag
		if c, ok := strings.CutPrefix(fs.Lookup(n).Usage, aliasMark); ok {
			n = c
		}
		n = dashes(n)
		if !slices.Contains(near, n) {
			near = append(near, n)
		}
	}
	if len(near) == 0 {
		return err
	}
	return &unknownFlagError{msg: msg + "; did you mean " + strings.Join(near, " or ") + "?", err: err}
}

// dashes is a flag's name as typed: --name, or -o for one letter.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownFlagError is package flag's error with the closest names added.
type unknownFlagError struct {
	msg string
	err error
}

func (e *unknownFlagError) Error() string { return e.msg }
func (e *unknownFlagError) Unwrap() error { return e.err }
