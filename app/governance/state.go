package governance

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"slices"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/valset"
)

// The chain's rules by height (docs/governance.md): the validator registry
// and sets by height (store.KeyValset) and the params by height
// (store.KeyParams). Both are written at InitChain and changed only by
// approved proposals and by the end of block's governance step.

func LoadValset(st store.State) *subnetv1.Valset {
	v := &subnetv1.Valset{}
	st.Load(store.KeyValset, v)
	return v
}

func LoadParams(st store.State) *subnetv1.ParamsHistory {
	p := &subnetv1.ParamsHistory{}
	st.Load(store.KeyParams, p)
	return p
}

// inForce is the entry in force at h of entries ascending by their first
// height: the last whose from ≤ h (the zero value, nil, if none).
func inForce[E interface{ GetFrom() int64 }](entries []E, h int64) E {
	var out E
	for _, e := range entries {
		if e.GetFrom() <= h {
			out = e
		}
	}
	return out
}

// SetAt is the set entry in force at h.
func SetAt(history []*subnetv1.SetEntry, h int64) *subnetv1.SetEntry { return inForce(history, h) }

// ParamsAt is the params entry in force at h.
func ParamsAt(entries []*subnetv1.ParamsEntry, h int64) *subnetv1.ParamsEntry {
	return inForce(entries, h)
}

// Activating returns the params an upgrade brings into force at h + 1,
// if one does (an entry from h + 1 > the initial height is an upgrade's,
// whatever its proposal id, 0 included).
func Activating(st store.State, h int64) (genesis.AppState, bool) {
	e := ParamsAt(LoadParams(st).Entries, h+1)
	if e == nil || e.From != h+1 {
		return genesis.AppState{}, false
	}
	params, err := genesis.DecodeParams(e.AppState)
	if err != nil {
		panic(fmt.Sprintf("app: stored params from height %d: %v", e.From, err))
	}
	return params, true
}

// Init writes the genesis registry, set and params.
func Init(st store.State, gen genesis.AppState, initialHeight int64) error {
	reg, members, err := kernel.GenesisValidators(gen)
	if err != nil {
		return err
	}
	st.Save(store.KeyValset, &subnetv1.Valset{Registry: reg, History: []*subnetv1.SetEntry{{From: initialHeight, Members: members}}})
	bz, err := gen.Params().Encode()
	if err != nil {
		return err
	}
	st.Save(store.KeyParams, &subnetv1.ParamsHistory{Entries: []*subnetv1.ParamsEntry{{From: initialHeight, AppState: bz}}})
	return nil
}

// ChainCache keeps the last chain built: consecutive blocks share one
// until the set or the params in force change. Its zero value is empty. It
// is not safe for concurrent use: block execution and the commit that
// refreshes the shell's chain share it under one lock.
type ChainCache struct {
	key   [sha256.Size]byte
	chain *kernel.Chain
}

// At is the chain in force at height h in st.
func (c *ChainCache) At(st store.State, chainID string, h int64) (*kernel.Chain, error) {
	vs, ph := LoadValset(st), LoadParams(st)
	se, pe := SetAt(vs.History, h), ParamsAt(ph.Entries, h)
	if se == nil || pe == nil {
		return nil, fmt.Errorf("app: no validator set or params in force at height %d", h)
	}
	hh := sha256.New()
	setBytes, err := proto.Marshal(se)
	if err != nil {
		return nil, err
	}
	hh.Write([]byte(chainID))
	hh.Write(binary.BigEndian.AppendUint64(nil, uint64(len(vs.Registry))))
	hh.Write(binary.BigEndian.AppendUint64(nil, uint64(pe.From)))
	hh.Write(binary.BigEndian.AppendUint64(nil, pe.ProposalId))
	for _, r := range vs.Registry {
		hh.Write(binary.BigEndian.AppendUint64(nil, uint64(len(r.ReportKeys))))
	}
	hh.Write(setBytes)
	var key [sha256.Size]byte
	copy(key[:], hh.Sum(nil))
	if c.chain != nil && c.key == key {
		return c.chain, nil
	}
	chain, err := buildChain(chainID, vs, se, pe)
	if err != nil {
		return nil, err
	}
	c.key, c.chain = key, chain
	return chain, nil
}

// LoadChain is ChainCache.At without the cache, for readers outside block
// execution (queries at a height run concurrently with it).
func LoadChain(st store.State, chainID string, h int64) (*kernel.Chain, error) {
	vs, ph := LoadValset(st), LoadParams(st)
	se, pe := SetAt(vs.History, h), ParamsAt(ph.Entries, h)
	if se == nil || pe == nil {
		return nil, fmt.Errorf("app: no validator set or params in force at height %d", h)
	}
	return buildChain(chainID, vs, se, pe)
}

func buildChain(chainID string, vs *subnetv1.Valset, se *subnetv1.SetEntry, pe *subnetv1.ParamsEntry) (*kernel.Chain, error) {
	params, err := genesis.DecodeParams(pe.AppState)
	if err != nil {
		return nil, fmt.Errorf("app: stored params from height %d: %w", pe.From, err)
	}
	return kernel.NewChainAt(chainID, params, vs.Registry, se.Members)
}

// toSet is a set entry as an x/valset Set.
func toSet(reg []*subnetv1.ValidatorInfo, e *subnetv1.SetEntry) valset.Set {
	vals := make([]valset.Validator, len(e.Members))
	for i, m := range e.Members {
		r := reg[m.Index]
		vals[i] = valset.Validator{Name: r.Name, PubKey: r.PubKey, Power: m.Power, ReportKey: m.ReportKey}
	}
	s, err := valset.NewSet(vals)
	if err != nil {
		panic("app: a stored validator set is invalid: " + err.Error())
	}
	return s
}

// fromSet is a Set as a set entry from height from, registering its new
// validators (appended to reg) and new report keys.
func fromSet(vs *subnetv1.Valset, s valset.Set, from int64) *subnetv1.SetEntry {
	e := &subnetv1.SetEntry{From: from}
	for _, v := range s.Validators() {
		i := slices.IndexFunc(vs.Registry, func(r *subnetv1.ValidatorInfo) bool { return bytes.Equal(r.PubKey, v.PubKey) })
		if i < 0 {
			i = len(vs.Registry)
			vs.Registry = append(vs.Registry, &subnetv1.ValidatorInfo{Index: uint32(i), Name: v.Name, PubKey: v.PubKey})
		}
		r := vs.Registry[i]
		r.Name = v.Name
		if !slices.ContainsFunc(r.ReportKeys, func(k []byte) bool { return bytes.Equal(k, v.ReportKey) }) {
			r.ReportKeys = append(r.ReportKeys, v.ReportKey)
		}
		e.Members = append(e.Members, &subnetv1.SetMember{Index: uint32(i), Power: v.Power, ReportKey: v.ReportKey})
	}
	slices.SortFunc(e.Members, func(a, b *subnetv1.SetMember) int { return int(a.Index) - int(b.Index) })
	return e
}

// latestSet is the set the next updates apply to: the last history entry.
func latestSet(vs *subnetv1.Valset) valset.Set {
	return toSet(vs.Registry, vs.History[len(vs.History)-1])
}

// minerKeys answers valset's question "is this key a miner's?" from state.
type minerKeys struct{ st store.State }

func (m minerKeys) IsMiner(key []byte) bool { return m.st.Account(key).Miner }

// updatesOf turns x/valset updates into CometBFT's.
func updatesOf(us []valset.Update) []abcitypes.ValidatorUpdate {
	out := make([]abcitypes.ValidatorUpdate, len(us))
	for i, u := range us {
		out[i] = abcitypes.UpdateValidator(u.PubKey, u.Power, "ed25519")
	}
	return out
}
