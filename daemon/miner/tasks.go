package miner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	"github.com/scoringsubnet/validatord/daemon/extcmd"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// taskState is what the daemon did about one task.
type taskState struct {
	answered bool // committed (or stored to commit), or given up
	attempts int
	view     *wire.TaskView
}

// SolverInput is the JSON a solver command reads on stdin.
type SolverInput struct {
	Track   string         `json:"track"`
	UID     uint32         `json:"uid"`
	ChainID string         `json:"chain_id"`
	Task    *wire.TaskView `json:"task"`
}

// solved is an artifact made this poll, by its task.
type solved map[uint64][]byte

// taskPayloads solves each open task of the configured tracks that the
// daemon has not answered, and returns the payloads to commit.
func (dm *Daemon) taskPayloads(ctx context.Context, h int64) ([]*subnetv1.MsgSubmit, solved, error) {
	var out []*subnetv1.MsgSubmit
	arts := solved{}
	for _, tr := range []struct {
		name string
		c    solverConfig
	}{{"workflow", dm.cfg.Workflow}, {"arena", dm.cfg.Arena}} {
		if tr.c.Solver == "" {
			continue
		}
		open, err := dm.openTasks(ctx, tr.name)
		if err != nil {
			return nil, nil, err
		}
		for _, tv := range open {
			ts := dm.tasks[tv.ID]
			if ts == nil {
				ts = &taskState{}
				dm.tasks[tv.ID] = ts
			}
			ts.view = tv
			if ts.answered {
				continue
			}
			if tv.SubmitDeadline-h < tr.c.MinBlocksLeft {
				ts.answered = true
				dm.miss(tr.name, MissTooLate, "task %d: %d blocks left before its submit deadline %d, fewer than [%s] min_blocks_left %d: skipped", tv.ID, tv.SubmitDeadline-h, tv.SubmitDeadline, tr.name, tr.c.MinBlocksLeft)
				continue
			}
			bz, err := dm.solve(ctx, tr.name, tr.c, tv)
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			if err != nil {
				ts.attempts++
				if ts.attempts >= tr.c.Attempts {
					ts.answered = true
					dm.miss(tr.name, MissSolver, "task %d: the solver failed %d times, giving the task up: %v", tv.ID, ts.attempts, err)
				} else {
					dm.d.Logf("miner: task %d: the solver failed (attempt %d of %d): %v", tv.ID, ts.attempts, tr.c.Attempts, err)
				}
				continue
			}
			hash, err := dm.arts.Put(bz)
			if err != nil {
				return nil, nil, fatal(err)
			}
			arts[tv.ID] = hash
			if tr.name == "workflow" {
				out = append(out, client.WorkflowPayload(tv.ID, hash))
			} else {
				out = append(out, client.ArenaPayload(tv.ID, hash))
			}
		}
	}
	return out, arts, nil
}

// openTasks lists the open tasks of a track, every page.
func (dm *Daemon) openTasks(ctx context.Context, track string) ([]*wire.TaskView, error) {
	var out []*wire.TaskView
	f := client.TaskFilter{Track: track, Open: true, Page: client.Page{Limit: 100}}
	for {
		v, err := dm.d.Node.Tasks(ctx, f)
		if err != nil {
			return nil, err
		}
		for i := range v.Tasks {
			if v.Tasks[i].Open {
				tv := v.Tasks[i].TaskView
				out = append(out, &tv)
			}
		}
		if v.NextAfter == nil {
			return out, nil
		}
		f.After = *v.NextAfter
	}
}

// solve runs the track's solver on a task: the artifact it printed.
func (dm *Daemon) solve(ctx context.Context, track string, c solverConfig, tv *wire.TaskView) ([]byte, error) {
	cmd, err := extcmd.Parse(c.Solver)
	if err != nil {
		return nil, fmt.Errorf("[%s] solver: %w", track, err)
	}
	cmd.Timeout, cmd.MaxOutput = c.Timeout.D(), artifact.DefaultMaxBytes
	in, err := json.Marshal(SolverInput{Track: track, UID: dm.uid, ChainID: dm.d.Signer.ChainID(), Task: tv})
	if err != nil {
		return nil, err
	}
	out, err := cmd.Run(ctx, in)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("the solver printed nothing (an artifact is its stdout)")
	}
	return out, nil
}

// miss counts a miss and says why.
func (dm *Daemon) miss(track, reason, format string, args ...any) {
	dm.m.misses.WithLabelValues(track, reason).Inc()
	dm.d.Logf("miner: miss (%s, %s): "+format, append([]any{track, reason}, args...)...)
}
