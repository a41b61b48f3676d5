package main

import (
	"github.com/scoringsubnet/validatord/node/appconfig"

	"errors"
	"fmt"
	"os"
	"path/filepath"

	cfg "github.com/cometbft/cometbft/config"
	"github.com/spf13/viper"

	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// A home directory holds CometBFT's files (config/, data/) and ours:
//
//	config/config.toml, genesis.json, priv_validator_key.json, node_key.json
//	data/                CometBFT's block store and state (goleveldb)
//	data/app/            the application's badger directory
//	keys/<name>.json     ed25519 keys for tx signing (0600)
const (
	keysDirName = keyfile.DirName
	// reportKeyName is the key that init creates for the validator's reports.
	reportKeyName = keyfile.ReportKeyName
)

// appDataDir is the badger directory of the application.
func appDataDir(home string) string { return filepath.Join(home, "data", "app") }

// snapshotDir is where the node writes its state-sync snapshots.
func snapshotDir(home string) string { return filepath.Join(home, "data", "snapshots") }

// configFile is CometBFT's config.toml of a home.
func configFile(home string) string { return filepath.Join(home, "config", "config.toml") }

// ConfigError names the config.toml entry that is wrong.
type ConfigError struct {
	File   string
	Field  string
	Reason string
}

func (e *ConfigError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Reason)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Reason)
}

// loadConfig reads <home>/config/config.toml strictly: unknown keys, values of
// the wrong type and values that CometBFT's ValidateBasic rejects are errors.
func loadConfig(home string) (*cfg.Config, error) {
	path := configFile(home)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &ConfigError{File: path, Reason: "not found (run `validatord init --home " + home + "` first)"}
		}
		return nil, &ConfigError{File: path, Reason: err.Error()}
	}
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("toml")
	if err := v.ReadInConfig(); err != nil {
		return nil, oneLine(&ConfigError{File: path, Reason: err.Error()})
	}
	conf := cfg.DefaultConfig()
	if err := v.UnmarshalExact(conf); err != nil {
		return nil, oneLine(&ConfigError{File: path, Reason: err.Error()})
	}
	conf.SetRoot(home)
	if err := conf.ValidateBasic(); err != nil {
		return nil, oneLine(&ConfigError{File: path, Reason: err.Error()})
	}
	return conf, nil
}

// saveConfig writes conf as <home>/config/config.toml with CometBFT's template.
func saveConfig(home string, conf *cfg.Config) error {
	if err := os.MkdirAll(filepath.Join(home, "config"), 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(home, "data"), 0o700); err != nil {
		return err
	}
	cfg.WriteConfigFile(configFile(home), conf)
	if _, err := os.Stat(appconfig.File(home)); errors.Is(err, os.ErrNotExist) {
		return appconfig.Write(home, appconfig.Defaults())
	}
	return nil
}

// HomeError is a --home that holds no node and no keys.
type HomeError struct {
	Home   string
	Reason string
}

func (e *HomeError) Error() string { return fmt.Sprintf("--home %s: %s", e.Home, e.Reason) }

// checkHome refuses a home without config/ (a node's, from init), without
// data/ (an app state restored for offline use) and without keys/ (a
// client's, from keys add): a mistyped --home is an error naming the path,
// not an empty answer.
func checkHome(home string) error {
	fi, err := os.Stat(home)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &HomeError{Home: home, Reason: "no such directory (`validatord init --home " + home + "` makes a node's home, `validatord keys add NAME --home " + home + "` a home with keys only)"}
	case err != nil:
		return &HomeError{Home: home, Reason: err.Error()}
	case !fi.IsDir():
		return &HomeError{Home: home, Reason: "not a directory"}
	}
	for _, sub := range []string{"config", "data", keysDirName} {
		if fi, err := os.Stat(filepath.Join(home, sub)); err == nil && fi.IsDir() {
			return nil
		}
	}
	return &HomeError{Home: home, Reason: "holds no node and no keys (none of config/, data/, keys/): is it the right path?"}
}
