package rounds

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// options are the command line.
type options struct {
	testnet  string
	nodes    string
	duration time.Duration
	rate     float64
	miners   int
	out      string
	seed     string
	timeout  time.Duration
	drain    time.Duration
	stats    string
	adv      adversaryOptions
	flood    floodOptions
}

func parse(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.StringVar(&o.testnet, "testnet", ".localnet", "testnet directory (node0..nodeN homes made by `validatord testnet`)")
	fs.StringVar(&o.nodes, "nodes", "", "comma-separated RPC addresses (default: every node of --testnet)")
	fs.DurationVar(&o.duration, "duration", time.Minute, "how long to start rounds; the round in flight is finished")
	fs.DurationVar(&o.drain, "drain", 2*time.Minute, "after --duration, how long at most to reveal and report what is in flight")
	fs.Float64Var(&o.rate, "rate", 20, "at most this many transactions per second")
	fs.IntVar(&o.miners, "miners", 4, "number of miners to register")
	fs.StringVar(&o.out, "out", "", "write committed transactions as JSON lines to this file")
	fs.StringVar(&o.seed, "seed", "loadgen", "seed of the miners' keys (same seed, same miners)")
	fs.DurationVar(&o.timeout, "tx-timeout", 30*time.Second, "how long to wait for one transaction's block")
	fs.StringVar(&o.stats, "stats", "", "write the counts (sent, committed, rejected by kind and code) as JSON to this file")
	fs.IntVar(&o.adv.validator, "adversary", -1, "index of a validator (below 1/3 of the power) that attacks beside the honest load; -1: none")
	fs.DurationVar(&o.adv.duration, "adversary-duration", 0, "how long the adversary attacks (default: --duration)")
	fs.Float64Var(&o.adv.rate, "adversary-rate", 100, "the adversary's transactions per second, beside --rate")
	fs.IntVar(&o.adv.tasks, "adversary-tasks", 200, "tasks per flood burst of the adversary")
	fs.Int64Var(&o.adv.lead, "adversary-lead", 40, "blocks from the current height to the report deadline its floods stack on")
	fs.Float64Var(&o.flood.rate, "flood-rate", 0, "open-loop workflow commits a second beside the honest rounds, on a fixed schedule (flood.go); 0: none")
	fs.IntVar(&o.flood.miners, "flood-miners", 128, "miners of the flood (registered first; each pipelines its nonces through one node)")
	fs.Int64Var(&o.flood.lostAfter, "lost-after", client.DefaultLostAfter, "blocks after which a transaction CheckTx took and no block showed is resent (client.Signer.LostAfter; -1: never, to measure without)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.rate <= 0 || o.miners < 1 || o.miners > 256 || o.duration <= 0 || o.timeout <= 0 || o.drain < 0 {
		return o, fmt.Errorf("--rate > 0, 1 <= --miners <= 256, --duration > 0, --tx-timeout > 0 and --drain >= 0 required")
	}
	if o.flood.rate < 0 || o.flood.miners < 1 || o.flood.miners > 4096 || (o.flood.lostAfter < 1 && o.flood.lostAfter != -1) {
		return o, fmt.Errorf("--flood-rate >= 0, 1 <= --flood-miners <= 4096 and --lost-after >= 1 (or -1) required")
	}
	if o.adv.duration == 0 {
		o.adv.duration = o.duration
	}
	if o.adv.validator < -1 || o.adv.duration < 0 || o.adv.rate <= 0 || o.adv.tasks < 1 || o.adv.lead < minSpan+1 {
		return o, fmt.Errorf("--adversary >= -1, --adversary-duration >= 0, --adversary-rate > 0, --adversary-tasks >= 1 and --adversary-lead >= %d required", minSpan+1)
	}
	o.adv.wait = min(o.timeout, burstWait)
	return o, nil
}

// burstWait bounds the wait for a burst's blocks: a transaction of a burst that was evicted
// (a report on a submission the honest majority closed in the block before) is never seen.
const burstWait = 10 * time.Second

// Run runs the rounds with the command line args. mode is "rounds", or "flood" or "adversary":
// the rounds with that load beside them, whose flag (--flood-rate, --adversary) is then
// required.
func Run(ctx context.Context, mode string, args []string) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	switch {
	case mode == "flood" && o.flood.rate == 0:
		return errors.New("--flood-rate > 0 required")
	case mode == "adversary" && o.adv.validator < 0:
		return errors.New("--adversary >= 0 required")
	}
	net, err := setup.LoadTestnet(o.testnet, o.nodes)
	if err != nil {
		return err
	}
	p, err := newPool(net.RPCs)
	if err != nil {
		return err
	}
	rec, err := newRecorder(o.out)
	if err != nil {
		return err
	}
	rec.lostAfter = o.flood.lostAfter
	g := &generator{o: o, net: net, pool: p, rec: rec, limit: newLimiter(o.rate)}
	if o.adv.validator >= 0 {
		if g.adv, err = newAdversary(o, net, p, rec, g.closed.Load); err != nil {
			return err
		}
	}
	runErr := g.run(ctx)
	closeErr := rec.close()
	rec.stats.print(os.Stdout, g.elapsed)
	return errors.Join(runErr, closeErr, rec.stats.save(o.stats))
}
