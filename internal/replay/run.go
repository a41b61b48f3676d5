package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	abcicli "github.com/cometbft/cometbft/abci/client"
	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/libs/log"
	"github.com/cometbft/cometbft/proxy"
	sm "github.com/cometbft/cometbft/state"
	"github.com/cometbft/cometbft/types"
)

// Options tune a replay.
type Options struct {
	// To is the last height to execute; 0 means the last height whose app hash is known.
	To int64
	// WorkDir is the parent of the temporary state directories; "" means os.TempDir().
	WorkDir string
	// Progress receives progress lines; nil means none.
	Progress io.Writer
	// ProgressEvery is the interval between progress lines (default 2s).
	ProgressEvery time.Duration
	// Now is the clock of the progress lines (default time.Now).
	Now func() time.Time
}

// Result is a replay that matched at every height. The replayed application is still open:
// the caller may query it, then must call Close.
type Result struct {
	From, To int64 // first and last height executed and checked
	Heights  int64 // heights checked
	Txs      int64 // transactions re-executed
	AppHash  []byte
	// LastFromState is true when the last height was checked against the state store's
	// app hash (no block To+1 in the store).
	LastFromState bool
	App           abci.Application
	Dir           string

	close  func() error
	closed bool
}

// CloseApp closes the replayed application, leaving its directory for reading (e.g. with
// DumpBadger). It is safe to call more than once.
func (r *Result) CloseApp() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return r.close()
}

// Close closes the replayed application and removes its directory.
func (r *Result) Close() error {
	return errors.Join(r.CloseApp(), os.RemoveAll(r.Dir))
}

// Run re-executes src's chain from genesis into a fresh t application in a temporary
// directory, checking every height's app hash. On the first mismatch it returns a
// *MismatchError carrying the state changes of that block.
func Run(ctx context.Context, src *Source, t Target, o Options) (*Result, error) {
	from := initialHeight(src.Genesis)
	if base := src.Blocks.Base(); base > from {
		return nil, fmt.Errorf("%w (base %d, initial height %d)", ErrPruned, base, from)
	}
	last := src.LastHeight()
	to := o.To
	if to == 0 {
		to = last
	}
	if to < 0 || to > last {
		return nil, fmt.Errorf("height %d: want 1..%d (the node's last checkable height)", to, last)
	}
	res, err := execute(ctx, src, t, o, to, true)
	var mm *MismatchError
	if errors.As(err, &mm) && t.Dump != nil {
		mm.Changes, mm.ChangesNote, mm.DiffErr = blockChanges(ctx, src, t, o, mm.Height)
	}
	if err != nil {
		return nil, err
	}
	res.From = from
	return res, nil
}

// execute replays heights from the initial height to `to` into a new directory. With check,
// every app hash is compared; on a mismatch the directory is closed and removed.
func execute(ctx context.Context, src *Source, t Target, o Options, to int64, check bool) (*Result, error) {
	dir, err := os.MkdirTemp(o.WorkDir, "validatord-replay-")
	if err != nil {
		return nil, err
	}
	app, closeApp, err := t.Open(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("open application: %w", err)
	}
	res := &Result{App: app, Dir: dir, To: to, close: closeApp}
	if err := drive(ctx, src, o, res, check); err != nil {
		res.Close()
		return nil, err
	}
	return res, nil
}

// drive sends InitChain then every block up to res.To, as CometBFT's handshake would.
func drive(ctx context.Context, src *Source, o Options, res *Result, check bool) error {
	conn := proxy.NewAppConnConsensus(abcicli.NewLocalClient(nil, res.App), proxy.NopMetrics())
	from := initialHeight(src.Genesis)
	hash, err := initChain(ctx, conn, src)
	if err != nil {
		return err
	}
	if check && src.Blocks.Height() >= from {
		want := src.Blocks.LoadBlockMeta(from).Header.AppHash
		if !bytes.Equal(hash, want) {
			return &MismatchError{Height: from - 1, Expected: want, Computed: hash, ExpectedFrom: fmt.Sprintf("header of block %d (InitChain)", from)}
		}
	}
	res.AppHash = hash
	p := newProgress(o.Progress, o.Now, o.ProgressEvery, from, res.To)
	loader := &blockLoader{src: src}
	for h := from; h <= res.To; h++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := step(conn, src, res, h, check, loader); err != nil {
			return err
		}
		if check {
			p.done(h, h == res.To)
		}
	}
	return nil
}

// initChain sends InitChain and returns the app hash the chain starts from.
func initChain(ctx context.Context, conn proxy.AppConnConsensus, src *Source) ([]byte, error) {
	resp, err := conn.InitChain(ctx, InitChainRequest(src.Genesis))
	if err != nil {
		return nil, fmt.Errorf("InitChain: %w", err)
	}
	if len(resp.AppHash) > 0 {
		return resp.AppHash, nil
	}
	return src.Genesis.AppHash, nil
}

// blockLoader loads blocks from the block store, keeping the last one
// loaded (step loads block h + 1 for Prefetch, then needs it as block h).
type blockLoader struct {
	src    *Source
	height int64
	block  *types.Block
}

func (l *blockLoader) load(h int64) *types.Block {
	if l.block == nil || l.height != h {
		l.block, l.height = l.src.Blocks.LoadBlock(h), h
	}
	return l.block
}

// Prefetcher is an application that can start checking a later block's
// transactions in the background (app.App does: their signatures).
type Prefetcher interface {
	Prefetch(height int64, txs [][]byte)
}

// step executes and commits block h, then checks its app hash when asked.
func step(conn proxy.AppConnConsensus, src *Source, res *Result, h int64, check bool, loader *blockLoader) error {
	block := loader.load(h)
	if block == nil {
		return fmt.Errorf("block %d is missing from the block store", h)
	}
	// An app that can check the next block's signatures while this one
	// executes is given them (app.App.Prefetch): the same results, sooner.
	if p, ok := res.App.(Prefetcher); ok && h < res.To {
		if next := loader.load(h + 1); next != nil {
			txs := make([][]byte, len(next.Txs))
			for i, tx := range next.Txs {
				txs[i] = tx
			}
			p.Prefetch(h+1, txs)
		}
	}
	hash, err := execCommit(h, func() ([]byte, error) {
		return sm.ExecCommitBlock(conn, block, log.NewNopLogger(), src.States, initialHeight(src.Genesis))
	})
	if err != nil {
		return err
	}
	res.AppHash = hash
	res.Txs += int64(len(block.Txs))
	if !check {
		return nil
	}
	want, byState, err := src.ExpectedAppHash(h)
	if err != nil {
		return err
	}
	if !bytes.Equal(hash, want) {
		from := fmt.Sprintf("header of block %d", h+1)
		if byState {
			from = "state store"
		}
		return &MismatchError{Height: h, Expected: want, Computed: hash, ExpectedFrom: from}
	}
	res.Heights++
	res.LastFromState = byState
	return nil
}

// execCommit runs f, turning CometBFT's panics on a damaged state store (missing validator
// sets) into errors.
func execCommit(h int64, f func() ([]byte, error)) (hash []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("height %d: %v", h, r)
		}
	}()
	hash, err = f()
	if err != nil {
		return nil, fmt.Errorf("height %d: %w", h, err)
	}
	return hash, nil
}

// blockChanges replays to h and to h-1 in two fresh directories and diffs their full state.
// It is only called on a mismatch. An InitChain mismatch (h below the initial height) is
// explained by the state after the first block's Commit, which is when an application that
// persists only in Commit writes InitChain's state; the state before it is empty.
func blockChanges(ctx context.Context, src *Source, t Target, o Options, h int64) ([]Change, string, error) {
	from := initialHeight(src.Genesis)
	if h < from {
		after, err := stateAt(ctx, src, t, o, from)
		if err != nil {
			return nil, "", fmt.Errorf("state at %d: %w", from, err)
		}
		note := fmt.Sprintf("InitChain's state together with block %d's changes (both are persisted by block %d's Commit)", from, from)
		return Diff(nil, after), note, nil
	}
	after, err := stateAt(ctx, src, t, o, h)
	if err != nil {
		return nil, "", fmt.Errorf("state at %d: %w", h, err)
	}
	before, err := stateAt(ctx, src, t, o, h-1) // h-1 below the initial height: after InitChain
	if err != nil {
		return nil, "", fmt.Errorf("state at %d: %w", h-1, err)
	}
	return Diff(before, after), "", nil
}

// stateAt replays (unchecked) to height h and lists the state entries there.
func stateAt(ctx context.Context, src *Source, t Target, o Options, h int64) ([]Entry, error) {
	o.Progress = nil
	res, err := execute(ctx, src, t, o, h, false)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	if err := res.CloseApp(); err != nil {
		return nil, err
	}
	return t.Dump(res.Dir)
}
