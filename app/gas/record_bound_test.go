package gas

import (
	"bytes"
	"testing"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/commit"
)

// TestSweptPredictionWithinBound: the largest submission record a close
// rewrites without scoring it (unscored, late or unrevealed, with its
// note, commitment and reveal height at their largest) is within
// genesis.SweptPredictionBytes, the per-prediction term of the genesis gas
// bound.
func TestSweptPredictionWithinBound(t *testing.T) {
	const big = int64(1) << 62
	id := uint64(big)
	worst := 0
	for _, status := range []string{track.StatusUnscored, track.StatusLate, track.StatusUnrevealed} {
		sub := &subnetv1.Submission{Id: id, Track: genesis.TrackGas, Uid: 1<<32 - 1, Height: big, BlockTime: big, RevealHeight: big,
			Gas:        &subnetv1.GasPredict{EvmChainId: uint64(big), EvmBlock: uint64(big), Price: worstAmount},
			Commitment: bytes.Repeat([]byte{0xff}, commit.Size)}
		st := store.State{O: store.NewOverlay(emptyState{})}
		st.Save(store.KeySubmission(id), sub)
		env := track.Env{St: st, Block: &track.Block{Height: big}}
		markPrediction(env, id, status, sweepNote(status))
		got, _ := st.O.Get(store.KeySubmission(id))
		n := len(store.KeySubmission(id)) + len(got) + store.EntryOverhead
		t.Logf("%s: %d bytes", status, n)
		worst = max(worst, n)
	}
	if worst > genesis.SweptPredictionBytes {
		t.Fatalf("a swept prediction writes %d bytes, genesis.SweptPredictionBytes is %d", worst, genesis.SweptPredictionBytes)
	}
}

