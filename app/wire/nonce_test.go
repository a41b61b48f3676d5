package wire

import (
	"bytes"
	"math"
	"testing"
)

func TestNextNonceEncoding(t *testing.T) {
	for _, n := range []uint64{0, 1, 2, 255, 256, 1 << 32, math.MaxUint64} {
		data := EncodeNextNonce(n)
		if len(data) != 8 {
			t.Fatalf("EncodeNextNonce(%d) has %d bytes, want 8", n, len(data))
		}
		got, ok := DecodeNextNonce(data)
		if !ok || got != n {
			t.Errorf("DecodeNextNonce(EncodeNextNonce(%d)) = %d, %v", n, got, ok)
		}
	}
	if got := EncodeNextNonce(0x0102030405060708); !bytes.Equal(got, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("EncodeNextNonce is not big-endian: %x", got)
	}
	for _, data := range [][]byte{nil, {}, {1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		if n, ok := DecodeNextNonce(data); ok {
			t.Errorf("DecodeNextNonce(%x) = %d, true; want false", data, n)
		}
	}
}

func TestIsNonceCode(t *testing.T) {
	for code := range uint32(len(Codes)) {
		want := code == CodeNonceUsed || code == CodeNonceFuture
		if IsNonceCode(code) != want {
			t.Errorf("IsNonceCode(%d) = %v", code, !want)
		}
	}
}
