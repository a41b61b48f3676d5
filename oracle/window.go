package oracle

import (
	"fmt"
	"math/big"
)

// Block is what the oracle keeps of one EVM block: its place in the chain,
// its time and its minimum non-zero effective gas price (nil when no
// transaction of a known type paid one).
type Block struct {
	Number     uint64
	Hash       [32]byte
	ParentHash [32]byte
	Time       uint64
	MinPrice   *big.Int
	// Skipped counts the transactions left out: unknown types, or fields
	// missing.
	Skipped int
}

// Window names the k blocks [First, First+k−1] (First a multiple of k).
type Window struct {
	First, K uint64
}

// Last is the window's last block.
func (w Window) Last() uint64 { return w.First + w.K - 1 }

func (w Window) String() string {
	if w.K == 1 {
		return fmt.Sprintf("block %d", w.First)
	}
	return fmt.Sprintf("window %d (blocks %d-%d)", w.First, w.First, w.Last())
}

// WindowOf is the window of k blocks that holds block n.
func WindowOf(n, k uint64) Window { return Window{First: n - n%k, K: k} }

// Truth is what a window reports: the least positive price over its blocks
// and the timestamp of its last block. MinPrice is nil for a window whose
// blocks hold no priced transaction (its truth is empty).
type Truth struct {
	Window    Window
	MinPrice  *big.Int
	Timestamp uint64
}

// WindowTruth folds a window's blocks, in order, into its truth; the blocks
// must be the window's, each the child of the one before.
func WindowTruth(w Window, blocks []Block) (Truth, error) {
	if uint64(len(blocks)) != w.K {
		return Truth{}, fmt.Errorf("%s: %d blocks read, want %d", w, len(blocks), w.K)
	}
	prices := make([]*big.Int, 0, len(blocks))
	for i, b := range blocks {
		if b.Number != w.First+uint64(i) {
			return Truth{}, fmt.Errorf("%s: block %d read as block %d", w, w.First+uint64(i), b.Number)
		}
		if i > 0 && b.ParentHash != blocks[i-1].Hash {
			return Truth{}, fmt.Errorf("%s: block %d is not the child of the block %d read (a reorg while reading)", w, b.Number, b.Number-1)
		}
		prices = append(prices, b.MinPrice)
	}
	return Truth{Window: w, MinPrice: MinNonZero(prices), Timestamp: blocks[len(blocks)-1].Time}, nil
}
