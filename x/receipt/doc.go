// Package receipt owns the score receipt: the names, order and formatting of
// every field a receipt records, for each track, and the verifier that
// recomputes a receipt from those fields alone.
//
// One schema per track serves both sides. The builders (WorkflowInputs,
// ArenaParams, GasMemory, VotePowers, …) turn x/scoring's inputs, params and
// results into the receipt's []*subnetv1.Field exactly as the app records
// them; the verifier parses the same fields back through the same name
// tables, so a name changed in one place moves the writer and the reader.
//
// Verify recomputes one receipt with x/scoring (and quorum.WeightedMedian for
// the vote medians when the submission's votes are given) and compares every
// recorded value as a decimal:
//
//	chain := gen.ReceiptChain() // the Chain of a genesis.AppState
//	in, err := receipt.FromSubmission(sub, chain.Validators)
//	if err != nil { … }
//	in.Chain = chain // optional: also compare the recorded params with the chain's
//	res, err := receipt.Verify(in)
//	// err: a malformed receipt (errors.Is(err, receipt.ErrMalformed)), *NameError for
//	// unknown, missing or duplicate names; res.Verified, res.Mismatches otherwise
//
// Every receipt also carries a commit section (CommitFields: commit and
// reveal heights, the duplicate verdict). Verify checks it on every receipt
// and, for a duplicate (status "duplicate", nothing measured), checks only
// it: score 0, and the keeper's commit precedes the duplicate's
// (x/commit.Precedes).
//
// The package is pure like x/scoring: no storage, no clock, no floats, no map
// iteration reaching its output; the determinism guard covers it. It knows
// the chain only as a Chain value (params and validators), never the genesis
// schema: x/ imports nothing above it.
package receipt
