package commit

import (
	"errors"
	"math/rand/v2"
	"testing"
)

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

func randSalt(r *rand.Rand) (s [SaltSize]byte) {
	copy(s[:], randBytes(r, SaltSize))
	return s
}

// TestPropertyCopierNeverMatches: a miner commits (sender A, uid a, payload
// P, salt S) → C. A copier with another sender or another uid (a new key on
// the same uid, or the same key after taking another uid) sees C when it is
// ordered, and P and S only at the reveal. Whatever it committed before the
// reveal — C itself, or a commitment to a guess — opening it with the
// revealed P and S under its own sender and uid fails. Commitments bind the
// sender and the uid; a replayed C is worth nothing.
func TestPropertyCopierNeverMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	const chainID = "subnet-prop"
	for round := 0; round < 5000; round++ {
		sender, uid := randBytes(r, 32), uint32(r.IntN(8))
		payload, salt := randBytes(r, r.IntN(64)), randSalt(r)
		c := Commitment(chainID, sender, uid, payload, salt)
		if err := Verify(c[:], chainID, sender, uid, payload, salt[:]); err != nil {
			t.Fatalf("round %d: the honest reveal fails: %v", round, err)
		}
		copier, cuid := sender, uid
		switch r.IntN(3) {
		case 0: // another key, same uid (the uid changed hands)
			copier = randBytes(r, 32)
		case 1: // same key, another uid
			cuid = uid + 1 + uint32(r.IntN(5))
		default:
			copier, cuid = randBytes(r, 32), uint32(r.IntN(8))
		}
		if string(copier) == string(sender) && cuid == uid {
			continue
		}
		// 1. The copier commits C itself and reveals what the miner revealed.
		if err := Verify(c[:], chainID, copier, cuid, payload, salt[:]); !errors.Is(err, ErrMismatch) {
			t.Fatalf("round %d: replayed commitment opened for another sender/uid: %v", round, err)
		}
		// 2. The copier committed to a guess (it knew neither P nor S).
		guessP, guessS := payload, randSalt(r)
		if r.IntN(2) == 0 {
			guessP = randBytes(r, len(payload))
		}
		g := Commitment(chainID, copier, cuid, guessP, guessS)
		if err := Verify(g[:], chainID, copier, cuid, payload, salt[:]); !errors.Is(err, ErrMismatch) {
			t.Fatalf("round %d: a guessed commitment opened with the revealed salt: %v", round, err)
		}
		// 3. Nor does the miner's own C open for the copier on any other chain.
		if err := Verify(c[:], chainID+"x", sender, uid, payload, salt[:]); !errors.Is(err, ErrMismatch) {
			t.Fatalf("round %d: commitment opened on another chain id: %v", round, err)
		}
	}
}
