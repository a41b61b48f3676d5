// Package parallel is where the consensus packages run work on several
// cores, and the only package of block execution that starts a goroutine
// (the determinism guard, scripts/detguard, allows a go statement here
// under a "det: pure parallel" line, and elsewhere only in app/snapshot's
// writer, after Commit; never under x/ or genesis/).
//
// The contract that keeps block execution deterministic: a task is a pure
// function of inputs nobody writes while the run lasts, and it writes only
// its own outputs (its own slot of a result slice). Which core ran a task,
// and when, then changes nothing a caller can see: the caller reads task
// i's outputs only after Wait(i), and combines results in task order.
// app/sigverify (signatures, checked ahead of the transactions that carry
// them) and app/store (the app hash's lane expansions) are its users.
package parallel
