package validator

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/extcmd"
	"github.com/scoringsubnet/validatord/daemon/signrec"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	"github.com/scoringsubnet/validatord/oracle"

	"github.com/scoringsubnet/validatord/internal/promserve"
)

// Options are what Open takes besides the home and the configuration.
type Options struct {
	// Log receives the progress lines, one per event (default os.Stderr).
	Log io.Writer
	// HTTPClient fetches artifacts (nil: one of its own).
	HTTPClient *http.Client
	// Metrics records the daemon's series (nil: NewMetrics()).
	Metrics *Metrics
}

// Daemon is one validator daemon: Open it, Run it until its context ends,
// Close it.
type Daemon struct {
	cfg     Config
	keyName string
	key     ed25519.PrivateKey
	c       *client.Client
	rec     *signrec.Record
	measure extcmd.Command
	hc      *http.Client
	metrics *Metrics
	// oracleMetrics are the in-process oracle's series (with [gas] evm_rpc),
	// served on the same endpoint
	oracleMetrics *oracle.Metrics
	logf          func(format string, args ...any)

	// set by start: the signer of the report key, the validator's name on
	// chain (its votes carry it) and the key's hex (a task's poster)
	signer *client.Signer
	name   string
	pubHex string

	// subs are the submissions being handled; done those finished, with
	// their report deadline (forgotten once it passed)
	subs map[uint64]*work
	done map[uint64]int64
	// horizon is how far back (blocks) a task may have been posted and
	// still have an open report window; polls counts polls (the params are
	// read again every paramsEvery)
	horizon int64
	polls   int
	// openMin is the lowest submission id of the tasks whose report window
	// was open at the last scan (math.MaxUint64: none); the signing record
	// keeps every entry from it on. pruneEvery is how many polls pass
	// between two prunes of the record.
	openMin    uint64
	pruneEvery int
	// lastPost is the height of the last task this key posted (0: none
	// known)
	lastPost int64
	// states are the last line logged per topic (one line per change)
	states map[string]string
	// strikes are the uids whose last fetch failed: their items are
	// started after the others (measureAll)
	strikesMu sync.Mutex
	strikes   map[uint32]bool

	// afterRecord, a test seam, runs after the signing record took a
	// poll's new measurements and before they are sent (its error ends Run).
	afterRecord func() error
}

// paramsEvery is how many polls the chain's params are kept before they
// are read again (the horizon of the task scan).
const paramsEvery = 60

// txTimeout bounds the wait for a transaction's block.
const txTimeout = 30 * time.Second

// Open checks cfg, parses the measurement command, loads the report key
// from <home>/keys and opens (and locks) the signing record. Nothing is
// asked of the node before Run. A second daemon on the same home gets
// signrec.ErrLocked.
func Open(home string, cfg Config, opts Options) (*Daemon, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cmd, err := extcmd.Parse(cfg.Measure.Command)
	if err != nil {
		return nil, &ConfigError{Option: "measure.command", Reason: err.Error()}
	}
	cmd.Timeout, cmd.MaxOutput = cfg.Measure.Timeout.D(), cfg.Measure.MaxOutputBytes
	key, err := keyfile.Load(home, cfg.Chain.Key)
	if err != nil {
		return nil, &ConfigError{Option: "chain.key", Reason: err.Error()}
	}
	c, err := client.Dial(cfg.Chain.Node)
	if err != nil {
		return nil, &ConfigError{Option: "chain.node", Reason: err.Error()}
	}
	if err := os.MkdirAll(filepath.Dir(RecordFile(home)), 0o700); err != nil {
		return nil, err
	}
	rec, err := signrec.Open(RecordFile(home))
	if err != nil {
		return nil, fmt.Errorf("signing record: %w (is another validator daemon running on this home?)", err)
	}
	w := opts.Log
	if w == nil {
		w = os.Stderr
	}
	logger := log.New(w, "", log.LstdFlags|log.LUTC)
	d := &Daemon{cfg: cfg, keyName: cfg.Chain.Key, key: key, c: c, rec: rec, measure: cmd, hc: opts.HTTPClient,
		metrics: opts.Metrics, logf: logger.Printf, pruneEvery: paramsEvery, subs: map[uint64]*work{}, done: map[uint64]int64{}, states: map[string]string{}, strikes: map[uint32]bool{}}
	if d.hc == nil {
		d.hc = &http.Client{}
	}
	if d.metrics == nil {
		d.metrics = NewMetrics()
	}
	if cfg.Gas.EvmRPC != "" {
		d.oracleMetrics = oracle.NewMetrics()
	}
	return d, nil
}

// Metrics are the daemon's series.
func (d *Daemon) Metrics() *Metrics { return d.metrics }

// Close releases the signing record (and its lock).
func (d *Daemon) Close() error { return d.rec.Close() }

// Run works until ctx ends, then returns nil once the oracle (if any) has
// stopped; a later Run on the same home resumes from the chain and the
// signing record. It returns early with an error when the key is not a
// validator's report key, the metrics address cannot be listened on, or
// the in-process oracle cannot report.
func (d *Daemon) Run(ctx context.Context) error {
	if d.cfg.Metrics.Listen != "" {
		ln, err := net.Listen("tcp", d.cfg.Metrics.Listen)
		if err != nil {
			return &ConfigError{Option: "metrics.listen", Reason: err.Error()}
		}
		var g prometheus.Gatherers = []prometheus.Gatherer{d.metrics.Registry()}
		if d.oracleMetrics != nil {
			g = append(g, d.oracleMetrics.Registry())
		}
		mctx, stop := context.WithCancel(ctx)
		defer stop()
		go func() { _ = promserve.Serve(mctx, ln, g) }()
		d.logf("validator: metrics at http://%s/metrics", ln.Addr())
	}
	if err := d.start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	oracleErr := make(chan error, 1)
	if d.cfg.Gas.EvmRPC != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := d.runOracle(ctx); err != nil {
				oracleErr <- err
				cancel()
			}
		}()
	}
	err := d.loop(ctx)
	cancel()
	wg.Wait()
	d.logf("validator: stopped; the signing record holds %d entries", d.rec.Len())
	select {
	case oerr := <-oracleErr:
		return oerr
	default:
	}
	return err
}

// loop polls until ctx ends.
func (d *Daemon) loop(ctx context.Context) error {
	t := time.NewTicker(d.cfg.Chain.Poll.D())
	defer t.Stop()
	for {
		err := d.poll(ctx)
		var stop *stopError
		if errors.As(err, &stop) {
			return stop.err
		}
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			d.note("poll", fmt.Sprintf("validator: %v (retrying every %s)", err, d.cfg.Chain.Poll))
		} else {
			d.note("poll", "")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// stopError ends Run (a test seam's error).
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }

// start waits for the node, learns the chain id and checks that the key
// is a validator's report key.
func (d *Daemon) start(ctx context.Context) error {
	pub := d.key.Public().(ed25519.PublicKey)
	d.pubHex = hex.EncodeToString(pub)
	for {
		err := d.startOnce(ctx, pub)
		var nv *NotValidatorError
		var ce *ConfigError
		if err == nil || errors.As(err, &nv) || errors.As(err, &ce) || ctx.Err() != nil {
			d.note("start", "")
			return err
		}
		d.note("start", fmt.Sprintf("validator: waiting for the node at %s: %v", d.cfg.Chain.Node, err))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d.cfg.Chain.Poll.D()):
		}
	}
}

func (d *Daemon) startOnce(ctx context.Context, pub ed25519.PublicKey) error {
	st, err := d.c.NodeStatus(ctx)
	if err != nil {
		return err
	}
	chainID := d.cfg.Chain.ChainID
	if chainID == "" {
		chainID = st.ChainID
	} else if chainID != st.ChainID {
		return &ConfigError{Option: "chain.chain_id", Reason: fmt.Sprintf("%q, but the node runs %q", chainID, st.ChainID)}
	}
	acct, err := d.c.Account(ctx, pub)
	if err != nil {
		return err
	}
	if acct.Validator == nil {
		return &NotValidatorError{Key: d.keyName, PubKey: d.pubHex}
	}
	d.name = *acct.Validator
	if d.signer == nil {
		d.signer = client.NewSigner(d.c, chainID, d.key)
	}
	d.logf("validator: %s reporting as validator %q on chain %s; signing record %s (%d entries)", d.keyName, d.name, chainID, d.rec.Path(), d.rec.Len())
	return nil
}

// note logs line when it differs from the last line of topic ("" clears
// it, logging nothing).
func (d *Daemon) note(topic, line string) {
	if d.states[topic] == line {
		return
	}
	d.states[topic] = line
	if line != "" {
		d.logf("%s", line)
	}
}
