package valset

import (
	"errors"
	"math"
	"testing"
)

// reader hands out fuzz bytes; past the end it gives zeros.
type reader struct{ b []byte }

func (r *reader) next() int {
	if len(r.b) == 0 {
		return 0
	}
	x := int(r.b[0])
	r.b = r.b[1:]
	return x
}

// fuzzPowers reach every bound: 0 and negatives (malformed), the total
// limit and past it.
var fuzzPowers = []int64{1, 2, 3, 5, 10, 100, 0, -1, MaxTotalVotingPower / 4, MaxTotalVotingPower / 2, MaxTotalVotingPower, MaxTotalVotingPower + 1, math.MaxInt64, 7, 33, 34}

// fuzzHeights are offsets with every boundary of testParams.
var fuzzHeights = []int64{0, 1, -1, 9, 10, 11, 99, 100, 101, math.MaxInt64, math.MinInt64, 50}

func (r *reader) power() int64  { return fuzzPowers[r.next()%len(fuzzPowers)] }
func (r *reader) offset() int64 { return fuzzHeights[r.next()%len(fuzzHeights)] }
func (r *reader) label() string { return pool[r.next()%len(pool)] }

func (r *reader) keyBytes(prefix string) []byte {
	switch r.next() % 8 {
	case 0:
		return nil
	case 1:
		return key(prefix + r.label())[:r.next()%KeySize] // short
	}
	return key(prefix + r.label())
}

func (r *reader) validator() Validator {
	names := []string{"", " ", "\xff", "a", "b", "c", "d", "e"}
	return Validator{Name: names[r.next()%len(names)], PubKey: r.keyBytes("c:"), Power: r.power(), ReportKey: r.keyBytes("r:")}
}

func (r *reader) ref() Ref {
	switch r.next() % 5 {
	case 0:
		return Ref{}
	case 1:
		return Ref{Name: r.label(), PubKey: key("c:" + r.label())}
	case 2, 3:
		return ByName(r.label())
	}
	return ByKey(r.keyBytes("c:"))
}

func (r *reader) change() Change {
	c := Change{Kind: Kind(r.next() % 6)} // 0 and 5 are unknown kinds
	switch c.Kind {
	case KindAdd:
		c.Validator = r.validator()
	case KindSetPower:
		c.Target, c.Power = r.ref(), r.power()
	case KindRemove:
		c.Target = r.ref()
	case KindRotateReportKey:
		c.Target, c.ReportKey = r.ref(), r.keyBytes("r:")
	}
	if r.next()%16 == 0 { // a field the kind does not use
		c.Power, c.ReportKey = 1, key("stray")
	}
	return c
}

// decode builds a set, a proposal and a height from fuzz bytes.
func decode(data []byte) (vals []Validator, p Proposal, height int64) {
	r := &reader{data}
	for n := 1 + r.next()%5; n > 0; n-- {
		vals = append(vals, r.validator())
	}
	p.ProposedHeight = 1 + int64(r.next())
	p.ExpiresHeight = p.ProposedHeight + r.offset()
	height = p.ProposedHeight + r.offset()
	form := r.next() % 4
	if form == 1 || form == 2 {
		payload := []byte(nil)
		if r.next()%4 != 0 {
			payload = []byte{1}
		}
		p.Params = &ParamsChange{Payload: payload, ActivationHeight: p.ExpiresHeight + r.offset()}
	}
	if form == 0 || form == 2 {
		for n := 1 + r.next()%6; n > 0; n-- {
			p.Changes = append(p.Changes, r.change())
		}
	}
	return vals, p, height
}

// FuzzValidate drives the proposal rules with decoded sets and proposals:
// nothing panics; every refusal is an *InputError of one sentinel; an
// accepted set proposal applies, leaves a valid set within max_validators,
// and Step reaches that set without dropping a change or moving more than a
// third of the power in a block; an accepted params proposal activates at
// least the delay after its expiry. The seed corpus is in
// testdata/fuzz/FuzzValidate.
func FuzzValidate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 5, 2, 0, 0, 4, 3, 2, 2, 3, 1, 1, 3, 4, 4, 2, 10, 11, 0, 1, 3, 2, 5, 6, 6, 3, 2, 1, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		vals, p, height := decode(data)
		set, err := NewSet(vals)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		params, miners := testParams(), minerSet{key("r:h")}
		err = Validate(p, set, height, params, miners)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		if p.Params != nil {
			if p.Params.ActivationHeight-p.ExpiresHeight < params.MinUpgradeDelayBlocks || height > p.ExpiresHeight {
				t.Fatalf("accepted params proposal %+v at %d", *p.Params, height)
			}
			return
		}
		want, _, err := Apply(set, p.Changes, miners)
		if err != nil || naiveCheck(want) != nil || want.Len() > params.MaxValidators {
			t.Fatalf("accepted %v, then Apply: %v", p.Changes, err)
		}
		cur, pending := set, p.Changes
		for block := 0; len(pending) > 0; block++ {
			if block > maxBlocks(p.Changes) {
				t.Fatalf("not drained: %v", pending)
			}
			res := Step(cur, pending, miners)
			if naiveMoved(cur, res.Set).Int64() > cur.TotalPower()/3 || naiveCheck(res.Set) != nil {
				t.Fatalf("block %d: %s → %s", block, cur, res.Set)
			}
			for _, o := range res.Outcomes {
				if o.Status == Dropped {
					t.Fatalf("a validated change was dropped: %v", o.Err)
				}
			}
			cur, pending = res.Set, res.Remaining
		}
		if !cur.Equal(want) {
			t.Fatalf("Step reached %s, Apply %s", cur, want)
		}
	})
}

func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) || Name(err) == "" {
		t.Fatalf("refusal %v is not an *InputError of a sentinel", err)
	}
	n := 0
	for _, s := range Errors {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("refusal %v wraps %d sentinels", err, n)
	}
}
