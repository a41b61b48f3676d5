package miner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// trackOf is the track of a payload.
func trackOf(p *subnetv1.MsgSubmit) string {
	switch p.GetKind().(type) {
	case *subnetv1.MsgSubmit_Workflow:
		return "workflow"
	case *subnetv1.MsgSubmit_Arena:
		return "arena"
	}
	return "gas"
}

// commit sends the poll's payloads in commit batches of at most
// wire.MaxBatch entries (client.CommitPayloads stores every salt before
// each broadcast) and records what each entry became.
func (dm *Daemon) commit(ctx context.Context, payloads []*subnetv1.MsgSubmit, _ solved) error {
	for len(payloads) > 0 {
		n := min(len(payloads), wire.MaxBatch)
		run := payloads[:n]
		payloads = payloads[n:]
		res, err := dm.d.Signer.CommitPayloads(ctx, dm.salts, dm.uid, run)
		if serr := dm.step(stepCommitted, n); serr != nil {
			return serr
		}
		targets := make([]client.Target, len(run))
		for i, p := range run {
			targets[i], _ = client.TargetOf(p)
			dm.answer(targets[i]) // stored (to resume), applied or refused: never answered twice
		}
		if err != nil {
			var te *client.TxError
			if errors.As(err, &te) {
				for _, p := range run {
					dm.miss(trackOf(p), MissCommitRefused, "%s: the commit batch was refused: %v", mustTarget(p), err)
				}
				continue
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			for _, t := range targets {
				dm.resent[t] = dm.ticks // give this copy resendEvery polls to land
			}
			dm.d.Logf("miner: commit batch of %d: %v (its salts stay stored; sent again if no block holds it in %d polls)", n, err, resendEvery)
			continue
		}
		var ok []client.Target
		for i, e := range res.CommitEntries {
			if i >= len(run) {
				break
			}
			tr := trackOf(run[i])
			if e.Code != wire.CodeOK {
				dm.miss(tr, MissCommitRefused, "%s: commit refused, code %d %s: %s", e.Target, e.Code, e.Name, e.Log)
				continue
			}
			dm.m.commits.WithLabelValues(tr).Inc()
			ok = append(ok, e.Target)
		}
		if len(ok) > 0 {
			dm.d.Logf("miner: committed %s in block %d", summarize(ok), res.Commit.Height)
		}
	}
	dm.m.pending.Set(float64(dm.pendingCount()))
	return nil
}

// answer marks a target done: a task is not solved again, a gas window
// not priced again.
func (dm *Daemon) answer(t client.Target) {
	if t.Gas {
		dm.gas.done[t.EVMBlock] = true
		return
	}
	ts := dm.tasks[t.TaskID]
	if ts == nil {
		ts = &taskState{}
		dm.tasks[t.TaskID] = ts
	}
	ts.answered = true
}

func mustTarget(p *subnetv1.MsgSubmit) client.Target {
	t, _ := client.TargetOf(p)
	return t
}

// summarize shortens a list of targets for a log line: a run of
// consecutive EVM blocks of one chain becomes "evm chain C blocks A-B".
func summarize(targets []client.Target) string {
	var out []string
	for i := 0; i < len(targets); {
		t := targets[i]
		if !t.Gas {
			out = append(out, t.String())
			i++
			continue
		}
		j := i + 1
		for j < len(targets) && targets[j].Gas && targets[j].EVMChainID == t.EVMChainID && targets[j].EVMBlock > targets[j-1].EVMBlock {
			j++
		}
		if last := targets[j-1]; j-i > 1 {
			out = append(out, fmt.Sprintf("evm chain %d blocks %d-%d", t.EVMChainID, t.EVMBlock, last.EVMBlock))
		} else {
			out = append(out, t.String())
		}
		i = j
	}
	return strings.Join(out, ", ")
}
