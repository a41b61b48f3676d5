package commit

import (
	"bytes"
	"slices"
)

// Claim is one revealed submission of a task as the duplicate rule sees it:
// the artifact hash it revealed, the height of its commit and its uid.
type Claim struct {
	Artifact     [32]byte
	CommitHeight int64
	UID          uint32
}

// Precedes reports whether a's commit comes first: a lower commit height,
// then a lower uid. (One commit per uid and task makes it a total order
// over a task's claims.)
func Precedes(a, b Claim) bool {
	if a.CommitHeight != b.CommitHeight {
		return a.CommitHeight < b.CommitHeight
	}
	return a.UID < b.UID
}

// Verdict is the duplicate rule's answer for one claim: Duplicate when
// another claim of the same artifact precedes it, and the keeper of the
// artifact (the claim itself when it is not a duplicate). The receipt
// records all three.
type Verdict struct {
	Duplicate    bool
	KeeperUID    uint32
	KeeperHeight int64
}

// Resolve applies the duplicate rule to every revealed claim of one task
// and returns a verdict per claim, in the order given: of the claims with
// one artifact hash, the one that Precedes all others keeps it, the others
// are duplicates. The answer does not depend on the order of claims (nor so
// on the order of reveals). Two claims with one uid are an *InputError: a
// task takes one commit per uid.
func Resolve(claims []Claim) ([]Verdict, error) {
	if err := uniqueUIDs(claims); err != nil {
		return nil, err
	}
	order := make([]int, len(claims))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return compare(claims[i], claims[j]) })
	out := make([]Verdict, len(claims))
	for k, i := range order {
		c := claims[i]
		keeper := c
		if k > 0 {
			if prev := claims[order[k-1]]; prev.Artifact == c.Artifact {
				keeper = Claim{UID: out[order[k-1]].KeeperUID, CommitHeight: out[order[k-1]].KeeperHeight}
			}
		}
		out[i] = Verdict{Duplicate: keeper.UID != c.UID, KeeperUID: keeper.UID, KeeperHeight: keeper.CommitHeight}
	}
	return out, nil
}

// compare orders by artifact, then by Precedes, so that the claims of one
// artifact are adjacent and its keeper comes first.
func compare(a, b Claim) int {
	if c := bytes.Compare(a.Artifact[:], b.Artifact[:]); c != 0 {
		return c
	}
	switch {
	case Precedes(a, b):
		return -1
	case Precedes(b, a):
		return 1
	}
	return 0
}

func uniqueUIDs(claims []Claim) error {
	uids := make([]uint32, len(claims))
	for i, c := range claims {
		uids[i] = c.UID
	}
	slices.Sort(uids)
	for k := 1; k < len(uids); k++ {
		if uids[k] == uids[k-1] {
			return &InputError{Field: "claims.uid", Value: uids[k], Rule: "one commit per uid and task"}
		}
	}
	return nil
}
