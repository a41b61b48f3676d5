package valset

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// The properties below run the package over random sets and random change
// lists — valid and not, with colliding names and keys and powers up to the
// total limit — and check it against naive recomputations. The sequences
// are seeded, so a failure is reproducible.

// pool is small so that names and keys collide often.
var pool = []string{"a", "b", "c", "d", "e", "f", "g", "h"}

func randPower(r *rand.Rand) int64 {
	switch r.IntN(6) {
	case 0:
		return 1 + r.Int64N(MaxTotalVotingPower/4)
	case 1:
		return MaxTotalVotingPower / int64(2+r.IntN(3))
	case 2:
		return 1 + r.Int64N(3)
	}
	return 1 + r.Int64N(100)
}

func randValidator(r *rand.Rand) Validator {
	return Validator{
		Name:      pool[r.IntN(len(pool))],
		PubKey:    key("c:" + pool[r.IntN(len(pool))]),
		Power:     randPower(r),
		ReportKey: key("r:" + pool[r.IntN(len(pool))]),
	}
}

// randSet draws validators until NewSet takes them.
func randSet(r *rand.Rand) Set {
	for {
		n := 1 + r.IntN(6)
		vals := make([]Validator, n)
		for i := range vals {
			vals[i] = randValidator(r)
		}
		if s, err := NewSet(vals); err == nil {
			return s
		}
	}
}

func randRef(r *rand.Rand, s Set) Ref {
	switch r.IntN(5) {
	case 0:
		return ByName(pool[r.IntN(len(pool))]) // maybe unknown
	case 1:
		return ByKey(key("c:" + pool[r.IntN(len(pool))]))
	}
	v := s.Validator(r.IntN(s.Len()))
	if r.IntN(2) == 0 {
		return ByName(v.Name)
	}
	return ByKey(v.PubKey)
}

func randChange(r *rand.Rand, s Set) Change {
	switch r.IntN(9) {
	case 0, 1, 2:
		return AddValidator(randValidator(r))
	case 3, 4:
		return SetPower(randRef(r, s), randPower(r))
	case 5, 6:
		return Remove(randRef(r, s))
	case 7:
		return RotateReportKey(randRef(r, s), key("r:"+pool[r.IntN(len(pool))]))
	}
	return Change{Kind: Kind(r.IntN(6)), Power: r.Int64N(3)} // mostly malformed
}

func randChanges(r *rand.Rand, s Set, n int) []Change {
	out := make([]Change, n)
	for i := range out {
		out[i] = randChange(r, s)
	}
	return out
}

// snapshot deep-copies changes, so that a later change to them shows.
func snapshot(cs []Change) string {
	var b bytes.Buffer
	for _, c := range cs {
		fmt.Fprintf(&b, "%d|%s|%x|%d|%x|%s|%x|%d|%x;", c.Kind, c.Validator.Name, c.Validator.PubKey, c.Validator.Power,
			c.Validator.ReportKey, c.Target.Name, c.Target.PubKey, c.Power, c.ReportKey)
	}
	return b.String()
}

// naivePowers maps each consensus key to its power.
func naivePowers(s Set) map[string]int64 {
	m := map[string]int64{}
	for _, v := range s.Validators() {
		m[string(v.PubKey)] = v.Power
	}
	return m
}

// naiveMoved is Σ|Δpower| over every key of either set, with big integers.
func naiveMoved(a, b Set) *big.Int {
	pa, pb := naivePowers(a), naivePowers(b)
	keys := map[string]bool{}
	for k := range pa { // a set of keys: the order does not matter
		keys[k] = true
	}
	for k := range pb {
		keys[k] = true
	}
	sum := new(big.Int)
	for k := range keys { // a sum: the order does not matter
		d := new(big.Int).Sub(big.NewInt(pb[k]), big.NewInt(pa[k]))
		sum.Add(sum, d.Abs(d))
	}
	return sum
}

// checkUpdates: applying ups to a's powers naively gives b's powers; no
// key twice; ascending.
func checkUpdates(a, b Set, ups []Update) error {
	p := naivePowers(a)
	for i, u := range ups {
		if i > 0 && bytes.Compare(ups[i-1].PubKey, u.PubKey) >= 0 {
			return fmt.Errorf("updates not strictly ascending at %d", i)
		}
		if u.Power == 0 {
			if _, ok := p[string(u.PubKey)]; !ok {
				return fmt.Errorf("removal of a key not in the set")
			}
			delete(p, string(u.PubKey))
			continue
		}
		p[string(u.PubKey)] = u.Power
	}
	want := naivePowers(b)
	if len(p) != len(want) {
		return fmt.Errorf("updates give %d validators, want %d", len(p), len(want))
	}
	for k, v := range want {
		if p[k] != v {
			return fmt.Errorf("updates give power %d, want %d", p[k], v)
		}
	}
	return nil
}

func TestPropertyApply(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for round := 0; round < 20000; round++ {
		set := randSet(r)
		changes := randChanges(r, set, r.IntN(5))
		before, cs := set.Validators(), snapshot(changes)
		got, ups, err := Apply(set, changes, nil)
		if again, _ := NewSet(before); !again.Equal(set) || snapshot(changes) != cs {
			t.Fatalf("round %d: Apply changed its input", round)
		}
		if err != nil {
			if Name(err) == "" {
				t.Fatalf("round %d: an error of no sentinel: %v", round, err)
			}
			if got.Len() != 0 || ups != nil {
				t.Fatalf("round %d: a refused Apply returned values", round)
			}
			continue
		}
		accepted++
		if err := naiveCheck(got); err != nil {
			t.Fatalf("round %d: %s → %s: %v", round, set, got, err)
		}
		if err := checkUpdates(set, got, ups); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		// Every prefix of an accepted list is accepted: Step may stop after any.
		for k := 0; k < len(changes); k++ {
			if _, _, err := Apply(set, changes[:k], nil); err != nil {
				t.Fatalf("round %d: prefix %d refused: %v", round, k, err)
			}
		}
	}
	t.Logf("%d of 20000 change lists accepted", accepted)
	if accepted < 2000 {
		t.Fatalf("only %d of 20000 change lists accepted: the generator is too hostile", accepted)
	}
}

// maxBlocks bounds the blocks a queue takes to drain: a change moves the
// total from T to at most 2^60 or down to at least 3, by a factor of at
// least 4/3 up or 2/3 down a block: log(2^60/3)/log(4/3) < 141 blocks up,
// log(2^60/3)/log(3/2) < 100 down, and one block where it starts.
func maxBlocks(queue []Change) int { return 142 * len(queue) }

// TestPropertyStep drains random queues (valid and not) block by block:
// after every block the set holds every invariant, the block moved at most
// floor(T/3) (naively, over the two sets), its updates take the old set to
// the new one, Step left its inputs alone; and the drained set is Project's.
func TestPropertyStep(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	splits := 0
	for round := 0; round < 3000; round++ {
		set := randSet(r)
		if set.TotalPower() < MinTotalPower {
			continue
		}
		queue := randChanges(r, set, 1+r.IntN(6))
		want := Project(set, queue, nil)
		cur, pending := set, queue
		for block := 0; len(pending) > 0; block++ {
			if block > maxBlocks(queue) {
				t.Fatalf("round %d: queue not drained in %d blocks: %v", round, maxBlocks(queue), pending)
			}
			before, ps := cur.Validators(), snapshot(pending)
			res := Step(cur, pending, nil)
			if again, _ := NewSet(before); !again.Equal(cur) || snapshot(pending) != ps {
				t.Fatalf("round %d: Step changed its input", round)
			}
			if err := naiveCheck(res.Set); err != nil {
				t.Fatalf("round %d block %d: %v", round, block, err)
			}
			limit := big.NewInt(cur.TotalPower() / 3)
			if m := naiveMoved(cur, res.Set); m.Cmp(limit) > 0 || m.Cmp(big.NewInt(res.Moved)) > 0 || res.Moved > res.Budget {
				t.Fatalf("round %d block %d: moved %s (reported %d) of %s → %s, limit %s", round, block, m, res.Moved, cur, res.Set, limit)
			}
			if err := checkUpdates(cur, res.Set, res.Updates); err != nil {
				t.Fatalf("round %d block %d: %v", round, block, err)
			}
			for _, o := range res.Outcomes {
				if o.Status == Partial {
					splits++
				}
				if (o.Status == Dropped) != (o.Err != nil) {
					t.Fatalf("round %d: outcome %v with error %v", round, o.Status, o.Err)
				}
			}
			if len(res.Remaining) >= len(pending) && len(res.Outcomes) == 0 && res.Moved == 0 && res.Set.Equal(cur) {
				t.Fatalf("round %d: no progress with T = %d", round, cur.TotalPower())
			}
			cur, pending = res.Set, res.Remaining
		}
		if !cur.Equal(want) {
			t.Fatalf("round %d: drained to %s, Project says %s", round, cur, want)
		}
	}
	t.Logf("%d splits", splits)
	if splits < 500 {
		t.Fatalf("only %d splits: the generator rarely passes the budget", splits)
	}
}

// naiveApproved: 3 × approved > 2 × total, in big integers.
func naiveApproved(approvers []bool, vals []Validator) bool {
	a, total := new(big.Int), new(big.Int)
	for i, v := range vals {
		total.Add(total, big.NewInt(v.Power))
		if approvers[i] {
			a.Add(a, big.NewInt(v.Power))
		}
	}
	return a.Mul(a, big.NewInt(3)).Cmp(total.Mul(total, big.NewInt(2))) > 0
}

func TestPropertyApprovedMatchesBigInt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 20000; round++ {
		set := randSet(r)
		vals := set.Validators()
		p := setProposal(Remove(ByName(vals[0].Name)))
		approvers := make([]bool, len(vals))
		for _, i := range r.Perm(len(vals)) {
			if r.IntN(3) == 0 {
				continue
			}
			var err error
			if p, err = Approve(p, vals[i].PubKey, set, 60); err != nil {
				t.Fatal(err)
			}
			approvers[i] = true
		}
		if r.IntN(4) == 0 { // an approver that left: counts nothing
			p.Approvals = append(p.Approvals, key("gone"))
		}
		if got, want := Approved(p, set), naiveApproved(approvers, vals); got != want {
			t.Fatalf("round %d: %s approvers %v: Approved %v, naive %v", round, set, approvers, got, want)
		}
	}
	// Every boundary of a small total: a share of exactly 2/3 never passes.
	for total := int64(3); total <= 60; total++ {
		for approved := int64(1); approved < total; approved++ {
			set := mkSet(t, fmt.Sprintf("a:%d", approved), fmt.Sprintf("b:%d", total-approved))
			p, _ := Approve(setProposal(Remove(ByName("b"))), key("c:a"), set, 60)
			if got, want := Approved(p, set), 3*approved > 2*total; got != want {
				t.Fatalf("%d of %d: %v", approved, total, got)
			}
		}
	}
}

func TestPropertyValidateImpliesStepReachesTheProposal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	params := Params{MaxProposalBlocks: 100, MinUpgradeDelayBlocks: 10, MaxChanges: 6, MaxValidators: 6}
	valid := 0
	for round := 0; round < 15000; round++ {
		set := randSet(r)
		p := setProposal(randChanges(r, set, 1+r.IntN(6))...)
		if Validate(p, set, 60, params, nil) != nil {
			continue
		}
		valid++
		want, _, err := Apply(set, p.Changes, nil)
		if err != nil || want.Len() > params.MaxValidators {
			t.Fatalf("round %d: Validate took what Apply refuses: %v", round, err)
		}
		cur, pending := set, slices.Clone(p.Changes)
		for block := 0; len(pending) > 0; block++ {
			if block > maxBlocks(p.Changes) {
				t.Fatalf("round %d: not drained: %s, pending %v, from %s %v", round, cur, pending, set, p.Changes)
			}
			res := Step(cur, pending, nil)
			for _, o := range res.Outcomes {
				if o.Status == Dropped {
					t.Fatalf("round %d: a validated change was dropped: %v", round, o.Err)
				}
			}
			cur, pending = res.Set, res.Remaining
		}
		if !cur.Equal(want) {
			t.Fatalf("round %d: Step reached %s, Apply %s", round, cur, want)
		}
	}
	t.Logf("%d of 15000 proposals valid", valid)
	if valid < 1000 {
		t.Fatalf("only %d valid proposals: the generator is too hostile", valid)
	}
}
