package app

import (
	"fmt"
	"math/rand/v2"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// crbCommitment is a commit the adversarial generator made and has not
// revealed (nor given up on).
type crbCommitment struct {
	s *signer
	p *subnetv1.MsgSubmit
}

// crbMiners drives the miners of the adversarial generator through
// commit-reveal: it remembers every commit it sent, reveals each in its
// window (the chain's state says when that is), and around the valid
// reveals sends refused ones: a wrong salt (50), a 31-byte salt (47),
// another miner's exact opening (50, or 48 when that miner has no commit),
// a reveal before the window (49), a second commit (28), a commit after
// the deadline (27). Some commits it never reveals, so settlements and
// closes expire them. Every refused transaction is signed with the
// sender's next nonce without consuming it, so the valid ones after it
// stay valid.
type crbMiners struct {
	rng    *rand.Rand
	miners []*signer
	open   []crbCommitment
	sent   map[string]bool // miner and target of every commit sent
}

func crbNewMiners(rng *rand.Rand, miners []*signer) *crbMiners {
	return &crbMiners{rng: rng, miners: miners, sent: map[string]bool{}}
}

func crbTargetKey(s *signer, p *subnetv1.MsgSubmit) string {
	tg, _ := client.TargetOf(p)
	return fmt.Sprint(s.uid, " ", tg)
}

// commit sends s's commit of p (once per miner and target), now or, with
// a small chance, followed by a refused second commit to the same target.
func (c *crbMiners) commit(t testing.TB, txs *[][]byte, s *signer, p *subnetv1.MsgSubmit) {
	t.Helper()
	k := crbTargetKey(s, p)
	if c.sent[k] {
		return
	}
	c.sent[k] = true
	*txs = append(*txs, s.commit(t, p))
	c.open = append(c.open, crbCommitment{s, p})
	if c.rng.IntN(16) == 0 {
		*txs = append(*txs, crbCommitNext(t, s, p)) // 28
	}
}

// commitTask has s commit to task id (its kind read from st), with its own
// artifact or, one time in six, the task's shared one (two miners revealing
// it are a keeper and a duplicate); after the task's commit window the
// commit is sent anyway and refused (27).
func (c *crbMiners) commitTask(t testing.TB, txs *[][]byte, st store.State, h int64, s *signer, id uint64) {
	t.Helper()
	task, ok := st.Task(id)
	if !ok {
		return
	}
	shared := c.rng.IntN(6) == 0
	var p *subnetv1.MsgSubmit
	switch {
	case task.GetWorkflow() != nil && shared:
		p = wfPayload(id)
	case task.GetWorkflow() != nil:
		p = wfPayloadOf(s, id)
	case shared:
		p = arenaPayload(id)
	default:
		p = arenaPayloadOf(s, id)
	}
	if h > task.SubmitDeadline {
		if c.rng.IntN(8) == 0 {
			*txs = append(*txs, crbCommitNext(t, s, p)) // 27
		}
		return
	}
	c.commit(t, txs, s, p)
}

// crbStillCommitted reports whether s's commit of p is stored and not yet
// revealed (false also when the commit was refused, or expired).
func crbStillCommitted(st store.State, s *signer, p *subnetv1.MsgSubmit) bool {
	if g := p.GetGas(); g != nil {
		for _, it := range st.Predictions(g.EvmChainId, g.EvmBlock).Items {
			if it.Uid == s.uid {
				return it.Price == ""
			}
		}
		return false
	}
	tg, _ := client.TargetOf(p)
	id, ok := st.TaskMiner(tg.TaskID, s.uid)
	if !ok {
		return false
	}
	sub, _ := st.Submission(id)
	return sub.Status == kernel.StatusCommitted
}

// crbRevealOpen reports whether p's reveal window is open at h, and whether
// it has passed.
func crbRevealOpen(st store.State, h int64, p *subnetv1.MsgSubmit) (open, passed bool) {
	if g := p.GetGas(); g != nil {
		r, ok := st.Truth(g.EvmChainId, g.EvmBlock)
		if !ok || r.Status != kernel.StatusFinal {
			return false, false
		}
		return h > r.ClosedHeight && h <= r.RevealDeadline, h > r.RevealDeadline
	}
	tg, _ := client.TargetOf(p)
	task, ok := st.Task(tg.TaskID)
	if !ok {
		return false, true
	}
	return h > task.SubmitDeadline && h <= task.RevealDeadline, h > task.RevealDeadline
}

// reveals appends, for height h over state st, the reveals of the open
// commits whose window is open (one in five is never revealed), with the
// refused variants around them, and a few reveals sent too early.
func (c *crbMiners) reveals(t testing.TB, txs *[][]byte, st store.State, h int64) {
	t.Helper()
	keep := c.open[:0]
	for _, cm := range c.open {
		if !crbStillCommitted(st, cm.s, cm.p) {
			continue // refused, expired or swept
		}
		open, passed := crbRevealOpen(st, h, cm.p)
		switch {
		case passed:
			continue
		case !open:
			if c.rng.IntN(20) == 0 {
				*txs = append(*txs, crbRevealNext(cm.s, cm.p)) // 49
			}
			keep = append(keep, cm)
			continue
		case c.rng.IntN(5) == 0:
			continue // never revealed: unrevealed at the settlement or close
		}
		if c.rng.IntN(6) == 0 {
			var salt client.Salt
			for i := range salt {
				salt[i] = byte(c.rng.Uint32())
			}
			*txs = append(*txs, cm.s.next(client.Reveal(cm.p, salt))) // 50
		}
		if c.rng.IntN(12) == 0 {
			salt := cm.s.salt(cm.p)
			*txs = append(*txs, cm.s.next(crbRevealRaw(cm.p, salt[:31]))) // 47
		}
		if c.rng.IntN(12) == 0 {
			other := c.miners[c.rng.IntN(len(c.miners))]
			if other != cm.s {
				*txs = append(*txs, other.next(crbRevealMsg(cm.s, cm.p))) // 50, or 48
			}
		}
		*txs = append(*txs, cm.s.tx(t, crbRevealMsg(cm.s, cm.p)))
	}
	c.open = keep
}

// crbReportable lists, newest first, up to limit submissions of tasks that
// validator v can report on at height h: revealed (pending), the task's
// reveal window closed, before the report deadline, no vote of v yet.
func crbReportable(st store.State, h int64, v int, limit int) []*subnetv1.Submission {
	var out []*subnetv1.Submission
	next := st.Counters().NextSubmissionId
	for id := next; id > 0 && len(out) < limit && next-id < 4000; id-- {
		sub, ok := st.Submission(id - 1)
		if !ok || sub.Track == genesis.TrackGas || sub.Status != kernel.StatusPending || h > sub.ReportDeadline {
			continue
		}
		if task, _ := st.Task(sub.TaskId); h <= task.RevealDeadline {
			continue
		}
		voted := false
		for _, vt := range sub.Votes {
			voted = voted || int(vt.Validator) == v
		}
		if !voted {
			out = append(out, sub)
		}
	}
	return out
}

// crbReport is v's report on sub, of sub's kind.
func crbReport(t testing.TB, v *signer, sub *subnetv1.Submission) []byte {
	t.Helper()
	if sub.Track == genesis.TrackArena {
		return v.tx(t, msgArenaReport(sub.Id, arenaM()))
	}
	return v.tx(t, msgWorkflowReport(sub.Id, workflowM()))
}

// crbTally counts a run's transaction results by code, and the decided
// blocks' end events by type.
type crbTally struct {
	codes  map[uint32]int
	events map[string]int
}

func (c *crbTally) add(resp *abcitypes.ResponseFinalizeBlock) {
	if c.codes == nil {
		c.codes, c.events = map[uint32]int{}, map[string]int{}
	}
	for _, r := range resp.TxResults {
		c.codes[r.Code]++
		for _, e := range r.Events {
			c.events[e.Type]++
		}
	}
	for _, e := range resp.Events {
		c.events[e.Type]++
	}
}

// crbStatuses counts every stored submission by status, and fails if a
// task submission is still committed or pending after its task's report
// deadline (an expiry or a settlement was lost).
func crbStatuses(t testing.TB, n *node) map[string]int {
	t.Helper()
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	out := map[string]int{}
	for id := uint64(0); id < st.Counters().NextSubmissionId; id++ {
		sub, _ := st.Submission(id)
		out[sub.Status]++
		if sub.Track != "gas" && sub.ReportDeadline < n.height && (sub.Status == kernel.StatusCommitted || sub.Status == kernel.StatusPending) {
			t.Fatalf("submission %d is %s at height %d, after its report deadline %d", id, sub.Status, n.height, sub.ReportDeadline)
		}
	}
	return out
}

// crbCodeNames lists the codes a tally saw, by name.
func crbCodeNames(c crbTally) map[string]int {
	out := map[string]int{}
	for code, k := range c.codes {
		out[wire.CodeName(code)] += k
	}
	return out
}
