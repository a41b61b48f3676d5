// Package membership owns the rules of a miner uid's lifecycle
// (docs/membership.md): the proof of work a registration pays, the
// difficulty that follows demand, the per-block cap, immunity, and which uid
// a registration replaces when every uid is taken. It is pure: it imports
// only the standard library, takes heights as arguments and never reads
// state, a clock or randomness.
//
//   - Work: Seal is SHA-256 over DomainTag, then the chain id, the sender's
//     key and a recent block hash, each behind an 8-byte big-endian length,
//     then an 8-byte nonce. Meets: the seal, a big-endian 256-bit integer,
//     times the difficulty fits in 256 bits, so the expected work is
//     difficulty hashes. CheckWork adds freshness (the bound block is one of
//     the MaxPowAgeBlocks before the including one); Solve is the client's
//     search.
//   - Rate: at most MaxRegistrationsPerBlock per block (CheckBlockLimit); at
//     every AdjustmentInterval-th height (AdjustAt) the difficulty becomes
//     NextDifficulty(current, registrations since the last adjustment).
//   - Replacement: a uid is Immune for ImmunityBlocks blocks from its
//     registration; when every uid is taken, a registration replaces the
//     first non-immune uid in PruneOrder (lowest epoch weight, earliest
//     registration, lowest uid) while more than MinNonImmune are
//     non-immune (Choose). An app that keeps an index of PruneKeys (byte
//     order = PruneOrder) uses ChooseOrdered and reads only up to the first
//     non-immune entry.
//
// A use, in the block at height h, for a registration by sender:
//
//	w := membership.Work{Height: tx.WorkHeight, BlockHash: hashes[tx.WorkHeight], Nonce: tx.Nonce}
//	if err := membership.CheckWork(chainID, sender, w, h, difficulty, p); err != nil {
//		// errors.Is(err, membership.ErrStaleWork) or ErrInsufficientWork: its own code
//	}
//	if err := membership.CheckBlockLimit(registeredInBlock, p); err != nil { /* ErrBlockFull */ }
//	uid, ok := membership.ChooseOrdered(pruneIndex, nonImmune, h, p) // when every uid is taken
//	// ok == false: refused, no uid can be replaced now
//	// ... and at the end of the block:
//	if membership.AdjustAt(h, p) {
//		difficulty, registrations = membership.NextDifficulty(difficulty, registrations, p), 0
//	}
//
// A client finds its nonce with Solve(chainID, sender, blockHash,
// difficulty, start, tries), in slices, moving to each new block hash.
//
// Params are validated with Validate(maxUIDs, ScoringLag(...)); errors are
// *InputError (wrapping ErrInvalidInput) naming the field and the rule.
package membership
