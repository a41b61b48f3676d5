package app

import "testing"

// TestStoreKeepsNoConflictSets: the state's badger runs without conflict
// detection. With it on, badger in managed mode holds every committed
// transaction's written-key fingerprints until SetDiscardTs passes the
// transaction's version: a node keeping 14,400 versions (or all of them)
// would hold the key sets of that many blocks in memory for nothing, since
// Commit's is the only writing transaction. The on-disk and the in-memory
// stores both.
func TestStoreKeepsNoConflictSets(t *testing.T) {
	for _, dir := range []string{t.TempDir(), ""} {
		n := newNodeConfig(t, Config{DataDir: dir, KeepVersions: DefaultKeepVersions}, testGenesis(2))
		n.finalize()
		if n.app.db.Opts().DetectConflicts {
			t.Errorf("store at %q: badger detects conflicts, and so keeps each block's written keys", dir)
		}
	}
}
