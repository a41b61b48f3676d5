package oracle_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/scoringsubnet/validatord/oracle"
)

// TestOracleEndpointDown: the EVM endpoint goes down for a while (HTTP
// 503) as blocks keep coming, then the oracle is stopped and restarted while
// more come: it catches up, and every block from the start has exactly one
// final truth (no gap, no duplicate), equal to the test's computation.
func TestOracleEndpointDown(t *testing.T) {
	s := newSim(t)
	n := startChain(t, simChainID, 1)
	for i := range 2 {
		s.mine(i)
	}
	first := s.head().Number.Uint64() + 1
	stop := runOracle(t, s, n, oracle.Config{Confirmations: 1, StartBlock: first, HasStart: true})
	s.mine(2)
	s.mine(3)
	waitClosed(t, n, first)
	s.down.Store(true)
	for i := 4; i < 10; i++ {
		s.mine(i)
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // a few failed reads and backoffs
	s.down.Store(false)
	head := s.head().Number.Uint64()
	waitClosed(t, n, head-1)
	stop()
	for i := 10; i < 14; i++ {
		s.mine(i)
	}
	runOracle(t, s, n, oracle.Config{Confirmations: 1}) // resumes from the chain's last closed block
	s.mine(14)
	head = s.head().Number.Uint64()
	waitClosed(t, n, head-1)
	checkTruths(t, s, n, first, head-1, 1)
}

// TestOracleReorgBeforeFinality: with 2 confirmations, block N holds one
// transaction at the lowest price; before N is 2 deep the chain reorgs to
// N' whose replacement transaction pays twice as much. The oracle never
// reports N's price: the truth of N is N”s.
func TestOracleReorgBeforeFinality(t *testing.T) {
	s := newSim(t)
	n := startChain(t, simChainID, 1)
	for i := range 2 {
		s.mine(i)
	}
	first := s.head().Number.Uint64() + 1
	runOracle(t, s, n, oracle.Config{Confirmations: 2, StartBlock: first, HasStart: true})
	for i := 2; i < 5; i++ {
		s.mine(i)
	}
	waitClosed(t, n, s.head().Number.Uint64()-2)
	parent := s.head()
	lone := func(price *big.Int, nonce uint64) uint64 {
		tx, err := types.SignNewTx(s.keys[2], s.signer, &types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: 21000, To: &to, Value: big.NewInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		// after a fork the pool catches up with the new head on its own time
		for try := 0; ; try++ {
			err := s.b.Client().SendTransaction(t.Context(), tx)
			if err == nil {
				break
			}
			if try == 100 {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		s.b.Commit()
		h := s.head()
		s.want[h.Number.Uint64()], s.times[h.Number.Uint64()] = price, h.Time
		return h.Number.Uint64()
	}
	low := new(big.Int).Set(parent.BaseFee)
	num := lone(low, s.nonces[2])
	time.Sleep(200 * time.Millisecond) // the oracle sees N at the head, 0 deep
	if err := s.b.Fork(common.Hash(parent.Hash())); err != nil {
		t.Fatal(err)
	}
	high := new(big.Int).Mul(low, big.NewInt(2))
	if again := lone(high, s.nonces[2]); again != num {
		t.Fatalf("the fork's block is %d, want %d", again, num)
	}
	s.nonces[2]++
	s.mine(10)
	s.mine(11)
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
