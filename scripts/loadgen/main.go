// Command loadgen drives a running validatord network with every kind of transaction: it
// registers miners, posts workflow and arena tasks as the validators, submits as the miners
// (workflow runs, arena runs, gas predictions), reports measurements and gas truths as each
// validator, at a bounded rate for a chosen time. It prints what it sent and what was
// committed, and writes one JSON line per committed transaction (hash, height, submission
// id) for the reliability checker (scripts/e2e).
//
//	go run ./scripts/loadgen --testnet .localnet --duration 60s --rate 20 --out load.jsonl
//
// Transactions go to any live node of the testnet: when a node is down, the next one is
// used, so the load survives validators being killed. A transaction counts as committed only
// once a node returned it from /tx with code 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

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
}

func parse(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.StringVar(&o.testnet, "testnet", ".localnet", "testnet directory (node0..nodeN homes made by `validatord testnet`)")
	fs.StringVar(&o.nodes, "nodes", "", "comma-separated RPC addresses (default: every node of --testnet)")
	fs.DurationVar(&o.duration, "duration", time.Minute, "how long to send; the round in flight is finished")
	fs.Float64Var(&o.rate, "rate", 20, "at most this many transactions per second")
	fs.IntVar(&o.miners, "miners", 4, "number of miners to register")
	fs.StringVar(&o.out, "out", "", "write committed transactions as JSON lines to this file")
	fs.StringVar(&o.seed, "seed", "loadgen", "seed of the miners' keys (same seed, same miners)")
	fs.DurationVar(&o.timeout, "tx-timeout", 30*time.Second, "how long to wait for one transaction's block")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.rate <= 0 || o.miners < 1 || o.miners > 256 || o.duration <= 0 || o.timeout <= 0 {
		return o, fmt.Errorf("--rate > 0, 1 <= --miners <= 256, --duration > 0 and --tx-timeout > 0 required")
	}
	return o, nil
}

func run(ctx context.Context, args []string) error {
	o, err := parse(args)
	if err != nil {
		return err
	}
	net, err := loadTestnet(o.testnet, o.nodes)
	if err != nil {
		return err
	}
	p, err := newPool(net.rpcs)
	if err != nil {
		return err
	}
	rec, err := newRecorder(o.out)
	if err != nil {
		return err
	}
	g := &generator{o: o, net: net, pool: p, rec: rec, limit: newLimiter(o.rate)}
	runErr := g.run(ctx)
	closeErr := rec.close()
	rec.stats.print(os.Stdout, g.elapsed)
	if runErr != nil {
		return runErr
	}
	return closeErr
}
