package track

import (
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/x/quorum"
)

// Chain is what the chain fixed at genesis, decoded once: params,
// validators and lookups. It never changes after InitChain.
type Chain struct {
	ID         string
	Gen        genesis.AppState
	reportKeys map[string]int // report key bytes → validator index
	addresses  [][]byte       // consensus addresses, by validator index
	Total      int64          // total voting power
	// Quorum is how votes settle: > 2/3 early, > chain.deadline_quorum at
	// a deadline.
	Quorum quorum.Rule
}

// NewChain decodes the validators' keys of gen.
func NewChain(chainID string, gen genesis.AppState) (*Chain, error) {
	rule, err := quorum.NewRule(gen.Chain.DeadlineQuorum)
	if err != nil {
		return nil, fmt.Errorf("app: genesis chain.deadline_quorum: %w", err)
	}
	c := &Chain{ID: chainID, Gen: gen, reportKeys: make(map[string]int), Quorum: rule}
	for i, v := range gen.Validators {
		rk, err := v.ReportKeyBytes()
		if err != nil {
			return nil, err
		}
		pk, err := v.ConsensusPubKey()
		if err != nil {
			return nil, err
		}
		c.reportKeys[string(rk)] = i
		c.addresses = append(c.addresses, genesis.ConsensusAddress(pk))
		c.Total += v.Power
	}
	if c.Total <= 0 {
		return nil, fmt.Errorf("app: genesis has no voting power")
	}
	return c, nil
}

// ValidatorIndex returns the validator whose report key is pub, or -1.
func (c *Chain) ValidatorIndex(pub []byte) int {
	if i, ok := c.reportKeys[string(pub)]; ok {
		return i
	}
	return -1
}

// ValidatorName is the genesis name of validator i.
func (c *Chain) ValidatorName(i int) string { return c.Gen.Validators[i].Name }

// Power is the voting power of validator i.
func (c *Chain) Power(i int) int64 { return c.Gen.Validators[i].Power }

// Address is the consensus address of validator i.
func (c *Chain) Address(i int) []byte { return c.addresses[i] }

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
