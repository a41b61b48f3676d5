package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/daemon/miner"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

func init() {
	c := root.add(&command{name: "miner", summary: "a miner's daemon: `miner init` writes its config, `miner run` commits and reveals by itself", noun: "daemon", list: listTable})
	c.add(&command{name: "init", summary: "write <home>/miner.toml, the miner daemon's commented configuration", usage: minerInitUsage, run: runMinerInit})
	c.add(&command{name: "run", summary: "run one miner key's daemon (every configured track) until interrupted", usage: minerRunUsage, run: runMinerRun})
}

const (
	minerInitUsage = "miner init [--home DIR] [--force] [--<section>-<option> VALUE …]"
	minerRunUsage  = "miner run [--home DIR] [--config FILE] [--<section>-<option> VALUE …]"
)

// daemonFlags are the flags of a daemon's init and run: the home, the
// file, and one flag per option of its configuration.
type daemonFlags struct {
	home, file *string
	force      *bool
	bind       *config.Binding
}

// parseDaemonFlags parses a daemon command's flags over cfg (defaults,
// then, for run, the file, then the flags the user set). With needFile,
// run refuses a home without the file; otherwise it says so and runs on
// the defaults and flags.
func parseDaemonFlags(env Env, name, usage, fileName string, args []string, cfg any, init, needFile bool) (daemonFlags, bool, error) {
	fs := newFlags(name)
	f := daemonFlags{home: homeFlag(fs)}
	if init {
		f.force = fs.Bool("force", false, "write the file over an existing one")
	} else {
		f.file = fs.String("config", "", "the configuration file (default: <home>/"+fileName+")")
	}
	f.bind = config.Bind(fs, cfg)
	pos, ok, err := parseFlags(env, fs, usage, args)
	if !ok || err != nil {
		return f, false, err
	}
	if err := wantArgs(pos, 0, usage); err != nil {
		return f, false, err
	}
	if init {
		return f, true, nil
	}
	path := *f.file
	if path == "" {
		path = filepath.Join(*f.home, fileName)
	}
	daemon, _, _ := strings.Cut(name, " ")
	switch err := config.Load(path, cfg); {
	case errors.Is(err, os.ErrNotExist) && (needFile || *f.file != ""):
		return f, false, fmt.Errorf("%s: no such file (write one with validatord %s init, or name one with --config)", path, daemon)
	case errors.Is(err, os.ErrNotExist):
		fmt.Fprintf(env.Stderr, "%s: no %s: the defaults and flags only (`validatord %s init` writes one)\n", name, path, daemon)
	case err != nil:
		return f, false, err
	}
	return f, true, f.bind.Apply()
}

// runMinerInit is `miner init`.
func runMinerInit(_ context.Context, env Env, args []string) error {
	cfg := miner.DefaultConfig()
	f, ok, err := parseDaemonFlags(env, "miner init", minerInitUsage, miner.FileName, args, &cfg, true, false)
	if !ok || err != nil {
		return err
	}
	path := filepath.Join(*f.home, miner.FileName)
	if err := config.Write(path, &cfg, miner.Header, *f.force); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s\nnext: edit it (a solver, a price command), then `validatord miner run --home %s`\n", path, *f.home)
	return nil
}

// runMinerRun is `miner run`: a shim over miner.Daemon, which runs until
// interrupted.
func runMinerRun(ctx context.Context, env Env, args []string) error {
	cfg := miner.DefaultConfig()
	f, ok, err := parseDaemonFlags(env, "miner run", minerRunUsage, miner.FileName, args, &cfg, false, false)
	if !ok || err != nil {
		return err
	}
	if err := cfg.Check(); err != nil {
		return err
	}
	signer, node, err := daemonSigner(ctx, *f.home, cfg.Chain.Key, cfg.Chain.Node, cfg.Chain.ChainID, "--chain-key")
	if err != nil {
		return err
	}
	logger := log.New(env.Stderr, "", log.LstdFlags|log.LUTC)
	signer.OnRecover = func(r client.Recovery) { reportRecovery(env.Stderr, r) }
	d, err := miner.New(cfg, miner.Deps{Node: node, Signer: signer, Home: *f.home, Logf: logger.Printf})
	if err != nil {
		return err
	}
	return oneLine(d.Run(ctx))
}

// daemonSigner loads a daemon's key from home and dials its node; the
// chain id is asked of the node when not given, waiting for it to answer
// (a daemon may start before its node).
func daemonSigner(ctx context.Context, home, key, nodeAddr, chainID, keyFlag string) (*client.Signer, *client.Client, error) {
	if err := checkHome(home); err != nil {
		return nil, nil, err
	}
	k, err := keyfile.Load(home, key)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", keyFlag, key, err)
	}
	c, err := dialNode(nodeAddr)
	if err != nil {
		return nil, nil, err
	}
	for chainID == "" {
		st, err := c.NodeStatus(ctx)
		if err == nil {
			chainID = st.ChainID
			break
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return client.NewSigner(c, chainID, k), c, nil
}
