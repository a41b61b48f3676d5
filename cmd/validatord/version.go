package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X main.Version=...".
var Version = "0.1.0-dev"

func init() {
	root.add(&command{name: "version", summary: "print the version of validatord and its consensus dependencies", run: runVersion})
}

func runVersion(_ context.Context, env Env, _ []string) error {
	fmt.Fprintf(env.Stdout, "validatord %s\n", Version)
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/cometbft/cometbft", "github.com/dgraph-io/badger/v4", "github.com/shopspring/decimal", "github.com/cosmos/gogoproto":
			fmt.Fprintf(env.Stdout, "%s %s\n", d.Path, d.Version)
		}
	}
	return nil
}
