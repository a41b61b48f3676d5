package genesis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Change is one field that differs between two JSON documents: its path
// ("app_state.window.cap", "validators[1].power") and its value in each, as
// compact JSON text without the quotes of a string ("(absent)" when the
// field is missing on that side).
type Change struct {
	Path string
	Old  string
	New  string
}

func (c Change) String() string { return fmt.Sprintf("%s: %s → %s", c.Path, c.Old, c.New) }

// Absent is the value a Change shows for a field one side lacks.
const Absent = "(absent)"

// Diff lists the fields whose values differ between the JSON documents old
// and new, walking into objects and arrays; paths are sorted, so the list
// is the same for the same documents. Numbers are compared as written.
func Diff(old, new []byte) ([]Change, error) {
	a, err := decodeAny(old)
	if err != nil {
		return nil, fmt.Errorf("genesis diff: old: %w", err)
	}
	b, err := decodeAny(new)
	if err != nil {
		return nil, fmt.Errorf("genesis diff: new: %w", err)
	}
	var out []Change
	diffValue("", a, b, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

func decodeAny(bz []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func diffValue(path string, a, b any, out *[]Change) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			diffObject(path, av, bv, out)
			return
		}
	case []any:
		if bv, ok := b.([]any); ok && len(av) == len(bv) {
			for i := range av {
				diffValue(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], out)
			}
			return
		}
	}
	if sa, sb := showValue(a), showValue(b); sa != sb {
		*out = append(*out, Change{Path: path, Old: sa, New: sb})
	}
}

func diffObject(path string, a, b map[string]any, out *[]Change) {
	keys := make([]string, 0, len(a)+len(b))
	// det: sorted
	for k := range a {
		keys = append(keys, k)
	}
	// det: sorted
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := k
		if path != "" {
			p = path + "." + k
		}
		av, inA := a[k]
		bv, inB := b[k]
		switch {
		case !inA:
			*out = append(*out, Change{Path: p, Old: Absent, New: showValue(bv)})
		case !inB:
			*out = append(*out, Change{Path: p, Old: showValue(av), New: Absent})
		default:
			diffValue(p, av, bv, out)
		}
	}
}

// showValue is v as a person reads it: a string without its quotes, other
// values as compact JSON.
func showValue(v any) string {
	if s, ok := v.(string); ok {
		if s == "" {
			return `""`
		}
		return s
	}
	bz, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(bz)
}

// ChangedError is a genesis.json that is not the genesis its chain was
// initialised with: the fields that changed, or when the one it was
// initialised with is not at hand to compare, the two hashes.
type ChangedError struct {
	// File is the genesis.json read.
	File string
	// Changes are the fields that differ (stored → file); empty when only
	// the hashes are known.
	Changes []Change
	// StoredHash and FileHash are hex; set when the hashes were compared.
	StoredHash, FileHash string
}

// MaxChangesShown bounds the changes one ChangedError message lists.
const MaxChangesShown = 20

func (e *ChangedError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "genesis %s changed since this chain was initialised with it", e.File)
	if len(e.Changes) > 0 {
		b.WriteString(": ")
		for i, c := range e.Changes {
			if i == MaxChangesShown {
				fmt.Fprintf(&b, "; … and %d more", len(e.Changes)-i)
				break
			}
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(c.String())
		}
	}
	if e.StoredHash != "" {
		fmt.Fprintf(&b, " (genesis hash stored %s, file %s)", e.StoredHash, e.FileHash)
	}
	b.WriteString("; a chain keeps the genesis it began with: put the original genesis.json back," +
		" or change params through governance (docs/governance.md), or start a new chain with a fresh home")
	return b.String()
}
