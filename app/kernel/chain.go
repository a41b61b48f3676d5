package kernel

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/receipt"
)

// Chain is the chain's rules in force at one height, decoded once: the
// params in force, the validators in force with their powers and report
// keys, and lookups. Validators are named by their registry index, which
// never changes (a removed validator keeps its index and has power 0).
// The app builds one Chain per (params, validator set) pair and shares it
// read-only.
type Chain struct {
	ID string
	// Gen is the params in force; Gen.Validators is the set in force, by
	// registry index.
	Gen        genesis.AppState
	reportKeys map[string]int // report key in force → registry index
	everKeys   map[string]int // every report key any validator ever had → registry index
	names      []string       // by registry index
	addresses  [][]byte       // consensus addresses, by registry index
	pubKeys    [][]byte       // consensus keys, by registry index
	power      []int64        // power in force, by registry index (0: not in the set)
	keys       [][]byte       // report key in force, by registry index
	members    []int          // registry indexes of the set in force, ascending
	Total      int64          // total voting power in force
	// Quorum is how votes settle: > 2/3 early, > chain.deadline_quorum at
	// a deadline.
	Quorum quorum.Rule
}

// NewChain is the chain of a genesis: its validators become registry
// indexes 0, 1, … in genesis order.
func NewChain(chainID string, gen genesis.AppState) (*Chain, error) {
	reg, members, err := GenesisValidators(gen)
	if err != nil {
		return nil, err
	}
	return NewChainAt(chainID, gen.Params(), reg, members)
}

// GenesisValidators is the registry and set of a genesis.
func GenesisValidators(gen genesis.AppState) ([]*subnetv1.ValidatorInfo, []*subnetv1.SetMember, error) {
	reg := make([]*subnetv1.ValidatorInfo, len(gen.Validators))
	members := make([]*subnetv1.SetMember, len(gen.Validators))
	for i, v := range gen.Validators {
		rk, err := v.ReportKeyBytes()
		if err != nil {
			return nil, nil, err
		}
		pk, err := v.ConsensusPubKey()
		if err != nil {
			return nil, nil, err
		}
		reg[i] = &subnetv1.ValidatorInfo{Index: uint32(i), Name: v.Name, PubKey: pk, ReportKeys: [][]byte{rk}}
		members[i] = &subnetv1.SetMember{Index: uint32(i), Power: v.Power, ReportKey: rk}
	}
	return reg, members, nil
}

// NewChainAt builds the chain of params (without validators), the
// registry of every validator and the set in force.
func NewChainAt(chainID string, params genesis.AppState, registry []*subnetv1.ValidatorInfo, members []*subnetv1.SetMember) (*Chain, error) {
	rule, err := quorum.NewRule(params.Chain.DeadlineQuorum)
	if err != nil {
		return nil, fmt.Errorf("app: chain.deadline_quorum: %w", err)
	}
	c := &Chain{ID: chainID, Gen: params, reportKeys: make(map[string]int, len(members)),
		everKeys: make(map[string]int, len(registry)), Quorum: rule,
		names: make([]string, len(registry)), addresses: make([][]byte, len(registry)),
		pubKeys: make([][]byte, len(registry)), power: make([]int64, len(registry)), keys: make([][]byte, len(registry))}
	for i, v := range registry {
		if int(v.Index) != i {
			return nil, fmt.Errorf("app: validator registry entry %d has index %d", i, v.Index)
		}
		c.names[i], c.pubKeys[i], c.addresses[i] = v.Name, v.PubKey, genesis.ConsensusAddress(v.PubKey)
		for _, k := range v.ReportKeys {
			c.everKeys[string(k)] = i
		}
	}
	c.Gen.Validators = make([]genesis.Validator, 0, len(members))
	for _, m := range members {
		i := int(m.Index)
		if i >= len(registry) || m.Power <= 0 {
			return nil, fmt.Errorf("app: set member %d (power %d) is not a registered validator", m.Index, m.Power)
		}
		c.power[i], c.keys[i] = m.Power, m.ReportKey
		c.reportKeys[string(m.ReportKey)] = i
		c.members = append(c.members, i)
		c.Total += m.Power
	}
	slices.Sort(c.members)
	for _, i := range c.members {
		c.Gen.Validators = append(c.Gen.Validators, genesis.Validator{Name: c.names[i],
			Address: hex.EncodeToString(c.addresses[i]), PubKey: base64.StdEncoding.EncodeToString(c.pubKeys[i]),
			Power: c.power[i], ReportKey: hex.EncodeToString(c.keys[i])})
	}
	if c.Total <= 0 {
		return nil, fmt.Errorf("app: the validator set in force has no voting power")
	}
	return c, nil
}

// ValidatorIndex returns the validator in force whose report key is pub, or -1.
func (c *Chain) ValidatorIndex(pub []byte) int {
	if i, ok := c.reportKeys[string(pub)]; ok {
		return i
	}
	return -1
}

// FormerValidatorIndex returns the validator that ever had report key pub
// (in force or not, the key current or rotated out), or -1.
func (c *Chain) FormerValidatorIndex(pub []byte) int {
	if i, ok := c.everKeys[string(pub)]; ok {
		return i
	}
	return -1
}

// Validators is the number of validators the chain ever had (the registry).
func (c *Chain) Validators() int { return len(c.names) }

// Members are the registry indexes of the set in force, ascending.
func (c *Chain) Members() []int { return slices.Clone(c.members) }

// ValidatorName is the name of validator i.
func (c *Chain) ValidatorName(i int) string { return c.names[i] }

// Power is the voting power in force of validator i: 0 for one that is not
// in the set (removed, or not yet in force).
func (c *Chain) Power(i int) int64 {
	if i < 0 || i >= len(c.power) {
		return 0
	}
	return c.power[i]
}

// Address is the consensus address of validator i.
func (c *Chain) Address(i int) []byte { return c.addresses[i] }

// PubKey is the consensus key of validator i.
func (c *Chain) PubKey(i int) []byte { return c.pubKeys[i] }

// Registry lists every validator the chain ever had, by registry index,
// with its power in force (0 when out of the set): what receipts name
// votes by.
func (c *Chain) Registry() []receipt.Validator {
	out := make([]receipt.Validator, len(c.names))
	for i := range c.names {
		out[i] = receipt.Validator{Name: c.names[i], Power: c.power[i]}
	}
	return out
}

// Counted keeps the votes of validators with power in force, in order: a
// vote by a validator that has left the set counts nothing.
func (c *Chain) Counted(votes []*subnetv1.Vote) []*subnetv1.Vote {
	out := votes[:0:0]
	for _, v := range votes {
		if c.Power(int(v.Validator)) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// IndexOfAddress returns the validator whose consensus address is addr, or -1.
func (c *Chain) IndexOfAddress(addr []byte) int {
	for i, a := range c.addresses {
		if string(a) == string(addr) {
			return i
		}
	}
	return -1
}

// HasGasChain reports whether id is one of chain.gas_chains.
func (c *Chain) HasGasChain(id uint64) bool {
	for _, g := range c.Gen.Chain.GasChains {
		if g == id {
			return true
		}
	}
	return false
}

// HasCategory reports whether name is an arena category ("" is the default).
func (c *Chain) HasCategory(name string) bool {
	if name == "" {
		return true
	}
	for _, cat := range c.Gen.Arena.Categories {
		if cat.Name == name {
			return true
		}
	}
	return false
}

// HasDifficulty reports whether name is an arena difficulty ("" is the default).
func (c *Chain) HasDifficulty(name string) bool {
	if name == "" {
		return true
	}
	for _, d := range c.Gen.Arena.Difficulties {
		if d.Name == name {
			return true
		}
	}
	return false
}

// UIDAt is the uid of the n-th registered miner (the burn uid is skipped).
func (c *Chain) UIDAt(n uint32) uint32 { return uidAt(n, c.Gen.Window.BurnUID) }
