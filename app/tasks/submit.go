package tasks

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/track"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

func checkSubmit(env track.Env, tx *track.Tx, m *subnetv1.MsgSubmit) *wire.TxError {
	uid := tx.Account.Uid
	switch k := m.Kind.(type) {
	case *subnetv1.MsgSubmit_Workflow:
		if k.Workflow == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.workflow is empty")
		}
		w := k.Workflow
		return wire.FirstErr(
			checkTaskOpen(env, w.TaskId, uid, genesis.TrackWorkflow),
			checkArtifact(w.ArtifactHash))
	case *subnetv1.MsgSubmit_Arena:
		if k.Arena == nil {
			return wire.Reject(wire.CodeEmptyMsg, "submit.arena is empty")
		}
		return wire.FirstErr(
			checkTaskOpen(env, k.Arena.TaskId, uid, genesis.TrackArena),
			checkArtifact(k.Arena.ArtifactHash))
	}
	panic("tasks: a submit that is not workflow or arena")
}

func checkArtifact(h []byte) *wire.TxError {
	if len(h) != wire.ArtifactHashSize {
		return wire.Reject(wire.CodeBadArtifactHash, fmt.Sprintf("artifact_hash has %d bytes, want %d", len(h), wire.ArtifactHashSize))
	}
	return nil
}

// checkTaskOpen: the task exists, is of the track, is open for submissions
// at this height, and the miner has not submitted to it yet.
func checkTaskOpen(env track.Env, id uint64, uid uint32, name string) *wire.TxError {
	if terr := env.RequireTrack(name); terr != nil {
		return terr
	}
	t, ok := env.St.Task(id)
	if !ok {
		return wire.Reject(wire.CodeUnknownTask, fmt.Sprintf("task_id = %d: no such task", id))
	}
	if got := Track(t); got != name {
		return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("task_id = %d is a %s task, not %s", id, got, name))
	}
	if h := env.Block.Height; h > t.SubmitDeadline {
		return wire.Reject(wire.CodeSubmissionDeadline, fmt.Sprintf("task_id = %d: submissions closed at height %d (now %d)", id, t.SubmitDeadline, h))
	}
	if sub, dup := env.St.TaskMiner(id, uid); dup {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("uid %d already submitted %d for task %d", uid, sub, id))
	}
	return nil
}

func execSubmit(env track.Env, tx *track.Tx, m *subnetv1.MsgSubmit) []abcitypes.Event {
	st, uid := env.St, tx.Account.Uid
	var sub *subnetv1.Submission
	if w := m.GetWorkflow(); w != nil {
		sub = env.NewSubmission(genesis.TrackWorkflow, uid)
		sub.TaskId, sub.ArtifactHash = w.TaskId, w.ArtifactHash
	} else {
		ar := m.GetArena()
		sub = env.NewSubmission(genesis.TrackArena, uid)
		sub.TaskId, sub.ArtifactHash = ar.TaskId, ar.ArtifactHash
	}
	t, _ := st.Task(sub.TaskId)
	sub.ReportDeadline = t.ReportDeadline
	st.Save(store.KeySubmission(sub.Id), sub)
	st.SetTaskMiner(t.Id, uid, sub.Id)
	st.O.Set(store.KeyTaskSub(t.Id, t.Submissions), store.U64Bytes(sub.Id))
	t.Submissions++
	st.Save(store.KeyTask(t.Id), t)
	return []abcitypes.Event{wire.Event(wire.EventSubmissionAdded, "submission_id", track.U64s(sub.Id), "uid", track.U64s(uint64(uid)),
		"track", sub.Track, "task_id", track.U64s(sub.TaskId))}
}
