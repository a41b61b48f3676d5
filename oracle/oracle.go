package oracle

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Source is what the oracle reads of the EVM chain (*EVM is one).
type Source interface {
	ChainID(ctx context.Context) (uint64, error)
	Head(ctx context.Context) (uint64, error)
	Block(ctx context.Context, n uint64) (Block, error)
}

// Chain answers how far the chain has closed an EVM chain, what became of
// a truth round, which EVM chains the gas track follows (params) and
// whether a key is a validator's report key (account); *client.Client is
// one.
type Chain interface {
	Params(ctx context.Context) (*wire.ParamsView, error)
	Account(ctx context.Context, pub ed25519.PublicKey) (*wire.AccountView, error)
	GasChain(ctx context.Context, evmChainID uint64) (*wire.GasChainView, error)
	Truth(ctx context.Context, evmChainID, evmBlock uint64) (*wire.TruthRoundView, error)
}

// Sender signs a message, broadcasts it and waits for its block
// (*client.Signer is one).
type Sender interface {
	PubKey() ed25519.PublicKey
	SendWait(ctx context.Context, msg *subnetv1.Msg, timeout time.Duration) (client.TxResult, error)
}

// Config is one oracle's settings; zero durations take the defaults.
type Config struct {
	// EvmChainID is the gas track's id of the EVM chain the Source reads
	// (0: the endpoint's eth_chainId). Run refuses to start when the
	// endpoint serves another chain, or the chain's gas track does not
	// follow it.
	EvmChainID uint64
	// Confirmations is the depth d: a block is read once the head is at
	// least d blocks past it (head − n ≥ d), so a reorg of the last d
	// blocks never reaches a truth.
	Confirmations uint64
	// StartBlock, when HasStart, is where an oracle begins on a chain that
	// has closed no window yet (else: the latest whole confirmed window).
	StartBlock uint64
	HasStart   bool
	// Poll is how often the head is read while waiting (default 1 s).
	Poll time.Duration
	// BackoffMin and BackoffMax bound the wait between retries of a failed
	// read or send, doubled from min to max, each wait drawn from [d/2, d]
	// (defaults 250 ms, 30 s). Retries go on until the call answers or ctx
	// ends: an endpoint that is down is waited for, never given up on.
	BackoffMin, BackoffMax time.Duration
	// RPCTimeout bounds every call to the EVM endpoint and every query to
	// the node (default 10 s): an endpoint that accepts a request and never
	// answers is a failed call, retried, never a hang.
	RPCTimeout time.Duration
	// TxTimeout bounds the wait for a truth's block (default 30 s).
	TxTimeout time.Duration
	// HeadStill is how long the EVM head may stay the same before a line
	// says so (a halted or paused chain, a dev chain that mines only on
	// demand, an endpoint stuck on an old block); one line again when it
	// moves (default 2 min).
	HeadStill time.Duration
	// Logf receives one line per window and one per change of state (an
	// endpoint down, up again; the EVM head behind the next window, caught
	// up; the chain not taking truths yet), never one per attempt
	// (default: none).
	Logf func(format string, args ...any)
	// Metrics, when set, records the oracle's series.
	Metrics *Metrics
	// OnReport, when set, is called with each window's outcome.
	OnReport func(Report)
	// BatchWindows is the most windows one transaction reports when more
	// than one is confirmed at once (a backlog: catching up after a pause,
	// a restart, a quiet chain's empty windows): their truths go in one
	// MsgTruthBatch, kept within the chain's max_tx_bytes, and each entry's
	// outcome is its window's as the single truth's would be (batch.go).
	// 0 or 1: every window in a transaction of its own; at most
	// wire.MaxBatch.
	BatchWindows int
}

// Outcome is what became of a window.
type Outcome string

// The outcomes of a window.
const (
	// Sent: the truth was committed in a block.
	Sent Outcome = "sent"
	// AlreadyReported: this validator's truth for the window is on chain
	// already (a restart after a send).
	AlreadyReported Outcome = "already reported"
	// Closed: the chain closed the window (or a later one) without it.
	Closed Outcome = "closed"
	// Refused: the chain refused the truth for good (its log says why).
	Refused Outcome = "refused"
	// Resent: the window's round was dropped at its deadline (too little
	// power reported in time) while the window is still open, and the
	// truth was sent again.
	Resent Outcome = "resent"
)

// Report is the outcome of one window.
type Report struct {
	Truth   Truth
	Outcome Outcome
	// Height is the truth's block (Sent); Log the chain's refusal.
	Height int64
	Log    string
	// Attempts counts the sends.
	Attempts int
	// Head is the EVM head seen when the window was read.
	Head uint64
}

// Oracle follows one EVM chain and reports each window's truth once.
type Oracle struct {
	cfg    Config
	src    Source
	chain  Chain
	sender Sender
	// open are the truths this oracle sent whose windows the chain has not
	// closed yet, oldest first (recheck); rechecking is set while recheck
	// runs (a send it makes that must wait for the chain does not recheck
	// again).
	open       []Truth
	rechecking bool
	// validator is the name of the validator whose report key signs (the
	// votes of a round that are this oracle's).
	validator string
	// evm and node are the health of the two endpoints; states the last
	// state of each logged topic (note).
	evm, node link
	states    map[string]string
	// from says where the first window came from (the chain's last closed
	// block, --start-block, the EVM head), for the line of a head behind it.
	from string
	// lastDone is the last block of the last window finished (lag).
	lastDone *uint64
	// seenHead is the last head read and when it was first read (a head
	// that stops moving gets a line).
	seenHead   uint64
	seenHeadAt time.Time
	// running is set once the first window is known: from then on a failing
	// EVM endpoint makes the oracle ask the chain whether the EVM chain was
	// paused (retry).
	running bool
	// reported are the blocks of the windows this oracle reported last,
	// ascending, at most ReorgMemory (reorg.go).
	reported []Block
	// maxTxBytes is the chain's max_tx_bytes (a batch is kept within it;
	// 0 before the params were read).
	maxTxBytes int64
}

// DefaultHeadStill is Config.HeadStill's default.
const DefaultHeadStill = 2 * time.Minute

// New makes an oracle; Run starts it.
func New(cfg Config, src Source, chain Chain, sender Sender) *Oracle {
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	if cfg.BackoffMin <= 0 {
		cfg.BackoffMin = 250 * time.Millisecond
	}
	if cfg.BackoffMax < cfg.BackoffMin {
		cfg.BackoffMax = max(30*time.Second, cfg.BackoffMin)
	}
	if cfg.TxTimeout <= 0 {
		cfg.TxTimeout = 30 * time.Second
	}
	if cfg.HeadStill <= 0 {
		cfg.HeadStill = DefaultHeadStill
	}
	if cfg.RPCTimeout <= 0 {
		cfg.RPCTimeout = DefaultRPCTimeout
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	cfg.BatchWindows = min(max(cfg.BatchWindows, 1), wire.MaxBatch)
	return &Oracle{cfg: cfg, src: src, chain: chain, sender: sender, states: map[string]string{},
		evm: link{name: "EVM endpoint", metric: "evm"}, node: link{name: "node", metric: "node"}}
}

// DefaultRPCTimeout bounds each call to an endpoint when Config.RPCTimeout
// is 0.
const DefaultRPCTimeout = 10 * time.Second

// ErrFatal wraps a refusal that no retry can change (not a validator, an
// EVM chain the gas track does not follow): Run returns it.
var ErrFatal = errors.New("oracle cannot report")

// Run reports window after window until ctx ends (then it returns nil) or
// a fatal refusal. It resumes after the chain's last closed window, so a
// restart neither skips nor repeats one.
func (o *Oracle) Run(ctx context.Context) error {
	if err := o.check(ctx); err != nil {
		return ignoreDone(ctx, err)
	}
	k, next, err := o.resume(ctx)
	if err != nil {
		return ignoreDone(ctx, err)
	}
	o.cfg.Logf("oracle gas: EVM chain %d, windows of %d blocks, %d confirmations: starting at %s", o.cfg.EvmChainID, k, o.cfg.Confirmations, Window{next, k})
	o.running = true
	for {
		after, err := o.window(ctx, Window{First: next, K: k})
		if errors.Is(err, errPaused) {
			// the pause dropped the rounds of the truths sent: none is
			// sent again, and the chain says where to go on
			o.open = nil
			after, err = o.afterPause(ctx, next)
		}
		if err != nil {
			return ignoreDone(ctx, err)
		}
		next = after
		if last := next - 1; next > 0 && (o.lastDone == nil || last > *o.lastDone) {
			// the chain closed past the window: the windows up to its last
			// closed one are finished too (lag_blocks counts from there)
			o.lastDone = &last
		}
	}
}

// window waits for w to be confirmed, reads and reports it (with the
// windows confirmed after it, in one batch, when there are some and
// BatchWindows allows), then rechecks the open truths; it returns the next
// window's first block.
func (o *Oracle) window(ctx context.Context, w Window) (uint64, error) {
	head, err := o.waitConfirmed(ctx, w)
	if err != nil {
		return 0, err
	}
	if n := o.ready(head, w); n > 1 {
		return o.windows(ctx, w, n, head)
	}
	t, blocks, err := o.readWindow(ctx, w)
	if err != nil {
		return 0, err
	}
	o.checkReorg(ctx, blocks)
	return o.one(ctx, t, blocks, head)
}

// one reports a window's truth alone, then rechecks the open truths; it
// returns the next window's first block.
func (o *Oracle) one(ctx context.Context, t Truth, blocks []Block, head uint64) (uint64, error) {
	r, after, err := o.report(ctx, t)
	if err != nil {
		return 0, err
	}
	r.Head = head
	o.reported1(r, blocks)
	return after, o.recheck(ctx)
}

// reported1 finishes a window reported: its outcome recorded, a sent
// truth kept open until the chain closes its window, and the blocks of a
// truth on chain remembered (reorg.go).
func (o *Oracle) reported1(r Report, blocks []Block) {
	o.done(r)
	switch r.Outcome {
	case Sent:
		o.open = append(o.open, r.Truth)
		o.remember(blocks)
	case AlreadyReported:
		o.remember(blocks)
	}
}

// done logs a window's outcome, records it and hands it to OnReport.
func (o *Oracle) done(r Report) {
	o.logReport(r)
	o.cfg.Metrics.window(o.cfg.EvmChainID, r)
	if last := r.Truth.Window.Last(); o.lastDone == nil || last > *o.lastDone {
		o.lastDone = &last
	}
	if o.cfg.OnReport != nil {
		o.cfg.OnReport(r)
	}
}

// recheck forgets the sent truths of windows the chain has closed, and
// sends again the truth of a window whose round was dropped at its
// deadline while the window is still open, or was opened again without
// this validator's vote, unless a reorg deeper than --confirmations
// replaced its blocks since (reorged): with several validators, a round
// that too few of them reported in time is dropped and must be opened
// again, and the others must vote in the new round, or the window would
// never close. Errors of the queries leave the list for the next call.
func (o *Oracle) recheck(ctx context.Context) error {
	if len(o.open) == 0 || o.rechecking {
		return nil
	}
	o.rechecking = true
	defer func() { o.rechecking = false }()
	gc, err := o.gasChain(ctx)
	if err != nil {
		return nil
	}
	keep, cut := o.open[:0], uint64(0)
	for _, t := range o.open {
		if gc.LastClosedBlock != nil && t.Window.First <= *gc.LastClosedBlock {
			continue
		}
		if cut > 0 && t.Window.Last() >= cut {
			continue // replaced by a deep reorg
		}
		var r *wire.TruthRoundView
		err := o.timed(ctx, func(ctx context.Context) (err error) {
			r, err = o.chain.Truth(ctx, o.cfg.EvmChainID, t.Window.First)
			return err
		})
		var qe *client.QueryError
		switch {
		case errors.As(err, &qe) && qe.Code == wire.QueryNotFound, err == nil && r.Status == "pending" && !o.votedIn(r):
			if from, ok := o.reorged(ctx); ok && t.Window.Last() >= from {
				cut = from // the blocks it reported are gone: never sent again
				continue
			}
			rep, _, err := o.report(ctx, t)
			if err != nil {
				return err
			}
			switch rep.Outcome {
			case Sent:
				rep.Outcome = Resent
				keep = append(keep, t)
			case AlreadyReported: // a round opened again meanwhile
				keep = append(keep, t)
			}
			o.done(rep)
		case err != nil || r.Status == "pending":
			keep = append(keep, t)
		}
	}
	o.open = keep
	if cut > 0 {
		o.open = openBefore(o.open, cut)
	}
	return nil
}

// votedIn reports whether a round holds this validator's vote.
func (o *Oracle) votedIn(r *wire.TruthRoundView) bool {
	for _, v := range r.Votes {
		if v.Validator == o.validator {
			return true
		}
	}
	return false
}

func ignoreDone(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// readWindow reads the window's blocks and folds them (retrying until the
// reads agree with each other).
func (o *Oracle) readWindow(ctx context.Context, w Window) (Truth, []Block, error) {
	var t Truth
	var blocks []Block
	err := o.retry(ctx, &o.evm, "read "+w.String(), func() error {
		blocks = make([]Block, 0, w.K)
		for n := w.First; n <= w.Last(); n++ {
			var b Block
			err := o.timed(ctx, func(ctx context.Context) (err error) {
				b, err = o.src.Block(ctx, n)
				return err
			})
			if err != nil {
				return err
			}
			blocks = append(blocks, b)
		}
		var err error
		t, err = WindowTruth(w, blocks)
		return err
	})
	return t, blocks, err
}

// report sends the window's truth until the chain has it (or has moved
// past it) and returns the outcome and the next window's first block.
func (o *Oracle) report(ctx context.Context, t Truth) (Report, uint64, error) {
	w := t.Window
	r := Report{Truth: t}
	msg := o.truthMsg(t)
	b := o.backoff()
	for {
		r.Attempts++
		res, err := o.send(ctx, msg)
		var te *client.TxError
		switch {
		case err == nil:
			o.ok(&o.node)
			o.note("chain", "ok", "oracle gas: %s: the chain took the truth (send attempt %d)", w, r.Attempts)
			r.Outcome, r.Height = Sent, res.Height
			return r, w.First + w.K, nil
		case ctx.Err() != nil:
			return r, 0, ctx.Err()
		case !errors.As(err, &te):
			o.fail(&o.node, fmt.Sprintf("send the truth of %s (attempt %d)", w, r.Attempts), err)
		default:
			o.ok(&o.node)
			out, log, err := o.refusal(ctx, w, te.Code, te.Log)
			if err != nil {
				return r, 0, err
			}
			if out != "" {
				r.Outcome, r.Log = out, log
				return r, o.nextAfter(ctx, w, out), nil
			}
			// the chain has not caught up with this window yet: it waits
			// for the earlier windows, whose rounds this oracle keeps
			// alive meanwhile (one dropped at its deadline, or opened
			// again by another validator, needs this vote again), and
			// the chain is asked again at the poll interval, so that the
			// oracles of a round reopened by one of them meet in it
			// before its deadline
			o.note("chain", wire.CodeName(te.Code), "oracle gas: %s: not yet (code %d, %s): %s; retrying quietly until the chain takes it", w, te.Code, wire.CodeName(te.Code), te.Log)
			if err := o.recheck(ctx); err != nil {
				return r, 0, err
			}
			if err := sleep(ctx, o.cfg.Poll); err != nil {
				return r, 0, err
			}
			continue
		}
		if err := b.wait(ctx); err != nil {
			return r, 0, err
		}
	}
}

// refusal is what the chain's refusal of w's truth (code, log) makes of
// the window: an outcome (already reported, closed, refused for good, with
// the line's log), an error (the chain paused; a fatal refusal that no
// retry can change), or neither when the chain has not caught up with the
// window yet (too far ahead, too many open rounds, a timestamp past its
// block time): then the truth is offered again later.
func (o *Oracle) refusal(ctx context.Context, w Window, code uint32, log string) (Outcome, string, error) {
	switch code {
	case wire.CodeDuplicateTruth:
		return AlreadyReported, "", nil
	case wire.CodeEVMBlockClosed:
		return Closed, log, nil
	case wire.CodeEVMChainPaused:
		return "", "", errPaused
	case wire.CodeTruthTooFar, wire.CodeTooManyOpenRounds, wire.CodeTruthTimeFuture:
		return "", "", nil
	case wire.CodeUnknownEVMChain:
		return "", "", fmt.Errorf("%w: %s: code %d (%s): %s; %s", ErrFatal, w, code, wire.CodeName(code), log, o.allowedLine(ctx))
	case wire.CodeNotValidator, wire.CodeTrackDisabled, wire.CodeEVMWindowMisaligned:
		return "", "", fmt.Errorf("%w: %s: code %d (%s): %s", ErrFatal, w, code, wire.CodeName(code), log)
	}
	return Refused, fmt.Sprintf("code %d (%s): %s", code, wire.CodeName(code), log), nil
}

// nextAfter is the first block of the window to report after w's outcome:
// the next window, or after a close the one after the chain's last closed
// window.
func (o *Oracle) nextAfter(ctx context.Context, w Window, out Outcome) uint64 {
	if out == Closed {
		return o.afterClosed(ctx, w)
	}
	return w.First + w.K
}

// truthMsg is a window's truth as the chain takes it: priced in gwei, or
// empty.
func (o *Oracle) truthMsg(t Truth) *subnetv1.Msg {
	if t.MinPrice == nil {
		return client.EmptyTruth(o.cfg.EvmChainID, t.Window.First, int64(t.Timestamp))
	}
	return client.Truth(o.cfg.EvmChainID, t.Window.First, Gwei(t.MinPrice).String(), int64(t.Timestamp))
}

// send broadcasts a truth and waits for its block, bounded by the
// transaction timeout plus the RPC timeout.
func (o *Oracle) send(ctx context.Context, msg *subnetv1.Msg) (client.TxResult, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.TxTimeout+o.cfg.RPCTimeout)
	defer cancel()
	return o.sender.SendWait(ctx, msg, o.cfg.TxTimeout)
}

// afterClosed is the window after the chain's last closed one, at least
// the one after w.
func (o *Oracle) afterClosed(ctx context.Context, w Window) uint64 {
	next := w.First + w.K
	gc, err := o.gasChain(ctx)
	if err == nil && gc.LastClosedBlock != nil {
		next = max(next, *gc.LastClosedBlock+w.K)
	}
	return next
}

func (o *Oracle) logReport(r Report) {
	t := r.Truth
	price := "none (an empty truth: no priced transaction)"
	if t.MinPrice != nil {
		price = Gwei(t.MinPrice).String() + " gwei (" + new(big.Int).Set(t.MinPrice).String() + " wei)"
	}
	head := ""
	if r.Head > 0 {
		head = fmt.Sprintf(", head %d", r.Head)
	}
	line := fmt.Sprintf("oracle gas: EVM chain %d %s: min_price %s, timestamp %d%s: %s", o.cfg.EvmChainID, t.Window, price, t.Timestamp, head, r.Outcome)
	switch r.Outcome {
	case Sent, Resent:
		line += fmt.Sprintf(" at height %d (send attempt %d)", r.Height, r.Attempts)
	case Closed, Refused:
		line += ": " + r.Log
	}
	o.cfg.Logf("%s", line)
}
