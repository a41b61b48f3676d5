package gas

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/commit"
)

// Worst-case values of the gas records: the largest amount a transaction
// may carry (10^15 − 10^-18) and the largest ratio a close can derive from
// such amounts, capped by what scoring.Parse reads back (< 10^30).
const (
	worstAmount = "999999999999999.999999999999999999"
	worstRatio  = "999999999999999999999999999999.999999999999999999"
	minAmount   = "0.000000000000000001"
)

// measureWorstClose stages, directly in the state, the largest close g
// allows: max_uids agents with a full memory and a full history of worst-case
// values, and every agent's prediction at the worst price in every one of the
// max_prediction_ahead open blocks, with 9-byte ids, heights and block
// numbers, revealed and committed early enough to count. It closes the last
// open block (as the end of its reveal window does) and returns the bytes
// written.
func measureWorstClose(t *testing.T, g genesis.AppState) int {
	t.Helper()
	return measureClose(t, g, outcomeCounted)
}

// The outcomes a close can give the predictions of the block it closes.
const (
	outcomeCounted    = "counted"    // revealed, committed early enough: judged with the agent's memory
	outcomeLate       = "late"       // revealed, committed less than the margin before the EVM timestamp
	outcomeUnrevealed = "unrevealed" // never revealed
)

// measureClose is measureWorstClose with the closed block's predictions
// given the outcome (the earlier blocks' are swept unscored as ever).
func measureClose(t *testing.T, g genesis.AppState, outcome string) int {
	t.Helper()
	return worstClose(t, g, outcome).O.Size()
}

// worstClose stages the close measureClose measures and returns the
// close's own writes (an overlay above the staged state).
func worstClose(t *testing.T, g genesis.AppState, outcome string) store.State {
	t.Helper()
	chain, setup := stageClose(t, g, outcome)
	const first = uint64(1) << 62
	const ts = int64(1) << 40
	ahead := g.Chain.MaxPredictionAhead
	close := store.State{O: store.NewOverlay(setup.O)}
	r := &subnetv1.TruthRound{EvmChainId: 1, EvmBlock: first + ahead, Status: kernel.StatusFinal, MinPrice: minAmount,
		Timestamp: ts, ReportedPower: math.MaxInt64, ClosedHeight: int64(first)}
	env := kernel.Env{Chain: chain, St: close, Block: &kernel.Block{Height: int64(first), Time: ts}}
	closeGasBlock(env, r)
	for _, p := range setup.Predictions(1, first+ahead).Items { // the close deleted the set, above setup
		sub, _ := close.Submission(p.SubmissionId)
		if want := map[string]string{outcomeCounted: kernel.StatusScored, outcomeLate: kernel.StatusLate, outcomeUnrevealed: kernel.StatusUnrevealed}[outcome]; sub.Status != want {
			t.Fatalf("%s close: submission %d is %s, want %s", outcome, sub.Id, sub.Status, want)
		}
	}
	return close
}

// stageClose stages, in a state of its own, what worstClose closes: EVM
// chain 1 closed up to block 2^62 with max_prediction_ahead open blocks,
// each with every agent's prediction, and every agent's full record.
func stageClose(t *testing.T, g genesis.AppState, outcome string) (*kernel.Chain, store.State) {
	t.Helper()
	chain, err := kernel.NewChain("bound", g)
	if err != nil {
		t.Fatal(err)
	}
	setup := store.State{O: store.NewOverlay(emptyState{})}
	uids := uint32(g.Chain.MaxUIDs)
	ahead := g.Chain.MaxPredictionAhead
	setup.Save(store.KeyCounters, &subnetv1.Counters{Miners: uids})
	const first = uint64(1) << 62
	const ts = int64(1) << 40
	gc := &subnetv1.GasChain{EvmChainId: 1, HasClosed: true, LastClosedBlock: first, LastTimestamp: ts, LastMinPrice: minAmount}
	id := first
	for b := first + 1; b <= first+ahead; b++ {
		gc.OpenBlocks = append(gc.OpenBlocks, b)
		set := &subnetv1.PredictionSet{}
		for i := uint32(0); i < uids; i++ {
			uid := chain.UIDAt(i)
			// committed the largest margin before the EVM timestamp: every one counts
			commitTime, price, status, revealed := ts-commit.MaxCommitMargin, worstAmount, kernel.StatusPending, int64(first)
			if b == first+ahead {
				switch outcome {
				case outcomeLate:
					commitTime = ts
				case outcomeUnrevealed:
					price, status, revealed = "", kernel.StatusCommitted, 0
				}
			}
			set.Items = append(set.Items, &subnetv1.Prediction{Uid: uid, SubmissionId: id, BlockTime: commitTime, Price: price})
			setup.Save(store.KeySubmission(id), &subnetv1.Submission{Id: id, Track: genesis.TrackGas, Uid: uid, Height: int64(first),
				BlockTime: commitTime, Status: status, Gas: &subnetv1.GasPredict{EvmChainId: 1, EvmBlock: b, Price: price},
				Commitment: bytes.Repeat([]byte{0xff}, commit.Size), RevealHeight: revealed})
			id++
		}
		setup.Save(store.KeyPredictionSet(1, b), set)
	}
	setup.Save(store.KeyGasChain(1), gc)
	for i := uint32(0); i < uids; i++ {
		uid := chain.UIDAt(i)
		pa := &subnetv1.GasAgent{Uid: uid, EvmChainId: 1, Last: worstAmount, HasLast: true, Closed: first, LastTime: ts - 1}
		for j := 0; j < g.Gas.MemorySize; j++ {
			pa.Memory = append(pa.Memory, &subnetv1.GasSlot{Included: true, Overpayment: worstRatio, Fresh: true})
		}
		for j := 0; j < g.Window.GasHistoryMax; j++ {
			pa.History = append(pa.History, &subnetv1.GasHistoryPoint{Time: ts - 1, InclusionRate: "0.999999999999999999", AvgOverpayment: worstRatio})
		}
		setup.Save(store.KeyGasAgent(1, uid), pa)
	}
	return chain, setup
}

// TestGasCloseWithinGenesisBound: the largest close a genesis allows writes
// no more than genesis.GasCloseBytes (without its fixed allowance, so the
// per-block, per-prediction and per-agent bounds are each checked), for
// several shapes; the default genesis's bound is itself within
// genesis.MaxGasCloseBytes.
func TestGasCloseWithinGenesisBound(t *testing.T) {
	for _, shape := range []struct{ uids, ahead, memory, history int }{
		{4, 8, 2, 1}, {16, 4, 10, 64}, {8, 16, 1, 16}, {12, 12, 10, 5},
		{256, 8, 10, 16}, // the default genesis's shape
	} {
		t.Run(fmt.Sprint(shape), func(t *testing.T) {
			g := testGenesis(3)
			g.Chain.MaxUIDs, g.Chain.MaxPredictionAhead = shape.uids, uint64(shape.ahead)
			g.Gas.MemorySize, g.Window.GasHistoryMax = shape.memory, shape.history
			got := measureWorstClose(t, g)
			bound := int(g.GasCloseBytes() - genesis.GasCloseFixedBytes)
			t.Logf("close wrote %d bytes, bound %d", got, bound)
			if got > bound || int64(got) > genesis.MaxGasCloseBytes {
				t.Fatalf("close wrote %d bytes, more than the genesis bound %d", got, bound)
			}
		})
	}
	// The bound's shape is the worst outcome: a close whose predictions are
	// late or never revealed writes less than one whose predictions count.
	g := testGenesis(3)
	g.Chain.MaxUIDs, g.Chain.MaxPredictionAhead = 16, 4
	counted := measureClose(t, g, outcomeCounted)
	for _, o := range []string{outcomeLate, outcomeUnrevealed} {
		if got := measureClose(t, g, o); got > counted {
			t.Fatalf("a %s close wrote %d bytes, more than a counted one's %d: the bound's worst case is not the worst", o, got, counted)
		}
	}
	// The genesis limit is what the chain's limits leave a close: half the
	// block budget, and the end of block adds to a full block.
	lim := budget.DefaultLimits()
	if genesis.MaxGasCloseBytes*2 != int64(lim.BlockWrites) || genesis.MaxGasCloseBytes != int64(lim.EndWrites-lim.BlockWrites) {
		t.Fatalf("genesis.MaxGasCloseBytes = %d no longer matches the chain's limits", genesis.MaxGasCloseBytes)
	}
}

// testGenesis has n validators of power 10 and the gas track's test shape.
func testGenesis(n int) genesis.AppState {
	g := genesis.DefaultGenesis()
	for i := 0; i < n; i++ {
		seed := sha256.Sum256([]byte(fmt.Sprintf("gas-validator-%d", i)))
		cons := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
		rep := sha256.Sum256(seed[:])
		g.Validators = append(g.Validators, genesis.Validator{
			Name: fmt.Sprintf("val%d", i), Address: hex.EncodeToString(genesis.ConsensusAddress(cons)),
			PubKey: base64.StdEncoding.EncodeToString(cons), Power: 10,
			ReportKey: hex.EncodeToString(ed25519.NewKeyFromSeed(rep[:]).Public().(ed25519.PublicKey)),
		})
	}
	return g
}

// emptyState is a state with nothing stored.
type emptyState struct{}

func (emptyState) Get([]byte) ([]byte, bool) { return nil, false }

// TestPauseSweepWithinCloseBound: one piece of a pause's sweep (one open
// block's predictions ended unscored with the pause note) writes no more
// than the largest close of the same genesis, so the sweep's first piece
// always fits where a close does, and later pieces wait for later blocks
// (pauseItem); its last piece, dropping the pending rounds within reach,
// only deletes.
func TestPauseSweepWithinCloseBound(t *testing.T) {
	for _, shape := range []struct{ uids, ahead int }{{4, 8}, {16, 4}, {256, 8}} {
		t.Run(fmt.Sprint(shape), func(t *testing.T) {
			g := testGenesis(3)
			g.Chain.MaxUIDs, g.Chain.MaxPredictionAhead = shape.uids, uint64(shape.ahead)
			close := measureWorstClose(t, g)
			chain, setup := stageClose(t, g, outcomeCounted)
			gc := setup.GasChain(1)
			piece := store.State{O: store.NewOverlay(setup.O)}
			env := kernel.Env{Chain: chain, St: piece, Block: &kernel.Block{Height: 1 << 62, Time: 1 << 40}}
			if n := endOpenBlock(env, gc, 0); n != uint64(shape.uids) {
				t.Fatalf("the piece ended %d predictions, want %d", n, shape.uids)
			}
			if got := piece.O.Size(); got > close {
				t.Fatalf("a sweep piece wrote %d bytes, more than the worst close's %d", got, close)
			}
			t.Logf("sweep piece %d bytes, worst close %d", piece.O.Size(), close)
		})
	}
}
