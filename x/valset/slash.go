package valset

import "fmt"

// Slash is what misbehaviour evidence (a duplicate vote in FinalizeBlock's
// misbehavior) does to the validator at the consensus address addr. With
// the genesis switch off (enabled false) nothing: ok is false and the app
// only records the evidence. With it on: a Remove of the validator, which
// the app puts at the head of the queue so that Step applies it first —
// within the block's budget like any change, so a validator holding more
// than a third of the power is zeroed over several blocks, never with more
// than a third moved in one (doc.go). Refused, for the app to record and
// report: an address of no validator of set (ErrUnknownValidator: evidence
// may come after the validator left), and the last validator (ErrEmptySet:
// the set is never emptied, and the chain keeps its only signer).
func Slash(set Set, addr []byte, enabled bool) (c Change, ok bool, err error) {
	if !enabled {
		return Change{}, false, nil
	}
	i := set.IndexOfAddress(addr)
	if i < 0 {
		return Change{}, false, inputErr(ErrUnknownValidator, "address", hexOf(addr), "no validator of the set has this consensus address")
	}
	if set.Len() == 1 {
		return Change{}, false, inputErr(ErrEmptySet, "address", hexOf(addr), fmt.Sprintf("%q is the only validator: slashing it would empty the set", set.vals[i].Name))
	}
	return Remove(ByKey(set.vals[i].PubKey)), true, nil
}
