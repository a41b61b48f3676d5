package mirror

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/scoringsubnet/validatord/x/quorum"
)

// Vote is one validator's attestation: the digest of the snapshot it read
// from the parent chain at ParentBlock.
type Vote struct {
	Validator   []byte
	Power       int64
	ParentBlock uint64
	Digest      [32]byte
}

// Outcome is the result of Aggregate.
type Outcome struct {
	// Final: one digest at one parent block holds strictly more than 2/3
	// of the total power. ParentBlock and Digest name it, Power is its
	// power. When several parent blocks are final, the highest wins (the
	// newest metagraph).
	Final bool
	// When not final, ParentBlock, Digest and Power name the leading
	// (parent block, digest): most power, then the higher parent block,
	// then the lower digest; all zero when there are no votes.
	ParentBlock uint64
	Digest      [32]byte
	Power       int64
	TotalPower  int64
}

// Aggregate counts attestations. Votes are grouped by (parent block,
// digest); a group is final when its power is strictly more than 2/3 of
// totalPower, by x/quorum's exact integer rule (quorum.Rule.Status, never
// at a deadline: a metagraph is never settled by less than 2/3).
//
// Ties are impossible by construction: a validator votes at most once per
// parent block (a second vote at the same block is refused), so the groups
// of one parent block hold disjoint power summing to at most totalPower,
// and two of them cannot both exceed 2/3 of it. Between parent blocks the
// higher is taken, and there is one.
//
// The result does not depend on the order of votes. Errors (ErrInvalidInput
// in an *InputError): totalPower ≤ 0, an empty validator, a non-positive
// power, a validator voting twice at one parent block, the power voting at
// one parent block above totalPower.
func Aggregate(votes []Vote, totalPower int64) (Outcome, error) {
	if totalPower <= 0 {
		return Outcome{}, &InputError{Field: "total_power", Value: totalPower, Rule: "must be positive"}
	}
	sorted, err := sortVotes(votes)
	if err != nil {
		return Outcome{}, err
	}
	groups, err := tally(sorted, totalPower)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{TotalPower: totalPower}
	rule := quorum.DefaultRule()
	for _, g := range groups {
		if rule.Status(g.Power, totalPower, false) == quorum.StatusFinal {
			if !out.Final || g.ParentBlock > out.ParentBlock {
				out.Final, out.ParentBlock, out.Digest, out.Power = true, g.ParentBlock, g.Digest, g.Power
			}
			continue
		}
		if !out.Final && leads(g, out) {
			out.ParentBlock, out.Digest, out.Power = g.ParentBlock, g.Digest, g.Power
		}
	}
	return out, nil
}

// leads reports whether group g goes before the current leader of a
// pending outcome: more power, then a higher parent block, then a lower
// digest.
func leads(g, cur Outcome) bool {
	switch {
	case cur.Power == 0:
		return true
	case g.Power != cur.Power:
		return g.Power > cur.Power
	case g.ParentBlock != cur.ParentBlock:
		return g.ParentBlock > cur.ParentBlock
	}
	return bytes.Compare(g.Digest[:], cur.Digest[:]) < 0
}

// sortVotes copies the votes, orders them by parent block, then validator,
// and checks each one.
func sortVotes(votes []Vote) ([]Vote, error) {
	sorted := append([]Vote(nil), votes...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].ParentBlock != sorted[j].ParentBlock {
			return sorted[i].ParentBlock < sorted[j].ParentBlock
		}
		return bytes.Compare(sorted[i].Validator, sorted[j].Validator) < 0
	})
	for i, v := range sorted {
		addr := hex.EncodeToString(v.Validator)
		switch {
		case len(v.Validator) == 0:
			return nil, &InputError{Field: "validator", Value: `""`, Rule: "address must not be empty"}
		case v.Power <= 0:
			return nil, &InputError{Field: "power", Value: v.Power, Rule: "must be positive (validator " + addr + ")"}
		case i > 0 && sorted[i-1].ParentBlock == v.ParentBlock && bytes.Equal(sorted[i-1].Validator, v.Validator):
			return nil, &InputError{Field: "validator", Value: addr, Rule: fmt.Sprintf("attested parent block %d twice", v.ParentBlock)}
		}
	}
	return sorted, nil
}

// tally sums the power of each (parent block, digest) over votes sorted by
// parent block, checking that no parent block gathers more than
// totalPower. Groups come out ordered by parent block, then digest.
func tally(sorted []Vote, totalPower int64) ([]Outcome, error) {
	var groups []Outcome
	for start := 0; start < len(sorted); {
		end, blockPower := start, int64(0)
		for ; end < len(sorted) && sorted[end].ParentBlock == sorted[start].ParentBlock; end++ {
			if sorted[end].Power > totalPower-blockPower {
				return nil, &InputError{Field: "power", Value: sorted[start].ParentBlock, Rule: fmt.Sprintf("the power attesting this parent block exceeds total power %d", totalPower)}
			}
			blockPower += sorted[end].Power
		}
		groups = append(groups, byDigest(sorted[start:end])...)
		start = end
	}
	return groups, nil
}

// byDigest sums the votes of one parent block by digest, in digest order.
func byDigest(block []Vote) []Outcome {
	vs := append([]Vote(nil), block...)
	sort.SliceStable(vs, func(i, j int) bool { return bytes.Compare(vs[i].Digest[:], vs[j].Digest[:]) < 0 })
	var groups []Outcome
	for i, v := range vs {
		if i == 0 || v.Digest != vs[i-1].Digest {
			groups = append(groups, Outcome{ParentBlock: v.ParentBlock, Digest: v.Digest})
		}
		groups[len(groups)-1].Power += v.Power
	}
	return groups
}

// CheckAttestation is the validity of an attestation's parent block, for
// CheckTx and FinalizeBlock alike: a multiple of AttestationBlocks, and
// after lastFinal, the parent block of the last final snapshot (genesis'
// mirror.start_block before the first). Errors: *InputError for a block
// off the cadence, ErrStaleAttestation for one at or before lastFinal.
func CheckAttestation(parentBlock, lastFinal uint64, p Params) error {
	if p.AttestationBlocks == 0 {
		return &InputError{Field: "attestation_blocks", Value: 0, Rule: "must be positive (validate the params)"}
	}
	if parentBlock%p.AttestationBlocks != 0 {
		return &InputError{Field: "parent_block", Value: parentBlock, Rule: fmt.Sprintf("must be a multiple of attestation_blocks (%d)", p.AttestationBlocks)}
	}
	if parentBlock <= lastFinal {
		return fmt.Errorf("%w: %d ≤ %d", ErrStaleAttestation, parentBlock, lastFinal)
	}
	return nil
}
