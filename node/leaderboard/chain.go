package leaderboard

import (
	"fmt"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/appquery"
)

// ChainFacts are the landing page's chain section: the counts the state
// keeps (the "counts" query) and the health of each EVM chain's gas oracle.
type ChainFacts struct {
	Counts  *wire.CountsView `json:"counts"`
	Oracles []Oracle         `json:"oracles"`
}

// Oracle is how far the chain has closed one EVM chain of the gas track:
// the validators' truth oracles drive it, so a close that falls behind the
// chain's clock is an oracle that stalls (or an EVM chain gone quiet).
type Oracle struct {
	EvmChainID uint64 `json:"evm_chain_id"`
	// LastClosedBlock, LastTimestamp: the first EVM block of the last closed
	// window and that window's EVM timestamp (unix seconds); null before the
	// first close.
	LastClosedBlock *uint64 `json:"last_closed_block"`
	LastTimestamp   *int64  `json:"last_timestamp"`
	// BehindSeconds is the last block's time less LastTimestamp, when both
	// are known.
	BehindSeconds *int64 `json:"behind_seconds"`
	Paused        bool   `json:"paused"`
}

// State says in a word where the oracle stands.
func (o Oracle) State() string {
	switch {
	case o.Paused:
		return "paused by governance"
	case o.LastClosedBlock == nil:
		return "no window closed yet"
	}
	return "closing windows"
}

// EVMTime is LastTimestamp for people ("" when unknown).
func (o Oracle) EVMTime() string {
	if o.LastTimestamp == nil {
		return ""
	}
	return time.Unix(*o.LastTimestamp, 0).UTC().Format(time.RFC3339)
}

// Behind is BehindSeconds for people ("" when unknown).
func (o Oracle) Behind() string {
	if o.BehindSeconds == nil {
		return ""
	}
	return (time.Duration(*o.BehindSeconds) * time.Second).String()
}

// chainFacts reads the counts and one gaschain answer per EVM chain of the
// params (genesis bounds their number), measuring each close against the
// status line's block time.
func (r reader) chainFacts(st Status, p *params) (ChainFacts, error) {
	c, err := appquery.Get[wire.CountsView](r.ctx, r.q, "counts")
	if err != nil {
		return ChainFacts{}, err
	}
	out := ChainFacts{Counts: c, Oracles: []Oracle{}}
	var blockTime time.Time
	if st.BlockTime != "" {
		blockTime, _ = time.Parse(time.RFC3339, st.BlockTime)
	}
	for _, id := range p.Chain.GasChains {
		g, err := appquery.Get[wire.GasChainView](r.ctx, r.q, fmt.Sprintf("gaschain/%d", id))
		if err != nil {
			return ChainFacts{}, err
		}
		o := Oracle{EvmChainID: id, LastClosedBlock: g.LastClosedBlock, LastTimestamp: g.LastTimestamp, Paused: g.Paused}
		if g.LastTimestamp != nil && !blockTime.IsZero() {
			behind := blockTime.Unix() - *g.LastTimestamp
			o.BehindSeconds = &behind
		}
		out.Oracles = append(out.Oracles, o)
	}
	return out, nil
}
