package appconfig

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// Config is app.toml: its [state] section, [abci]'s one key and
// [leaderboard]'s.
type Config struct {
	// KeepVersions: the state as of each of the last KeepVersions heights
	// can be queried (RequestQuery.Height); 0 keeps every version (an
	// archive node).
	KeepVersions int64 `mapstructure:"keep_versions"`
	// SnapshotInterval: after every SnapshotInterval-th height's Commit the
	// node writes a state-sync snapshot in the background; 0 writes none.
	SnapshotInterval int64 `mapstructure:"snapshot_interval"`
	// SnapshotKeepRecent: the snapshots kept (the newest ones).
	SnapshotKeepRecent int `mapstructure:"snapshot_keep_recent"`
	// RetainBlocks: the block store keeps at least the last RetainBlocks
	// blocks (Commit's RetainHeight); 0 keeps every block. The node never
	// prunes below its oldest snapshot, nor within the evidence age.
	RetainBlocks int64 `mapstructure:"retain_blocks"`
	// Durability: when a committed block's state reaches the disk.
	// "block" (the default): Commit waits for the disk; "pipelined": the
	// block's write and disk sync run while the next block executes, and a
	// crash can cost the last block, which CometBFT replays from its block store at
	// the next start (docs/architecture.md "Durability").
	Durability string `mapstructure:"durability"`
	// ConcurrentCheckTx ([abci] concurrent_check_tx): CheckTx runs beside
	// block execution (one lock per ABCI connection) instead of waiting for
	// it. Off by default: measured on a 2-core machine running 4 validators
	// it cost 5–11% of the committed tx/s and 30–45% more commit latency,
	// since CheckTx then takes CPU from consensus and no longer slows
	// senders down (docs/performance.md); a node with cores to
	// spare may gain from it.
	ConcurrentCheckTx bool `mapstructure:"-"`
	// CheckTxRuns ([abci] check_tx_runs): the mempool's CheckTx requests
	// are queued and answered in runs whose signatures are verified in one
	// batch (package mempoolconn), instead of one at a time as they come.
	// On by default (docs/performance.md); false gives CometBFT's
	// plain local client.
	CheckTxRuns bool `mapstructure:"-"`
	// LeaderboardAddr ([leaderboard] laddr): the loopback host:port the
	// leaderboard page is served on (package leaderboard); "" serves none.
	LeaderboardAddr string `mapstructure:"-"`
}

// DefaultLeaderboardAddr is where a node serves its leaderboard page unless
// app.toml says otherwise.
const DefaultLeaderboardAddr = "127.0.0.1:26680"

// leaderboardSection is app.toml's [leaderboard] section.
type leaderboardSection struct {
	Laddr string `mapstructure:"laddr"`
}

// abciSection is app.toml's [abci] section.
type abciSection struct {
	ConcurrentCheckTx bool `mapstructure:"concurrent_check_tx"`
	CheckTxRuns       bool `mapstructure:"check_tx_runs"`
}

// Defaults: a day of versions at 6 s blocks, a snapshot every 1000 heights
// (2 kept), every block kept, the leaderboard page on DefaultLeaderboardAddr.
func Defaults() Config {
	return Config{KeepVersions: 14_400, SnapshotInterval: 1000, SnapshotKeepRecent: 2, RetainBlocks: 0,
		Durability: "block", CheckTxRuns: true, LeaderboardAddr: DefaultLeaderboardAddr}
}

// MinRetainBlocks is the least non-zero retain_blocks: a node must keep
// enough blocks for peers that are catching up by block sync.
const MinRetainBlocks = 1000

// Validate checks each field.
func (c Config) Validate() error {
	switch {
	case c.KeepVersions < 0:
		return fieldErr("keep_versions", c.KeepVersions, "must be ≥ 0 (0 keeps every version)")
	case c.SnapshotInterval < 0:
		return fieldErr("snapshot_interval", c.SnapshotInterval, "must be ≥ 0 (0 writes no snapshot)")
	case c.SnapshotKeepRecent < 1 || c.SnapshotKeepRecent > 100:
		return fieldErr("snapshot_keep_recent", c.SnapshotKeepRecent, "must be in [1, 100]")
	case c.RetainBlocks < 0 || (c.RetainBlocks > 0 && c.RetainBlocks < MinRetainBlocks):
		return fieldErr("retain_blocks", c.RetainBlocks, fmt.Sprintf("must be 0 (keep every block) or ≥ %d", MinRetainBlocks))
	case c.Durability != "" && c.Durability != "pipelined" && c.Durability != "block": // "": block
		return fieldErr("durability", fmt.Sprintf("%q", c.Durability), `want "pipelined" (a block's write and disk sync run while the next executes) or "block" (Commit waits for the disk)`)
	}
	return validateLoopback(c.LeaderboardAddr)
}

// validateLoopback accepts "" or a host:port whose host is a loopback
// address or localhost, with a port in [1, 65535]: the page is for the
// operator's machine (a reverse proxy may publish it).
func validateLoopback(addr string) error {
	if addr == "" {
		return nil
	}
	bad := func(reason string) error {
		return &Error{Key: "leaderboard.laddr", Reason: fmt.Sprintf("%q: %s", addr, reason)}
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return bad("want host:port, such as " + DefaultLeaderboardAddr + ", or \"\" to serve no page")
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return bad("the port must be in [1, 65535]")
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return bad("the host must be a loopback address (127.0.0.1, ::1 or localhost); publish the page through a reverse proxy")
	}
	return nil
}

// Error names the app.toml key that is wrong.
type Error struct {
	File, Key, Reason string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return e.File + ": " + e.Reason
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Reason)
}

// fieldErr names a [state] key.
func fieldErr(key string, v any, reason string) error {
	return &Error{Key: "state." + key, Reason: fmt.Sprintf("%v: %s", v, reason)}
}

// File is the path of a home's app.toml.
func File(home string) string { return filepath.Join(home, "config", "app.toml") }

// Load reads a home's app.toml strictly; a missing file gives Defaults().
func Load(home string) (Config, error) {
	path := File(home)
	c := Defaults()
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("toml")
	if err := v.ReadInConfig(); err != nil {
		return Config{}, &Error{File: path, Reason: oneLine(err.Error())}
	}
	for _, k := range v.AllKeys() {
		if !strings.HasPrefix(k, "state.") && !strings.HasPrefix(k, "abci.") && !strings.HasPrefix(k, "leaderboard.") {
			return Config{}, &Error{File: path, Key: k, Reason: "unknown key (app.toml has three sections, [state], [abci] and [leaderboard])"}
		}
	}
	if sub := v.Sub("state"); sub != nil {
		if err := sub.UnmarshalExact(&c); err != nil {
			return Config{}, &Error{File: path, Reason: oneLine(err.Error())}
		}
	}
	a := abciSection{ConcurrentCheckTx: c.ConcurrentCheckTx, CheckTxRuns: c.CheckTxRuns}
	for _, key := range []string{"concurrent_check_tx", "check_tx_runs"} {
		if err := section[bool](v, path, "abci", key, "want true or false", &a); err != nil {
			return Config{}, err
		}
	}
	c.ConcurrentCheckTx, c.CheckTxRuns = a.ConcurrentCheckTx, a.CheckTxRuns
	l := leaderboardSection{Laddr: c.LeaderboardAddr}
	if err := section[string](v, path, "leaderboard", "laddr", `want a string (host:port, or "")`, &l); err != nil {
		return Config{}, err
	}
	c.LeaderboardAddr = l.Laddr
	if err := c.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.File = path
		}
		return Config{}, err
	}
	return c, nil
}

// section decodes the one-key section name into dst when the file has it.
// The key's value must already be a T: viper would quietly turn a number
// into a bool or into a string.
func section[T any](v *viper.Viper, path, name, key, want string, dst any) error {
	if raw := v.Get(name + "." + key); raw != nil {
		if _, ok := raw.(T); !ok {
			return &Error{File: path, Key: name + "." + key, Reason: fmt.Sprintf("%v: %s", raw, want)}
		}
	}
	if sub := v.Sub(name); sub != nil {
		if err := sub.UnmarshalExact(dst); err != nil {
			return &Error{File: path, Reason: oneLine(err.Error())}
		}
	}
	return nil
}

// Write writes c as a home's app.toml, with a comment per key.
func Write(home string, c Config) error {
	if c.Durability == "" {
		c.Durability = "block"
	}
	body := fmt.Sprintf(`# validatord node settings (not consensus rules: nodes of one chain may differ).
# docs/statesync.md explains each.

[state]
# The state as of each of the last keep_versions heights can be queried
# (validatord query --height H); 0 keeps every version (an archive node).
keep_versions = %d

# Write a state-sync snapshot after every snapshot_interval-th height (0: none),
# keeping the newest snapshot_keep_recent in <home>/data/snapshots.
snapshot_interval = %d
snapshot_keep_recent = %d

# Keep at least the last retain_blocks blocks in the block store (0: every block;
# else at least %d). Blocks a kept snapshot or the evidence age needs are kept too.
retain_blocks = %d

# When a committed block's state reaches the disk: "block" makes Commit wait;
# "pipelined" syncs it while the next block executes (a power loss can cost the
# last block, which CometBFT replays from its block store at the next start).
durability = %q

[abci]
# true: CheckTx runs beside block execution instead of waiting for it. On a machine
# whose cores block execution already keeps busy it costs throughput and latency
# (docs/performance.md); a node with cores to spare may gain from it.
concurrent_check_tx = %t

# true: the mempool's CheckTx requests queue while the app is busy and are checked
# in runs, their signatures verified in one batch (about twice as fast per
# signature); false: one at a time as they come.
check_tx_runs = %t

[leaderboard]
# The leaderboard page (per track, per arena task, the epoch, and the JSON behind
# each; docs/cli.md) on this loopback host:port; "" serves no page.
laddr = %q
`, c.KeepVersions, c.SnapshotInterval, c.SnapshotKeepRecent, MinRetainBlocks, c.RetainBlocks, c.Durability, c.ConcurrentCheckTx, c.CheckTxRuns, c.LeaderboardAddr)
	return os.WriteFile(File(home), []byte(body), 0o600)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
