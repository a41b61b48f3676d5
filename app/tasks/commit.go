package tasks

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// checkCommit: the task exists, runs on this chain and is open for commits
// at this height; the commitment has 32 bytes; the miner has no commit for
// the task yet. The commit says nothing of the payload, so nothing else
// can be checked before the reveal.
func checkCommit(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgCommit) *wire.TxError {
	id := m.GetTaskId()
	t, terr := openTask(env, id)
	if terr != nil {
		return terr
	}
	if h := env.Block.Height; h > t.SubmitDeadline {
		return wire.Reject(wire.CodeSubmissionDeadline, fmt.Sprintf("task_id = %d: commits closed at height %d (now %d)", id, t.SubmitDeadline, h))
	}
	if terr := kernel.CheckCommitment(m.Commitment); terr != nil {
		return terr
	}
	if sub, dup := env.St.TaskMiner(id, tx.Account.Uid); dup {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already committed submission %d for task %d", tx.Account.Uid, sub, id))
	}
	return nil
}

// openTask loads a task whose track runs on this chain.
func openTask(env kernel.Env, id uint64) (*subnetv1.Task, *wire.TxError) {
	t, ok := env.St.Task(id)
	if !ok {
		return nil, wire.Reject(wire.CodeUnknownTask, fmt.Sprintf("task_id = %d: no such task", id))
	}
	if terr := env.RequireTrack(Track(t)); terr != nil {
		return nil, terr
	}
	return t, nil
}

// execCommit creates the miner's submission for the task, status committed:
// it takes the task's per-miner slot and its place in the task's
// settlement, like a submission before commit-reveal did.
func execCommit(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgCommit) []abcitypes.Event {
	st, uid := env.St, tx.Account.Uid
	t, _ := st.Task(m.GetTaskId())
	sub := env.NewSubmission(Track(t), uid, m.Commitment)
	sub.TaskId, sub.ReportDeadline = t.Id, t.ReportDeadline
	// The submission's id and the task's submission count only grow, so
	// both keys are new (store.Overlay.Create).
	st.Create(store.KeySubmission(sub.Id), sub)
	st.SetTaskMiner(t.Id, uid, sub.Id)
	st.O.Create(store.KeyTaskSub(t.Id, t.Submissions), store.U64Bytes(sub.Id))
	t.Submissions++
	st.Save(store.KeyTask(t.Id), t)
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(uid)),
		"track", sub.Track, "task_id", kernel.U64s(sub.TaskId), "status", sub.Status,
		"reveal_from", kernel.I64s(t.SubmitDeadline+1), "reveal_until", kernel.I64s(t.RevealDeadline))}
}
