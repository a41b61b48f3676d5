// Package artifact keeps and moves the artifacts miners produce. The chain
// holds only an artifact's hash (Hash: sha256 of its bytes); the bytes travel
// off the chain. A miner keeps its artifacts in a Store, publishes one only
// once its reveal is on chain, and serves published ones over HTTP (Handler,
// Serve). A validator downloads one with Fetch, which is bounded in size and
// time, follows no redirects, and checks the bytes against the hash.
package artifact
