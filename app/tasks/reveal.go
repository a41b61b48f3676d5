package tasks

import (
	"errors"
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/commit"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// payload is what a workflow or arena reveal carries.
type payload struct {
	track    string
	task     uint64
	artifact []byte
}

func payloadOf(m *subnetv1.MsgSubmit) (payload, *wire.TxError) {
	switch k := m.Kind.(type) {
	case *subnetv1.MsgSubmit_Workflow:
		if k.Workflow == nil {
			return payload{}, wire.Reject(wire.CodeEmptyMsg, "reveal.submit.workflow is empty")
		}
		return payload{genesis.TrackWorkflow, k.Workflow.TaskId, k.Workflow.ArtifactHash}, nil
	case *subnetv1.MsgSubmit_Arena:
		if k.Arena == nil {
			return payload{}, wire.Reject(wire.CodeEmptyMsg, "reveal.submit.arena is empty")
		}
		return payload{genesis.TrackArena, k.Arena.TaskId, k.Arena.ArtifactHash}, nil
	}
	panic("tasks: a reveal that is not workflow or arena")
}

// RevealWindow is a task's reveal window: the blocks after its submission
// deadline up to its reveal deadline.
func RevealWindow(t *subnetv1.Task) commit.Window {
	return commit.Window{First: t.SubmitDeadline + 1, Last: t.RevealDeadline}
}

// checkReveal, in order: the task (25, 24, 26), the artifact (23), the salt
// (47), the sender's commit for the task (48), the reveal window (49), not
// yet revealed (28), and last the opening of the commitment (50), the only
// check that hashes.
func checkReveal(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReveal) *wire.TxError {
	p, terr := payloadOf(m.Submit)
	if terr != nil {
		return terr
	}
	t, terr := openTask(env, p.task)
	if terr != nil {
		return terr
	}
	if got := Track(t); got != p.track {
		return wire.Reject(wire.CodeWrongKind, fmt.Sprintf("task_id = %d is a %s task, not %s", p.task, got, p.track))
	}
	if terr := wire.FirstErr(checkArtifact(p.artifact), kernel.CheckSalt(m.Salt)); terr != nil {
		return terr
	}
	uid := tx.Account.Uid
	id, ok := env.St.TaskMiner(p.task, uid)
	if !ok {
		return wire.Reject(wire.CodeNoCommit, fmt.Sprintf("uid %d has no commit for task %d", uid, p.task))
	}
	if terr := env.CheckWindow(RevealWindow(t), fmt.Sprintf("task %d", p.task)); terr != nil {
		return terr
	}
	sub, _ := env.St.Submission(id)
	if sub.Status != kernel.StatusCommitted {
		return wire.Reject(wire.CodeDuplicateSubmission, fmt.Sprintf("submission %d of uid %d for task %d is already revealed (%s)", id, uid, p.task, sub.Status))
	}
	return env.CheckOpens(tx, sub, m.Submit, m.Salt)
}

func checkArtifact(h []byte) *wire.TxError {
	if len(h) != wire.ArtifactHashSize {
		return wire.Reject(wire.CodeBadArtifactHash, fmt.Sprintf("artifact_hash has %d bytes, want %d", len(h), wire.ArtifactHashSize))
	}
	return nil
}

// execReveal fills the submission with its payload (status pending: open
// for reports once the reveal window closes) and applies the duplicate
// rule: of the task's reveals of one artifact hash, the earliest commit
// keeps it (commit.Precedes) and every other is a duplicate, score 0. A
// reveal that precedes the stored keeper displaces it; either way the
// verdict of a duplicate never changes again, so it is final when made.
func execReveal(env kernel.Env, tx *kernel.Tx, m *subnetv1.MsgReveal) []abcitypes.Event {
	st := env.St
	p, _ := payloadOf(m.Submit)
	id, _ := st.TaskMiner(p.task, tx.Account.Uid)
	sub, _ := st.Submission(id)
	sub.ArtifactHash = append([]byte(nil), p.artifact...)
	sub.RevealHeight = env.Block.Height
	kernel.SetStatus(st, sub, kernel.StatusPending)
	evs := []abcitypes.Event{wire.Event(wire.EventSubmissionRevealed, "submission_id", kernel.U64s(sub.Id), "uid", kernel.U64s(uint64(sub.Uid)),
		"track", sub.Track, "task_id", kernel.U64s(sub.TaskId))}
	ka := store.KeyTaskArtifact(p.task, p.artifact)
	if st.Has(ka) {
		keeper, _ := st.Submission(st.U64(ka))
		if commit.Precedes(claim(keeper), claim(sub)) {
			evs = append(evs, markDuplicate(env, sub, keeper)...)
			st.Save(store.KeySubmission(sub.Id), sub)
			return evs
		}
		evs = append(evs, markDuplicate(env, keeper, sub)...)
		st.Save(store.KeySubmission(keeper.Id), keeper)
	}
	st.O.Set(ka, store.U64Bytes(sub.Id))
	st.Save(store.KeySubmission(sub.Id), sub)
	return evs
}

func claim(s *subnetv1.Submission) commit.Claim {
	return commit.Claim{CommitHeight: s.Height, UID: s.Uid}
}

// markDuplicate makes d a duplicate of keeper by its artifact hash.
func markDuplicate(env kernel.Env, d, keeper *subnetv1.Submission) []abcitypes.Event {
	r := &subnetv1.Receipt{Note: fmt.Sprintf("artifact already revealed by uid %d, whose commit (height %d) came first", keeper.Uid, keeper.Height)}
	return asDuplicate(env, d, keeper, r)
}

// asDuplicate makes d a duplicate of keeper: status duplicate, the receipt r
// completed with score 0, and a 0 in the miner's window of the track. It is
// never measured again (reports need a pending submission) and, in arena,
// never joins the task's baseline. extra are attributes the event of a
// near-copy adds after the ones every duplicate's event carries.
func asDuplicate(env kernel.Env, d, keeper *subnetv1.Submission, r *subnetv1.Receipt, extra ...string) []abcitypes.Event {
	env.ChargeWork(budget.UnitsDuplicate)
	d.Status, d.Duplicate = kernel.StatusDuplicate, true
	d.DuplicateOfUid, d.DuplicateOfHeight = keeper.Uid, keeper.Height
	r.Height, r.Track, r.Status, r.Score = env.Block.Height, d.Track, kernel.StatusDuplicate, kernel.FmtDec(scoring.Zero)
	kernel.Attach(d, r)
	tb := store.WindowWorkflow
	if d.Track == genesis.TrackArena {
		tb = store.WindowArena
	}
	attrs := append([]string{"submission_id", kernel.U64s(d.Id), "uid", kernel.U64s(uint64(d.Uid)),
		"task_id", kernel.U64s(d.TaskId), "duplicate_of_uid", kernel.U64s(uint64(keeper.Uid))}, extra...)
	evs := []abcitypes.Event{wire.Event(wire.EventSubmissionDuplicate, attrs...)}
	wevs, err := pushWindow(env, tb, d, scoring.Zero)
	if err != nil && !errors.Is(err, kernel.ErrPreviousOwner) {
		panic("tasks: push of a 0 score: " + err.Error())
	}
	return append(evs, wevs...)
}
