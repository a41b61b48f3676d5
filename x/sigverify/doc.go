// Package sigverify verifies many ed25519 signatures at once on several
// cores. Whether a signature is valid is a pure function of its bytes, and
// the results come back in the items' order, so the outcome is the same
// whatever the number of workers or their scheduling: that is why this is
// the one place of the consensus packages allowed to start goroutines (the
// determinism guard accepts a go statement only under a "det: pure
// parallel" line, and only in this package). Each worker verifies with
// crypto/ed25519, the same function the app uses one signature at a time,
// so the rule a signature meets does not depend on which path checked it.
package sigverify
