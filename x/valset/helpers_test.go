package valset

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// key derives a deterministic 32-byte key from a label: "c:v1" for v1's
// consensus key, "r:v1" for its report key.
func key(label string) []byte {
	h := sha256.Sum256([]byte(label))
	return h[:]
}

// val is a validator named name whose keys derive from its name.
func val(name string, power int64) Validator {
	return Validator{Name: name, PubKey: key("c:" + name), Power: power, ReportKey: key("r:" + name)}
}

// mkSet builds a set from "name:power" items.
func mkSet(t testing.TB, items ...string) Set {
	t.Helper()
	var vals []Validator
	for _, it := range items {
		name, p, ok := strings.Cut(it, ":")
		power, err := strconv.ParseInt(p, 10, 64)
		if !ok || err != nil {
			t.Fatalf("bad set item %q", it)
		}
		vals = append(vals, val(name, power))
	}
	s, err := NewSet(vals)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// minerSet is a Miners holding the given keys.
type minerSet [][]byte

func (m minerSet) IsMiner(k []byte) bool {
	for _, x := range m {
		if bytes.Equal(x, k) {
			return true
		}
	}
	return false
}

// wantErr fails unless err wraps want (nil: no error).
func wantErr(t *testing.T, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != nil && !errors.Is(err, want):
		t.Fatalf("error = %v, want %v", err, want)
	case want != nil:
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error %v is not an *InputError", err)
		}
	}
}

// byName lists a set as "name:power ..." sorted by name (the canonical
// order is by key, which the hashes of test keys make opaque).
func byName(s Set) string {
	var items []string
	for _, v := range s.Validators() {
		items = append(items, fmt.Sprintf("%s:%d", v.Name, v.Power))
	}
	slices.Sort(items)
	return strings.Join(items, " ")
}

// naiveCheck is Set's invariants recomputed from the outside, with no
// shortcut: the properties compare against it.
func naiveCheck(s Set) error {
	vals := s.Validators()
	if len(vals) == 0 {
		return fmt.Errorf("empty")
	}
	var total int64
	for i, v := range vals {
		if len(v.PubKey) != KeySize || len(v.ReportKey) != KeySize || v.Power < 1 || strings.TrimSpace(v.Name) == "" {
			return fmt.Errorf("validator %d malformed", i)
		}
		for j := 0; j < i; j++ {
			w := vals[j]
			if w.Name == v.Name || bytes.Equal(w.PubKey, v.PubKey) || bytes.Equal(w.ReportKey, v.ReportKey) {
				return fmt.Errorf("validators %d and %d share a name or key", j, i)
			}
		}
		if i > 0 && bytes.Compare(vals[i-1].PubKey, v.PubKey) >= 0 {
			return fmt.Errorf("not in canonical order at %d", i)
		}
		total += v.Power
		if total > MaxTotalVotingPower || total < 0 {
			return fmt.Errorf("total above the limit")
		}
	}
	if total != s.TotalPower() {
		return fmt.Errorf("total %d, TotalPower %d", total, s.TotalPower())
	}
	return nil
}
