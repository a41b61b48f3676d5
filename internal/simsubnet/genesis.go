package simsubnet

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// ChainID is the simulated chain's id.
const ChainID = "simsubnet"

// GenesisTime is the time of height 0 (unix seconds); height h is
// GenesisTime + h × BlockSeconds.
const GenesisTime = 1_700_000_000

// PowerScale is the power of the heaviest validator.
const PowerScale = 1_000_000

// Powers is the stake distribution: Zipf with exponent 1, validator i
// holding PowerScale / (i + 1) (rounded down). At V = 64 the heaviest holds
// 21.1% of the power and the 13 heaviest are the first to pass 2/3.
func Powers(v int) []int64 {
	p := make([]int64, v)
	for i := range p {
		p[i] = PowerScale / int64(i+1)
	}
	return p
}

// Adversary is the heaviest validator below 1/3 of the total power: the
// one that reports skewed measurements.
func Adversary(powers []int64) int {
	var total int64
	for _, p := range powers {
		total += p
	}
	for i, p := range powers {
		if 3*p < total {
			return i
		}
	}
	return len(powers) - 1
}

// validatorKeys are validator i's consensus and report keys.
func validatorKeys(seed string, i int) (cons, report ed25519.PrivateKey) {
	return setup.Key(fmt.Sprintf("%s/validator/%d/consensus", seed, i)), setup.Key(fmt.Sprintf("%s/validator/%d/report", seed, i))
}

// minerKey is miner i's key.
func minerKey(seed string, i int) ed25519.PrivateKey {
	return setup.Key(fmt.Sprintf("%s/miner/%d", seed, i))
}

// Genesis is the app state of the simulated chain: the default genesis with
// the config's validators (Powers), uids for every miner, all three tracks,
// one EVM chain, short task windows (the constants above), the config's
// epoch and retention, and registration at difficulty 1.
//
// Registration: pow mode at difficulty 1, every miner in the first block.
// The default difficulty (2^28, about 40 CPU-s a uid) prices a uid for a
// newcomer; it is work a miner does off the chain, and the chain checks a
// seal at the same cost whatever the difficulty. So the registrations are
// real RegisterMiner transactions, checked and executed as on a live chain,
// without 256 × 40 CPU-s of hashing before the first block.
func Genesis(c Config) genesis.AppState {
	g := genesis.DefaultGenesis()
	for i, p := range Powers(c.Validators) {
		cons, rep := validatorKeys(c.Seed, i)
		pub := cons.Public().(ed25519.PublicKey)
		g.Validators = append(g.Validators, genesis.Validator{
			Name: fmt.Sprintf("val%02d", i), Address: hex.EncodeToString(genesis.ConsensusAddress(pub)),
			PubKey: base64.StdEncoding.EncodeToString(pub), Power: p,
			ReportKey: hex.EncodeToString(rep.Public().(ed25519.PublicKey)),
		})
	}
	g.Chain.MaxUIDs = c.Miners
	g.Chain.GasChains = []uint64{EVMChain}
	g.Chain.MaxSubmissionBlocks, g.Chain.MaxReportBlocks = SubmissionBlocks, ReportBlocks
	g.Chain.TruthReportBlocks = TruthReportBlocks
	g.Chain.MaxPredictionAhead = MaxPredictionAhead
	g.Chain.RetainStateBlocks = c.RetainStateBlocks
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = RevealBlocks
		// a track's cutoff may not be shorter than the epoch (the gas
		// default, 100 blocks, is shorter than FullConfig's 120)
		g.Tracks[i].ActivityCutoffBlocks = max(g.Tracks[i].ActivityCutoffBlocks, c.EpochBlocks)
	}
	g.Window.EpochBlocks = c.EpochBlocks
	// difficulty 1 (see above), every uid registrable in one block, and no
	// min_non_immune: no uid is ever replaced in the sim
	m := &g.Membership
	m.InitialDifficulty, m.MinDifficulty, m.MaxDifficulty = 1, 1, 1
	m.MaxRegistrationsPerBlock, m.MinNonImmune = uint32(c.Miners), 0
	return g
}
