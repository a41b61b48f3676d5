package oracle_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/scoringsubnet/validatord/oracle"
	"github.com/scoringsubnet/validatord/oracle/oracletest"
)

// TestOracleEndpointDown: the EVM endpoint goes down for a while (HTTP
// 503) as blocks keep coming, then the oracle is stopped and restarted while
// more come: it catches up, and every block from the start has exactly one
// final truth (no gap, no duplicate), equal to the test's computation.
func TestOracleEndpointDown(t *testing.T) {
	s := oracletest.NewSim(t)
	n := startChain(t, simChainID, 1)
	for i := range 2 {
		s.Mine(i)
	}
	first := s.Head().Number.Uint64() + 1
	stop := runOracle(t, s, n, oracle.Config{Confirmations: 1, StartBlock: first, HasStart: true})
	s.Mine(2)
	s.Mine(3)
	waitClosed(t, n, first)
	s.Down.Store(true)
	for i := 4; i < 10; i++ {
		s.Mine(i)
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // a few failed reads and backoffs
	s.Down.Store(false)
	head := s.Head().Number.Uint64()
	waitClosed(t, n, head-1)
	stop()
	for i := 10; i < 14; i++ {
		s.Mine(i)
	}
	runOracle(t, s, n, oracle.Config{Confirmations: 1}) // resumes from the chain's last closed block
	s.Mine(14)
	head = s.Head().Number.Uint64()
	waitClosed(t, n, head-1)
	checkTruths(t, s, n, first, head-1, 1)
}

// TestOracleReorgBeforeFinality: with 2 confirmations, block N holds one
// transaction at the lowest price; before N is 2 deep the chain reorgs to
// N' whose replacement transaction pays twice as much. The oracle never
// reports N's price: the truth of N is that of N'.
func TestOracleReorgBeforeFinality(t *testing.T) {
	s := oracletest.NewSim(t)
	n := startChain(t, simChainID, 1)
	for i := range 2 {
		s.Mine(i)
	}
	first := s.Head().Number.Uint64() + 1
	runOracle(t, s, n, oracle.Config{Confirmations: 2, StartBlock: first, HasStart: true})
	for i := 2; i < 5; i++ {
		s.Mine(i)
	}
	waitClosed(t, n, s.Head().Number.Uint64()-2)
	parent := s.Head()
	low := new(big.Int).Set(parent.BaseFee)
	num := s.MineLone(low, s.LoneNonce())
	time.Sleep(200 * time.Millisecond) // the oracle sees N at the head, 0 deep
	if err := s.B.Fork(common.Hash(parent.Hash())); err != nil {
		t.Fatal(err)
	}
	high := new(big.Int).Mul(low, big.NewInt(2))
	if again := s.MineLone(high, s.LoneNonce()); again != num {
		t.Fatalf("the fork's block is %d, want %d", again, num)
	}
	s.UseLoneNonce()
	s.Mine(10)
	s.Mine(11)
	waitClosed(t, n, num)
	r, err := n.c.Truth(t.Context(), simChainID, num)
	if err != nil {
		t.Fatal(err)
	}
	want := oracle.Gwei(high)
	if *r.MinPrice == oracle.Gwei(low).StringFixed(18) || *r.MinPrice != want.StringFixed(18) {
		t.Fatalf("block %d: truth %s gwei, want the reorged block's %s (the orphan paid %s)", num, *r.MinPrice, want, oracle.Gwei(low))
	}
	checkTruths(t, s, n, first, num, 1)
}
