package main

import (
	"bytes"
	"crypto/ed25519"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"

	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// buildMsg parses args for the message name as runTxMessage does and builds it.
func buildMsg(t testing.TB, name string, args ...string) (*subnetv1.Msg, error) {
	t.Helper()
	fs := newFlags("tx " + name)
	defineTxFlags(fs, "")
	build := txMessageNamed(name).define(fs)
	if _, _, err := parseFlags(Env{}, fs, "tx", args); err != nil {
		return nil, err
	}
	return build()
}

// submitPayloads are the payload builders of the `submit` kinds.
var submitPayloads = map[string]func(*flag.FlagSet) func() ([]*subnetv1.MsgSubmit, error){
	"submit workflow": one(defineWorkflowPayload), "submit arena": one(defineArenaPayload), "submit gas": defineGasPayloads,
}

// buildPayload parses args for a submit kind as runTxMessage does and builds the
// payloads it commits to.
func buildPayload(t testing.TB, name string, args ...string) ([]*subnetv1.MsgSubmit, error) {
	t.Helper()
	fs := newFlags("tx " + name)
	defineTxFlags(fs, waitSubmit)
	build := submitPayloads[name](fs)
	if _, _, err := parseFlags(Env{}, fs, "tx", args); err != nil {
		return nil, err
	}
	return build()
}

const hashA = "0101010101010101010101010101010101010101010101010101010101010101"

func TestTxMessagesBuildEveryField(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want *subnetv1.Msg
	}{
		{"deregister-miner", nil, &subnetv1.Msg{Sum: &subnetv1.Msg_DeregisterMiner{DeregisterMiner: &subnetv1.MsgDeregisterMiner{}}}},
		{"serve", []string{"--address", "https://203.0.113.7:8091/"}, &subnetv1.Msg{Sum: &subnetv1.Msg_Serve{Serve: &subnetv1.MsgServe{Address: "https://203.0.113.7:8091/"}}}},
		{"post-task workflow", []string{"--total-steps", "5", "--max-budget", "2", "--max-latency-seconds", "1.5", "--submission-blocks", "7", "--report-blocks", "9"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Workflow{Workflow: &subnetv1.WorkflowTask{
				TotalSteps: 5, MaxBudget: "2.000000000000000000", MaxLatencySeconds: "1.500000000000000000", SubmissionBlocks: 7, ReportBlocks: 9}}}}}},
		{"post-task arena", []string{"--category", "debugging", "--difficulty", "advanced", "--criteria-total", "4"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: &subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{Arena: &subnetv1.ArenaTask{
				Category: "debugging", Difficulty: "advanced", CriteriaTotal: 4, SubmissionBlocks: 300, ReportBlocks: 600}}}}}},
		{"report workflow", []string{"--submission-id", "4", "--output-quality", "1", "--steps-completed", "0", "--cost", "0", "--latency-seconds", "12.25", "--retries", "1", "--declared-retry-budget", "4", "--timeouts", "2", "--hard-failures", "3", "--duplicate-of", "2"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: 4, DuplicateOf: 2, Measurement: &subnetv1.MsgReport_Workflow{Workflow: &subnetv1.WorkflowMeasurement{
				OutputQuality: "1.000000000000000000", StepsCompleted: 0, Cost: "0.000000000000000000", LatencySeconds: "12.250000000000000000", Retries: 1, DeclaredRetryBudget: 4, Timeouts: 2, HardFailures: 3}}}}}},
		{"report arena", []string{"--submission-id", "5", "--total-tokens", "100", "--tool-calls", "3", "--iterations", "2", "--execution-time", "4", "--estimated-cost", "0.01", "--criteria-passed", "1", "--duplicate-of", "3"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{SubmissionId: 5, DuplicateOf: 3, Measurement: &subnetv1.MsgReport_Arena{Arena: &subnetv1.ArenaMeasurement{
				TotalTokens: 100, ToolCalls: 3, Iterations: 2, ExecutionTime: "4.000000000000000000", EstimatedCost: "0.010000000000000000", CriteriaPassed: 1}}}}}},
		{"truth", []string{"--evm-chain-id", "1", "--evm-block", "99", "--min-price", "20.5", "--timestamp", "1700000000"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: 99, MinPrice: "20.500000000000000000", Timestamp: 1700000000}}}},
		{"truth", []string{"--evm-chain-id", "1", "--evm-block", "100", "--empty", "--timestamp", "1700000001"},
			&subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: 100, Timestamp: 1700000001, Empty: true}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := buildMsg(t, c.name, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			gotBz, _ := got.Marshal()
			wantBz, _ := c.want.Marshal()
			if !bytes.Equal(gotBz, wantBz) {
				t.Fatalf("got %v\nwant %v", got, c.want)
			}
		})
	}
}

// TestTxSubmitPayloads: `submit` builds the payload it commits to (and
// reveals) from the same flags as the plaintext Submit had.
func TestTxSubmitPayloads(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want *subnetv1.MsgSubmit
	}{
		{"submit workflow", []string{"--task-id", "3", "--artifact-hash", "0x" + hashA},
			&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Workflow{Workflow: &subnetv1.WorkflowSubmit{TaskId: 3, ArtifactHash: bytes.Repeat([]byte{1}, 32)}}}},
		{"submit arena", []string{"--task-id", "0", "--artifact-hash", hashA},
			&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Arena{Arena: &subnetv1.ArenaSubmit{TaskId: 0, ArtifactHash: bytes.Repeat([]byte{1}, 32)}}}},
		{"submit gas", []string{"--evm-chain-id", "8453", "--evm-block", "12", "--price", "0.000000000000000001"},
			&subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{Gas: &subnetv1.GasPredict{EvmChainId: 8453, EvmBlock: 12, Price: "0.000000000000000001"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := buildPayload(t, c.name, c.args...)
			if err != nil || len(got) != 1 {
				t.Fatalf("%v, %v", got, err)
			}
			gotBz, _ := got[0].Marshal()
			wantBz, _ := c.want.Marshal()
			if !bytes.Equal(gotBz, wantBz) {
				t.Fatalf("got %v\nwant %v", got[0], c.want)
			}
		})
	}
}

// TestTxSubmitGasRun: --blocks N commits to N blocks from --evm-block, at
// one --price or a --prices list in block order (decimals normalised as
// --price's); the wrong count of prices, both flags, a bad price in the
// list, or a run above 256 are refused naming what to fix.
func TestTxSubmitGasRun(t *testing.T) {
	got, err := buildPayload(t, "submit gas", "--evm-chain-id", "1", "--evm-block", "100", "--blocks", "3", "--price", "2")
	if err != nil || len(got) != 3 || got[2].GetGas().EvmBlock != 102 || got[1].GetGas().Price != "2.000000000000000000" {
		t.Fatalf("one price: %v, %v", got, err)
	}
	got, err = buildPayload(t, "submit gas", "--evm-chain-id", "1", "--evm-block", "7", "--blocks", "2", "--prices", "1.5, 2")
	if err != nil || len(got) != 2 || got[0].GetGas().Price != "1.500000000000000000" || got[1].GetGas().Price != "2.000000000000000000" || got[1].GetGas().EvmBlock != 8 {
		t.Fatalf("a price per block: %v, %v", got, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--blocks", "3", "--prices", "1,2"}, "--blocks 3: gas run of 3 blocks with 2 prices"},
		{[]string{"--blocks", "2", "--prices", "1,2", "--price", "1"}, "--price and --prices"},
		{[]string{"--blocks", "2", "--prices", "1,x"}, "--prices"},
		{[]string{"--blocks", "257", "--price", "1"}, "must be in [1, 256]"},
		{[]string{"--blocks", "2"}, "--price: required"},
	} {
		_, err := buildPayload(t, "submit gas", append([]string{"--evm-chain-id", "1", "--evm-block", "7"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want it to contain %q", c.args, err, c.want)
		}
	}
}

func TestTxArenaBaselineFlags(t *testing.T) {
	args := []string{"--category", "c", "--difficulty", "d", "--criteria-total", "1", "--baseline-submission-count", "6"}
	for i, n := range arenaBaselineFlags {
		args = append(args, "--baseline-"+n, strings.Repeat("1", i+1))
	}
	msg, err := buildMsg(t, "post-task arena", args...)
	if err != nil {
		t.Fatal(err)
	}
	b := msg.GetPostTask().GetArena().DefaultBaseline
	if b == nil || b.SubmissionCount != 6 || b.MinTokens != "1.000000000000000000" || b.Q25Tokens != "11.000000000000000000" || b.MaxCost != strings.Repeat("1", 15)+".000000000000000000" {
		t.Fatalf("baseline %+v", b)
	}
	// One baseline flag without the others is an error naming a missing one.
	_, err = buildMsg(t, "post-task arena", "--category", "c", "--difficulty", "d", "--criteria-total", "1", "--baseline-min-tokens", "5")
	if err == nil || !strings.Contains(err.Error(), "--baseline-q25-tokens: required") {
		t.Fatalf("partial baseline: err %v", err)
	}
}

func TestTxMessageErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"post-task workflow", []string{"--max-budget", "1", "--max-latency-seconds", "1"}, "--total-steps: required"},
		{"post-task workflow", []string{"--total-steps", "1", "--max-latency-seconds", "1"}, "--max-budget: required"},
		{"post-task workflow", []string{"--total-steps", "1", "--max-budget", "1.0000000000000000001", "--max-latency-seconds", "1"}, "--max-budget"},
		{"post-task workflow", []string{"--total-steps", "x"}, "-total-steps"},
		{"post-task arena", []string{"--difficulty", "d", "--criteria-total", "1"}, "--category: required"},
		{"submit workflow", []string{"--artifact-hash", hashA}, "--task: required"},
		{"submit workflow", []string{"--task-id", "1"}, "--artifact-hash: required"},
		{"submit workflow", []string{"--task-id", "1", "--artifact-hash", "xyz"}, "not hex"},
		{"submit gas", []string{"--evm-chain-id", "1", "--evm-block", "2", "--price", "cheap"}, "--price"},
		{"report workflow", []string{"--submission-id", "1", "--output-quality", "0.5", "--cost", "1", "--latency-seconds", "1"}, "--steps-completed: required"},
		{"report arena", []string{"--submission-id", "1", "--total-tokens", "1", "--criteria-passed", "1", "--execution-time", "1"}, "--estimated-cost: required"},
		{"truth", []string{"--evm-chain-id", "1", "--evm-block", "2", "--min-price", "1"}, "--timestamp: required"},
		{"truth", []string{"--evm-chain-id", "1", "--evm-block", "2", "--timestamp", "5"}, "--min-price: required"},
		{"truth", []string{"--evm-chain-id", "1", "--evm-block", "2", "--empty", "--min-price", "1", "--timestamp", "5"}, "--empty and --min-price: give one"},
	}
	for _, c := range cases {
		t.Run(c.name+" "+c.want, func(t *testing.T) {
			var err error
			if _, submit := submitPayloads[c.name]; submit {
				_, err = buildPayload(t, c.name, c.args...)
			} else {
				_, err = buildMsg(t, c.name, c.args...)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestTxCommandErrors(t *testing.T) {
	home := t.TempDir()
	keysHome := t.TempDir()
	if err := os.Mkdir(filepath.Join(keysHome, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tx"}, "missing message; usage: validatord tx <message>"},
		{[]string{"tx", "submit"}, "submit: missing kind; usage: validatord tx submit arena|gas|workflow --from KEY"},
		{[]string{"tx", "submit", "bogus"}, `submit: unknown kind "bogus", want one of arena, gas, workflow`},
		{[]string{"tx", "register-miner", "--home", home}, "--from: required; usage: validatord tx register-miner --from KEY [flags]"},
		{[]string{"tx", "register-miner", "--from", "nobody", "--home", home}, "--home " + home + ": holds no node and no keys"},
		{[]string{"tx", "register-miner", "--from", "nobody", "--home", keysHome}, "key not found"},
		{[]string{"tx", "register-miner", "extra", "--from", "x"}, "want 0 argument"},
		{[]string{"tx", "reveal", "--from", "x", "--home", home}, "want --task N, or --evm-chain-id C with --evm-block B"},
		{[]string{"tx", "reveal", "--task", "1", "--evm-chain", "1", "--evm-block", "2", "--from", "x"}, "want --task N, or --evm-chain-id C"},
		{[]string{"tx", "reveal", "--evm-chain", "1", "--from", "x"}, "want --task N, or --evm-chain-id C"},
		{[]string{"tx", "submit", "workflow", "--task-id", "1", "--from", "x"}, "--artifact-hash: required"},
		{[]string{"tx", "submit", "gas", "--evm-chain-id", "1", "--evm-block", "2", "--price", "1", "--home", home}, "--from: required; usage: validatord tx submit gas"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(t, c.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d stdout %q stderr %q, want one line with %q", c.args, code, out, errOut, c.want)
		}
	}
	// No node listening: one line naming the node.
	if _, err := keyfile.Add(home, "k", bytes.NewReader(make([]byte, 32))); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	code, _, errOut := runCmd(t, "tx", "register-miner", "--from", "k", "--home", home, "--node", addr)
	if code != 1 || !strings.Contains(errOut, "no node answers at "+addr) || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("no node: code %d stderr %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "query", "status", "--node", addr)
	if code != 1 || !strings.Contains(errOut, "no node answers at "+addr) || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("query without node: code %d stderr %q", code, errOut)
	}
}

// BenchmarkBuildAndSignTx measures what `tx` does locally for one message:
// flag parsing, decimal canonicalisation, building and signing.
func BenchmarkBuildAndSignTx(b *testing.B) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, 32))
	args := []string{"--submission-id", "4", "--output-quality", "0.9", "--steps-completed", "3", "--cost", "0.5",
		"--latency-seconds", "30", "--retries", "2", "--timeouts", "1", "--hard-failures", "0"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		msg, err := buildMsg(b, "report workflow", args...)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := wire.SignTx("bench-1", key, uint64(i), msg); err != nil {
			b.Fatal(err)
		}
	}
}

// `tx -h` (like every other command's -h) prints its usage with every message and exits 0.
func TestTxHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help", "help"} {
		code, out, errOut := runCmd(t, "tx", h)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: validatord tx <message>") ||
			!strings.Contains(out, "register-miner, report arena, report batch, report workflow, reveal, serve, submit arena, submit gas, submit workflow, truth, truth batch") {
			t.Errorf("tx %s: code %d stdout %q stderr %q", h, code, out, errOut)
		}
	}
}

// A --node address without its scheme is refused in one line naming the flag, before any
// connection (CometBFT's client would otherwise report a URL parse error or "no Host").
func TestNodeAddressNeedsScheme(t *testing.T) {
	for _, args := range [][]string{
		{"query", "status", "--node", "127.0.0.1:26657"},
		{"query", "status", "--node", "localhost:26657"},
	} {
		code, out, errOut := runCmd(t, args...)
		want := `validatord query: --node: "` + args[3] + `", want an address with its scheme, e.g. tcp://` + args[3] + "\n"
		if code != 1 || out != "" || errOut != want {
			t.Errorf("%v: code %d stdout %q stderr %q, want %q", args, code, out, errOut, want)
		}
	}
}
