// Package commitment is the app hash's Merkle commitment to the records
// people check: each epoch's result, each submission with its score
// receipt, each miner's window, each gas agent, and the counters record
// (whose epoch count shows which epoch is the latest): the provable stores
// of app/wire. The app hash is a CometBFT simple Merkle map of the LtHash
// digest of the whole state (leaf "lthash") and one root per provable
// store, so a record is proven against a signed header with two of
// CometBFT's own value proofs ("simple:v"): the record under its key in its
// store, the store's root under its name in the app hash — the shape of a
// Cosmos store proof, which CometBFT's light client checks unchanged.
//
// A store's tree is an RFC 6962 Merkle tree (CometBFT's crypto/merkle
// hashing) over leaves by slot: a new record takes the oldest slot a deleted
// record freed, else the next index (slots, the free queue and the counts
// are kept in the hashed state), a changed record rewrites its leaf, a
// deleted one leaves the empty leaf until its slot is taken again, so a
// tree holds no more leaves than its store held records at once.
// The node hashes of complete subtrees are kept under
// store.PrefixRecordNode, outside the hashed set, so a block that changes k
// records of a tree of n leaves rewrites at most k·(log2 n + 1) nodes and
// reads as many: the commitment's cost follows what the block changed,
// never the number of records. A root is the fold of at most log2 n
// complete subtrees.
//
// Block execution calls Assign on the block's writes (before the LtHash:
// the slots are state), then Update (the nodes), then AppHash. A snapshot
// carries the slots and the records but no node: Rebuild makes the nodes
// again from them and the restore checks the app hash it gives.
package commitment
