package gas

import (
	"bytes"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
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
	for _, status := range []string{kernel.StatusUnscored, kernel.StatusLate, kernel.StatusUnrevealed} {
		sub := &subnetv1.Submission{Id: id, Track: genesis.TrackGas, Uid: 1<<32 - 1, Height: big, BlockTime: big, RevealHeight: big,
			Gas:        &subnetv1.GasPredict{EvmChainId: uint64(big), EvmBlock: uint64(big), Price: worstAmount},
			Commitment: bytes.Repeat([]byte{0xff}, commit.Size)}
		st := store.State{O: store.NewOverlay(emptyState{})}
		st.Save(store.KeySubmission(id), sub)
		env := kernel.Env{St: st, Block: &kernel.Block{Height: big}}
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

// TestWorstCloseRecordSizes: in the largest close of the default genesis's
// shape, each scored prediction's record less its memory and history
// receipt fields is within genesis.ScoredPredictionBytes, and each agent
// record less its memory and history within genesis.GasAgentBaseBytes (the
// per-slot and per-point terms bound those, counted once in the record and
// once in a receipt).
func TestWorstCloseRecordSizes(t *testing.T) {
	g := testGenesis(3)
	close := worstClose(t, g, outcomeCounted)
	slots := g.Gas.MemorySize*genesis.GasSlotBytes + g.Window.GasHistoryMax*genesis.GasPointBytes
	var scored, agent, scoredFull, agentFull int
	close.O.Entries(func(k, val []byte, del bool) {
		if del {
			return
		}
		n := len(k) + len(val) + store.EntryOverhead
		switch k[0] {
		case store.PrefixSubmission:
			sub := &subnetv1.Submission{}
			if err := sub.Unmarshal(val); err != nil {
				t.Fatal(err)
			}
			if sub.Status == kernel.StatusScored {
				scoredFull = max(scoredFull, n)
				scored = max(scored, n-fieldsBytes(sub.Receipt.Inputs, "memory.", "history."))
			}
		case store.PrefixGasAgent:
			pa := &subnetv1.GasAgent{}
			if err := pa.Unmarshal(val); err != nil {
				t.Fatal(err)
			}
			agentFull = max(agentFull, n)
			base := *pa
			base.Memory, base.History = nil, nil
			agent = max(agent, len(k)+base.Size()+store.EntryOverhead)
		}
	})
	t.Logf("scored prediction %d bytes without memory/history (bound %d), %d whole; agent %d without (bound %d), %d whole; slots+points bound %d",
		scored, genesis.ScoredPredictionBytes, scoredFull, agent, genesis.GasAgentBaseBytes, agentFull, slots)
	if scored == 0 || agent == 0 {
		t.Fatal("the worst close scored no prediction or wrote no agent: it proves nothing")
	}
	if scored > genesis.ScoredPredictionBytes || agent > genesis.GasAgentBaseBytes {
		t.Fatal("a record exceeds its genesis bound")
	}
	if scoredFull+agentFull > genesis.ScoredPredictionBytes+genesis.GasAgentBaseBytes+slots {
		t.Fatalf("a scored prediction and its agent write %d bytes, the per-uid bound is %d", scoredFull+agentFull,
			genesis.ScoredPredictionBytes+genesis.GasAgentBaseBytes+slots)
	}
}

// fieldsBytes is the encoded size of the receipt fields whose names start
// with one of the prefixes.
func fieldsBytes(fs []*subnetv1.Field, prefixes ...string) int {
	n := 0
	for _, f := range fs {
		for _, p := range prefixes {
			if len(f.Name) >= len(p) && f.Name[:len(p)] == p {
				n += f.Size() + 3 // the field's tag and length prefix
			}
		}
	}
	return n
}
