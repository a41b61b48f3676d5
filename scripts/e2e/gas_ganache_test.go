//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// The gas scenario on a real EVM dev node.
const (
	// ganacheConfirmations is every oracle's --confirmations: block B is reported once the
	// EVM head is at B + 2.
	ganacheConfirmations = 2
	// ganacheLiar is the validator whose oracle reads the lying endpoint (1 of 4 equal
	// powers: 25%, below 1/3).
	ganacheLiar = 3
	// ganacheHalt is how long the EVM chain produces no block in phase (c).
	ganacheHalt = 2 * time.Minute
	// ganachePriced is the number of priced blocks of phases (a), (d) and (e), one a
	// second; ganacheEmpty the empty blocks of phase (b), mined back to back.
	ganachePriced = 12
	ganacheEmpty  = 300
)

// TestGasOnGanache runs the gas track against a real EVM dev node (ganache): four validators
// of equal power, each with `validatord oracle gas` beside its node; three oracles read
// ganache, the fourth reads a lying endpoint that multiplies every gas price by 10 and later
// stalls. Phases, each checked before the next: (a) priced blocks of legacy, EIP-2930 and
// EIP-1559 transactions; (b) 300 empty blocks; (c) two minutes without an EVM block; (d)
// priced blocks again; (e) the liar's endpoint stalls. After each, every block up to the
// EVM head minus the confirmations is closed on chain, each priced block's truth is the
// minimum non-zero effective gas price the test computes from ganache's receipts (to the
// wei), each empty block's truth is empty, and no truth is a lied price.
func TestGasOnGanache(t *testing.T) {
	ganache := ganacheBin(t)
	port := basePort + 600
	nw := newNetwork(t, 4, port, "100ms")
	nw.setChainParam("gas_chains", []uint64{ganacheChainID})
	evm := startGanache(t, nw, ganache, port+50)
	lie := newLiar(t, evm.url)
	nw.startAll()
	g := &gasRun{t: t, nw: nw, evm: evm, mined: map[uint64]time.Time{}, want: map[uint64]*big.Int{}, next: 1}
	for i := range nw.homes {
		url := evm.url
		if i == ganacheLiar {
			url = lie.url()
		}
		g.metrics = append(g.metrics, fmt.Sprintf("http://127.0.0.1:%d/metrics", port+60+i))
		g.oracles = append(g.oracles, nw.ps.start(t, fmt.Sprintf("oracle%d", i), filepath.Join(nw.homes[i], "oracle.log"), nil,
			bin("validatord"), "oracle", "gas", "--evm-rpc", url, "--evm-chain-id", fmt.Sprint(ganacheChainID),
			"--from", "validator", "--home", nw.homes[i], "--node", nw.rpcs[i],
			"--confirmations", fmt.Sprint(ganacheConfirmations), "--start-block", "1", "--poll", "100ms",
			"--rpc-timeout", "2s", "--metrics-addr", fmt.Sprintf("127.0.0.1:%d", port+60+i)))
	}
	node, err := client.Dial(nw.rpcs[0])
	if err != nil {
		t.Fatal(err)
	}
	g.closed = watchClosed(node, 100*time.Millisecond)
	defer g.closed.finish()
	mon := watch(nw, 250*time.Millisecond)

	var phases []gasPhaseFigures
	// (a) priced blocks, one a second, as a chain with 1 s blocks makes them
	p := g.begin("a: priced")
	g.minePriced(ganachePriced)
	phases = append(phases, g.check(p, 3*time.Minute))

	// (b) 300 empty blocks at once: the oracles work through the backlog
	p = g.begin("b: 300 empty")
	for range ganacheEmpty {
		g.mineOne(nil)
	}
	phases = append(phases, g.check(p, 5*time.Minute))

	// (c) the EVM chain halts: the chain goes on making blocks and owes nothing
	phases = append(phases, g.halt())

	// (d) the EVM chain resumes with priced blocks
	p = g.begin("d: resumed")
	g.minePriced(ganachePriced)
	phases = append(phases, g.check(p, 3*time.Minute))

	// (e) the liar's endpoint stalls: the three honest oracles close every block alone
	lie.stall()
	p = g.begin("e: liar stalls")
	g.minePriced(ganachePriced)
	fe := g.check(p, 3*time.Minute)
	if fe.LiarVotes > 0 {
		t.Errorf("phase e: the stalled liar voted in %d rounds", fe.LiarVotes)
	}
	fe.LiarRPCErrors, fe.LiarEVMUp = g.stalledErrors(lie)
	phases = append(phases, fe)

	stall, stallAt, top := mon.finish()
	if stall > 10*time.Second {
		t.Errorf("the chain made no block for %s after height %d", stall, stallAt)
	}
	lied := 0
	for _, f := range phases {
		lied += f.LiarVotes
	}
	if lied == 0 {
		t.Error("no vote of the liar's ×10 prices reached the chain: the attack did not happen")
	}
	for i, o := range g.oracles {
		if !o.running() {
			t.Errorf("oracle%d exited (code %d)", i, o.exitCode())
		}
	}
	g.sameOnEveryNode()
	for _, f := range phases {
		t.Logf("phase %-15s EVM blocks %3d, truths final %3d priced / %3d empty (blocks %d-%d), liar votes ×10 on chain %d, lag confirmed → closed max %v median %v, %s, heights %d-%d",
			f.Phase, f.EVMBlocks, f.Priced, f.Empty, f.From, f.To, f.LiarVotes,
			time.Duration(f.LagMaxMS)*time.Millisecond, time.Duration(f.LagMedianMS)*time.Millisecond,
			time.Duration(f.Seconds*float64(time.Second)).Round(100*time.Millisecond), f.HeightFrom, f.HeightTo)
	}
	t.Logf("the stalled liar's oracle: validatord_oracle_rpc_errors_total{endpoint=\"evm\"} by kind %v, endpoint_up{endpoint=\"evm\"} %v; requests it sent the stalled endpoint %d",
		fe.LiarRPCErrors, *fe.LiarEVMUp, lie.stalledCalls.Load())
	h := nw.minHeight()
	nw.stopAll()
	heights, digest := replayAll(t, nw, h)
	report(t, "gas_ganache", map[string]any{"phases": phases, "max_stall_ms": stall.Milliseconds(), "top_height": top,
		"replayed_heights": heights, "replay_score_digest": digest})
}

// gasRun is the state of the scenario: the EVM blocks the test mined, when, and each one's
// true minimum price.
type gasRun struct {
	t       *testing.T
	nw      *network
	evm     *devnet
	closed  *closedWatch
	oracles []*proc
	metrics []string
	// mined is when each EVM block was seen mined; want its minimum non-zero effective gas
	// price from the receipts (nil: empty).
	mined map[uint64]time.Time
	want  map[uint64]*big.Int
	head  uint64
	// next is the first block not checked yet; priced counts priced blocks mined (their
	// prices vary with it).
	next   uint64
	priced int
}

// gasPhaseFigures are the figures of one phase.
type gasPhaseFigures struct {
	Phase string `json:"phase"`
	// EVMBlocks were mined in the phase; From..To are the blocks checked at its end (up to
	// the head minus the confirmations), Priced and Empty their final truths.
	EVMBlocks int    `json:"evm_blocks"`
	From      uint64 `json:"from"`
	To        uint64 `json:"to"`
	Priced    int    `json:"priced"`
	Empty     int    `json:"empty"`
	// LiarVotes are the checked rounds holding the liar's vote at ten times the true price.
	LiarVotes int `json:"liar_votes"`
	// Lag: from the EVM block that confirms B (B + confirmations) mined to B closed on chain.
	LagMaxMS    int64   `json:"lag_max_ms"`
	LagMedianMS int64   `json:"lag_median_ms"`
	Seconds     float64 `json:"seconds"`
	// EVMStillSeconds (phase c): how long the EVM chain had made no block at the halt's end
	// (the halt plus the time phase b's backlog took to close).
	EVMStillSeconds float64 `json:"evm_still_seconds,omitempty"`
	HeightFrom      int64   `json:"height_from"`
	HeightTo        int64   `json:"height_to"`
	// The stalled liar's oracle (phase e): its EVM RPC errors by kind, and endpoint_up.
	LiarRPCErrors map[string]float64 `json:"liar_rpc_errors,omitempty"`
	LiarEVMUp     *float64           `json:"liar_evm_up,omitempty"`
	start         time.Time
	mined0        uint64
}

// begin starts a phase's figures.
func (g *gasRun) begin(name string) gasPhaseFigures {
	return gasPhaseFigures{Phase: name, start: time.Now(), mined0: g.head, HeightFrom: g.nw.maxHeight()}
}

// mineOne mines a block of txs and records it.
func (g *gasRun) mineOne(txs []ethTx) {
	g.t.Helper()
	n, at, err := g.evm.mine(txs)
	if err != nil {
		g.t.Fatal(err)
	}
	if n != g.head+1 {
		g.t.Fatalf("mined block %d after %d", n, g.head)
	}
	want, err := g.evm.minPrice(n)
	if err != nil {
		g.t.Fatal(err)
	}
	if (want == nil) != (len(txs) == 0) {
		g.t.Fatalf("block %d: %d transactions, minimum price %v", n, len(txs), want)
	}
	g.head, g.mined[n], g.want[n] = n, at, want
}

// minePriced mines n priced blocks, one a second, each with transactions of varied types and
// prices around the head's base fee. Every fee cap is at least that base fee, and the next
// block's is lower (its parent is far below the gas target), so every transaction is
// included. Per block, by turns: a legacy transaction and two EIP-1559 ones, one held by its
// fee cap (paying the cap) and one paying base fee + a small tip; a legacy and an EIP-2930
// transaction; or the two EIP-1559 ones alone.
func (g *gasRun) minePriced(n int) {
	g.t.Helper()
	for range n {
		b, err := g.evm.latest()
		if err != nil || b.BaseFee == nil {
			g.t.Fatalf("head's base fee: %v %v", b.BaseFee, err)
		}
		base, i := b.BaseFee.ToInt(), int64(g.priced)
		plus := func(x *big.Int, k int64) *big.Int { return new(big.Int).Add(x, big.NewInt(k)) }
		times := func(x *big.Int, k int64) *big.Int { return new(big.Int).Mul(x, big.NewInt(k)) }
		a := g.evm.accounts
		capped := plus(base, 17*(i+1))
		var txs []ethTx
		switch i % 3 {
		case 0:
			txs = []ethTx{legacyTx(a[0], a[1], plus(base, 1_000_003*(i+1))),
				dynamicFeeTx(a[1], a[2], capped, capped),
				dynamicFeeTx(a[2], a[3], plus(times(base, 2), 1_000_000_000), big.NewInt(1+i%5))}
		case 1:
			txs = []ethTx{legacyTx(a[3], a[0], plus(base, 7*(i+1)+1)), accessListTx(a[0], a[2], plus(base, 1_000_000_000))}
		default:
			txs = []ethTx{dynamicFeeTx(a[1], a[3], capped, capped),
				dynamicFeeTx(a[2], a[0], times(base, 3), big.NewInt(2+i%7))}
		}
		g.mineOne(txs)
		g.priced++
		time.Sleep(time.Second)
	}
}

// check waits (a liveness bound: within d) until the chain has closed every block up to the
// EVM head minus the confirmations, then checks each block's truth since the last check and
// returns the phase's figures.
func (g *gasRun) check(p gasPhaseFigures, d time.Duration) gasPhaseFigures {
	g.t.Helper()
	to := g.head - ganacheConfirmations
	if err := g.closed.wait(to, d); err != nil {
		g.t.Fatalf("phase %s: %v (liveness bound)", p.Phase, err)
	}
	p.EVMBlocks, p.From, p.To = int(g.head-p.mined0), g.next, to
	var lags []time.Duration
	for b := g.next; b <= to; b++ {
		if g.checkTruth(p.Phase, b) {
			p.LiarVotes++
		}
		if g.want[b] == nil {
			p.Empty++
		} else {
			p.Priced++
		}
		closedAt, _ := g.closed.at(b)
		lags = append(lags, max(closedAt.Sub(g.mined[b+ganacheConfirmations]), 0))
	}
	g.next = to + 1
	if len(lags) > 0 {
		slices.Sort(lags)
		p.LagMaxMS, p.LagMedianMS = lags[len(lags)-1].Milliseconds(), lags[len(lags)/2].Milliseconds()
	}
	p.Seconds, p.HeightTo = time.Since(p.start).Seconds(), g.nw.maxHeight()
	return p
}

// weiPerGwei converts the chain's prices (gwei, exact) to wei.
var weiPerGwei = decimal.New(1, 9)

// checkTruth checks block b's truth round, asked of node b mod 4: final, empty for an empty
// block, else priced at exactly the block's minimum in wei, never at the lied price. It
// reports whether the round holds the liar's vote at the lied price.
func (g *gasRun) checkTruth(phase string, b uint64) (liarVoted bool) {
	g.t.Helper()
	c, err := client.Dial(g.nw.rpcs[b%uint64(len(g.nw.rpcs))])
	if err != nil {
		g.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := c.Truth(ctx, ganacheChainID, b)
	if err != nil {
		g.t.Fatalf("phase %s: truth of block %d: %v", phase, b, err)
	}
	want := g.want[b]
	var lied *big.Int
	if want != nil {
		lied = new(big.Int).Mul(want, big.NewInt(liarFactor))
	}
	switch {
	case r.Status != "final":
		g.t.Errorf("phase %s: block %d: truth %s, want final", phase, b, r.Status)
	case want == nil && (!r.Empty || r.MinPrice != nil):
		g.t.Errorf("phase %s: block %d has no transaction: truth empty=%v min_price %v, want empty", phase, b, r.Empty, r.MinPrice)
	case want != nil && (r.Empty || r.MinPrice == nil):
		g.t.Errorf("phase %s: block %d: an empty truth, want %s wei", phase, b, want)
	case want != nil:
		got, ok := gweiToWei(*r.MinPrice)
		if !ok || got.Cmp(want) != 0 {
			g.t.Errorf("phase %s: block %d: truth %s gwei, want %s wei (the receipts' minimum)", phase, b, *r.MinPrice, want)
		}
		if ok && got.Cmp(lied) == 0 {
			g.t.Errorf("phase %s: block %d: the truth is the lied price %s wei", phase, b, lied)
		}
	}
	liar := fmt.Sprintf("node%d", ganacheLiar)
	for _, v := range r.Votes {
		if v.Validator != liar || v.Truth == nil {
			continue
		}
		if p, ok := gweiToWei(v.Truth.MinPrice); ok && lied != nil && p.Cmp(lied) == 0 {
			liarVoted = true
		} else if want != nil {
			g.t.Logf("phase %s: block %d: the liar voted %+v (true price %v wei)", phase, b, *v.Truth, want)
		}
	}
	return liarVoted
}

// gweiToWei is a price in gwei in wei, when it is a whole number of wei.
func gweiToWei(s string) (*big.Int, bool) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return nil, false
	}
	w := d.Mul(weiPerGwei)
	if !w.Equal(w.Truncate(0)) {
		return nil, false
	}
	return w.BigInt(), true
}

// halt is phase (c): no EVM block for ganacheHalt. The chain must keep making blocks, stay
// closed at the head minus the confirmations, and owe nothing: no round opened for an
// unconfirmed block, and every oracle up with the EVM endpoint, finished up to that block
// (lag_blocks = the confirmations) and saying the head is still.
func (g *gasRun) halt() gasPhaseFigures {
	g.t.Helper()
	p := g.begin("c: halt 2m")
	time.Sleep(ganacheHalt)
	last, ok := g.closed.last()
	if want := g.head - ganacheConfirmations; !ok || last != want {
		g.t.Errorf("halt: last_closed_block %d, want %d", last, want)
	}
	c, err := client.Dial(g.nw.rpcs[0])
	if err != nil {
		g.t.Fatal(err)
	}
	for b := g.head - ganacheConfirmations + 1; b <= g.head+1; b++ {
		var qe *client.QueryError
		if _, err := c.Truth(context.Background(), ganacheChainID, b); !errors.As(err, &qe) || qe.Code != wire.QueryNotFound {
			g.t.Errorf("halt: block %d is not confirmed, yet its truth round: %v", b, err)
		}
	}
	for i, u := range g.metrics {
		s, err := scrape(u)
		if err != nil {
			g.t.Errorf("oracle%d metrics: %v", i, err)
			continue
		}
		if up := s.sum("validatord_oracle_endpoint_up", `endpoint="evm"`); up != 1 {
			g.t.Errorf("halt: oracle%d endpoint_up{evm} = %v", i, up)
		}
		if lag := s.sum("validatord_oracle_lag_blocks"); lag != ganacheConfirmations {
			g.t.Errorf("halt: oracle%d lag_blocks = %v, want %d", i, lag, ganacheConfirmations)
		}
		line := fmt.Sprintf("EVM head still at %d", g.head)
		if err := waitForLine(filepath.Join(g.nw.homes[i], "oracle.log"), line, 30*time.Second, g.oracles[i]); err != nil {
			g.t.Errorf("halt: oracle%d: %v", i, err)
		}
	}
	p.Seconds, p.HeightTo = time.Since(p.start).Seconds(), g.nw.maxHeight()
	p.EVMStillSeconds = time.Since(g.mined[g.head]).Seconds()
	if p.HeightTo <= p.HeightFrom {
		g.t.Errorf("halt: the chain stayed at height %d", p.HeightTo)
	}
	p.From, p.To = last+1, last
	return p
}

// stalledErrors waits (a liveness bound: within 60 s) until the liar's oracle has counted a
// timeout against its stalled endpoint, and returns its EVM errors by kind and endpoint_up.
func (g *gasRun) stalledErrors(lie *liar) (map[string]float64, *float64) {
	g.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s, err := scrape(g.metrics[ganacheLiar])
		if err == nil && s.sum("validatord_oracle_rpc_errors_total", `endpoint="evm"`, `kind="timeout"`) > 0 {
			kinds := map[string]float64{}
			for _, k := range []string{"timeout", "refused", "garbage", "wrong_chain", "rpc_error", "other"} {
				if v := s.sum("validatord_oracle_rpc_errors_total", `endpoint="evm"`, `kind="`+k+`"`); v > 0 {
					kinds[k] = v
				}
			}
			up := s.sum("validatord_oracle_endpoint_up", `endpoint="evm"`)
			if up != 0 {
				g.t.Errorf("the liar's oracle has endpoint_up{evm} = %v against a stalled endpoint", up)
			}
			return kinds, &up
		}
		if time.Now().After(deadline) {
			g.t.Fatalf("the liar's oracle counted no timeout in 60 s (%d stalled requests): %v", lie.stalledCalls.Load(), err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// sameOnEveryNode: every node answers the same gas chain.
func (g *gasRun) sameOnEveryNode() {
	g.t.Helper()
	var first *wire.GasChainView
	for i, addr := range g.nw.rpcs {
		c, err := client.Dial(addr)
		if err != nil {
			g.t.Fatal(err)
		}
		gc, err := c.GasChain(context.Background(), ganacheChainID)
		if err != nil || gc.LastClosedBlock == nil {
			g.t.Errorf("node%d gaschain: %+v %v", i, gc, err)
			continue
		}
		if first == nil {
			first = gc
		} else if *gc.LastClosedBlock != *first.LastClosedBlock || *gc.LastMinPrice != *first.LastMinPrice {
			g.t.Errorf("node%d closed up to %d (%s), node0 %d (%s)", i, *gc.LastClosedBlock, *gc.LastMinPrice, *first.LastClosedBlock, *first.LastMinPrice)
		}
	}
}

// closedWatch polls a node's gaschain/<ganache's chain> and stamps when each EVM block was
// first seen closed.
type closedWatch struct {
	mu      sync.Mutex
	closed  map[uint64]time.Time
	lastB   uint64
	has     bool
	stop    chan struct{}
	done    chan struct{}
	stopped bool
}

// watchClosed polls c every interval until finish.
func watchClosed(c *client.Client, every time.Duration) *closedWatch {
	w := &closedWatch{closed: map[uint64]time.Time{}, stop: make(chan struct{}), done: make(chan struct{})}
	go pollEvery(every, w.stop, w.done, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		gc, err := c.GasChain(ctx, ganacheChainID)
		cancel()
		if err == nil && gc.LastClosedBlock != nil {
			w.saw(*gc.LastClosedBlock, time.Now())
		}
	})
	return w
}

// saw records that the chain was closed up to b at now.
func (w *closedWatch) saw(b uint64, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	from := uint64(0)
	if w.has {
		from = w.lastB + 1
	}
	for n := from; n <= b; n++ {
		w.closed[n] = now
	}
	if !w.has || b > w.lastB {
		w.lastB, w.has = b, true
	}
}

func (w *closedWatch) last() (uint64, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastB, w.has
}

func (w *closedWatch) at(b uint64) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	t, ok := w.closed[b]
	return t, ok
}

// wait waits until block b is closed, at most d.
func (w *closedWatch) wait(b uint64, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		if _, ok := w.at(b); ok {
			return nil
		}
		if time.Now().After(deadline) {
			last, ok := w.last()
			return fmt.Errorf("EVM block %d not closed on chain within %s (last_closed_block %d, any %v)", b, d, last, ok)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (w *closedWatch) finish() {
	w.mu.Lock()
	stopped := w.stopped
	w.stopped = true
	w.mu.Unlock()
	if !stopped {
		close(w.stop)
		<-w.done
	}
}

// series are the samples of a Prometheus text page.
type series []string

// scrape reads a /metrics page.
func scrape(url string) (series, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	bz, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var s series
	for _, l := range strings.Split(string(bz), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			s = append(s, l)
		}
	}
	return s, nil
}

// sum adds the samples of the series name whose labels hold every one of labels (k="v").
func (s series) sum(name string, labels ...string) float64 {
	var total float64
	for _, l := range s {
		sp := strings.LastIndexByte(l, ' ')
		if sp < 0 || (!strings.HasPrefix(l, name+"{") && !strings.HasPrefix(l, name+" ")) {
			continue
		}
		match := true
		for _, lb := range labels {
			match = match && strings.Contains(l[:sp], lb)
		}
		if v, err := strconv.ParseFloat(l[sp+1:], 64); match && err == nil {
			total += v
		}
	}
	return total
}
