package miner

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/artifact"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// EVM is what the gas track reads of the EVM chain it predicts;
// *oracle.EVM is one.
type EVM interface {
	Head(ctx context.Context) (uint64, error)
	ChainID(ctx context.Context) (uint64, error)
}

// Deps are what the daemon runs with besides its configuration.
type Deps struct {
	Node   *client.Client
	Signer *client.Signer
	// Home is the key's home: the salts (client.SaltStore under
	// <home>/reveals) and the artifacts (<home>/miner/artifacts).
	Home string
	// Logf prints one progress line (nil: none).
	Logf func(format string, args ...any)
	// Metrics (nil: a registry of the daemon's own, served at
	// [metrics] listen when set).
	Metrics *Metrics
	// EVM is the gas track's endpoint (nil with the gas track on: dial
	// [gas] evm_rpc).
	EVM EVM
	// HTTP fetches the price feed (nil: a client bounded by [gas] timeout).
	HTTP *http.Client
	// crash, when set, is called at each named step of a poll with the
	// number of items the step handled; an error ends Run at once, as a
	// kill there would (tests).
	crash func(step string, n int) error
}

// Steps of a poll at which a test may stop the daemon as a kill would.
const (
	stepSolved    = "solved"    // artifacts stored, nothing committed
	stepCommitted = "committed" // the commit batch's block seen, before the daemon records it
	stepPublished = "published" // artifacts published, reveal not sent
	stepRevealed  = "revealed"  // the reveal batch's block seen
	stepOutcomes  = "outcomes"  // statuses read
	crashPrefix   = "miner: stop"
)

// ArtifactsDir is where a home keeps its artifacts.
func ArtifactsDir(home string) string { return filepath.Join(home, "miner", "artifacts") }

// Daemon is one miner key's daemon.
type Daemon struct {
	cfg     Config
	d       Deps
	m       *Metrics
	salts   *client.SaltStore
	arts    *artifact.Store
	uid     uint32
	hasUID  bool
	served  bool // the chain holds cfg's address
	tasks   map[uint64]*taskState
	gas     gasState
	seen    map[uint64]string     // submission id → the final status already told
	seeded  bool                  // seen holds what was final when the daemon started
	resent  map[client.Target]int // target → the poll that last resent its commit
	ticks   int
	lastErr string
}

// New checks cfg and opens the daemon's stores.
func New(cfg Config, d Deps) (*Daemon, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if d.Node == nil || d.Signer == nil || d.Home == "" {
		return nil, errors.New("miner: Deps need a Node, a Signer and a Home")
	}
	if cfg.Serve.Address == "" && cfg.Serve.Listen != "" {
		if host, _, err := net.SplitHostPort(cfg.Serve.Listen); err == nil && host != "" && host != "0.0.0.0" && host != "::" {
			cfg.Serve.Address = "http://" + cfg.Serve.Listen
		}
	}
	if d.Logf == nil {
		d.Logf = func(string, ...any) {}
	}
	if d.Metrics == nil {
		d.Metrics = NewMetrics()
	}
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: cfg.Gas.Timeout.D()}
	}
	salts, err := client.NewSaltStore(d.Home, d.Signer.ChainID(), d.Signer.PubKey())
	if err != nil {
		return nil, err
	}
	arts, err := artifact.OpenStore(ArtifactsDir(d.Home))
	if err != nil {
		return nil, err
	}
	return &Daemon{cfg: cfg, d: d, m: d.Metrics, salts: salts, arts: arts,
		tasks: map[uint64]*taskState{}, seen: map[uint64]string{}, resent: map[client.Target]int{}, gas: gasState{done: map[uint64]bool{}}}, nil
}

// Metrics are the daemon's series.
func (dm *Daemon) Metrics() *Metrics { return dm.m }

// Run serves the artifact server and the metrics when configured and
// polls the chain until ctx ends; it returns nil then. It holds the home's
// lock while it runs: a second daemon on the home gets ErrLocked. Errors
// of a poll (a node or an endpoint down) are logged once and retried; only
// a failure of the home's own files ends it.
func (dm *Daemon) Run(ctx context.Context) error {
	unlock, err := lockHome(dm.d.Home)
	if err != nil {
		return err
	}
	defer unlock()
	ctx, stop := context.WithCancel(ctx)
	var servers sync.WaitGroup
	defer servers.Wait() // the ports are free again when Run returns
	defer stop()
	if l := dm.cfg.Serve.Listen; l != "" {
		ln, err := net.Listen("tcp", l)
		if err != nil {
			return fmt.Errorf("[serve] listen %s: %w", l, err)
		}
		servers.Go(func() { _ = dm.arts.Serve(ctx, ln) })
		dm.d.Logf("miner: serving revealed artifacts at http://%s/artifact/<sha256> (announced as %s)", ln.Addr(), orNone(dm.cfg.Serve.Address))
	}
	if l := dm.cfg.Metrics.Listen; l != "" {
		ln, err := net.Listen("tcp", l)
		if err != nil {
			return fmt.Errorf("[metrics] listen %s: %w", l, err)
		}
		servers.Go(func() { _ = dm.m.Serve(ctx, ln) })
		dm.d.Logf("miner: metrics at http://%s/metrics", ln.Addr())
	}
	if dm.cfg.Gas.EvmRPC != "" && dm.d.EVM == nil {
		evm, err := dialEVM(ctx, dm.cfg.Gas.EvmRPC, dm.cfg.Gas.Timeout.D())
		if err != nil {
			return err
		}
		defer evm.Close()
		dm.d.EVM = evm
	}
	if err := dm.resume(); err != nil {
		return err
	}
	for {
		err := dm.Poll(ctx)
		var fatal *fatalError
		switch {
		case ctx.Err() != nil:
			dm.d.Logf("miner: stopped; %d commits wait for their reveal in %s", dm.pendingCount(), dm.salts.Dir())
			return nil
		case errors.As(err, &fatal):
			return fatal.err
		case err != nil:
			if msg := err.Error(); msg != dm.lastErr {
				dm.d.Logf("miner: %v (retrying every %s)", err, dm.cfg.Chain.Poll)
				dm.lastErr = msg
			}
		default:
			dm.lastErr = ""
		}
		select {
		case <-ctx.Done():
		case <-time.After(dm.cfg.Chain.Poll.D()):
		}
	}
}

// fatalError ends Run: the home's own files failed.
type fatalError struct{ err error }

func (f *fatalError) Error() string { return f.err.Error() }

func fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err}
}

func orNone(s string) string {
	if s == "" {
		return "nothing: set [serve] address"
	}
	return s
}

// resume reads the stored commits of a previous run: their targets are
// answered (a task is never solved twice, a window never priced twice).
func (dm *Daemon) resume() error {
	ts, err := dm.salts.Targets()
	if err != nil {
		return fatal(err)
	}
	for _, t := range ts {
		if t.Gas {
			dm.gas.done[t.EVMBlock] = true
			continue
		}
		dm.tasks[t.TaskID] = &taskState{answered: true}
	}
	if len(ts) > 0 {
		dm.d.Logf("miner: resuming %d stored commits from %s", len(ts), dm.salts.Dir())
	}
	dm.m.pending.Set(float64(len(ts)))
	return nil
}

// Poll does one round of what is due: registration and address, commits
// of new tasks and gas windows, reveals, outcomes.
func (dm *Daemon) Poll(ctx context.Context) error {
	dm.ticks++
	st, err := dm.d.Node.Status(ctx)
	if err != nil {
		return err
	}
	h := st.Height
	dm.m.height.Set(float64(h))
	if !dm.hasUID {
		if err := dm.ensureUID(ctx); err != nil {
			return err
		}
	}
	if err := dm.resend(ctx); err != nil {
		return err
	}
	if err := dm.ensureServed(ctx); err != nil {
		dm.d.Logf("miner: announcing %s: %v", dm.cfg.Serve.Address, err)
	}
	payloads, solved, err := dm.taskPayloads(ctx, h)
	if err != nil {
		return err
	}
	gp, err := dm.gasPayloads(ctx)
	if err != nil {
		dm.d.Logf("miner: gas: %v", err)
	}
	payloads = append(payloads, gp...)
	if err := dm.step(stepSolved, len(payloads)); err != nil {
		return err
	}
	if len(payloads) > 0 {
		if err := dm.commit(ctx, payloads, solved); err != nil {
			return err
		}
	}
	if err := dm.reveal(ctx, h); err != nil {
		return err
	}
	if dm.ticks%5 == 1 {
		told, err := dm.outcomes(ctx)
		if err != nil {
			return err
		}
		if err := dm.step(stepOutcomes, told); err != nil {
			return err
		}
	}
	return nil
}

// step is a crash point (Deps.crash).
func (dm *Daemon) step(name string, n int) error {
	if dm.d.crash == nil {
		return nil
	}
	if err := dm.d.crash(name, n); err != nil {
		return fatal(fmt.Errorf("%s at %s: %w", crashPrefix, name, err))
	}
	return nil
}

// ensureUID finds the key's uid, registering it when configured.
func (dm *Daemon) ensureUID(ctx context.Context) error {
	uid, err := dm.d.Signer.UID(ctx)
	if errors.Is(err, client.ErrNotMiner) && dm.cfg.Chain.Register {
		dm.d.Logf("miner: key %x owns no uid: registering (proof of work)", dm.d.Signer.PubKey())
		msg, err := client.RegisterWork(ctx, dm.d.Node, dm.d.Signer.ChainID(), dm.d.Signer.PubKey(), nil)
		if err != nil {
			return err
		}
		res, err := dm.d.Signer.SendWait(ctx, msg, txTimeout(dm.d.Signer))
		if err != nil {
			return fmt.Errorf("register-miner: %w", err)
		}
		dm.d.Logf("miner: registered in block %d", res.Height)
		uid, err = dm.d.Signer.UID(ctx)
		if err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	dm.uid, dm.hasUID = uid, true
	dm.d.Logf("miner: uid %d, key %x, tracks %s", uid, dm.d.Signer.PubKey(), strings.Join(dm.trackNames(), ", "))
	return nil
}

func (dm *Daemon) trackNames() []string {
	var out []string
	if dm.cfg.Workflow.Solver != "" {
		out = append(out, "workflow")
	}
	if dm.cfg.Arena.Solver != "" {
		out = append(out, "arena")
	}
	if dm.cfg.Gas.EvmRPC != "" {
		out = append(out, "gas")
	}
	return out
}

// pendingCount is the number of stored commits.
func (dm *Daemon) pendingCount() int {
	ts, _ := dm.salts.Targets()
	return len(ts)
}

// resendEvery is how many polls a resent commit has to land before it is
// sent again.
const resendEvery = 10

// resend commits again, with their stored salts, the stored entries whose
// commit no block holds: a run stopped between storing a batch's salts
// and its block, or a batch whose outcome was unknown (a node that did not
// answer). The commitment is the same, so whichever copy lands, the stored
// salt opens it, and a copy refused as a second commit keeps the entry
// (client.CommitPayloads).
func (dm *Daemon) resend(ctx context.Context) error {
	targets, err := dm.salts.Targets()
	if err != nil {
		return fatal(err)
	}
	var again []*subnetv1.MsgSubmit
	for t := range dm.resent {
		if !slices.Contains(targets, t) {
			delete(dm.resent, t) // revealed or dropped since
		}
	}
	for _, t := range targets {
		p, err := dm.salts.Load(t)
		if err != nil {
			return fatal(err)
		}
		if p.CommitHeight > 0 || p.UID != dm.uid || (dm.resent[t] > 0 && dm.ticks-dm.resent[t] < resendEvery) {
			continue
		}
		if p.CommitTx != "" {
			if res, err := dm.d.Node.Tx(ctx, p.CommitTx); err == nil && res.Height > 0 {
				continue // in a block: the reveal step records it
			}
		}
		again = append(again, p.Payload)
		dm.resent[t] = dm.ticks
	}
	if len(again) == 0 {
		return nil
	}
	dm.d.Logf("miner: %d stored commits are in no block: sending them again with their salts", len(again))
	return dm.commit(ctx, again, nil)
}
