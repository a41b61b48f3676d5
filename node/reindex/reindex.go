package reindex

import (
	"errors"
	"fmt"

	dbm "github.com/cometbft/cometbft-db"
	abcitypes "github.com/cometbft/cometbft/abci/types"
	cfg "github.com/cometbft/cometbft/config"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/state/indexer"
	blockidxkv "github.com/cometbft/cometbft/state/indexer/block/kv"
	"github.com/cometbft/cometbft/state/txindex"
	"github.com/cometbft/cometbft/state/txindex/kv"
	"github.com/cometbft/cometbft/store"
	"github.com/cometbft/cometbft/types"
)

// Stores are what reindexing reads (blocks, FinalizeBlock responses) and
// writes (the tx and block-event indexes) of a stopped node.
type Stores struct {
	Blocks      sm.BlockStore
	State       sm.Store
	Txs         txindex.TxIndexer
	BlockEvents indexer.BlockIndexer
	close       []dbm.DB
}

// ErrNoIndexer: the node's config.toml indexes nothing ([tx_index] indexer
// = "null") or indexes into PostgreSQL, which this package does not check.
var ErrNoIndexer = errors.New(`reindex: [tx_index] indexer is not "kv"`)

// Open opens a stopped node's block store, state store and kv indexes.
// Close them before the node starts (goleveldb allows one opener).
func Open(conf *cfg.Config) (*Stores, error) {
	if conf.TxIndex.Indexer != "kv" {
		return nil, ErrNoIndexer
	}
	s := &Stores{}
	open := func(id string) (dbm.DB, error) {
		db, err := cfg.DefaultDBProvider(&cfg.DBContext{ID: id, Config: conf})
		if err != nil {
			return nil, fmt.Errorf("reindex: open %s: %w", id, err)
		}
		s.close = append(s.close, db)
		return db, nil
	}
	bdb, err := open("blockstore")
	if err != nil {
		return nil, err
	}
	sdb, err := open("state")
	if err != nil {
		s.Close()
		return nil, err
	}
	idb, err := open("tx_index")
	if err != nil {
		s.Close()
		return nil, err
	}
	s.Blocks = store.NewBlockStore(bdb)
	s.State = sm.NewStore(sdb, sm.StoreOptions{DiscardABCIResponses: conf.Storage.DiscardABCIResponses})
	s.Txs = kv.NewTxIndex(idb)
	s.BlockEvents = blockidxkv.New(dbm.NewPrefixDB(idb, []byte("block_events")))
	return s, nil
}

// Close closes the databases Open opened.
func (s *Stores) Close() error {
	var errs []error
	for _, db := range s.close {
		errs = append(errs, db.Close())
	}
	s.close = nil
	return errors.Join(errs...)
}

// indexed reports whether height h's block events and every one of its
// transactions are in the indexes. A block's transactions are written in
// one batch, so its first and last transactions stand for all of them.
func (s *Stores) indexed(h int64) (bool, error) {
	ok, err := s.BlockEvents.Has(h)
	if err != nil || !ok {
		return false, err
	}
	meta := s.Blocks.LoadBlockMeta(h)
	if meta == nil {
		return false, fmt.Errorf("reindex: block %d is not in the block store", h)
	}
	if meta.NumTxs == 0 {
		return true, nil
	}
	block := s.Blocks.LoadBlock(h)
	if block == nil {
		return false, fmt.Errorf("reindex: block %d is not in the block store", h)
	}
	for _, tx := range []types.Tx{block.Txs[0], block.Txs[len(block.Txs)-1]} {
		r, err := s.Txs.Get(tx.Hash())
		if err != nil || r == nil || r.Height != h {
			return false, err
		}
	}
	return true, nil
}

// top is the last height both stored and executed: a block the block store
// holds beyond the state store's last height has no FinalizeBlock response
// yet (the node stopped between the two writes); CometBFT's handshake
// executes it again at start, and indexes it then.
func (s *Stores) top() (int64, error) {
	st, err := s.State.Load()
	if err != nil {
		return 0, fmt.Errorf("reindex: state store: %w", err)
	}
	return min(s.Blocks.Height(), st.LastBlockHeight), nil
}

// Missing returns, in ascending order, the heights in [from, to] (clipped
// to the executed blocks) whose block events or transactions are not indexed.
func (s *Stores) Missing(from, to int64) ([]int64, error) {
	top, err := s.top()
	if err != nil {
		return nil, err
	}
	from, to = max(from, s.Blocks.Base(), 1), min(to, top)
	var out []int64
	for h := from; h <= to; h++ {
		ok, err := s.indexed(h)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// RecentMissing scans down from the block store's top and returns the
// heights that are not indexed, stopping after quiet consecutive indexed
// heights or limit heights in all: a crash leaves a hole only in the
// heights the indexer had not finished, the last ones before it.
func (s *Stores) RecentMissing(quiet, limit int64) ([]int64, error) {
	top, err := s.top()
	if err != nil {
		return nil, err
	}
	base := max(s.Blocks.Base(), 1)
	var out []int64
	run := int64(0)
	for h := top; h >= base && h > top-limit && run < quiet; h-- {
		ok, err := s.indexed(h)
		if err != nil {
			return nil, err
		}
		if ok {
			run++
			continue
		}
		run = 0
		out = append([]int64{h}, out...)
	}
	return out, nil
}

// Top is the last height Missing and Heights can index: stored and executed.
func (s *Stores) Top() (int64, error) { return s.top() }

// Heights indexes each height again from the block store and its stored
// FinalizeBlock response: the block's events, then its transactions in one
// batch, as CometBFT's indexer service does. Entries already there are
// rewritten with the same values.
func (s *Stores) Heights(heights []int64) error {
	for _, h := range heights {
		block := s.Blocks.LoadBlock(h)
		if block == nil {
			return fmt.Errorf("reindex: block %d is not in the block store", h)
		}
		resp, err := s.State.LoadFinalizeBlockResponse(h)
		if err != nil {
			return fmt.Errorf("reindex: the FinalizeBlock response of height %d: %w (discard_abci_responses keeps none)", h, err)
		}
		if len(resp.TxResults) != len(block.Txs) {
			return fmt.Errorf("reindex: height %d: %d tx results for %d txs", h, len(resp.TxResults), len(block.Txs))
		}
		if err := s.BlockEvents.Index(types.EventDataNewBlockEvents{Height: h, Events: resp.Events, NumTxs: int64(len(block.Txs))}); err != nil {
			return fmt.Errorf("reindex: block events of height %d: %w", h, err)
		}
		if len(block.Txs) == 0 {
			continue
		}
		batch := txindex.NewBatch(int64(len(block.Txs)))
		for i, r := range resp.TxResults {
			if err := batch.Add(&abcitypes.TxResult{Height: h, Index: uint32(i), Tx: block.Txs[i], Result: *r}); err != nil {
				return fmt.Errorf("reindex: tx %d of height %d: %w", i, h, err)
			}
		}
		if err := s.Txs.AddBatch(batch); err != nil {
			return fmt.Errorf("reindex: txs of height %d: %w", h, err)
		}
	}
	return nil
}
