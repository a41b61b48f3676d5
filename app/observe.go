package app

import (
	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// Observation: read-only accessors for a process that watches the node
// (package metrics). They read what the block execution already computed or
// the committed state; none of them changes a thing, so whether anything
// calls them is no part of consensus.

// BlockWork is what the block awaiting Commit used of its budgets
// (x/budget.Limits): units of work of its transactions and of its end of
// block, the bytes it writes, and the end-of-block steps that carried work
// to the next block.
type BlockWork struct {
	Height       int64
	TxWork       int64
	TxWorkLimit  int64
	EndWork      int64
	EndWorkLimit int64
	Written      int
	WriteLimit   int // BlockWrites + EndWrites: what a block's transactions and end may write
	Carried      []string
	Starved      bool
	Rejected     int
	// Records is the provable records the block changed; TreeNodes and
	// TreeBytes the record trees' nodes it wrote for them and their bytes
	// (key + value + store.EntryOverhead each), outside Written.
	Records, TreeNodes, TreeBytes int
}

// PendingWork is the BlockWork of the block FinalizeBlock executed and
// Commit has not written yet; false when there is none (call it between the
// two).
func (a *App) PendingWork() (BlockWork, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	res := a.pending
	if res == nil {
		return BlockWork{}, false
	}
	return BlockWork{Height: res.height, TxWork: res.txWork, TxWorkLimit: a.limits.TxWork, EndWork: res.endWork,
		EndWorkLimit: a.limits.EndWork, Written: res.written, WriteLimit: a.limits.BlockWrites + a.limits.EndWrites,
		Carried: append([]string(nil), res.carried...), Starved: res.starved, Rejected: res.rejected,
		Records: res.records, TreeNodes: res.nodes, TreeBytes: res.tree.Size()}, true
}

// DueQueues names the end of block's schedules (store.Due kinds), in the
// order of their kinds.
var DueQueues = []struct {
	Name string
	Kind byte
}{
	{"tasks", store.DueTasks},
	{"truths", store.DueTruths},
	{"arena", store.DueArena},
	{"gas_close", store.DueGasClose},
	{"proposals", store.DueProposals},
	{"retire", store.DueRetire},
	{"gas_pause", store.DueGasPause},
}

// QueueBacklog is one schedule's work that is due by the committed height
// and not done: the work the end of block carried over.
type QueueBacklog struct {
	Name   string
	Items  int   // entries due at or before the committed height, not done
	Oldest int64 // the height the oldest of them fell due at (0: none)
	Capped bool  // counting stopped at the limit: at least Items
}

// Backlog counts, in the committed state, each schedule's entries that fell
// due at or before the committed height and are still undone: what the end
// of block carried to the next block (retire: due retain_state_blocks
// after the entry's height, as app/retain takes them). It walks the schedules in a throwaway
// overlay (nothing is written) and stops a schedule at limit entries.
func (a *App) Backlog(limit int) (height int64, out []QueueBacklog) {
	q, done := a.committedView()
	defer done()
	if q.Chain == nil {
		return q.Height, nil
	}
	for _, dq := range DueQueues {
		by := q.Height
		if dq.Kind == store.DueRetire { // retention takes an entry retain_state_blocks after its height
			r := q.Chain.Gen.Chain.RetainStateBlocks
			if r <= 0 || by <= r {
				out = append(out, QueueBacklog{Name: dq.Name})
				continue
			}
			by -= r
		}
		out = append(out, backlogOf(q.St, dq.Name, dq.Kind, by, limit))
	}
	return q.Height, out
}

// backlogOf takes the schedule's due entries one by one (store.Due.Next),
// marking each done in an overlay of its own so the next one comes; the
// heights it reads are bounded too (4 × limit + 1000), and running out of
// them also reports Capped.
func backlogOf(st store.State, name string, kind byte, height int64, limit int) QueueBacklog {
	b := QueueBacklog{Name: name}
	due := store.Due{St: store.State{O: store.NewOverlay(st.O)}, Kind: kind}
	looks, maxLooks := 0, 4*limit+1000
	look := func() bool { looks++; return looks <= maxLooks }
	for {
		it, ok := due.Next(height, look)
		if !ok {
			b.Capped = looks > maxLooks
			return b
		}
		if b.Items == limit {
			b.Capped = true
			return b
		}
		if b.Items == 0 {
			b.Oldest = it.Height
		}
		b.Items++
		due.Done(it)
	}
}

// WalkState calls fn with every entry of the committed state in key order,
// the meta entries excluded (what a snapshot of the height carries): its
// key, valid only during the call, and the value's length. It reads every
// key, so it is for a tool that samples the state's size now and then (the
// subnet simulation, internal/simsubnet; the retention tests), never for
// block execution.
func (a *App) WalkState(fn func(key []byte, valueSize int64)) {
	q, done := a.committedView()
	defer done()
	if q.Snap == nil {
		return
	}
	it := q.Snap.Txn.NewIterator(badger.DefaultIteratorOptions)
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		if k := item.Key(); len(k) == 0 || k[0] != store.PrefixMeta {
			fn(k, item.ValueSize())
		}
	}
}

// Counts reads the counts the committed state keeps as it goes (the
// "counts" query: a few keys whatever the state's size); false before the
// chain is initialised.
func (a *App) Counts() (*wire.CountsView, bool) {
	q, done := a.committedView()
	defer done()
	if q.Chain == nil {
		return nil, false
	}
	return q.Counts(), true
}

// EndBlockSteps names the end of block's steps in order (the names
// BlockWork.Carried uses).
func EndBlockSteps() []string {
	out := make([]string, len(endBlockSteps))
	for i, s := range endBlockSteps {
		out[i] = s.name
	}
	return out
}
