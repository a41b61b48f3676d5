// Package query is the querier: it answers the JSON views of docs/queries.md
// (the wire.…View types) from a read-only view of one committed state. It
// never sees the App: the shell hands it the state (a store.State over a
// badger read transaction at a version, or InitChain's writes), the chain
// in force after that height, the height and app hash, and the track units
// by name for the aggregates. Answer may panic on a state that breaks an
// invariant; the shell's Query recovers.
//
//	v := &query.View{Chain: chain, Height: h, AppHash: appHash, St: st, Snap: snap, Track: trackUnit}
//	answer, qerr := v.Answer("submission/7") // a *wire.SubmissionView, or a *query.Error with a wire.Query… code
//	bz, _ := json.Marshal(answer)
package query
