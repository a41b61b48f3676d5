package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/scoringsubnet/validatord/daemon/config"
	"github.com/scoringsubnet/validatord/daemon/validator"
)

func init() {
	c := root.add(&command{name: "validator", summary: "the validator daemon: measure and report submissions, post tasks, report gas truths", noun: "subcommand", list: listTable})
	c.add(&command{name: "init", summary: "write the daemon's configuration, <home>/validator.toml", usage: validatorInitUsage, run: runValidatorInit})
	c.add(&command{name: "run", summary: "run the validator daemon until interrupted", usage: validatorRunUsage, run: runValidatorRun})
}

const (
	validatorInitUsage = "validator init [--home DIR] [--force] [--<section>-<option> VALUE ...]"
	validatorRunUsage  = "validator run [--home DIR] [--config FILE] [--<section>-<option> VALUE ...]"
)

// runValidatorInit is `validator init`: the defaults, with the flags
// given, written as a commented TOML file.
func runValidatorInit(_ context.Context, env Env, args []string) error {
	fs := newFlags("validator init")
	home := homeFlag(fs)
	force := fs.Bool("force", false, "replace an existing validator.toml")
	cfg := validator.DefaultConfig()
	config.Bind(fs, &cfg)
	pos, ok, err := parseFlags(env, fs, validatorInitUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, validatorInitUsage); err != nil {
		return err
	}
	if err := validator.Write(*home, cfg, *force); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, validator.ConfigFile(*home))
	return nil
}

// runValidatorRun is `validator run`: a shim over validator.Open and Run.
func runValidatorRun(ctx context.Context, env Env, args []string) error {
	home, cfg, ok, err := validatorRunConfig(env, args)
	if !ok || err != nil {
		return err
	}
	d, err := validator.Open(home, cfg, validator.Options{Log: env.Stderr})
	if err != nil {
		return oneLine(err)
	}
	defer d.Close()
	return oneLine(d.Run(ctx))
}

// validatorRunConfig parses run's flags and reads the configuration:
// defaults, then the file, then the flags given.
func validatorRunConfig(env Env, args []string) (home string, cfg validator.Config, ok bool, err error) {
	fs := newFlags("validator run")
	h := homeFlag(fs)
	file := fs.String("config", "", "the configuration file (default <home>/validator.toml)")
	cfg = validator.DefaultConfig()
	b := config.Bind(fs, &cfg)
	pos, ok, err := parseFlags(env, fs, validatorRunUsage, args)
	if !ok || err != nil {
		return "", cfg, ok, err
	}
	if err := wantArgs(pos, 0, validatorRunUsage); err != nil {
		return "", cfg, false, err
	}
	path := *file
	if path == "" {
		path = validator.ConfigFile(*h)
	}
	if err := config.Load(path, &cfg); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", cfg, false, fmt.Errorf("%s: no such file (write one with validatord validator init, or name one with --config)", path)
		}
		return "", cfg, false, err
	}
	if err := b.Apply(); err != nil {
		return "", cfg, false, err
	}
	return *h, cfg, true, nil
}
