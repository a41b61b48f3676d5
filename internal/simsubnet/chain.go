package simsubnet

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	cmttypes "github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/cpuclock"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// actor is one key that sends transactions: a validator's report key or a
// miner's key. Its client.Signer signs at the nonce the node's check state
// expects; next and committed are that nonce and the committed one.
type actor struct {
	name            string
	signer          *client.Signer
	next, committed uint64
}

func newActor(name string, s *client.Signer) *actor {
	s.SetNonce(0)
	return &actor{name: name, signer: s}
}

// message is one message an actor sends, with what it is for the tables.
type message struct {
	from  *actor
	msg   *subnetv1.Msg
	kind  Kind
	track string
	// pending is the payload a commit or reveal is of; pendings are a
	// batch's, by entry.
	pending  *pendingSub
	pendings []*pendingSub
	// order sorts one height's messages: senders interleave as they would
	// reach a mempool, the same way in every run.
	order [32]byte
}

// pooled is a transaction CheckTx took, waiting in the mempool.
type pooled struct {
	m     message
	tx    []byte
	nonce uint64
}

// chain drives one App through heights as CometBFT would for a proposer
// that is also a validator: CheckTx for every transaction sent, then per
// height PrepareProposal over the mempool, ProcessProposal, FinalizeBlock,
// Commit and the mempool's recheck. No networking: one process, one App.
type chain struct {
	app     *app.App
	height  int64
	maxData int64
	mempool []pooled
	stats   *Stats
	// hashes are the app hashes by height (index = height).
	hashes [][]byte
}

func newChain(ctx context.Context, a *app.App, g genesis.AppState, st *Stats) (*chain, error) {
	bz, err := g.Encode()
	if err != nil {
		return nil, err
	}
	req := &abcitypes.RequestInitChain{ChainId: ChainID, AppStateBytes: bz, InitialHeight: 1, Time: blockTime(0)}
	for _, v := range g.Validators {
		pk, err := v.ConsensusPubKey()
		if err != nil {
			return nil, err
		}
		req.Validators = append(req.Validators, abcitypes.ValidatorUpdate{
			PubKey: cmtcrypto.PublicKey{Sum: &cmtcrypto.PublicKey_Ed25519{Ed25519: pk}}, Power: v.Power})
	}
	res, err := a.InitChain(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("InitChain: %w", err)
	}
	// CometBFT's reap bound: the block's 4 MiB less its header and the
	// commit of V signatures.
	maxData := cmttypes.MaxDataBytes(genesis.ConsensusBlockMaxBytes, 0, len(g.Validators))
	return &chain{app: a, maxData: maxData, stats: st, hashes: [][]byte{res.AppHash}}, nil
}

// blockTime is the fixed time of height h.
func blockTime(h int64) time.Time { return time.Unix(GenesisTime+h*BlockSeconds, 0).UTC() }

// blockHash is the fixed hash of height h's proposal.
func blockHash(h int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(h))
	s := sha256.Sum256(append([]byte(ChainID+"/block/"), b[:]...))
	return s[:]
}

// send signs m at its sender's next nonce and hands it to CheckTx, as a
// client's Send does: taken, it joins the mempool; refused, the nonce is
// not used and the refusal is counted.
func (c *chain) send(ctx context.Context, m message) error {
	a := m.from
	tx, err := a.signer.Sign(ctx, m.msg)
	if err != nil {
		return err
	}
	cpu := cpuclock.Process()
	res, err := c.app.CheckTx(ctx, &abcitypes.RequestCheckTx{Tx: tx, Type: abcitypes.CheckTxType_New})
	c.stats.CheckCPU += cpuclock.Process() - cpu
	if err != nil {
		return fmt.Errorf("CheckTx: %w", err)
	}
	n := c.stats.count(m.track, m.kind)
	n.Sent++
	n.Entries.Sent += entries(m)
	if res.Code != wire.CodeOK {
		c.stats.refuse(m.track, m.kind, res.Code)
		a.signer.SetNonce(a.next)
		return nil
	}
	n.Checked++
	n.Entries.Checked += entries(m)
	c.mempool = append(c.mempool, pooled{m: m, tx: tx, nonce: a.next})
	a.next++
	return nil
}

// included is a transaction of a decided block with its result.
type included struct {
	p   pooled
	res *abcitypes.ExecTxResult
}

// decided is what one height did: its transactions with their results,
// the end of block's events, and what it cost.
type decided struct {
	height int64
	txs    []included
	events []abcitypes.Event
	stat   BlockStat
}

// block runs the next height: the mempool reaped up to the block's bytes,
// PrepareProposal, ProcessProposal (which must accept), FinalizeBlock and
// Commit (timed together: what every validator runs), then the recheck of
// what stayed in the mempool. It returns what the height decided and the
// messages the recheck evicted behind a refused one of their sender (to
// send again).
func (c *chain) block(ctx context.Context) (decided, []message, error) {
	h := c.height + 1
	at, hash := blockTime(h), blockHash(h)
	var txs [][]byte
	var size int64
	for _, p := range c.mempool {
		if size+int64(len(p.tx)) > c.maxData {
			break
		}
		txs = append(txs, p.tx)
		size += int64(len(p.tx))
	}
	prepStart, prepCPU := time.Now(), cpuclock.Process()
	prep, err := c.app.PrepareProposal(ctx, &abcitypes.RequestPrepareProposal{Height: h, Time: at, Txs: txs, MaxTxBytes: c.maxData})
	if err != nil {
		return decided{}, nil, fmt.Errorf("height %d: PrepareProposal: %w", h, err)
	}
	d := decided{height: h, stat: BlockStat{Height: h, Prepare: time.Since(prepStart), PrepareCPU: cpuclock.Process() - prepCPU}}
	wall, cpu := time.Now(), cpuclock.Process()
	proc, err := c.app.ProcessProposal(ctx, &abcitypes.RequestProcessProposal{Height: h, Time: at, Txs: prep.Txs, Hash: hash})
	if err != nil {
		return decided{}, nil, fmt.Errorf("height %d: ProcessProposal: %w", h, err)
	}
	if proc.Status != abcitypes.ResponseProcessProposal_ACCEPT {
		return decided{}, nil, fmt.Errorf("height %d: ProcessProposal rejected the app's own proposal", h)
	}
	fin, err := c.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: at, Txs: prep.Txs, Hash: hash})
	if err != nil {
		return decided{}, nil, fmt.Errorf("height %d: FinalizeBlock: %w", h, err)
	}
	if w, ok := c.app.PendingWork(); ok {
		d.stat.Written = w.Written
		d.stat.Records, d.stat.TreeNodes, d.stat.TreeBytes = w.Records, w.TreeNodes, w.TreeBytes
	}
	if _, err := c.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
		return decided{}, nil, fmt.Errorf("height %d: Commit: %w", h, err)
	}
	d.stat.Wall, d.stat.CPU = time.Since(wall), cpuclock.Process()-cpu
	c.height = h
	c.hashes = append(c.hashes, fin.AppHash)
	d.events = fin.Events
	rest := c.take(prep.Txs, fin.TxResults, &d)
	again, err := c.recheck(ctx, rest)
	return d, again, err
}

// take moves the block's transactions (a subsequence of the mempool, in
// its order) out of the mempool into d and returns what stayed.
func (c *chain) take(kept [][]byte, results []*abcitypes.ExecTxResult, d *decided) []pooled {
	var rest []pooled
	k := 0
	for _, p := range c.mempool {
		if k < len(kept) && string(p.tx) == string(kept[k]) {
			d.txs = append(d.txs, included{p: p, res: results[k]})
			d.stat.Txs++
			d.stat.Bytes += len(p.tx)
			c.stats.include(p.m.track, p.m.kind, len(p.tx), entries(p.m))
			c.countEntries(p.m, results[k])
			p.m.from.committed++
			k++
			continue
		}
		rest = append(rest, p)
	}
	return rest
}

// countEntries counts the entries of an included batch that execution
// refused, by their entry events.
func (c *chain) countEntries(m message, res *abcitypes.ExecTxResult) {
	for _, ev := range res.Events {
		if entryEvent(ev.Type) && setup.Attr(ev, "name") != wire.CodeName(wire.CodeOK) {
			c.stats.refuseEntry(m.track, m.kind, setup.Attr(ev, "name"))
		}
	}
}

// recheck runs CometBFT's recheck over what stayed in the mempool, in
// order, and evicts what the new state refuses. A sender's transactions
// behind an evicted one are refused as nonce_future: their messages are
// returned, to be signed and sent again.
func (c *chain) recheck(ctx context.Context, rest []pooled) ([]message, error) {
	c.mempool = c.mempool[:0]
	if len(rest) == 0 {
		return nil, nil
	}
	reqs := make([]*abcitypes.RequestCheckTx, len(rest))
	for i, p := range rest {
		reqs[i] = &abcitypes.RequestCheckTx{Tx: p.tx, Type: abcitypes.CheckTxType_Recheck}
	}
	cpu := cpuclock.Process()
	res, err := c.app.CheckTxs(ctx, reqs)
	c.stats.CheckCPU += cpuclock.Process() - cpu
	if err != nil {
		return nil, fmt.Errorf("recheck: %w", err)
	}
	var again []message
	touched := map[*actor]bool{}
	for i, p := range rest {
		if res[i].Code == wire.CodeOK {
			c.mempool = append(c.mempool, p)
			continue
		}
		touched[p.m.from] = true
		if res[i].Code == wire.CodeNonceFuture {
			again = append(again, p.m)
			continue
		}
		c.stats.evict(p.m.track, p.m.kind, res[i].Code)
	}
	pooledBy := map[*actor]uint64{}
	for _, p := range c.mempool {
		pooledBy[p.m.from]++
	}
	// a touched sender keeps only the transactions before its evicted one:
	// its next nonce follows them (order of the map: no effect on a result)
	for a := range touched {
		a.next = a.committed + pooledBy[a]
		a.signer.SetNonce(a.next)
	}
	return again, nil
}

// entryEvent: the event of one entry of a batch.
func entryEvent(typ string) bool {
	switch typ {
	case wire.EventReportEntry, wire.EventCommitEntry, wire.EventRevealEntry, wire.EventTruthEntry:
		return true
	}
	return false
}
