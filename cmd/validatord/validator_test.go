package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/daemon/validator"
)

// TestValidatorInit: validator init writes <home>/validator.toml, commented,
// with the flags given over the defaults, and refuses to replace it
// without --force.
func TestValidatorInit(t *testing.T) {
	home := t.TempDir()
	code, stdout, stderr := runCmd(t, "validator", "init", "--home", home, "--measure-command", "/bin/measure -v", "--report-batch-max", "9")
	if code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	path := validator.ConfigFile(home)
	if strings.TrimSpace(stdout) != path {
		t.Errorf("stdout %q, want the path %s", stdout, path)
	}
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[measure]\n# the measurement command line", `command = "/bin/measure -v"`, "batch_max = 9", "[gas]", `evm_rpc = ""`, "[metrics]"} {
		if !strings.Contains(string(bz), want) {
			t.Errorf("validator.toml lacks %q:\n%s", want, bz)
		}
	}
	cfg, err := validator.Load(path)
	if err != nil || cfg.Report.BatchMax != 9 || cfg.Measure.Command != "/bin/measure -v" || cfg.Chain.Poll.D() != time.Second {
		t.Fatalf("load: %+v %v", cfg, err)
	}
	if code, _, stderr := runCmd(t, "validator", "init", "--home", home); code == 0 || !strings.Contains(stderr, "--force") {
		t.Fatalf("a second init: exit %d: %s; want a refusal naming --force", code, stderr)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, bz) {
		t.Fatal("the refused init changed the file")
	}
	if code, _, stderr := runCmd(t, "validator", "init", "--home", home, "--force"); code != 0 {
		t.Fatalf("init --force: exit %d: %s", code, stderr)
	}
	if cfg, err := validator.Load(path); err != nil || cfg.Report.BatchMax != validator.DefaultConfig().Report.BatchMax {
		t.Fatalf("after --force: %+v %v; want the defaults", cfg.Report, err)
	}
}

// TestValidatorRunConfig: run reads the defaults, then the file, then the
// flags given: a flag wins over the file, the file over the default; a
// missing file or an unknown key is an error that says what to do.
func TestValidatorRunConfig(t *testing.T) {
	home := t.TempDir()
	if code, _, stderr := runCmd(t, "validator", "init", "--home", home, "--chain-poll", "3s", "--report-batch-max", "7", "--measure-command", "m"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	env := Env{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	h, cfg, ok, err := validatorRunConfig(env, []string{"--home", home, "--report-batch-max", "9", "--tasks-tracks", "workflow,arena"})
	if err != nil || !ok || h != home {
		t.Fatalf("%v %v %s", ok, err, h)
	}
	if cfg.Chain.Poll.D() != 3*time.Second || cfg.Report.BatchMax != 9 || cfg.Measure.Command != "m" ||
		len(cfg.Tasks.Tracks) != 2 || cfg.Chain.Node != validator.DefaultConfig().Chain.Node {
		t.Fatalf("poll %s (file: 3s), batch_max %d (flag: 9), command %q (file), tracks %v (flag), node %s (default)",
			cfg.Chain.Poll, cfg.Report.BatchMax, cfg.Measure.Command, cfg.Tasks.Tracks, cfg.Chain.Node)
	}

	other := filepath.Join(t.TempDir(), "v.toml")
	if err := os.WriteFile(other, []byte("[report]\nbatch_max = 5\n\n[chain]\npol = \"2s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := validatorRunConfig(env, []string{"--home", home, "--config", other}); err == nil || !strings.Contains(err.Error(), "v.toml:5") {
		t.Fatalf("unknown key: %v", err)
	}
	if _, _, _, err := validatorRunConfig(env, []string{"--home", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "validator init") {
		t.Fatalf("no file: %v", err)
	}
	if code, _, stderr := runCmd(t, "validator", "run", "--home", t.TempDir(), "--report-batch-max", "x"); code == 0 || !strings.Contains(stderr, "report-batch-max") {
		t.Fatalf("a bad flag: exit %d: %s", code, stderr)
	}
}
