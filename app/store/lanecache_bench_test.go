package store

import (
	"fmt"
	"testing"
)

// BenchmarkApplyBlockCached: the app hash of a block shaped like one of
// 2,000 commits — 2,000 accounts rewritten (each rewritten by the block
// before too) and 10,000 fresh keys — with and without a LaneCache that
// the block before filled. The overlay is filled untimed.
func BenchmarkApplyBlockCached(b *testing.B) {
	for _, capacity := range []int{0, 16384} {
		b.Run(fmt.Sprint("capacity=", capacity), func(b *testing.B) {
			c := NewLaneCache(capacity)
			state := map[string]string{}
			for i := 0; i < 2000; i++ {
				state[string(KeyAccount([]byte(fmt.Sprint("miner", i))))] = fmt.Sprint("account ", i, " nonce 0", string(make([]byte, 80)))
			}
			fresh := 0
			block := func(h int) *Overlay {
				o := NewBlockOverlay(&mapReader{m: state}, 12000)
				for i := 0; i < 2000; i++ {
					k := KeyAccount([]byte(fmt.Sprint("miner", i)))
					o.Get(k)
					o.Set(k, []byte(fmt.Sprint("account ", i, " nonce ", h, string(make([]byte, 80)))))
				}
				for i := 0; i < 10000; i++ {
					fresh++
					o.Set(KeySubmission(uint64(fresh)), make([]byte, 120))
				}
				return o
			}
			apply := func(o *Overlay) {
				ApplyBlock(Lanes{}, o, c)
				o.Entries(func(k, v []byte, del bool) {
					if !del {
						state[string(k)] = string(v)
					}
				})
			}
			apply(block(1))
			h0, _ := c.Counts()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				o := block(i + 2)
				o.sortedWrites()
				b.StartTimer()
				ApplyBlock(Lanes{}, o, c)
				b.StopTimer()
				o.Entries(func(k, v []byte, del bool) { state[string(k)] = string(v) })
				b.StartTimer()
			}
			h, _ := c.Counts()
			b.ReportMetric(float64(h-h0)/float64(b.N), "hits/op")
		})
	}
}
