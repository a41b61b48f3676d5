package validator

import (
	"context"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// postTasks posts one task of each configured track when
// post_every_blocks have passed since the last task this key posted (the
// scan finds it on chain, so a restart keeps the schedule). Any report
// key may post (MsgPostTask is a validator's message); the chain bounds
// the open tasks of each validator (chain.max_open_tasks) and a refusal is
// logged, the next try a period later.
func (d *Daemon) postTasks(ctx context.Context, h int64) {
	every := d.cfg.Tasks.PostEveryBlocks
	if every == 0 || (d.lastPost > 0 && h < d.lastPost+every) {
		return
	}
	d.lastPost = h
	for _, tr := range d.cfg.Tasks.Tracks {
		msg := d.cfg.Tasks.Msg(tr)
		res, err := d.signer.SendWait(ctx, msg, txTimeout)
		if err != nil {
			if ctx.Err() == nil {
				d.logf("validator: posting a %s task failed: %v (next try in %d blocks)", tr, err, every)
			}
			continue
		}
		id, err := res.AttrU64(wire.EventTaskPosted, "task_id")
		if err != nil {
			d.logf("validator: posted a %s task at height %d, but its block names no task: %v", tr, res.Height, err)
			continue
		}
		d.lastPost = max(d.lastPost, res.Height)
		d.metrics.posted(tr)
		d.logf("validator: posted %s task %d at height %d", tr, id, res.Height)
	}
}

// Msg is the MsgPostTask of the template of a track ("workflow" or
// "arena"), as `validatord tx post-task` builds it; an arena task takes the
// app's default baseline.
func (t TasksConfig) Msg(track string) *subnetv1.Msg {
	if track == "arena" {
		return client.PostArenaTask(&subnetv1.ArenaTask{Category: t.ArenaCategory, Difficulty: t.ArenaDifficulty,
			CriteriaTotal: t.ArenaCriteriaTotal, SubmissionBlocks: t.ArenaSubmissionBlocks, ReportBlocks: t.ArenaReportBlocks})
	}
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: t.WorkflowTotalSteps, MaxBudget: t.WorkflowMaxBudget,
		MaxLatencySeconds: t.WorkflowMaxLatencySeconds, SubmissionBlocks: t.WorkflowSubmissionBlocks, ReportBlocks: t.WorkflowReportBlocks})
}

// minerAddress is the artifact address uid announced (MsgServe), "" when
// it announced none.
func (d *Daemon) minerAddress(ctx context.Context, uid uint32) (string, error) {
	m, err := d.c.Miner(ctx, uid)
	if err != nil {
		return "", err
	}
	return m.Address, nil
}
