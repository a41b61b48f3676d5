// Package commit owns the rules of commit-reveal for miner payloads
// (docs/commit-reveal.md): the commitment's bytes, its check at reveal time,
// the commit and reveal windows, the gas timing rule and the duplicate-artifact
// rule. It is pure: it imports only the standard library, takes heights and
// times as arguments and never reads state, a clock or randomness.
//
//   - Commitment: SHA-256 over DomainTag, then the chain id, the sender's key,
//     the uid, the payload's canonical bytes (the gogoproto encoding of the
//     revealed MsgSubmit) and a 32-byte salt, each variable field behind an
//     8-byte big-endian length. Binding the sender and the uid means a copier
//     who replays another miner's commitment never passes Verify.
//   - Windows: a task's commits come in [posted, submit deadline] and its
//     reveals in the RevealBlocks after the deadline (TaskReveal); a gas
//     commit's reveals come in the RevealBlocks after the block that closed
//     its EVM block (GasReveal). Reports open only when reveals close
//     (ReportDeadline).
//   - Gas timing: a prediction counts when its commit's block time plus the
//     margin is at or before the EVM block's timestamp (GasCounts).
//   - Duplicates: within a task, the claim of an artifact hash with the
//     earliest commit height, then the lower uid, keeps it; every other
//     claim of the same hash scores 0 (Resolve, Precedes).
//
// A use, at reveal time:
//
//	c := commit.Commitment(chainID, sender, uid, payload, salt) // what the miner committed
//	err := commit.Verify(stored, chainID, sender, uid, payload, salt[:])
//	// err == nil: the reveal matches; errors.Is(err, commit.ErrMismatch): no submission
//	ok := commit.TaskReveal(task.SubmitDeadline, params).Contains(height)
//
// Errors wrap ErrInvalidInput (a field of the wrong size or range, named in an
// *InputError) or are ErrMismatch.
package commit
