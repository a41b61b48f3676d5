package main

import (
	"context"
	"fmt"

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
	cfg := validator.DefaultConfig()
	f, ok, err := parseDaemonFlags(env, "validator init", validatorInitUsage, validator.ConfigFileName, args, &cfg, true, true)
	if !ok || err != nil {
		return err
	}
	if err := validator.Write(*f.home, cfg, *f.force); err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, validator.ConfigFile(*f.home))
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
// defaults, then the file (which must exist), then the flags given.
func validatorRunConfig(env Env, args []string) (home string, cfg validator.Config, ok bool, err error) {
	cfg = validator.DefaultConfig()
	f, ok, err := parseDaemonFlags(env, "validator run", validatorRunUsage, validator.ConfigFileName, args, &cfg, false, true)
	if !ok || err != nil {
		return "", cfg, ok, err
	}
	return *f.home, cfg, true, nil
}
