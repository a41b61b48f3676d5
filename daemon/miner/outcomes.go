package miner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// finalStatuses are the statuses a submission keeps for good.
var finalStatuses = []string{kernel.StatusScored, kernel.StatusCounted, kernel.StatusLate, kernel.StatusUnscored,
	kernel.StatusUnrevealed, kernel.StatusExpired, kernel.StatusDuplicate, kernel.StatusContested, kernel.StatusFailed}

// outcomes reads the uid's newest submissions and tells, once each, what
// became of those that reached a final status since the daemon started,
// and sets the score gauges from the uid's aggregates.
func (dm *Daemon) outcomes(ctx context.Context) (told int, err error) {
	if !dm.hasUID {
		return 0, nil
	}
	first := !dm.seeded
	dm.seeded = true
	v, err := dm.d.Node.MinerSubmissions(ctx, dm.uid, client.Page{Limit: 100})
	if err != nil {
		return 0, err
	}
	// seen keeps only this page's final submissions: one that left the
	// newest page never comes back to it (ids grow)
	seen := map[uint64]string{}
	for _, s := range v.Submissions {
		if !slices.Contains(finalStatuses, s.Status) {
			continue
		}
		seen[s.ID] = s.Status
		if first || dm.seen[s.ID] != "" {
			continue // told, or final before this start (told by the run that saw it)
		}
		dm.m.outcomes.WithLabelValues(s.Track, s.Status).Inc()
		told++
		dm.d.Logf("miner: submission %d (%s): %s", s.ID, what(s), s.Status+score(s.Score))
	}
	dm.seen = seen
	mv, err := dm.d.Node.Miner(ctx, dm.uid)
	if err != nil {
		return told, err
	}
	for _, tr := range tracks {
		var agg *string
		switch tr {
		case "workflow":
			agg = mv.Workflow
		case "arena":
			agg = mv.Arena
		case "gas":
			agg = mv.Gas
		}
		if agg == nil {
			continue
		}
		if d, err := scoring.Parse(*agg); err == nil {
			f, _ := d.Float64() // a gauge for people, never fed back
			dm.m.score.WithLabelValues(tr).Set(f)
		}
	}
	return told, nil
}

func what(s wire.SubmissionSummaryView) string {
	switch {
	case s.TaskID != nil:
		return fmt.Sprintf("%s task %d", s.Track, *s.TaskID)
	case s.EvmBlock != nil && s.EvmChainID != nil:
		return fmt.Sprintf("gas, evm chain %d block %d", *s.EvmChainID, *s.EvmBlock)
	}
	return s.Track
}

func score(s *string) string {
	if s == nil {
		return ""
	}
	return ", score " + *s
}

// isNotFound: the node answered that the item does not exist.
func isNotFound(err error) bool {
	var qe *client.QueryError
	return errors.As(err, &qe) && qe.Code == wire.QueryNotFound
}
