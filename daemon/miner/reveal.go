package miner

import (
	"context"
	"errors"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// reveal reveals every stored commit whose window opens at the next
// block: a task's once the task takes no more commits (after its submit
// deadline), its artifact published first; a gas window's once its truth
// is final (the window at or below the chain's last closed one). Entries
// whose window closed are counted as misses and dropped.
func (dm *Daemon) reveal(ctx context.Context, h int64) error {
	targets, err := dm.salts.Targets()
	if err != nil {
		return fatal(err)
	}
	var due, closed []client.Target
	lastClosed := map[uint64]*uint64{}
	for _, t := range targets {
		if t.Gas {
			lc, ok := lastClosed[t.EVMChainID]
			if !ok {
				gc, err := dm.d.Node.GasChain(ctx, t.EVMChainID)
				if err != nil {
					return err
				}
				lc = gc.LastClosedBlock
				lastClosed[t.EVMChainID] = lc
			}
			if lc != nil && t.EVMBlock <= *lc {
				due = append(due, t)
			}
			continue
		}
		tv, err := dm.taskView(ctx, t.TaskID)
		if err != nil {
			if client.IsRetired(err) || isNotFound(err) {
				closed = append(closed, t)
				continue
			}
			return err
		}
		switch next := h + 1; {
		case next > tv.RevealDeadline:
			closed = append(closed, t)
		case next > tv.SubmitDeadline:
			if err := dm.publish(t); err != nil {
				return err
			}
			due = append(due, t)
		}
	}
	if err := dm.step(stepPublished, len(due)); err != nil {
		return err
	}
	if len(due) > 0 {
		tracks := map[client.Target]string{}
		for _, t := range due {
			if p, err := dm.salts.Load(t); err == nil {
				tracks[t] = trackOf(p.Payload)
			}
		}
		res, left, err := dm.d.Signer.RevealOpen(ctx, dm.salts, due)
		if serr := dm.step(stepRevealed, len(res.RevealEntries)); serr != nil {
			return serr
		}
		var ok []client.Target
		for _, e := range res.RevealEntries {
			if e.Code == wire.CodeOK {
				dm.m.reveals.WithLabelValues(tracks[e.Target]).Inc()
				ok = append(ok, e.Target)
			}
		}
		if len(ok) > 0 {
			dm.d.Logf("miner: revealed %s in block %d", summarize(ok), res.Reveals[len(res.Reveals)-1].Height)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			dm.d.Logf("miner: reveal: %v (the commits stay stored and are revealed at the next poll)", err)
		}
		// what RevealOpen neither revealed nor left waiting had its window closed
		waiting := map[client.Target]bool{}
		for _, t := range left {
			waiting[t] = true
		}
		for _, t := range due {
			if waiting[t] || dm.salts.Pending(t) == "" {
				continue
			}
			p, err := dm.salts.Load(t)
			if err != nil {
				continue
			}
			if werr := client.CheckRevealWindow(ctx, dm.d.Node, p); errors.Is(werr, client.ErrRevealClosed) {
				closed = append(closed, t)
			}
		}
	}
	for _, t := range closed {
		p, err := dm.salts.Load(t)
		if err != nil {
			continue
		}
		dm.miss(trackOf(p.Payload), MissRevealClosed, "%s: its reveal window closed before the reveal; dropping its salt", t)
		if err := dm.salts.Remove(t); err != nil {
			return fatal(err)
		}
	}
	for id, ts := range dm.tasks {
		if ts.view != nil && ts.view.RevealDeadline < h && dm.salts.Pending(client.Target{TaskID: id}) == "" {
			delete(dm.tasks, id) // no longer open, nothing stored: never listed or revealed again
		}
	}
	dm.m.pending.Set(float64(dm.pendingCount()))
	return nil
}

// taskView is the task, from the poll's cache or the node.
func (dm *Daemon) taskView(ctx context.Context, id uint64) (*wire.TaskView, error) {
	if ts := dm.tasks[id]; ts != nil && ts.view != nil {
		return ts.view, nil
	}
	tv, err := dm.d.Node.Task(ctx, id)
	if err != nil {
		return nil, err
	}
	ts := dm.tasks[id]
	if ts == nil {
		ts = &taskState{answered: true}
		dm.tasks[id] = ts
	}
	ts.view = tv
	return tv, nil
}

// publish serves a task target's artifact from now on.
func (dm *Daemon) publish(t client.Target) error {
	p, err := dm.salts.Load(t)
	if err != nil {
		return fatal(err)
	}
	var hash []byte
	switch k := p.Payload.GetKind().(type) {
	case *subnetv1.MsgSubmit_Workflow:
		hash = k.Workflow.GetArtifactHash()
	case *subnetv1.MsgSubmit_Arena:
		hash = k.Arena.GetArtifactHash()
	}
	if len(hash) == 0 || dm.arts.Published(hash) {
		return nil
	}
	if err := dm.arts.Publish(hash); err != nil {
		// an artifact committed by another program from this home: the
		// reveal goes on, validators will find nothing to fetch
		dm.d.Logf("miner: %s: publishing its artifact: %v", t, err)
	}
	return nil
}
