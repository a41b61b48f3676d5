package commit

// Window is a closed range of heights [First, Last]; First > Last is empty.
type Window struct {
	First, Last int64
}

// Contains reports whether height is in the window.
func (w Window) Contains(height int64) bool { return w.First <= height && height <= w.Last }

// TaskCommit is a task's commit window: from the block that posted it to
// its submission deadline, both included (the rule of Submit before
// commit-reveal, unchanged).
func TaskCommit(postedHeight, submitDeadline int64) Window {
	return Window{First: postedHeight, Last: submitDeadline}
}

// TaskReveal is a task's reveal window: the RevealBlocks blocks after its
// submission deadline. It opens only once no commit for the task can be
// made, so no reveal can inform a commit of the same task.
func TaskReveal(submitDeadline int64, p Params) Window {
	return Window{First: submitDeadline + 1, Last: submitDeadline + p.RevealBlocks}
}

// ReportDeadline is the last height at which validators report on a task's
// submissions: reportBlocks blocks after the reveal window, because before
// a reveal there is nothing to measure.
func ReportDeadline(submitDeadline int64, p Params, reportBlocks int64) int64 {
	return submitDeadline + p.RevealBlocks + reportBlocks
}

// GasReveal is the reveal window of the commits for an EVM block whose
// truth became final (closing the block) at closeHeight: the RevealBlocks
// blocks after it. From closeHeight on no commit for that EVM block is
// accepted (it is ≤ the chain's last closed block), so no reveal can inform
// a commit that would count; the agents are closed with the revealed
// predictions at the end of the window's last block.
func GasReveal(closeHeight int64, p Params) Window {
	return Window{First: closeHeight + 1, Last: closeHeight + p.RevealBlocks}
}

// GasCounts reports whether a prediction whose commit was included in a
// block with time commitTime (unix seconds) counts for an EVM block with
// timestamp evmTimestamp: commitTime + marginSeconds ≤ evmTimestamp,
// computed without overflow for every int64 input (a negative margin is
// taken as 0).
func GasCounts(commitTime, evmTimestamp, marginSeconds int64) bool {
	if commitTime > evmTimestamp {
		return false
	}
	if marginSeconds <= 0 {
		return true
	}
	// evmTimestamp ≥ commitTime, so the uint64 difference is exact.
	return uint64(evmTimestamp)-uint64(commitTime) >= uint64(marginSeconds)
}
