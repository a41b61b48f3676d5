// Package lightproof reads records of the provable stores (app/wire's
// StoreEpoch, StoreSubmission, StoreWindow, StoreGasAgent) from a node and
// checks each against a header that CometBFT's own light client verified,
// so that an answer is believed because validators signed it, not because
// one node said it.
//
// A proven answer is checked in three steps: the primary node answers
// abci_query on /store/<name>/key with Prove, giving the record's bytes,
// the height h of the state read and two proof ops (record in store, store
// root in app hash); the light client (github.com/cometbft/cometbft/light)
// verifies the header at h+1, which carries the app hash of state h, from a
// trusted header on, cross-checked with at least one witness; the proof
// ops then must lead from the record to that app hash
// (wire.VerifyProof: what `cometbft light` runs).
//
//	v, err := lightproof.New(ctx, lightproof.Options{ChainID: "subnet-1",
//		Primary: "tcp://a:26657", Witnesses: []string{"tcp://b:26657"},
//		TrustHeight: 1200, TrustHash: hash})
//	ep, p, err := v.LatestEpoch(ctx)  // *subnetv1.Epoch, Proven
//	p.Header.Height, p.Header.AppHash, p.SignedPower, p.TotalPower
//	errors.Is(err, lightproof.ErrNotProven) // the proof did not lead to the header
//
// The trust root is a header height and hash the user got from somewhere
// they trust. Without a hash, New fetches the header at TrustHeight from the
// primary and every witness, requires them all to agree and trusts it on
// first use: Proven.TrustedOnFirstUse says so, and callers should warn.
//
// CometBFT's light client refuses to run without a witness, so New does too:
// a witness is another node's RPC, best one run by someone else.
package lightproof
