package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/internal/testnethome"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// minerKey is miner i's key: the same seed gives the same miners.
func minerKey(seed string, i int) ed25519.PrivateKey {
	s := sha256.Sum256(fmt.Appendf(nil, "%s/miner/%d", seed, i))
	return ed25519.NewKeyFromSeed(s[:])
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

var nextNonceRe = regexp.MustCompile(`next nonce (?:is )?(\d+)`)

// nextNonceIn reads the node's next nonce from a nonce refusal's log.
func nextNonceIn(log string) (uint64, bool) {
	m := nextNonceRe.FindStringSubmatch(log)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	return n, err == nil
}

// refused is called when the miner's tx at nonce was refused (code, log) or its broadcast
// failed (code 0): like client.Signer after a nonce error, the miner sends from the node's next
// nonce again (read from a nonce refusal's log, else this tx's nonce), so that one dropped
// transaction does not leave the key's later ones refused as future for the rest of the run.
func (m *benchMiner) refused(nonce uint64, code uint32, log string) {
	target := nonce
	if n, ok := nextNonceIn(log); ok && (code == wire.CodeNonceUsed || code == wire.CodeNonceFuture) {
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

func (c *commitSource) next() ([]byte, int, func(uint32, string), error) {
	m := c.miners[c.i%len(c.miners)]
	t := c.i / len(c.miners)
	if t >= len(c.tasks) {
		return nil, 0, nil, errExhausted
	}
	m.takeRewind()
	c.i++
	task := c.tasks[t]
	payload := client.WorkflowPayload(task, client.ArtifactHash("workflow", int(m.uid), task))
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
	var refused func(uint32, string)
	if c.resync {
		refused = func(code uint32, log string) { m.refused(nonce, code, log) }
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
	hs := testnethome.Homes(o.testnet)
	if len(hs) == 0 {
		return nil, fmt.Errorf("--testnet %s: no node homes", o.testnet)
	}
	gen, err := types.GenesisDocFromFile(filepath.Join(hs[0], "config", "genesis.json"))
	if err != nil {
		return nil, err
	}
	st, err := genesis.Decode(gen.AppState)
	if err != nil {
		return nil, fmt.Errorf("genesis app_state: %w", err)
	}
	clients := make([]*client.Client, len(rpcs))
	for i, a := range rpcs {
		if clients[i], err = client.Dial(a); err != nil {
			return nil, err
		}
	}
	chainID := gen.ChainID

	// Register the miners, each through its own node, all at once.
	t0 := time.Now()
	miners := make([]*benchMiner, o.miners)
	errs := make([]error, o.miners)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := range miners {
		key := minerKey(o.seed, i)
		m := &benchMiner{key: key, pub: key.Public().(ed25519.PublicKey), node: i % len(rpcs)}
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

	// Post the tasks ahead: each validator its share, nonces pipelined, then wait for them all.
	t0 = time.Now()
	ntasks := o.tasks
	if ntasks == 0 {
		ntasks = autoTasks(o)
	}
	subBlocks := st.Chain.MaxSubmissionBlocks
	task := client.PostWorkflowTask(&subnetv1.WorkflowTask{
		TotalSteps: 5, MaxBudget: "2.0", MaxLatencySeconds: "120",
		SubmissionBlocks: subBlocks, ReportBlocks: 40,
	})
	var keys []ed25519.PrivateKey
	for _, h := range hs {
		k, err := keyfile.Load(h, keyfile.ReportKeyName)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	ids := make([][]uint64, len(keys))
	errs = make([]error, len(keys))
	for v, k := range keys {
		n := ntasks / len(keys)
		if v < ntasks%len(keys) {
			n++
		}
		c := clients[v%len(clients)]
		wg.Go(func() { ids[v], errs[v] = postTasks(ctx, c, chainID, k, task, n) })
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

// postTasks posts n copies of task from key with pipelined nonces and returns their ids.
func postTasks(ctx context.Context, c *client.Client, chainID string, key ed25519.PrivateKey, task *subnetv1.Msg, n int) ([]uint64, error) {
	s := client.NewSigner(c, chainID, key)
	const batch = 200 // at most this many in the mempool at once
	var ids []uint64
	for done := 0; done < n; {
		var hashes []string
		for j := 0; j < batch && done+j < n; j++ {
			res, err := s.Send(ctx, task)
			if err != nil {
				return ids, err
			}
			hashes = append(hashes, res.Hash)
		}
		for _, h := range hashes {
			res, err := c.WaitTx(ctx, h, 60*time.Second)
			if err != nil {
				return ids, err
			}
			id, err := res.AttrU64(wire.EventTaskPosted, "task_id")
			if err != nil {
				return ids, err
			}
			ids = append(ids, id)
		}
		done += len(hashes)
	}
	return ids, nil
}
