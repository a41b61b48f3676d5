// Package demo is the demo mode of the load tool (scripts/loadgen): it drives a
// short load through a validatord node's RPC for every track and prints each track's leaderboard and the epoch weights. Miners
// commit to their payloads, then reveal them once the commit window has
// closed (commit-reveal, docs/commit-reveal.md); the demo prints the commit
// and reveal heights, one miner's copy of another's artifact turning into a
// duplicate with score 0, why a gas agent whose bids were never included sits
// at 1 − w_inclusion, and the commit section of a few receipts.
//
// It builds and starts nothing: scripts/demo.sh builds validatord (or takes
// make build's), creates a
// throw-away home with `validatord init`, starts the node and then runs
//
//	loadgen demo --home HOME --node tcp://127.0.0.1:36657 --miners 10
//
// The validator's report key is read from HOME/keys/validator.json; the
// miners' keys are derived from fixed seeds, so a run on a fresh chain is
// reproducible (and a second run on the same chain fails at registration).
package demo
