package bench

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

type options struct {
	app       string
	testnet   string
	nodes     string
	rate      float64
	inFlight  int
	duration  time.Duration
	warmup    time.Duration
	drain     time.Duration
	txTimeout time.Duration
	workers   int
	async     bool
	resync    bool
	until     string
	miners    int
	tasks     int
	maxTPS    float64
	seed      string
	watch     int
	out       string
	note      string
	// subnet load (--subnet M: M miners) and kvstore's match of it (--match FILE)
	subnet    int
	taskEvery int64
	match     string
	kvBytes   int
	level     string
	pids      []int
	windows   setup.Windows // --subnet: the tasks' windows (subnetWindows)
}

func parse(args []string) (options, error) {
	o := options{windows: subnetWindows}
	fs := flag.NewFlagSet("loadgen bench", flag.ContinueOnError)
	fs.StringVar(&o.app, "app", "validatord", "target: validatord (signed workflow commits) or kvstore (218-byte k=v)")
	fs.StringVar(&o.testnet, "testnet", "", "testnet directory of node0..nodeN homes (RPC addresses; validatord: genesis and report keys)")
	fs.StringVar(&o.nodes, "nodes", "", "comma-separated RPC addresses (tcp://host:port), replacing the homes'")
	fs.Float64Var(&o.rate, "rate", 0, "open loop: offer this many tx/s on a fixed schedule")
	fs.IntVar(&o.inFlight, "in-flight", 0, "closed loop: keep this many txs outstanding (see --until)")
	fs.StringVar(&o.until, "until", "checktx", "in-flight mode: a tx is outstanding until CheckTx answered its broadcast (checktx: N concurrent senders, saturates the nodes) or until its block is seen (commit)")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "measured window")
	fs.DurationVar(&o.warmup, "warmup", 0, "the first part of the window whose blocks do not count in committed tx/s (latencies count)")
	fs.DurationVar(&o.drain, "drain", 20*time.Second, "after the window, wait at most this long for the sent txs' blocks")
	fs.DurationVar(&o.txTimeout, "tx-timeout", 60*time.Second, "give up on a tx not seen in a block after this long (frees its in-flight slot)")
	fs.IntVar(&o.workers, "workers", 0, "concurrent broadcasts per node (0: max(32, --in-flight))")
	fs.BoolVar(&o.async, "async", false, "broadcast_tx_async instead of broadcast_tx_sync (no CheckTx codes)")
	fs.BoolVar(&o.resync, "resync", true, "validatord: after a refusal or a failed broadcast, a miner sends again from the node's next nonce (as client.Signer does)")
	fs.IntVar(&o.miners, "miners", 256, "validatord: miners to register (keys taking turns)")
	fs.IntVar(&o.tasks, "tasks", 0, "validatord: tasks to post ahead (0: enough for the run, see --max-tps)")
	fs.Float64Var(&o.maxTPS, "max-tps", 2500, "validatord, in-flight mode: the tx/s the tasks posted ahead must cover")
	fs.StringVar(&o.seed, "seed", "benchnet", "validatord: seed of the miners' keys")
	fs.IntVar(&o.watch, "watch", 0, "index of the node whose blocks are watched")
	fs.StringVar(&o.out, "out", "", "also write the JSON summary to this file")
	fs.StringVar(&o.note, "note", "", "free text copied into the summary")
	fs.IntVar(&o.subnet, "subnet", 0, "validatord: the subnet-shaped load with this many miners (subnet.go) instead of --rate or --in-flight")
	fs.Int64Var(&o.taskEvery, "task-every", 4, "--subnet: a validator posts a workflow and an arena task every this many blocks")
	fs.StringVar(&o.match, "match", "", "kvstore: offer the tx/s and bytes/s the --subnet run of this JSON file offered (its transactions' mean size), instead of --rate or --in-flight")
	fs.IntVar(&o.kvBytes, "kv-bytes", kvTxSize, "kvstore: bytes of each transaction")
	pids := fs.String("pids", "", "comma-separated pids of the nodes' processes, in node order: their CPU over the counted window goes into the summary")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for _, p := range strings.Split(*pids, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 {
			return o, fmt.Errorf("--pids: %q is not a pid", p)
		}
		o.pids = append(o.pids, n)
	}
	modes := 0
	for _, on := range []bool{o.rate > 0, o.inFlight > 0, o.subnet > 0, o.match != ""} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return o, errors.New("exactly one of --rate > 0, --in-flight > 0, --subnet > 0 and --match")
	}
	if o.subnet > 0 && (o.app != "validatord" || o.taskEvery < 1) {
		return o, errors.New("--subnet is for --app validatord, with --task-every >= 1")
	}
	if o.match != "" && o.app != "kvstore" {
		return o, errors.New("--match is for --app kvstore")
	}
	if o.kvBytes < 34 {
		return o, fmt.Errorf("--kv-bytes %d: at least 34 (a 32-byte key, '=', a value)", o.kvBytes)
	}
	if o.app != "validatord" && o.app != "kvstore" {
		return o, fmt.Errorf("--app %q: validatord or kvstore", o.app)
	}
	if o.testnet == "" && o.nodes == "" {
		return o, errors.New("--testnet or --nodes required")
	}
	if o.app == "validatord" && o.testnet == "" {
		return o, errors.New("--app validatord needs --testnet (genesis, report keys)")
	}
	if o.until != "checktx" && o.until != "commit" {
		return o, fmt.Errorf("--until %q: checktx or commit", o.until)
	}
	if o.workers == 0 {
		o.workers = max(32, o.inFlight)
	}
	if o.duration <= 0 || o.workers < 1 || o.miners < 1 || o.txTimeout <= 0 || o.drain < 0 || o.warmup < 0 || o.warmup >= o.duration {
		return o, errors.New("--duration, --workers, --miners, --tx-timeout > 0, --drain >= 0 and 0 <= --warmup < --duration required")
	}
	return o, nil
}

// matchSubnet sets o's --rate and --kv-bytes to what the --subnet run recorded in o.match
// offered: its transactions a second and their mean size, so bytes a second too.
func matchSubnet(o options) (options, error) {
	bz, err := os.ReadFile(o.match)
	if err != nil {
		return o, err
	}
	var s Summary
	if err := json.Unmarshal(bz, &s); err != nil {
		return o, fmt.Errorf("--match %s: %w", o.match, err)
	}
	if s.Mode != "subnet" || s.OfferedTPS <= 0 || s.OfferedBytesPerS <= 0 {
		return o, fmt.Errorf("--match %s: not a --subnet run that offered transactions (mode %q, %g tx/s)", o.match, s.Mode, s.OfferedTPS)
	}
	o.rate, o.kvBytes = s.OfferedTPS, max(34, int(math.Round(s.OfferedBytesPerS/s.OfferedTPS)))
	o.level = s.Level
	return o, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadgen bench: "+format+"\n", args...)
}

// Run is the bench mode with its command line args; `table DIR...` prints the runs' table.
func Run(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "table" {
		return runTable(os.Stdout, args[1:])
	}
	o, err := parse(args)
	if err != nil {
		return err
	}
	rpcs, err := setup.RPCs(o.testnet, o.nodes)
	if err != nil {
		return err
	}
	if len(rpcs) == 0 {
		return fmt.Errorf("no RPC addresses in %s", o.testnet)
	}
	if o.watch < 0 || o.watch >= len(rpcs) {
		return fmt.Errorf("--watch %d: %d nodes", o.watch, len(rpcs))
	}
	if o.match != "" {
		if o, err = matchSubnet(o); err != nil {
			return err
		}
	}
	var s *Summary
	if o.subnet > 0 {
		s, err = runSubnet(ctx, o, rpcs)
	} else {
		var src source
		switch o.app {
		case "kvstore":
			src = newKVSource(len(rpcs), o.kvBytes, uint64(time.Now().UnixNano()))
		case "validatord":
			if src, err = setupValidatord(ctx, o, rpcs, logf); err != nil {
				return err
			}
		}
		s, err = measure(ctx, o, rpcs, src)
	}
	if err != nil {
		return err
	}
	if o.match != "" {
		s.Level, s.TxBytes = o.level, o.kvBytes
	}
	bz, err := json.Marshal(s)
	if err != nil {
		return err
	}
	fmt.Println(string(bz))
	if o.out != "" {
		return os.WriteFile(o.out, append(bz, '\n'), 0o644)
	}
	return nil
}
