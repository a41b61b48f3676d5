// Package client talks to a validatord node through CometBFT's RPC: ABCI
// queries decoded into the app's typed views (app/wire), transactions signed
// and broadcast, their results with codes as typed errors, and one builder
// per message of proto/subnet/v1. The CLI (cmd/validatord), the demo and the
// load generator are thin shells over it.
//
//	c, err := client.Dial("tcp://127.0.0.1:26657")
//	st, err := c.NodeStatus(ctx)                      // chain id, height
//	s := client.NewSigner(c, st.ChainID, key)         // keeps the key's nonce
//	res, err := s.SendWait(ctx, client.RegisterMiner(), 30*time.Second)
//	uid, err := res.AttrU64(wire.EventMinerRegistered, "uid")
//	sub, err := c.Submission(ctx, 7)                  // *wire.SubmissionView
//
// A miner's payloads go on chain in two steps (docs/commit-reveal.md): a
// commit, whose salt a SaltStore in the key home keeps, then the reveal
// once the target's reveal window is open.
//
//	salts, err := client.NewSaltStore(home, st.ChainID, signer.PubKey()) // <home>/reveals/<chain id>/<key>/
//	uid, err := s.UID(ctx)                               // the account's miner uid
//	res, err := s.SubmitAndReveal(ctx, salts, uid, client.WorkflowPayload(task, hash))
//	// or in steps: s.CommitPayload(ctx, salts, uid, payload), later
//	// s.RevealPending(ctx, salts, target) (errors.Is(err, client.ErrRevealTooEarly) …)
//
// A Signer reads its key's next nonce from the node's pending state
// (NextNonce: "account/<hex>/pending", which counts the key's transactions
// the node's mempool holds), so transactions sent back to back, by one
// process or by several, each get their own nonce. Every transaction Send
// got accepted stays in the Signer's flight until a block shows it. One
// that no block shows LostAfter blocks later (DefaultLostAfter, 10) is
// lost: its node was killed or flushed with it in the mempool, or it was
// evicted behind a lost one. Recover, which WaitTx and SendWait run while
// they wait and Send after a nonce_future refusal, reads the committed
// nonce and sends every transaction from there on again as it was signed
// (same bytes, same hash); one whose nonce went to another transaction is
// signed again at the next free nonce (WaitTx follows it under its new
// hash). A caller that sends without waiting calls Recover now and then
// and Confirmed for what it saw in a block (scripts/loadgen's flood does):
//
//	s.LostAfter = 5                        // blocks; < 0: never recover
//	s.OnRecover = func(r client.Recovery) { … } // Resent, Resigned, Refused, Committed
//	res, err := s.Send(ctx, msg)           // no wait
//	…
//	rec, err := s.Recover(ctx)              // every second or block
//
// A refused or failed transaction is a *TxError and a query answered with a
// non-zero code a *QueryError; both carry the code and its name:
//
//	var te *client.TxError
//	if errors.As(err, &te) && te.Code == wire.CodeNonceUsed { … }
//
// A call that reached no node at all (refused, unknown host, no route) is a
// *NodeUnreachableError naming the address and the cause, whatever the call:
//
//	if errors.Is(err, client.ErrNodeUnreachable) { … } // start a node, or try another
//
// A key kept off the node signs a transaction prepared elsewhere; DryRun
// asks the node without broadcasting or keeping anything; AddScores finds the scores a
// committed transaction caused (its events, and its block's end):
//
//	u, err := client.NewUnsigned(chainID, pub, nonce, msg, nil) // JSON for the key's machine
//	signed, err := client.SignUnsigned(u, key)                  // no node needed
//	tx, err := client.DecodeSigned(fileBytes)
//	res, err := c.DryRun(ctx, tx)                               // nothing kept
//	res, err = c.BroadcastCommit(ctx, tx)
//	err = c.AddScores(ctx, &res)                                 // res.Scores
//
// A nonce refusal's Hint says what to do: the next nonce, and --nonce,
// --wait, or that earlier transactions of the key are still pending
// (NonceHint). TxError.NextNonce reads the next nonce that CheckTx's nonce
// refusal carries in its data (wire.DecodeNextNonce), never its log text.
//
// Every answer above is the node's word. QueryProof asks for a record of a
// provable store with its Merkle proof; client/lightproof checks such
// answers against headers CometBFT's light client verified.
//
// It imports app/wire and the proto types, never package app: the app's own
// tests may use it.
package client
