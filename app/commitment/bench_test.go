package commitment_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/scoringsubnet/validatord/app/commitment"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
)

// BenchmarkBlock is the commitment's work for one block: Assign over the
// block's writes, Update of the trees, and the app hash over the roots,
// for k records changed (half new, half rewritten at random among n) in a
// submission tree of n leaves. The shapes: the lab's (a thousand records,
// tens per block) and a real subnet's after months (a million submissions,
// 512 records a block: 256 miners' submissions and windows). It reports
// the nodes written and their bytes per block; the time per op is the
// commitment's CPU per block, since the state is in memory (the app reads
// the nodes through its value cache and badger, which adds their reads).
func BenchmarkBlock(b *testing.B) {
	for _, shape := range []struct {
		name string
		n, k int
	}{{"lab", 1 << 10, 32}, {"subnet", 1 << 20, 512}} {
		b.Run(fmt.Sprintf("%s/n=%d/k=%d", shape.name, shape.n, shape.k), func(b *testing.B) {
			base := store.NewOverlay(store.Empty{})
			rng := rand.New(rand.NewPCG(1, 2))
			value := make([]byte, 300)
			write := func(o *store.Overlay, id uint64) {
				binary.BigEndian.PutUint64(value, rng.Uint64())
				o.Set(wire.SubmissionKey(id), append([]byte(nil), value...))
			}
			// The existing records, committed in blocks of 4096.
			next := uint64(0)
			for next < uint64(shape.n) {
				bo := store.NewOverlay(base)
				for range 4096 {
					write(bo, next)
					next++
				}
				ch := commitment.Assign(bo)
				commitment.Update(bo, ch)
				bo.MergeInto(base)
			}
			var lanes store.Lanes
			nodes, bytes := 0, 0
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				bo := store.NewOverlay(base)
				for i := range shape.k {
					if i%2 == 0 {
						write(bo, next)
						next++
					} else {
						write(bo, rng.Uint64N(next))
					}
				}
				b.StartTimer()
				ch := commitment.Assign(bo)
				tr := store.NewOverlay(bo)
				nodes += commitment.Update(tr, ch)
				commitment.StateAppHash(tr, lanes.Sum())
				b.StopTimer()
				bytes += tr.Size()
				tr.MergeInto(bo)
				bo.MergeInto(base)
				b.StartTimer()
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/block")
			b.ReportMetric(float64(bytes)/float64(b.N), "node-bytes/block")
		})
	}
}
