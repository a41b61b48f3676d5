// Package mempoolconn is the ABCI client validatord gives CometBFT: the
// in-process client (proxy.NewLocalClientCreator's) for every call but
// CheckTx, which it queues and answers in runs on the mempool's
// connection, and answers without keeping anything when CometBFT's /check_tx
// RPC asks.
//
// CometBFT's mempool sends each transaction to the app on its own
// (CheckTxAsync) and reads the answer from a callback; with the plain local
// client the call runs at once, so the app sees one transaction at a time
// and must verify its signature alone. Here CheckTxAsync only queues the
// request and returns, as a socket client's does; one worker takes what
// has queued while it was busy (at most MaxRun requests), hands the run to
// the app (Checker: app.App.CheckTxs, which verifies the run's signatures
// in one batch) under the same lock the other connections take, and
// answers each request in order: the mempool's response callback first,
// then the request's own, exactly as the socket client does. An idle node
// answers a lone transaction at once; under load the queue grows while a
// run is checked, and runs grow with it.
//
// What the mempool relies on is kept:
//
//   - answers come in the order the requests were made (a sender's nonces,
//     and the recheck's walk over the mempool, depend on it);
//
//   - Flush returns only when every queued request has been answered
//     (CometBFT flushes before Commit and before each recheck, so no
//     first-time answer arrives while a recheck runs);
//
//   - CheckTxAsync never fails: the mempool panics if it does. A request
//     made after Stop is answered at once with code_internal.
//
//   - The queue holds at most QueueSize requests; CheckTxAsync waits for
//     room, which slows peers and RPC senders instead of growing memory.
//
//     creator := mempoolconn.NewClientCreator(app, mempoolconn.SharedLock)
//     node.NewNode(cfg, pv, nodeKey, creator, ...)
package mempoolconn
