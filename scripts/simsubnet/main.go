// Command simsubnet runs the in-process subnet simulation
// (internal/simsubnet) and prints its table: `make sim-subnet` runs it at
// the full shape; the flags set a smaller one.
//
//	go run ./scripts/simsubnet -validators 64 -miners 256 -blocks 3000
//	go run ./scripts/simsubnet -blocks 240 -modes off,batch,all
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/scoringsubnet/validatord/internal/simsubnet"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "simsubnet:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	def := simsubnet.FullConfig()
	fs := flag.NewFlagSet("simsubnet", flag.ContinueOnError)
	v := fs.Int("validators", def.Validators, "validators (V)")
	n := fs.Int("miners", def.Miners, "miners (N)")
	blocks := fs.Int64("blocks", def.Blocks, "heights to run")
	taskEvery := fs.Int64("task-every", def.TaskEvery, "a workflow and an arena task every this many blocks")
	evmEvery := fs.Int64("evm-every", def.EVMEvery, "an EVM block every this many blocks")
	epoch := fs.Int64("epoch", def.EpochBlocks, "window.epoch_blocks")
	retain := fs.Int64("retain", def.RetainStateBlocks, "chain.retain_state_blocks (0 keeps everything)")
	sample := fs.Int64("sample-every", def.SampleEvery, "read the state's size every this many blocks")
	modes := fs.String("modes", string(simsubnet.ModeOff), "comma-separated modes (off, batch, all), one column each: the same seed and shape run once per mode, each in its own directory")
	seed := fs.String("seed", def.Seed, "seed of every key, salt and measurement")
	dir := fs.String("dir", "", "parent of the runs' badger directories (default: a temporary one, removed)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (every mode) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ms, err := simsubnet.ParseModes(*modes)
	if err != nil {
		return err
	}
	parent := *dir
	if parent == "" {
		if parent, err = os.MkdirTemp("", "simsubnet-"); err != nil {
			return err
		}
		defer os.RemoveAll(parent)
	}
	var runs []*simsubnet.Result
	for _, m := range ms {
		cfg := simsubnet.Config{Validators: *v, Miners: *n, Blocks: *blocks, TaskEvery: *taskEvery, EVMEvery: *evmEvery,
			EpochBlocks: *epoch, RetainStateBlocks: *retain, SampleEvery: *sample, Mode: m, Seed: *seed,
			Dir: fmt.Sprintf("%s/%s", parent, m), Progress: os.Stderr}
		start := time.Now()
		res, err := simsubnet.Run(context.Background(), cfg)
		if err != nil {
			return fmt.Errorf("mode %s: %w", m, err)
		}
		fmt.Fprintf(os.Stderr, "mode %s: %d blocks in %s\n", m, cfg.Blocks, time.Since(start).Round(time.Second))
		runs = append(runs, res)
	}
	fmt.Printf("%s, %s/%s, %d CPUs (runtime.NumCPU), %s\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH,
		runtime.NumCPU(), runtime.Version())
	return simsubnet.WriteTable(os.Stdout, runs)
}
