package oracle_test

import (
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/oracle"
	"github.com/scoringsubnet/validatord/oracle/oracletest"
)

// BenchmarkOracleLag measures the oracle's lag behind the EVM head: each
// iteration mines a block on the simulated chain (which makes the block
// before it 1 deep, with --confirmations 1) and waits until that block's
// truth is final on a real node; ms/window is the mean time from the
// confirming block to the final truth. The head poll is --poll (20 ms here,
// 1 s by default: add half of it); the node makes a block every ~50 ms.
//
//	go test ./oracle -run '^$' -bench OracleLag -benchtime 50x
func BenchmarkOracleLag(b *testing.B) {
	s := oracletest.NewSim(b)
	n := startChain(b, simChainID, 1)
	first := s.Mine(0) + 1
	runOracle(b, s, n, oracle.Config{Confirmations: 1, StartBlock: first, HasStart: true})
	s.Mine(1)
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		num := s.Mine(i + 2)
		t0 := time.Now()
		waitClosed(b, n, num-1)
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/window")
}
