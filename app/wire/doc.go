// Package wire is the app's client-facing surface in one leaf package: what a
// client and the app must agree on, byte for byte, and nothing else.
//
//   - codes.go: the result codes of CheckTx and FinalizeBlock (Codes, CodeName)
//   - tx.go: the signed transaction envelope (SignTx, DecodeTx)
//   - events.go: the event types of FinalizeBlock results
//   - fields.go: the field rules shared by validity and clients
//   - query.go: the result codes of ABCI queries (QueryOK, …)
//   - views*.go: the JSON answer of every query, one struct per answer
//     (StatusView, SubmissionView, …), encoded exactly as docs/queries.md
//     says: every field present, zeros written out, null where a key does not
//     apply, fields in a fixed order.
//
// The app builds the views from its state; clients decode the same types:
//
//	var sub wire.SubmissionView
//	_ = json.Unmarshal(answer, &sub)
//	if sub.Receipt != nil { fmt.Println(sub.Status, sub.Receipt.Score) }
//
// It imports only the proto types, x/scoring and CometBFT's ABCI types: never package
// app, storage or anything heavy, so that every client can import it.
package wire
