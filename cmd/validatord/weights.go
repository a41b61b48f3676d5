package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"

	"github.com/scoringsubnet/validatord/client"
)

func init() {
	root.add(&command{name: "weights", summary: "print an epoch's u16 weights for the parent chain's set_weights, with the app hash and score digest of its state", run: runWeights})
}

const weightsCmdUsage = "weights [--epoch N | --height H] [--node tcp://127.0.0.1:26657 | --home DIR] [--netuid N] [--version-key K]" +
	" [--verify --witness ADDR [--trust-height H --trust-hash HEX] [--trust-period D]]"

func runWeights(ctx context.Context, env Env, args []string) error {
	fs := newFlags("weights")
	node := nodeFlag(fs)
	home := homeFlag(fs)
	epoch := fs.Uint64("epoch", 0, "the epoch to print, read at the height that stored it (default: the latest)")
	height := fs.Int64("height", 0, "print the latest epoch as of this height, with this height's app hash and digest (within the node's keep_versions)")
	netuid := fs.Int("netuid", -1, "the parent chain's subnet id to write (default: the mirror's netuid in mirror mode, else absent)")
	versionKey := fs.Uint64("version-key", 0, "the version_key to write: the subnet's weights_version hyperparameter")
	verify := fs.Bool("verify", false, "print the vector only if its epoch record is proven by a header signed by more than 2/3 of the voting power (CometBFT's light client; no score digest, netuid only from --netuid)")
	trust := addTrustFlags(fs)
	pos, ok, err := parseFlags(env, fs, weightsCmdUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, weightsCmdUsage); err != nil {
		return err
	}
	addr, err := weightsNode(fs, *node, *home)
	if err != nil {
		return err
	}
	req := client.WeightsRequest{Epoch: *epoch, Height: *height, VersionKey: *versionKey}
	if *netuid >= 0 {
		if *netuid > math.MaxUint16 {
			return fmt.Errorf("--netuid: %d, want a u16", *netuid)
		}
		n := uint16(*netuid)
		req.NetUID = &n
	}
	var w any
	if *verify {
		if *height != 0 {
			return fmt.Errorf("--height: not with --verify, which proves an epoch's own record (--epoch N, or the latest)")
		}
		v, err := trust.verifier(ctx, addr)
		if err != nil {
			return err
		}
		vw, err := v.Weights(ctx, *epoch, req.NetUID, *versionKey)
		if err != nil {
			return oneLine(fmt.Errorf("weights not verified, nothing printed: %w", err))
		}
		warnTOFU(env.Stderr, vw.Proven)
		w = vw
	} else {
		if err := refuseTrustFlags(fs, "--verify"); err != nil {
			return err
		}
		c, err := dialNode(addr)
		if err != nil {
			return err
		}
		if w, err = client.Weights(ctx, c, req); err != nil {
			return oneLine(err)
		}
	}
	bz, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", bz)
	return err
}

// weightsNode is the RPC address to ask: --node, or with --home the
// rpc.laddr of that home's config.toml (the validator's own node).
func weightsNode(fs *flag.FlagSet, node, home string) (string, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["node"] && set["home"] {
		return "", fmt.Errorf("--node and --home: give one (--home asks the node of that home's config.toml rpc.laddr)")
	}
	if !set["home"] {
		return node, nil
	}
	conf, err := loadConfig(home)
	if err != nil {
		return "", err
	}
	return conf.RPC.ListenAddress, nil
}
