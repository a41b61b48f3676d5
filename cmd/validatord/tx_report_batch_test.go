package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// runStdin is runCmd with stdin.
func runStdin(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// `tx report batch --batch -` reads JSON lines from stdin into one
// MsgReportBatch (offline, --generate-only); a bad line is named by its
// number, and a batch the chain would refuse whole is refused before
// anything is signed.
func TestReportBatchFromStdin(t *testing.T) {
	home := t.TempDir()
	if _, err := keyfile.Add(home, "val", bytes.NewReader(bytes.Repeat([]byte{9}, 32))); err != nil {
		t.Fatal(err)
	}
	off := []string{"tx", "report", "batch", "--from", "val", "--batch", "-", "--chain-id", "off-1", "--nonce", "0", "--generate-only",
		"--home", home, "--node", freeAddr(t)}
	lines := `# task 4's runs
{"submission_id": 3, "workflow": {"output_quality": "0.9", "steps_completed": 4, "cost": "0.5", "latency_seconds": "20"}}

{"submission_id": 5, "arena": {"total_tokens": 1200, "tool_calls": 8, "iterations": 3, "execution_time": "41", "estimated_cost": "0.02", "criteria_passed": 4}, "duplicate_of": 2}
`
	code, out, errOut := runStdin(lines, off...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	msg := compact(t, mustUnsigned(t, out).Message)
	if !strings.Contains(msg, `"report_batch":{"entries":[{"submission_id":"3","workflow":{"output_quality":"0.9"`) ||
		!strings.Contains(msg, `{"submission_id":"5","arena":{"total_tokens":"1200"`) || !strings.Contains(msg, `"duplicate_of":"2"}]}`) {
		t.Fatalf("message %s", msg)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"unknown field", lines + `{"submission_id": 6, "workflow": {}, "colour": "red"}` + "\n", "--batch -: line 5: "},
		{"no measurement", `{"submission_id": 6}`, "line 1: submission_id 6 has no measurement"},
		{"a submission twice", lines + `{"submission_id": 3, "workflow": {}}`, "duplicate_batch_entry: report batch entries 0 and 2 both report submission_id = 3"},
		{"empty", "# nothing\n", "batch_size: report batch has 0 entries"},
	} {
		code, out, errOut := runStdin(tc.in, off...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d stdout %q stderr %q; want exit 1 and %q", tc.name, code, out, errOut, tc.want)
		}
	}
}

// A validator reports two miners' workflows and a submission that does not
// exist in one `tx report batch` on a real node: the tx succeeds, both
// runs are scored (one validator: every report settles), and the third
// entry is refused alone with its code in its report_entry event.
func TestReportBatchOnANode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home, node, n := initStarted(t, "batch-1", "--timeout-commit", "100ms", "--registration-difficulty", "16")
	tx := func(typ, key string, args ...string) string { return mustTx(t, home, node, typ, key, args...) }
	task := tx(wire.EventTaskPosted, "task_id", "post-task", "workflow", "--from", "validator", "--total-steps", "4",
		"--max-budget", "2", "--max-latency-seconds", "60", "--submission-blocks", "10", "--report-blocks", "500")
	var subs []string
	for _, k := range []string{"alice", "bob"} {
		cli(t, "keys", "add", k, "--home", home)
		tx(wire.EventMinerRegistered, "uid", "register-miner", "--from", k)
	}
	for _, k := range []string{"alice", "bob"} {
		sres := mustSubmit(t, home, node, false, "workflow", "--from", k, "--task-id", task, "--artifact-hash", hash32(k+" batch workflow"))
		subs = append(subs, attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id"))
	}
	for _, k := range []string{"alice", "bob"} {
		mustReveal(t, home, node, "--from", k, "--task", task, "--wait")
	}
	var tv struct {
		RevealDeadline int64 `json:"reveal_deadline"`
	}
	queryJSON(t, node, &tv, "task", task)
	n.waitHeight(t, node, tv.RevealDeadline)
	file := filepath.Join(t.TempDir(), "reports.jsonl")
	var b strings.Builder
	for _, id := range append(subs, "999") {
		b.WriteString(`{"submission_id": ` + id + `, "workflow": {"output_quality": "0.9", "steps_completed": 3, "cost": "0.5", "latency_seconds": "30"}}` + "\n")
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	res, code, errOut := cliTx(t, home, node, "report", "batch", "--from", "validator", "--batch", file)
	if code != 0 || res.Code != 0 {
		t.Fatalf("report batch: exit %d, result %+v, stderr %q", code, res, errOut)
	}
	entries := entryLines(res.Events, wire.EventReportEntry, 4)
	want := []string{"index=0 submission_id=" + subs[0] + " code=0 name=ok", "index=1 submission_id=" + subs[1] + " code=0 name=ok",
		"index=2 submission_id=999 code=29 name=unknown_submission"}
	if strings.Join(entries, "\n") != strings.Join(want, "\n") {
		t.Fatalf("report_entry events:\n%s\nwant:\n%s", strings.Join(entries, "\n"), strings.Join(want, "\n"))
	}
	for _, id := range subs {
		if got := waitScored(t, node, id); got.Receipt.Height != res.Height {
			t.Fatalf("submission %s scored at %d, the batch was at %d", id, got.Receipt.Height, res.Height)
		}
	}
}

// entryLines are the batch entry events of type typ among evs, each as its
// first n attributes, "key=value" separated by spaces.
func entryLines(evs []client.Event, typ string, n int) []string {
	var out []string
	for _, e := range evs {
		if e.Type != typ {
			continue
		}
		var kv []string
		for _, a := range e.Attributes[:min(n, len(e.Attributes))] {
			kv = append(kv, a.Key+"="+a.Value)
		}
		out = append(out, strings.Join(kv, " "))
	}
	return out
}
