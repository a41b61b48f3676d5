package membership

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

// FuzzMeets: Meets agrees with its big-integer definition for any seal and
// difficulty, and is monotone: a seal that meets d meets every lower
// difficulty. The seed corpus is in testdata/fuzz/FuzzMeets.
func FuzzMeets(f *testing.F) {
	f.Add(make([]byte, 32), uint64(1<<28))
	f.Fuzz(func(t *testing.T, raw []byte, d uint64) {
		var seal [SealSize]byte
		copy(seal[:], raw)
		got := Meets(seal, d)
		if got != meetsBig(seal, d) {
			t.Fatalf("Meets(%x, %d) = %v, big says %v", seal, d, got, !got)
		}
		if got && d > 0 && !Meets(seal, d-1) {
			t.Fatalf("%x meets %d but not %d", seal, d, d-1)
		}
		if !got && d < ^uint64(0) && Meets(seal, d+1) {
			t.Fatalf("%x fails %d but meets %d", seal, d, d+1)
		}
	})
}

// FuzzSeal: for any inputs Seal is SHA-256 of the documented preimage, the
// miner's fast sealer gives the same seal, and the nonce it found with
// Solve passes CheckWork. The seed corpus is in testdata/fuzz/FuzzSeal.
func FuzzSeal(f *testing.F) {
	f.Add("subnet-test", make([]byte, 32), make([]byte, 32), uint64(7))
	f.Fuzz(func(t *testing.T, chainID string, sender, blockHash []byte, nonce uint64) {
		var pre []byte
		pre = append(pre, DomainTag...)
		for _, field := range [][]byte{[]byte(chainID), sender, blockHash} {
			pre = binary.BigEndian.AppendUint64(pre, uint64(len(field)))
			pre = append(pre, field...)
		}
		pre = binary.BigEndian.AppendUint64(pre, nonce)
		want := sha256.Sum256(pre)
		if got := Seal(chainID, sender, blockHash, nonce); got != want {
			t.Fatalf("Seal = %x, preimage hashes to %x", got, want)
		}
		if got := newSealer(chainID, sender, blockHash).seal(nonce); got != want {
			t.Fatalf("sealer = %x, Seal = %x", got, want)
		}
		const d = 16
		n, ok := Solve(chainID, sender, blockHash, d, nonce, 1<<12)
		if !ok {
			t.Skip("no nonce in 4096 tries at difficulty 16 (chance e^-256)")
		}
		p := DefaultParams()
		w := Work{Height: 10, BlockHash: blockHash, Nonce: n}
		if err := CheckWork(chainID, sender, w, 11, d, p); err != nil {
			t.Fatalf("CheckWork rejects Solve's nonce %d: %v", n, err)
		}
	})
}
