// Package replay re-executes a chain out of a stopped node's CometBFT block store into a fresh
// application and checks, height by height, that the application computes the app hash the
// chain committed to. It is the engine behind `validatord replay` and `validatord export
// --height`; it never writes to the node's own stores.
//
// The node must be stopped: the block store and state store are opened read-only, and
// goleveldb refuses to open a directory that a running node holds locked.
//
// Usage:
//
//	src, err := replay.OpenSource(conf) // conf: the node's CometBFT config (home set)
//	if err != nil { ... }
//	defer src.Close()
//	res, err := replay.Run(ctx, src, target, replay.Options{Progress: os.Stderr})
//	var mm *replay.MismatchError
//	if errors.As(err, &mm) { ... mm.Height, mm.Expected, mm.Computed, mm.Changes ... }
//	defer res.Close()
//
// A Target says how to open a fresh application in a directory and how to list the state
// entries it left there, so that a mismatch can be explained by the state changes of the block.
package replay
