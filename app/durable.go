package app

import "fmt"

// Durability is when a committed block's state reaches the disk: a node
// setting (app.toml [state] durability), not a consensus rule.
type Durability uint8

const (
	// DurableEveryBlock (the default): Commit returns only once the block's
	// writes are on disk (badger's synchronous writes).
	DurableEveryBlock Durability = iota
	// DurablePipelined: Commit hands the block's one badger transaction to
	// badger's writer and returns; the write (the WAL append and the
	// memtable inserts) and then its disk sync run in the background while
	// the next block executes, which reads the committed block's own writes
	// over the version before (store.Layer); the next Commit waits for both
	// before writing, and queries and snapshots wait for the write to land.
	// A killed process or a power loss can lose at most the last committed
	// block's state, which CometBFT's handshake replays from its own block
	// store at the next start (the app reports the height it holds;
	// CometBFT replays every block above it). Not the default: CometBFT's
	// ABCI spec expects the state persisted during Commit
	// (docs/architecture.md "Durability"; 11–20% faster on back-to-back
	// blocks, docs/performance.md).
	DurablePipelined
)

// ParseDurability reads app.toml's durability: "pipelined" or "block".
func ParseDurability(s string) (Durability, error) {
	switch s {
	case "", "block":
		return DurableEveryBlock, nil
	case "pipelined":
		return DurablePipelined, nil
	}
	return 0, fmt.Errorf("durability %q: want \"pipelined\" (a block's write and disk sync run while the next executes) or \"block\" (Commit waits for it)", s)
}

func (d Durability) String() string {
	if d == DurablePipelined {
		return "pipelined"
	}
	return "block"
}

// durable tracks the last committed block's write in pipelined mode: its
// landing in badger and then its disk sync, both after Commit returned.
type durable struct {
	mode   Durability
	noSync bool         // Config.NoSync: never synced (a scratch state)
	sync   func() error // the database's sync (badger's DB.Sync)
	flight *flight      // the block whose write is in flight, nil when none
	syncs  int64        // syncs started (tests count them)
	// onWait, when set (tests), is called by wait when it finds a block in
	// flight, before it blocks on it; onLand, when set (tests), by a
	// block's write once it has landed, before anyone is told.
	onWait func()
	onLand func()
}

// flight is one committed block's write, in the background.
type flight struct {
	landed chan struct{} // closed once the writes are readable in badger (or failed)
	done   chan struct{} // closed once they are on disk too (or failed)
	err    error         // the write's or the sync's error, read after done
}

// begin opens the flight of the block Commit writes (pipelined mode) and
// returns the callback to hand badger with its transaction: when the
// writes have landed it syncs them (unless the state is a scratch one).
func (d *durable) begin() func(error) {
	f := &flight{landed: make(chan struct{}), done: make(chan struct{})}
	sync, noSync, onLand := d.sync, d.noSync, d.onLand
	if !noSync {
		d.syncs++
	}
	d.flight = f
	return func(err error) {
		if onLand != nil {
			onLand()
		}
		close(f.landed)
		if err == nil && !noSync {
			err = sync()
		}
		f.err = err
		close(f.done)
	}
}

// abandon forgets a flight whose transaction never reached badger.
func (d *durable) abandon() { d.flight = nil }

// landed is the channel closed once the block in flight is readable in
// badger, nil when none is in flight.
func (d *durable) landed() <-chan struct{} {
	if d.flight == nil {
		return nil
	}
	return d.flight.landed
}

// wait blocks until the block in flight (if any) is written and synced
// and returns the error of either: Commit calls it before writing the
// next block, Close before closing the database.
func (d *durable) wait() error {
	f := d.flight
	if f == nil {
		return nil
	}
	if d.onWait != nil {
		d.onWait()
	}
	<-f.done
	d.flight = nil
	return f.err
}

// now syncs the database at once (after a state-sync restore, whose state
// CometBFT cannot replay from its block store), unless the state is a
// scratch one.
func (d *durable) now() error {
	if err := d.wait(); err != nil {
		return err
	}
	if d.noSync || d.mode != DurablePipelined {
		return nil // synchronous writes already reached the disk
	}
	return d.sync()
}
