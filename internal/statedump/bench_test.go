package statedump

import (
	"encoding/binary"
	"testing"

	"github.com/cosmos/gogoproto/proto"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// benchState is n submissions with a receipt-sized payload, sorted by key.
func benchState(b *testing.B, n int) []KV {
	b.Helper()
	kvs := make([]KV, n)
	for i := range kvs {
		bz, err := proto.Marshal(&subnetv1.Submission{Id: uint64(i), Track: "workflow", Status: "scored", Height: int64(i)})
		if err != nil {
			b.Fatal(err)
		}
		kvs[i] = KV{Key: binary.BigEndian.AppendUint64([]byte{0x09}, uint64(i)), Value: bz}
	}
	return kvs
}

func BenchmarkBuildEncode10k(b *testing.B) {
	kvs := benchState(b, 10000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(kvs).Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScoreDigest10k(b *testing.B) {
	kvs := benchState(b, 10000)
	b.ResetTimer()
	for b.Loop() {
		_ = ScoreDigest(kvs)
	}
}
