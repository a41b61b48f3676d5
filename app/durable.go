package app

import (
	"fmt"

	"github.com/scoringsubnet/validatord/x/parallel"
)

// Durability is when a committed block's state reaches the disk: a node
// setting (app.toml [state] durability), not a consensus rule.
type Durability uint8

const (
	// DurableEveryBlock (the default): Commit returns only once the block's
	// writes are on disk (badger's synchronous writes).
	DurableEveryBlock Durability = iota
	// DurablePipelined: Commit writes the block's one badger transaction
	// and returns; the disk sync of those writes runs in the background
	// while the next block executes, and the next Commit waits for it
	// before writing. A crash of the process loses nothing (the writes are
	// in the kernel's page cache); a power loss can lose at most the last
	// committed block's state, which CometBFT's handshake replays from its
	// own block store at the next start (the app reports the height it
	// holds; CometBFT replays every block above it). Not the default: on
	// the reference machine it measured no faster (docs/performance.md,
	// issue 13); it is for disks whose sync is slow.
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
	return 0, fmt.Errorf("durability %q: want \"pipelined\" (the disk sync of a block runs while the next executes) or \"block\" (Commit waits for it)", s)
}

func (d Durability) String() string {
	if d == DurablePipelined {
		return "pipelined"
	}
	return "block"
}

// durable tracks the background disk sync of the last committed block.
type durable struct {
	mode   Durability
	noSync bool          // Config.NoSync: never synced (a scratch state)
	sync   func() error  // the database's sync (badger's DB.Sync)
	run    *parallel.Run // the sync in flight, nil when none
	err    error         // its result, read after run.Wait
	syncs  int64         // syncs started (tests count them)
	// onWait, when set (tests), is called by wait when it finds a sync in
	// flight, before it blocks on it.
	onWait func()
}

// start begins the sync of the writes committed so far (pipelined mode).
func (d *durable) start() {
	if d.noSync || d.mode != DurablePipelined {
		return
	}
	d.syncs++
	sync := d.sync
	d.run = parallel.Start(1, 1, func(int) { d.err = sync() })
}

// wait blocks until the sync in flight (if any) is done and returns its
// error: Commit calls it before writing the next block, Close before
// closing the database.
func (d *durable) wait() error {
	if d.run == nil {
		return nil
	}
	if d.onWait != nil {
		d.onWait()
	}
	d.run.Wait(0)
	d.run.Close()
	d.run = nil
	err := d.err
	d.err = nil
	return err
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
