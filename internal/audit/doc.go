// Package audit is what an auditor runs against a stopped node: a replay of
// its block store into a fresh app, summarised as the heights checked, the
// final app hash and a digest of every stored score (or, at the first height
// that differs, the keys that block changed, decoded); and an export of the
// app state, as stored or as rebuilt by replay at a height. `validatord
// replay` and `validatord export` are flag shims over it.
//
//	src, err := replay.OpenSource(cometConfig)
//	sum, err := audit.Replay(ctx, src, replay.Options{To: 0, Progress: os.Stderr})
//	var mm *audit.Mismatch // errors.As(err, &mm) at the first differing height
package audit
