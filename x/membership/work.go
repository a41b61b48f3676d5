package membership

import "fmt"

// Work is the proof a registration carries: the height of the block whose
// hash its seal binds, that hash, and the nonce. The app fills BlockHash
// from its own record of recent block hashes, never from the transaction.
type Work struct {
	Height    int64
	BlockHash []byte
	Nonce     uint64
}

// Seal is the work's seal for this chain and sender.
func (w Work) Seal(chainID string, sender []byte) [SealSize]byte {
	return Seal(chainID, sender, w.BlockHash, w.Nonce)
}

// Fresh reports whether a registration included at height may bind the
// block at workHeight: one of the MaxPowAgeBlocks blocks before it. Work on
// the including block itself, or a later one, is not fresh: its hash is not
// known before the block is committed.
func Fresh(workHeight, height int64, p Params) bool {
	if workHeight >= height || p.MaxPowAgeBlocks < 1 {
		return false
	}
	// height > workHeight, so the unsigned difference is exact.
	return uint64(height)-uint64(workHeight) <= uint64(p.MaxPowAgeBlocks)
}

// CheckWork is the rule for a registration's work, one function for
// CheckTx, ProcessProposal and FinalizeBlock: height is the height of the
// block that includes the registration (in CheckTx, the next one) and
// difficulty the difficulty in force there. It returns nil, or an error
// wrapping ErrStaleWork (the bound block is not fresh) or
// ErrInsufficientWork (the seal does not meet difficulty).
func CheckWork(chainID string, sender []byte, w Work, height int64, difficulty uint64, p Params) error {
	if !Fresh(w.Height, height, p) {
		return fmt.Errorf("%w: block %d bound at height %d (accepted: the %d blocks before it)", ErrStaleWork, w.Height, height, p.MaxPowAgeBlocks)
	}
	if !Meets(w.Seal(chainID, sender), difficulty) {
		return fmt.Errorf("%w: nonce %d at difficulty %d", ErrInsufficientWork, w.Nonce, difficulty)
	}
	return nil
}

// CheckBlockLimit returns an error wrapping ErrBlockFull if a block that
// already accepted registered registrations can take no more.
func CheckBlockLimit(registered uint64, p Params) error {
	if registered >= uint64(p.MaxRegistrationsPerBlock) {
		return fmt.Errorf("%w (%d)", ErrBlockFull, p.MaxRegistrationsPerBlock)
	}
	return nil
}
