// Package sigverify decides whether ed25519 signatures are valid, one at a
// time or many at once on several cores, under one rule: ZIP-215
// (https://zips.z.cash/zip-0215), the rule CometBFT itself verifies votes
// with. ZIP-215 fixes the edge cases RFC 8032 leaves open (non-canonical
// point encodings are accepted, the equation is checked with the cofactor),
// which is what makes single and batch verification agree on every input;
// Go's crypto/ed25519 checks without the cofactor and refuses some
// encodings, so batching under its rule is impossible. Every signature
// crypto/ed25519 accepts is accepted here (TestZIP215AcceptsStdlib); the
// difference is confined to signatures no honest signer makes (small-order
// components, non-canonical encodings: TestZIP215SmallOrderVectors).
//
// Verify checks a list in batches (curve25519-voi's batch verifier): one
// multiscalar multiplication per batch instead of one double-scalar
// multiplication per signature, about 3× faster per signature on this
// project's machines (docs/performance.md). A batch that fails is verified
// one signature at a time, so the results are exactly Valid's, item by
// item. The batch's random coefficients come from a SHAKE256 of the batch's
// own contents, so the computation is the same on every node and every
// replay; choosing the contents cannot steer them (a batch that passes
// with an invalid signature needs a hash collision of the coefficients,
// probability about 2^-128 per attempt, as with random ones).
//
// Whether a signature is valid is a pure function of its bytes, and each
// batch writes only its own items' results, so the outcome is the same
// whatever the number of workers or their scheduling: the batches run on
// app/parallel, block execution's one package allowed to start goroutines.
// Start checks in the background, lowest batch first, so that block
// execution consumes results in order while later batches are still being
// verified.
//
// Keys seen more than once are kept expanded (precomputed tables, about
// 10 KB each) in a bounded two-generation cache: a registered miner's key
// is expanded once, a flood of fresh keys expands nothing and evicts
// nothing the honest keys need for more than a generation.
package sigverify
