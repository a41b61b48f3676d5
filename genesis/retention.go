package genesis

import "fmt"

// RetentionHorizon is the longest a settled item can still be needed by
// the chain's own windows, counted from the height the item was created:
// a task's submission, reveal and report windows (chain.max_submission_blocks
// + the longest reveal_blocks + chain.max_report_blocks), a truth round's
// report window and its gas reveal window (chain.truth_report_blocks + the
// longest reveal_blocks), and one epoch (window.epoch_blocks: the latest
// epoch must outlive the next one's writing). chain.retain_state_blocks,
// when positive, must exceed it, so that whoever took part in an item
// (a miner, a reporting validator, an auditor following the latest epoch)
// can read its outcome for at least retain_state_blocks − horizon blocks
// after it settled. Retention itself counts from the settlement, so no
// rule of the chain ever reads a retired item (docs/retention.md §3).
func (s AppState) RetentionHorizon() int64 {
	var reveal int64
	for _, t := range s.Tracks {
		reveal = max(reveal, t.RevealBlocks)
	}
	task := s.Chain.MaxSubmissionBlocks + reveal + s.Chain.MaxReportBlocks
	truth := s.Chain.TruthReportBlocks + reveal
	return max(task, truth, s.Window.EpochBlocks)
}

// validateRetention checks chain.retain_state_blocks against
// RetentionHorizon (0 keeps everything and needs no check).
func (s AppState) validateRetention() error {
	r := s.Chain.RetainStateBlocks
	if r == 0 {
		return nil
	}
	if h := s.RetentionHorizon(); r <= h {
		return fieldErr("chain.retain_state_blocks", r, fmt.Sprintf(
			"must be 0 (keep everything) or more than %d blocks: max(max_submission_blocks + reveal_blocks + max_report_blocks, truth_report_blocks + reveal_blocks, window.epoch_blocks) (docs/retention.md)", h))
	}
	return nil
}
