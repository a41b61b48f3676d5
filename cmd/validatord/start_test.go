package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	cmtlog "github.com/cometbft/cometbft/libs/log"

	"github.com/scoringsubnet/validatord/app"
)

// editJSON rewrites a JSON file through f.
func editJSON(t *testing.T, path string, f func(doc map[string]any)) {
	t.Helper()
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(bz, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	if bz, err = json.MarshalIndent(doc, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bz, 0o600); err != nil {
		t.Fatal(err)
	}
}

// editText replaces old by new in a text file, which must contain old.
func editText(t *testing.T, path, old, new string) {
	t.Helper()
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(bz), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(bz), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}

func appState(doc map[string]any) map[string]any { return doc["app_state"].(map[string]any) }

func blockParams(doc map[string]any) map[string]any {
	return doc["consensus_params"].(map[string]any)["block"].(map[string]any)
}

// TestStartRefusesBadFiles: each broken file gives one line naming the field,
// exit code 1, and nothing starts (the app's data dir is never created).
func TestStartRefusesBadFiles(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(t *testing.T, home string)
		want    string
	}{
		{"no home", func(t *testing.T, home string) { os.RemoveAll(home) }, "run `validatord init"},
		{"app_state field out of range", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) {
				appState(d)["chain"].(map[string]any)["max_tx_bytes"] = 1
			})
		}, "chain.max_tx_bytes"},
		{"app_state unknown field", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { appState(d)["bogus"] = true })
		}, "bogus"},
		{"app validator power differs", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) {
				appState(d)["validators"].([]any)[0].(map[string]any)["power"] = 3
			})
		}, "app_state.validators[0].power"},
		{"track shares", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) {
				appState(d)["tracks"].([]any)[0].(map[string]any)["share"] = "0.9"
			})
		}, "tracks"},
		{"empty chain id", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { d["chain_id"] = "" })
		}, "chain_id"},
		{"consensus max_bytes 21 MiB", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { blockParams(d)["max_bytes"] = "22020096" })
		}, "consensus_params.block.max_bytes = 22020096: must be in [1, 4194304]"},
		{"consensus max_bytes unlimited", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { blockParams(d)["max_bytes"] = "-1" })
		}, "consensus_params.block.max_bytes = -1: must be in [1, 4194304]"},
		{"consensus params absent (CometBFT's 21 MiB)", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { delete(d, "consensus_params") })
		}, "consensus_params.block.max_bytes = 22020096"},
		{"consensus max_gas", func(t *testing.T, home string) {
			editJSON(t, filepath.Join(home, "config", "genesis.json"), func(d map[string]any) { blockParams(d)["max_gas"] = "1000000" })
		}, "consensus_params.block.max_gas = 1000000"},
		{"genesis not JSON", func(t *testing.T, home string) {
			os.WriteFile(filepath.Join(home, "config", "genesis.json"), []byte("{\n\"chain_id\": \n"), 0o600)
		}, "genesis"},
		{"config unknown key", func(t *testing.T, home string) {
			editText(t, configFile(home), "[mempool]", "[mempool]\nmax_tx_bites = 5")
		}, "max_tx_bites"},
		{"config negative timeout", func(t *testing.T, home string) {
			editText(t, configFile(home), `timeout_commit = "1s"`, `timeout_commit = "-1s"`)
		}, "timeout_commit"},
		{"config bad duration", func(t *testing.T, home string) {
			editText(t, configFile(home), `timeout_commit = "1s"`, `timeout_commit = "soon"`)
		}, "timeout_commit"},
		{"config bad syntax", func(t *testing.T, home string) {
			editText(t, configFile(home), "[mempool]", "[mempool\n")
		}, "config.toml"},
		{"config mempool above genesis", func(t *testing.T, home string) {
			editText(t, configFile(home), "max_tx_bytes = 16384", "max_tx_bytes = 1048576")
		}, "mempool.max_tx_bytes"},
		{"config mempool without recheck", func(t *testing.T, home string) {
			editText(t, configFile(home), "recheck = true", "recheck = false")
		}, "mempool.recheck"},
		{"config app-side mempool", func(t *testing.T, home string) {
			editText(t, configFile(home), `type = "flood"`, `type = "app"`)
		}, "mempool.type"},
		{"config bad log level", func(t *testing.T, home string) {
			editText(t, configFile(home), `log_level = "info"`, `log_level = "loud"`)
		}, "log_level"},
		{"priv validator key garbage", func(t *testing.T, home string) {
			os.WriteFile(filepath.Join(home, "config", "priv_validator_key.json"), []byte("{\"priv_key\": 1}"), 0o600)
		}, "priv_validator_key.json"},
		{"node key missing", func(t *testing.T, home string) {
			os.Remove(filepath.Join(home, "config", "node_key.json"))
		}, "node_key.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			if code, _, errOut := runCmd(t, "init", "--home", home); code != 0 {
				t.Fatal(errOut)
			}
			c.corrupt(t, home)
			code, out, errOut := runCmd(t, "start", "--home", home)
			if code != 1 || out != "" {
				t.Fatalf("code %d stdout %q, want 1 and nothing", code, out)
			}
			if !strings.HasPrefix(errOut, "validatord start: ") || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
				t.Fatalf("stderr %q: want one line naming %q", errOut, c.want)
			}
			if _, err := os.Stat(appDataDir(home)); !os.IsNotExist(err) {
				t.Fatalf("the app's data dir exists after a refused start (err %v)", err)
			}
		})
	}
}

// TestStartRefusesBadCrashPoint: a malformed VALIDATORD_CRASH_AT is refused
// by the app before it opens its state.
func TestStartRefusesBadCrashPoint(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if code, _, errOut := runCmd(t, "init", "--home", home); code != 0 {
		t.Fatal(errOut)
	}
	t.Setenv(envCrashAt, "somewhere@x")
	code, _, errOut := runCmd(t, "start", "--home", home)
	if code != 1 || !strings.Contains(errOut, "somewhere") || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("code %d stderr %q, want one line naming the crash point", code, errOut)
	}
	if _, err := os.Stat(appDataDir(home)); !os.IsNotExist(err) {
		t.Fatalf("the app's data dir exists after a refused start (err %v)", err)
	}
}

// TestStartRefusesAStoredGenesisBeyondTheBound: once a node has run, CometBFT
// takes the consensus params from its state database, not genesis.json. A
// home whose chain began with 21 MiB blocks (InitChain ran with them) is
// refused even though genesis.json says 4 MiB: one line naming the field and
// the state directory.
func TestStartRefusesAStoredGenesisBeyondTheBound(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if code, _, errOut := runCmd(t, "init", "--home", home); code != 0 {
		t.Fatal(errOut)
	}
	files, err := loadNodeFiles(home)
	if err != nil {
		t.Fatal(err)
	}
	files.genDoc.ConsensusParams.Block.MaxBytes = 22_020_096 // as an older init wrote it
	a, err := app.New(app.Config{DataDir: appDataDir(home)})
	if err != nil {
		t.Fatal(err)
	}
	_, dbs, err := newNode(files, olderApp{a}, cmtlog.NewNopLogger(), false, true)
	if err != nil {
		t.Fatal(err)
	}
	dbs.closeAll()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "start", "--home", home)
	if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 ||
		!strings.Contains(errOut, "consensus_params.block.max_bytes = 22020096") || !strings.Contains(errOut, filepath.Join(home, "data")) {
		t.Fatalf("code %d stdout %q stderr %q: want one line naming the stored max_bytes", code, out, errOut)
	}
}

// olderApp is the app as built before the block bound: its InitChain took
// any consensus params.
type olderApp struct{ *app.App }

func (o olderApp) InitChain(ctx context.Context, req *abcitypes.RequestInitChain) (*abcitypes.ResponseInitChain, error) {
	r := *req
	r.ConsensusParams = nil
	return o.App.InitChain(ctx, &r)
}
