package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
)

// chainConfig is what the chain fixed at genesis, decoded once: params,
// validators and lookups. It never changes after InitChain.
type chainConfig struct {
	chainID    string
	gen        genesis.AppState
	reportKeys map[string]int // report key bytes → validator index
	addresses  [][]byte       // consensus addresses, by validator index
	total      int64
}

func newChainConfig(chainID string, gen genesis.AppState) (*chainConfig, error) {
	c := &chainConfig{chainID: chainID, gen: gen, reportKeys: make(map[string]int)}
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
		c.total += v.Power
	}
	if c.total <= 0 {
		return nil, fmt.Errorf("app: genesis has no voting power")
	}
	return c, nil
}

// validatorIndex returns the validator whose report key is pub, or -1.
func (c *chainConfig) validatorIndex(pub []byte) int {
	if i, ok := c.reportKeys[string(pub)]; ok {
		return i
	}
	return -1
}

func (c *chainConfig) hasGasChain(id uint64) bool {
	for _, g := range c.gen.Chain.GasChains {
		if g == id {
			return true
		}
	}
	return false
}

func (c *chainConfig) hasCategory(name string) bool {
	if name == "" {
		return true
	}
	for _, cat := range c.gen.Arena.Categories {
		if cat.Name == name {
			return true
		}
	}
	return false
}

func (c *chainConfig) hasDifficulty(name string) bool {
	if name == "" {
		return true
	}
	for _, d := range c.gen.Arena.Difficulties {
		if d.Name == name {
			return true
		}
	}
	return false
}
