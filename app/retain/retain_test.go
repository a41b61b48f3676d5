package retain

import (
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
)

const testRetain = 100

// fixture is a state with task 7 of three submissions (ids 70–72, uids
// 1–3, each with its index entries and artifact), an arena baseline, a
// truth round with two gas submissions (80, 81), two epochs and a live
// window, all scheduled at height 10.
func fixture(statuses ...string) store.State {
	st := store.State{O: store.NewOverlay(store.Empty{})}
	st.Save(store.KeyTask(7), &subnetv1.Task{Id: 7, Submissions: uint64(len(statuses))})
	st.Save(store.KeyBaseline(7), &subnetv1.Baseline{})
	for j, s := range statuses {
		sid, uid := uint64(70+j), uint32(1+j)
		art := []byte{byte(j), 1, 2, 3}
		st.Save(store.KeySubmission(sid), &subnetv1.Submission{Id: sid, TaskId: 7, Uid: uid, Status: s, ArtifactHash: art})
		st.SetTaskMiner(7, uid, sid)
		st.O.Set(store.KeyTaskSub(7, uint64(j)), store.U64Bytes(sid))
		st.O.Set(store.KeyTaskArtifact(7, art), store.U64Bytes(sid))
	}
	for _, sid := range []uint64{80, 81} {
		st.Save(store.KeySubmission(sid), &subnetv1.Submission{Id: sid, Status: kernel.StatusScored})
	}
	st.Save(store.KeyTruth(1, 500), &subnetv1.TruthRound{EvmChainId: 1, EvmBlock: 500, Status: kernel.StatusFinal})
	st.Save(store.KeyEpoch(1), &subnetv1.Epoch{Number: 1})
	st.Save(store.KeyEpoch(2), &subnetv1.Epoch{Number: 2})
	st.Save(store.KeyCounters, &subnetv1.Counters{Epochs: 2, NextTaskId: 8, NextSubmissionId: 82})
	st.Save(store.KeyWindow(store.WindowWorkflow, 1), &subnetv1.Window{})
	Task(st, 10, 7)
	Round(st, 10, 1, 500, []uint64{80, 81})
	Epoch(st, 10, 1)
	Epoch(st, 10, 2)
	return st
}

func env(st store.State, h, retain int64) kernel.Env {
	g := genesis.DefaultGenesis()
	g.Chain.RetainStateBlocks = retain
	return kernel.Env{Chain: &kernel.Chain{Gen: g}, St: st, Block: &kernel.Block{Height: h}}
}

func retire(t *testing.T, st store.State, h int64, lim budget.Limits) bool {
	t.Helper()
	_, carried := Due(env(st, h, testRetain), budget.NewMeter(lim, st.O))
	return carried
}

func gone(st store.State, keys ...[]byte) bool {
	for _, k := range keys {
		if st.Has(k) {
			return false
		}
	}
	return true
}

// TestRetireAll: at 10 + R everything scheduled at 10 goes but the latest
// epoch and the live window; nothing goes a block earlier, or with R = 0.
func TestRetireAll(t *testing.T) {
	st := fixture(kernel.StatusScored, kernel.StatusExpired, kernel.StatusUnrevealed)
	if _, c := Due(env(st, 10_000, 0), budget.NewMeter(budget.DefaultLimits(), st.O)); c || !st.Has(store.KeyTask(7)) {
		t.Fatal("retain_state_blocks 0 retired something")
	}
	if retire(t, st, 10+testRetain-1, budget.DefaultLimits()) || !st.Has(store.KeyEpoch(1)) {
		t.Fatal("retired a block early")
	}
	if retire(t, st, 10+testRetain, budget.DefaultLimits()) {
		t.Fatal("carried with the default budget")
	}
	for j := uint64(0); j < 3; j++ {
		if !gone(st, store.KeySubmission(70+j), store.KeyTaskMiner(7, uint32(1+j)), store.KeyTaskSub(7, j),
			store.KeyTaskArtifact(7, []byte{byte(j), 1, 2, 3})) {
			t.Fatalf("submission %d or its index entries left", 70+j)
		}
	}
	if !gone(st, store.KeyTask(7), store.KeyBaseline(7), store.KeyTruth(1, 500), store.KeySubmission(80), store.KeySubmission(81), store.KeyEpoch(1)) {
		t.Fatal("the task, its baseline, the round, its predictions or epoch 1 left")
	}
	if !st.Has(store.KeyEpoch(2)) || !st.Has(store.KeyWindow(store.WindowWorkflow, 1)) || !st.Has(store.KeyCounters) {
		t.Fatal("the latest epoch or live state retired")
	}
	if !(store.Due{St: st, Kind: store.DueRetire}).Pending() {
		t.Fatal("the latest epoch's entry was not put back")
	}
}

// TestRetireWaitsForArena: a submission still final (its arena scoring
// carried) stops its task: those before it go, it and the rest wait R
// more blocks, then go.
func TestRetireWaitsForArena(t *testing.T) {
	st := fixture(kernel.StatusScored, kernel.StatusFinal, kernel.StatusScored)
	h := int64(10 + testRetain)
	retire(t, st, h, budget.DefaultLimits())
	if !gone(st, store.KeySubmission(70)) || !st.Has(store.KeySubmission(71)) || !st.Has(store.KeySubmission(72)) || !st.Has(store.KeyTask(7)) {
		t.Fatal("want submission 70 retired, 71 (final) and 72 and the task kept")
	}
	sub, _ := st.Submission(71)
	sub.Status = kernel.StatusScored
	st.Save(store.KeySubmission(71), sub)
	retire(t, st, h+testRetain-1, budget.DefaultLimits())
	if !st.Has(store.KeySubmission(71)) {
		t.Fatal("retired before its R more blocks")
	}
	retire(t, st, h+testRetain, budget.DefaultLimits())
	if !gone(st, store.KeySubmission(71), store.KeySubmission(72), store.KeyTask(7), store.KeyTaskSub(7, 1)) {
		t.Fatal("the rest of the task was not retired R blocks later")
	}
}

// TestRetireResumes: with an end-of-block budget spent at once, each block
// retires one record and carries; the task resumes where it stopped.
func TestRetireResumes(t *testing.T) {
	st := fixture(kernel.StatusScored, kernel.StatusScored, kernel.StatusScored)
	lim := budget.DefaultLimits()
	lim.EndWork = 1
	h := int64(10 + testRetain)
	for i := 0; i < 2; i++ {
		if !retire(t, st, h, lim) {
			t.Fatalf("block %d: not carried", i)
		}
		h++
	}
	if !gone(st, store.KeySubmission(70), store.KeySubmission(71)) || !st.Has(store.KeySubmission(72)) || !st.Has(store.KeyTask(7)) {
		t.Fatal("two blocks of one record each: want 70 and 71 retired, 72 and the task kept")
	}
	for i := 0; i < 10 && retire(t, st, h, lim); i++ {
		h++
	}
	if !gone(st, store.KeySubmission(72), store.KeyTask(7), store.KeyTruth(1, 500), store.KeySubmission(81), store.KeyEpoch(1)) {
		t.Fatal("not everything retired after the carries")
	}
}
