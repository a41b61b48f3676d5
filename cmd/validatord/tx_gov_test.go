package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// testExpiry is the expiry height buildProposal builds with (the node's
// height + --expires-in in a real run).
const testExpiry = 77

// buildProposal parses args for a propose command as runTx does and builds
// its message for the expiry testExpiry, without a node.
func buildProposal(t *testing.T, define func(*flag.FlagSet) proposal, args ...string) (*subnetv1.Msg, error) {
	t.Helper()
	fs := newFlags("tx propose")
	defineTxFlags(fs, "")
	p := define(fs)
	if _, _, err := parseFlags(Env{}, fs, "tx", args); err != nil {
		return nil, err
	}
	build, err := p.check()
	if err != nil {
		return nil, err
	}
	return build(testExpiry), nil
}

func sameMsg(t *testing.T, got, want *subnetv1.Msg) {
	t.Helper()
	gotBz, _ := got.Marshal()
	wantBz, _ := want.Marshal()
	if !bytes.Equal(gotBz, wantBz) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

// TestProposeValidatorsKeepsOrder: the change flags, of any kinds and
// repeated, become the proposal's changes in command-line order; consensus
// keys are read in base64 or hex, report keys in hex or by key name in the
// home (given after the flag that names it).
func TestProposeValidatorsKeepsOrder(t *testing.T) {
	home := t.TempDir()
	named, err := keyfile.Add(home, "newreport", bytes.NewReader(bytes.Repeat([]byte{9}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	namedKey, _ := hex.DecodeString(named.PubKey)
	cons1, cons2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	rep1 := bytes.Repeat([]byte{0xab}, 32)
	got, err := buildProposal(t, defineProposeValidators,
		"--remove", "carol",
		"--add", "bob="+base64.StdEncoding.EncodeToString(cons1)+":5:"+hex.EncodeToString(rep1),
		"--set-power", "alice=3",
		"--rotate-report-key", "alice=newreport",
		"--add", "dave="+hex.EncodeToString(cons2)+":1:"+strings.ToUpper(hex.EncodeToString(rep1)),
		"--remove", "erin",
		"--home", home)
	if err != nil {
		t.Fatal(err)
	}
	sameMsg(t, got, client.ProposeValidators(testExpiry,
		client.RemoveValidator("carol"),
		client.AddValidator("bob", cons1, 5, rep1),
		client.SetPower("alice", 3),
		client.RotateReportKey("alice", namedKey),
		client.AddValidator("dave", cons2, 1, rep1),
		client.RemoveValidator("erin")))
}

func TestProposeParamsPatch(t *testing.T) {
	file := filepath.Join(t.TempDir(), "patch.json")
	if err := os.WriteFile(file, []byte("{\n  \"window\": {\"cap\": \"0.2\"}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, patch := range []string{file, ` {"window": {"cap": "0.2"}} `} {
		got, err := buildProposal(t, defineProposeParams, "--patch", patch, "--activation-height", "2000")
		if err != nil {
			t.Fatal(err)
		}
		sameMsg(t, got, client.ProposeParams([]byte(`{"window":{"cap":"0.2"}}`), 2000, testExpiry))
	}
}

func TestApproveMessage(t *testing.T) {
	got, err := buildMsg(t, "approve", "--proposal", "3")
	if err != nil {
		t.Fatal(err)
	}
	sameMsg(t, got, client.Approve(3))
	if _, err := buildMsg(t, "approve"); err == nil || err.Error() != "--proposal: required" {
		t.Fatalf("approve without --proposal: %v", err)
	}
}

// TestGovernanceFlagErrors: every bad input is one error that names its flag.
func TestGovernanceFlagErrors(t *testing.T) {
	home := t.TempDir()
	b64 := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32))
	rep := hex.EncodeToString(bytes.Repeat([]byte{2}, 32))
	notObject := filepath.Join(home, "array.json")
	if err := os.WriteFile(notObject, []byte("[1, 2]"), 0o600); err != nil {
		t.Fatal(err)
	}
	vals, params := defineProposeValidators, defineProposeParams
	cases := []struct {
		define func(*flag.FlagSet) proposal
		args   []string
		want   string
	}{
		{vals, []string{"--add", "bob"}, "-add: want NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY"},
		{vals, []string{"--add", "=" + b64 + ":1:" + rep}, "-add: want NAME="},
		{vals, []string{"--add", "bob=" + b64 + ":1"}, "-add: want NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY"},
		{vals, []string{"--add", "bob=AAAA:1:" + rep}, `-add: consensus key "AAAA": want 32 bytes`},
		{vals, []string{"--add", "bob=" + b64 + ":0:" + rep}, `-add: power "0": want a positive integer`},
		{vals, []string{"--add", "bob=" + b64 + ":ten:" + rep}, `-add: power "ten"`},
		{vals, []string{"--add", "bob=" + b64 + ":1:"}, "-add: empty report key"},
		{vals, []string{"--add", "bob=" + b64 + ":1:nosuchkey", "--home", home}, `--add: report key "nosuchkey" is neither 32 bytes of hex nor a usable key`},
		{vals, []string{"--set-power", "bob"}, "-set-power: want NAME=POWER"},
		{vals, []string{"--set-power", "bob=-2"}, `-set-power: power "-2"`},
		{vals, []string{"--remove", ""}, "-remove: want the validator's NAME"},
		{vals, []string{"--remove", "bob=1"}, "-remove: want the validator's NAME"},
		{vals, []string{"--rotate-report-key", "bob="}, "-rotate-report-key: empty report key"},
		{vals, []string{"--rotate-report-key", "bob=" + rep[:10], "--home", home}, `--rotate-report-key: report key "` + rep[:10] + `"`},
		{vals, []string{"--home", home}, "no change: want at least one --add"},
		{vals, []string{"--remove", "bob", "--expires-in", "5", "--expires-height", "9"}, "--expires-in and --expires-height: give one, not both"},
		{vals, []string{"--remove", "bob", "--expires-in", "0"}, "--expires-in: 0, want a positive number of blocks"},
		{vals, []string{"--remove", "bob", "--expires-height", "-1"}, "--expires-height: -1, want a positive height"},
		{params, []string{"--activation-height", "9"}, "--patch: required"},
		{params, []string{"--patch", "{}"}, "--activation-height: required"},
		{params, []string{"--patch", "{}", "--activation-height", "0"}, "--activation-height: 0, want a positive height"},
		{params, []string{"--patch", "[1]", "--activation-height", "9"}, "--patch (inline): want a JSON object (a merge patch, e.g. {\"window\":{\"cap\":\"0.2\"}}), got a JSON array"},
		{params, []string{"--patch", `{"window":`, "--activation-height", "9"}, "--patch (inline): want a JSON object (a merge patch, e.g. {\"window\":{\"cap\":\"0.2\"}}), got invalid JSON"},
		{params, []string{"--patch", "null", "--activation-height", "9"}, "got a JSON null"},
		{params, []string{"--patch", notObject, "--activation-height", "9"}, "--patch (" + notObject + "): want a JSON object"},
		{params, []string{"--patch", filepath.Join(home, "missing.json"), "--activation-height", "9"}, "is neither JSON nor a readable file"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			_, err := buildProposal(t, c.define, c.args...)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err %v, want one line with %q", err, c.want)
			}
		})
	}
}

// Through the command: a bad flag is one line on stderr, before any node is
// asked.
func TestGovernanceCommandErrors(t *testing.T) {
	home := t.TempDir()
	addr := freeAddr(t) // nothing listens: reaching it would be a different error
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tx", "propose", "validators", "--from", "k", "--set-power", "x"}, "-set-power: want NAME=POWER"},
		{[]string{"tx", "propose", "validators", "--from", "k"}, "no change"},
		{[]string{"tx", "propose", "params", "--from", "k", "--patch", "[]", "--activation-height", "5"}, "want a JSON object"},
		{[]string{"tx", "propose", "bogus"}, `propose: unknown kind "bogus", want one of params, validators`},
		{[]string{"tx", "approve", "--from", "k"}, "--proposal: required"},
	} {
		args := append(c.args, "--home", home, "--node", addr)
		code, out, errOut := runCmd(t, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d stdout %q stderr %q, want one line with %q", c.args, code, out, errOut, c.want)
		}
	}
}

// --expires-height is used as given, without asking the node.
func TestExpiryHeightNeedsNoNode(t *testing.T) {
	fs := newFlags("x")
	exp := defineExpiry(fs)
	if err := fs.Parse([]string{"--expires-height", "500"}); err != nil {
		t.Fatal(err)
	}
	if err := exp.check(); err != nil {
		t.Fatal(err)
	}
	if h, err := exp.resolve(context.Background(), nil); err != nil || h != 500 {
		t.Fatalf("resolve: %d, %v", h, err)
	}
}

// `keys show-consensus` prints the public consensus key of a home as
// genesis.json has it, and the report key init made.
func TestKeysShowConsensus(t *testing.T) {
	home := filepath.Join(t.TempDir(), "h")
	cli(t, "init", "--home", home, "--chain-id", "sc-1")
	var info consensusKeyInfo
	decodeJSON(t, cli(t, "keys", "show-consensus", "--home", home), &info)
	var gen struct {
		Validators []struct {
			Address string `json:"address"`
			PubKey  struct {
				Value string `json:"value"`
			} `json:"pub_key"`
		} `json:"validators"`
	}
	bz, err := os.ReadFile(filepath.Join(home, "config", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	decodeJSON(t, string(bz), &gen)
	var report keyfile.Info
	decodeJSON(t, cli(t, "keys", "show", "validator", "--home", home), &report)
	pub, _ := base64.StdEncoding.DecodeString(info.PubKey)
	if len(gen.Validators) != 1 || info.PubKey != gen.Validators[0].PubKey.Value || info.Address != gen.Validators[0].Address ||
		len(pub) != ed25519.PublicKeySize || info.PubKeyHex != hex.EncodeToString(pub) || info.ReportKey != report.PubKey || info.Moniker != "validator0" {
		t.Fatalf("show-consensus %+v; genesis %+v; report key %s", info, gen, report.PubKey)
	}
	if code, _, errOut := runCmd(t, "keys", "show-consensus", "--home", filepath.Join(home, "none")); code != 1 || !strings.Contains(errOut, "--home "+filepath.Join(home, "none")+": no such directory") {
		t.Fatalf("no home: code %d stderr %q", code, errOut)
	}
}

func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("%v in %q", err, s)
	}
}
