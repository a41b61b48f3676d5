package commit

import (
	"errors"
	"testing"
)

// FuzzVerify drives the reveal path with arbitrary bytes: Verify never
// panics, accepts exactly when the sizes are right and the commitment is
// Commitment of the inputs, and accepts what Commitment produced. The seed
// corpus is in testdata/fuzz/FuzzVerify.
func FuzzVerify(f *testing.F) {
	f.Add(make([]byte, 32), "subnet-test", make([]byte, 32), uint32(7), []byte{0x1a, 0x00}, make([]byte, 32))
	f.Add([]byte{}, "", []byte{}, uint32(0), []byte{}, []byte{})
	f.Fuzz(func(t *testing.T, commitment []byte, chainID string, sender []byte, uid uint32, payload, salt []byte) {
		err := Verify(commitment, chainID, sender, uid, payload, salt)
		sizesOK := len(commitment) == Size && len(salt) == SaltSize
		switch {
		case !sizesOK:
			if !errors.Is(err, ErrInvalidInput) {
				t.Fatalf("wrong sizes (%d, %d) gave %v", len(commitment), len(salt), err)
			}
			return
		case err != nil && !errors.Is(err, ErrMismatch):
			t.Fatalf("right sizes gave %v", err)
		}
		want := Commitment(chainID, sender, uid, payload, [SaltSize]byte(salt))
		if (err == nil) != (string(want[:]) == string(commitment)) {
			t.Fatalf("Verify = %v for commitment %x, Commitment = %x", err, commitment, want)
		}
		if err := Verify(want[:], chainID, sender, uid, payload, salt); err != nil {
			t.Fatalf("Verify rejects Commitment's own output: %v", err)
		}
		flipped := append([]byte(nil), salt...)
		flipped[int(uid)%SaltSize] ^= 1
		if err := Verify(want[:], chainID, sender, uid, payload, flipped); !errors.Is(err, ErrMismatch) {
			t.Fatalf("a salt one bit off opened the commitment: %v", err)
		}
	})
}
