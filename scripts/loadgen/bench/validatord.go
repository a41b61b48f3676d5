package bench

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// minerKey is miner i's key: the same seed gives the same miners.
func minerKey(seed string, i int) ed25519.PrivateKey {
	return setup.Key(fmt.Sprintf("%s/miner/%d", seed, i))
}

// benchMiner is one registered miner of the measured phase.
type benchMiner struct {
	key   ed25519.PrivateKey
	pub   ed25519.PublicKey
	uid   uint32
	nonce uint64 // the next one, counted locally (the dispatcher's goroutine only)
	node  int
	// rewind is the lowest nonce a refusal asked to send again (noRewind: none), set by the
	// broadcasting workers and taken by the dispatcher.
	rewind  atomic.Uint64
	rewinds atomic.Int64
}

const noRewind = math.MaxUint64

// refused is called when the miner's tx at nonce was refused (code, CheckTx's data) or its
// broadcast failed (code 0): like client.Signer after a nonce error, the miner sends from the
// node's next nonce again (the one a nonce refusal carries, wire.DecodeNextNonce, else this
// tx's nonce), so that one dropped transaction does not leave the key's later ones refused as
// future for the rest of the run.
func (m *benchMiner) refused(nonce uint64, code uint32, data []byte) {
	target := nonce
	if n, ok := wire.DecodeNextNonce(data); ok && wire.IsNonceCode(code) {
		target = n
	}
	for {
		cur := m.rewind.Load()
		if target >= cur || m.rewind.CompareAndSwap(cur, target) {
			return
		}
	}
}

// takeRewind applies a pending rewind below the local count; the dispatcher's goroutine only.
func (m *benchMiner) takeRewind() bool {
	r := m.rewind.Swap(noRewind)
	if r < m.nonce {
		m.nonce = r
		m.rewinds.Add(1)
		return true
	}
	return false
}

// commitSource makes the commits of the measured phase: transaction i is miner i%M's commit
// to task i/M, signed at that miner's next nonce.
type commitSource struct {
	chainID string
	miners  []*benchMiner
	tasks   []uint64
	i       int
	salt    client.Salt
	resync  bool
}

func (c *commitSource) next() ([]byte, int, func(uint32, []byte), error) {
	m := c.miners[c.i%len(c.miners)]
	t := c.i / len(c.miners)
	if t >= len(c.tasks) {
		return nil, 0, nil, errExhausted
	}
	m.takeRewind()
	c.i++
	task := c.tasks[t]
	payload := setup.WorkflowPayload(int(m.uid), task)
	msg, err := client.Commit(c.chainID, m.pub, m.uid, payload, c.salt)
	if err != nil {
		return nil, 0, nil, err
	}
	nonce := m.nonce
	tx, err := wire.SignTx(c.chainID, m.key, nonce, msg)
	if err != nil {
		return nil, 0, nil, err
	}
	m.nonce++
	var refused func(uint32, []byte)
	if c.resync {
		refused = func(code uint32, data []byte) { m.refused(nonce, code, data) }
	}
	return tx, m.node, refused, nil
}

// rewinds counts the nonce rewinds of all miners.
func (c *commitSource) rewinds() int64 {
	var n int64
	for _, m := range c.miners {
		n += m.rewinds.Load()
	}
	return n
}

// setupValidatord registers the miners (or finds them registered) and posts tasks ahead, and
// returns the source of the measured phase's commits.
func setupValidatord(ctx context.Context, o options, rpcs []string, logf func(string, ...any)) (*commitSource, error) {
	net, err := setup.LoadTestnet(o.testnet, o.nodes)
	if err != nil {
		return nil, err
	}
	clients := make([]*client.Client, len(rpcs))
	for i, a := range rpcs {
		if clients[i], err = client.Dial(a); err != nil {
			return nil, err
		}
	}
	chainID := net.ChainID

	miners, err := registerMiners(ctx, o, clients, chainID, logf)
	if err != nil {
		return nil, err
	}

	// Post the tasks ahead: each validator its share, nonces pipelined, then wait for them all.
	t0 := time.Now()
	ntasks := o.tasks
	if ntasks == 0 {
		ntasks = autoTasks(o)
	}
	subBlocks := net.State.Chain.MaxSubmissionBlocks
	task := setup.WorkflowTask(setup.Windows{Submission: subBlocks, Report: 40})
	keys := net.ReportKeys
	ids := make([][]uint64, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for v, k := range keys {
		s := client.NewSigner(clients[v%len(clients)], chainID, k)
		wg.Go(func() {
			ids[v], errs[v] = setup.PostTasks(ctx, s, task, setup.Share(ntasks, len(keys), v), 200, 60*time.Second)
		})
	}
	wg.Wait()
	var tasks []uint64
	for v := range keys {
		if errs[v] != nil {
			return nil, fmt.Errorf("validator %d: post tasks: %w", v, errs[v])
		}
		tasks = append(tasks, ids[v]...)
	}
	logf("posted %d tasks (submission_blocks %d) in %.1fs", len(tasks), subBlocks, time.Since(t0).Seconds())
	var salt client.Salt
	copy(salt[:], "benchnet salt: not secret at all")
	return &commitSource{chainID: chainID, miners: miners, tasks: tasks, salt: salt, resync: o.resync}, nil
}

// registerMiners registers o.miners miners (or finds them registered), each through its own
// node (miner i through node i%N), all at once.
func registerMiners(ctx context.Context, o options, clients []*client.Client, chainID string, logf func(string, ...any)) ([]*benchMiner, error) {
	t0 := time.Now()
	miners := make([]*benchMiner, o.miners)
	errs := make([]error, o.miners)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range miners {
		key := minerKey(o.seed, i)
		m := &benchMiner{key: key, pub: key.Public().(ed25519.PublicKey), node: i % len(clients)}
		m.rewind.Store(noRewind)
		miners[i] = m
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = register(ctx, clients[m.node], chainID, m)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("miner %d: %w", i, err)
		}
	}
	logf("registered %d miners in %.1fs", len(miners), time.Since(t0).Seconds())
	return miners, nil
}

// autoTasks: enough tasks that every miner has one for each commit the run can send (rate
// mode: the offered count with a margin; in-flight mode: --max-tps for the duration).
func autoTasks(o options) int {
	total := o.maxTPS * o.duration.Seconds()
	if o.rate > 0 {
		total = o.rate * o.duration.Seconds() * 1.2
	}
	return int(total)/o.miners + 2
}

// register registers m (or reads its uid if it is already registered) and sets its next nonce.
func register(ctx context.Context, c *client.Client, chainID string, m *benchMiner) error {
	s := client.NewSigner(c, chainID, m.key)
	for attempt := 0; ; attempt++ {
		acc, err := c.Account(ctx, m.pub)
		if err == nil && acc.UID != nil {
			m.uid, m.nonce = *acc.UID, acc.NextNonce
			return nil
		}
		msg, err := client.RegisterWork(ctx, c, chainID, m.pub, nil)
		if err != nil {
			return err
		}
		res, err := s.SendWait(ctx, msg, 60*time.Second)
		if err == nil {
			uid, err := res.AttrU64(wire.EventMinerRegistered, "uid")
			if err != nil {
				return err
			}
			m.uid = uint32(uid)
			if m.nonce, err = c.NextNonce(ctx, m.pub); err != nil {
				return err
			}
			return nil
		}
		if attempt >= 5 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
