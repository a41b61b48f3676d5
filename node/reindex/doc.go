// Package reindex keeps a node's CometBFT tx and block-event indexes whole.
// CometBFT indexes a block's events after committing it, in the background,
// block events first and then the block's transactions; a node killed in
// between keeps the block and the state but not their index entries, and
// nothing in CometBFT indexes them again, so /tx and /tx_search miss those
// transactions on that node for good. Missing finds the heights
// whose entries are absent; Heights writes them again from the block store
// and the FinalizeBlock responses the state store kept, exactly as the
// indexer would have. validatord start heals the last heights before it
// serves RPC; validatord reindex does any range on demand.
package reindex
