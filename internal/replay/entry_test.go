package replay

import (
	"bytes"
	"fmt"
	"testing"
)

func es(kv ...string) []Entry {
	var out []Entry
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Entry{Key: []byte(kv[i]), Value: []byte(kv[i+1])})
	}
	return out
}

func fmtChanges(cs []Change) string {
	var b bytes.Buffer
	for _, c := range cs {
		old, nw := "-", "-"
		if c.Old != nil {
			old = string(c.Old)
		}
		if c.New != nil {
			nw = string(c.New)
		}
		fmt.Fprintf(&b, "%s:%s>%s ", c.Key, old, nw)
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after []Entry
		want          string
	}{
		{"both empty", nil, nil, ""},
		{"all added", nil, es("a", "1", "b", "2"), "a:->1 b:->2 "},
		{"all deleted", es("a", "1"), nil, "a:1>- "},
		{"unchanged", es("a", "1", "b", "2"), es("a", "1", "b", "2"), ""},
		{"modified", es("a", "1"), es("a", "2"), "a:1>2 "},
		{"empty value is not absent", es("a", ""), es("a", "x"), "a:>x "},
		{"interleaved", es("a", "1", "c", "3", "e", "5"), es("b", "2", "c", "4", "e", "5", "f", "6"), "a:1>- b:->2 c:3>4 f:->6 "},
		{"prefix keys are distinct", es("a", "1"), es("a", "1", "aa", "2"), "aa:->2 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmtChanges(Diff(tc.before, tc.after)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// applyChanges is the naive inverse of Diff: it rebuilds after from before and the changes.
func applyChanges(before []Entry, cs []Change) []Entry {
	m := map[string][]byte{}
	for _, e := range before {
		m[string(e.Key)] = e.Value
	}
	for _, c := range cs {
		if c.New == nil {
			delete(m, string(c.Key))
		} else {
			m[string(c.Key)] = c.New
		}
	}
	var out []Entry
	for k, v := range m {
		out = append(out, Entry{Key: []byte(k), Value: v})
	}
	SortEntries(out)
	return out
}

// entriesFrom turns bytes into a sorted entry list with unique keys: each byte pair is a key
// (one of 8) and a value.
func entriesFrom(bz []byte) []Entry {
	m := map[byte]byte{}
	for i := 0; i+1 < len(bz); i += 2 {
		m[bz[i]%8] = bz[i+1]
	}
	var out []Entry
	for k, v := range m {
		out = append(out, Entry{Key: []byte{'k', k}, Value: []byte{v}})
	}
	SortEntries(out)
	return out
}

func FuzzDiff(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte{1, 1, 2, 2}, []byte{2, 3, 4, 4})
	f.Add([]byte{0, 0, 7, 7}, []byte{})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		before, after := entriesFrom(a), entriesFrom(b)
		cs := Diff(before, after)
		got := applyChanges(before, cs)
		if len(got) != len(after) {
			t.Fatalf("rebuilt %d entries, want %d", len(got), len(after))
		}
		for i := range got {
			if !bytes.Equal(got[i].Key, after[i].Key) || !bytes.Equal(got[i].Value, after[i].Value) {
				t.Fatalf("entry %d: %x=%x, want %x=%x", i, got[i].Key, got[i].Value, after[i].Key, after[i].Value)
			}
		}
		for i := 1; i < len(cs); i++ {
			if bytes.Compare(cs[i-1].Key, cs[i].Key) >= 0 {
				t.Fatalf("changes not sorted at %d", i)
			}
		}
	})
}
