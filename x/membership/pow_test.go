package membership

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/big"
	"testing"
)

// The vector: chain "subnet-test", sender 00 01 … 1f, block hash 32 × bb,
// nonce 7. The preimage is written out byte by byte (tag with its NUL; len
// 11; chain id; len 32; key; len 32; block hash; nonce) and the digest, and
// the first nonces that meet difficulties 1000 and 2^20, were computed
// apart, with Python's hashlib:
//
//	pre = lambda n: tag + pack(">Q", 11) + chain + pack(">Q", 32) + sender + pack(">Q", 32) + bh + pack(">Q", n)
//	hashlib.sha256(pre(7)).hexdigest()
//	min n with int.from_bytes(sha256(pre(n)), "big") * d <= 2**256 - 1
const (
	vectorPreimage = "76616c696461746f72642f72656769737465722f763100" + // "validatord/register/v1\x00"
		"000000000000000b" + "7375626e65742d74657374" + // len 11, "subnet-test"
		"0000000000000020" + "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" +
		"0000000000000020" + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" +
		"0000000000000007" // nonce 7
	vectorSeal = "eee43d9b78b2698fe2edd8e2283c2a55c1965cf3179727cdd323a6ec2773c994"
)

// vectorSolutions: the first nonce from 0 whose seal meets the difficulty.
var vectorSolutions = []struct {
	difficulty, nonce uint64
	seal              string
}{
	{1000, 1289, "003e058b3d631bc9ac81cf0d04b3085a176833907312fa304e496d8a354a8930"},
	{1 << 20, 549776, "00000593f5ff7fd90b3cd880c33e8ecc4b95e9fc7951bff6bf8ac53d925f804c"},
}

func vectorInputs() (sender, blockHash []byte) {
	sender, blockHash = make([]byte, 32), make([]byte, 32)
	for i := range sender {
		sender[i], blockHash[i] = byte(i), 0xbb
	}
	return sender, blockHash
}

func TestSealVector(t *testing.T) {
	sender, bh := vectorInputs()
	pre, _ := hex.DecodeString(vectorPreimage)
	if sum := sha256.Sum256(pre); hex.EncodeToString(sum[:]) != vectorSeal {
		t.Fatalf("preimage hashes to %x, want %s", sum, vectorSeal)
	}
	if got := Seal("subnet-test", sender, bh, 7); hex.EncodeToString(got[:]) != vectorSeal {
		t.Fatalf("Seal = %x, want %s", got, vectorSeal)
	}
	if got := newSealer("subnet-test", sender, bh).seal(7); hex.EncodeToString(got[:]) != vectorSeal {
		t.Fatalf("sealer = %x, want %s", got, vectorSeal)
	}
}

func TestSolveVector(t *testing.T) {
	sender, bh := vectorInputs()
	for _, v := range vectorSolutions {
		n, ok := Solve("subnet-test", sender, bh, v.difficulty, 0, v.nonce+1)
		if !ok || n != v.nonce {
			t.Fatalf("difficulty %d: Solve = %d, %v; want %d", v.difficulty, n, ok, v.nonce)
		}
		if s := Seal("subnet-test", sender, bh, n); hex.EncodeToString(s[:]) != v.seal || !Meets(s, v.difficulty) {
			t.Fatalf("difficulty %d: seal %x, want %s meeting it", v.difficulty, s, v.seal)
		}
		if _, ok := Solve("subnet-test", sender, bh, v.difficulty, 0, v.nonce); ok {
			t.Fatalf("difficulty %d: a nonce below %d met it", v.difficulty, v.nonce)
		}
	}
}

// TestSolveWraps: the search goes past 2^64 − 1 to 0.
func TestSolveWraps(t *testing.T) {
	sender, bh := vectorInputs()
	n, ok := Solve("subnet-test", sender, bh, 1, math.MaxUint64, 2)
	if !ok || n != math.MaxUint64 {
		t.Fatalf("difficulty 1 from 2^64-1: %d, %v", n, ok)
	}
	n, ok = Solve("subnet-test", sender, bh, 1000, math.MaxUint64-5, 1300)
	if !ok || n != 1289 {
		t.Fatalf("wrapped search = %d, %v; want 1289", n, ok)
	}
	if _, ok := Solve("subnet-test", sender, bh, 1, 0, 0); ok {
		t.Fatal("zero tries found a nonce")
	}
}

// meetsBig is the definition of Meets with big integers.
func meetsBig(seal [SealSize]byte, difficulty uint64) bool {
	limit := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	prod := new(big.Int).Mul(new(big.Int).SetBytes(seal[:]), new(big.Int).SetUint64(difficulty))
	return prod.Cmp(limit) <= 0
}

// sealOf is a seal whose 256-bit value is floor((2^256 − 1) / d) + delta
// (delta ∈ {-1, 0, 1}): the largest seal meeting d, and its neighbours.
func boundarySeal(d uint64, delta int64) [SealSize]byte {
	limit := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	q := new(big.Int).Div(limit, new(big.Int).SetUint64(d))
	q.Add(q, big.NewInt(delta))
	var s [SealSize]byte
	q.FillBytes(s[:])
	return s
}

func TestMeetsBoundaries(t *testing.T) {
	var zero, ones [SealSize]byte
	for i := range ones {
		ones[i] = 0xff
	}
	half := [SealSize]byte{0x80}
	tests := []struct {
		name string
		seal [SealSize]byte
		d    uint64
		want bool
	}{
		{"zero seal, max difficulty", zero, math.MaxUint64, true},
		{"max seal, difficulty 0", ones, 0, true},
		{"max seal, difficulty 1", ones, 1, true},
		{"max seal, difficulty 2", ones, 2, false},
		{"2^255, difficulty 2", half, 2, false}, // 2^256 > 2^256 - 1
		{"2^255 - 1, difficulty 2", boundarySeal(2, 0), 2, true},
		{"largest for 1000", boundarySeal(1000, 0), 1000, true},
		{"one past for 1000", boundarySeal(1000, 1), 1000, false},
		{"largest for 2^64-1", boundarySeal(math.MaxUint64, 0), math.MaxUint64, true},
		{"one past for 2^64-1", boundarySeal(math.MaxUint64, 1), math.MaxUint64, false},
		{"largest for 2^28", boundarySeal(1<<28, 0), 1 << 28, true},
		{"one past for 2^28", boundarySeal(1<<28, 1), 1 << 28, false},
		{"one below for 3", boundarySeal(3, -1), 3, true},
	}
	for _, tc := range tests {
		if got := Meets(tc.seal, tc.d); got != tc.want || got != meetsBig(tc.seal, tc.d) {
			t.Errorf("%s: Meets = %v, want %v (big: %v)", tc.name, got, tc.want, meetsBig(tc.seal, tc.d))
		}
	}
}

// TestSealFieldsBound: every field and the domain change the seal, and the
// length prefixes keep a byte moved from one field to the next from giving
// the same preimage.
func TestSealFieldsBound(t *testing.T) {
	sender, bh := vectorInputs()
	base := Seal("subnet-test", sender, bh, 7)
	others := map[string][SealSize]byte{
		"chain id":   Seal("subnet-tesu", sender, bh, 7),
		"sender":     Seal("subnet-test", append([]byte{1}, sender[1:]...), bh, 7),
		"block hash": Seal("subnet-test", sender, append([]byte{0xbc}, bh[1:]...), 7),
		"nonce":      Seal("subnet-test", sender, bh, 8),
		"moved byte": Seal("subnet-test", sender[:31], append([]byte{sender[31]}, bh...), 7),
		"moved char": Seal("subnet-tes", append([]byte("t"), sender...), bh, 7),
	}
	for name, s := range others {
		if s == base {
			t.Errorf("changing the %s left the seal unchanged", name)
		}
	}
}
