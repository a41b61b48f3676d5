package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Every missing flag is named in one error, --from among
// them, with the message's usage line (before: only the first, without
// usage).
func TestTxMissingFlagsAtOnce(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tx", "post-task", "workflow"},
			"--from, --total-steps, --max-budget, --max-latency-seconds: required; usage: validatord tx post-task workflow --from KEY [flags]\n"},
		{[]string{"tx", "report", "arena", "--from", "validator", "--submission-id", "3"},
			"--total-tokens, --execution-time, --estimated-cost, --criteria-passed: required; usage: validatord tx report arena --from KEY [flags]\n"},
		{[]string{"tx", "submit", "workflow"},
			"--from, --task, --artifact-hash: required; usage: validatord tx submit workflow --from KEY [flags]\n"},
		{[]string{"tx", "register-miner"}, "--from: required; usage: validatord tx register-miner --from KEY [flags]\n"},
		{[]string{"keys", "sign-binding", "--chain-id", "c"}, "--sr25519-seed, --uid, --parent-block: required; usage: validatord " + signBindingUsage + "\n"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(t, c.args...)
		if code != 1 || out != "" || errOut != "validatord "+c.args[0]+": "+c.want {
			t.Errorf("%v: code %d stdout %q stderr %q, want %q", c.args, code, out, errOut, c.want)
		}
	}
}

// `tx submit -h` (a message with kinds) prints its usage with the kinds, and
// `tx submit workflow -h` the flags with two dashes (before: unknown message
// "submit -h", and flags shown as -from).
func TestTxMessageHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help"} {
		code, out, errOut := runCmd(t, "tx", "submit", h)
		if code != 0 || errOut != "" || out != "usage: validatord tx submit arena|gas|workflow --from KEY [flags]   (validatord tx submit <kind> -h lists its flags)\n" {
			t.Errorf("tx submit %s: code %d stdout %q stderr %q", h, code, out, errOut)
		}
	}
	code, out, errOut := runCmd(t, "tx", "submit", "workflow", "-h")
	if code != 0 || errOut != "" || !strings.Contains(out, "\n  --from string\n") || !strings.Contains(out, "\n  --task uint\n") ||
		!strings.Contains(out, "\n  -o format\n") || strings.Contains(out, "\n  -from") {
		t.Errorf("tx submit workflow -h: code %d stdout %q stderr %q", code, out, errOut)
	}
}

// Package flag's errors name flags with one dash; the CLI's name them as
// the user types them, an unknown one with the closest flags (an alias's
// canonical name: --evm-chian is nearest the alias --evm-chain).
func TestFlagErrorsHaveTwoDashes(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tx", "report", "arena", "--submission-id", "x"}, `validatord tx: invalid value "x" for flag --submission-id: parse error` + "\n"},
		{[]string{"tx", "post-task", "workflow", "--frm", "x"}, "validatord tx: flag provided but not defined: --frm; did you mean --from?\n"},
		{[]string{"tx", "post-task", "workflow", "--qqqqqq", "x"}, "validatord tx: flag provided but not defined: --qqqqqq\n"},
		{[]string{"tx", "submit", "workflow", "--taks", "3"}, "validatord tx: flag provided but not defined: --taks; did you mean --task?\n"},
		{[]string{"tx", "reveal", "--evm-chian", "1"}, "validatord tx: flag provided but not defined: --evm-chian; did you mean --evm-chain-id?\n"},
		{[]string{"tx", "truth", "--from"}, "validatord tx: flag needs an argument: --from\n"},
		{[]string{"tx", "truth", "-o", "yaml"}, `validatord tx: invalid value "yaml" for flag -o: "yaml", want json or text` + "\n"},
		{[]string{"keys", "list", "--hme", "x"}, "validatord keys: flag provided but not defined: --hme; did you mean --home?\n"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(t, c.args...)
		if code != 1 || errOut != c.want {
			t.Errorf("%v: code %d stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}

// A --home that holds none of config/, data/ and keys/ is an error naming
// it, for keys, tx, tx sign, export and snapshot list (before: keys list and
// snapshot list printed [] and exited 0).
func TestHomeThatHoldsNoNode(t *testing.T) {
	empty := t.TempDir()
	missing := filepath.Join(empty, "nowhere")
	for _, args := range [][]string{
		{"keys", "list", "--home", missing},
		{"keys", "list", "--home", empty},
		{"keys", "show", "alice", "--home", missing},
		{"keys", "show-consensus", "--home", empty},
		{"tx", "truth", "--from", "validator", "--evm-chain-id", "1", "--evm-block", "2", "--min-price", "1", "--timestamp", "5", "--home", missing},
		{"tx", "sign", "-", "--from", "validator", "--home", empty},
		{"export", "--home", missing},
		{"snapshot", "list", "--home", missing},
		{"keys", "sign-binding", "--sr25519-seed", hashA, "--chain-id", "c", "--uid", "1", "--parent-block", "2", "--from", "alice", "--home", missing},
	} {
		home := args[len(args)-1]
		code, out, errOut := runCmd(t, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, ": --home "+home+": ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: code %d stdout %q stderr %q, want one line naming --home %s", args, code, out, errOut, home)
		}
	}
	// A node's home that never ran has no state to export: said so.
	node := filepath.Join(t.TempDir(), "node")
	cli(t, "init", "--home", node, "--rpc-laddr", freeAddr(t), "--p2p-laddr", freeAddr(t))
	if code, _, errOut := runCmd(t, "export", "--home", node); code != 1 || !strings.Contains(errOut, "holds no app state yet") {
		t.Errorf("export of a home that never ran: code %d stderr %q", code, errOut)
	}
	// A home with keys only (a miner's) is a home; keys add makes one.
	code, _, errOut := runCmd(t, "keys", "add", "alice", "--home", missing)
	if code != 0 {
		t.Fatalf("keys add in a new home: code %d stderr %q", code, errOut)
	}
	if code, out, errOut := runCmd(t, "keys", "list", "--home", missing); code != 0 || !strings.Contains(out, `"alice"`) {
		t.Fatalf("keys list of a keys-only home: code %d stdout %q stderr %q", code, out, errOut)
	}
}

// `keys show NAME -a` prints the public key's hex alone, for scripts.
func TestKeysShowAddressOnly(t *testing.T) {
	home := t.TempDir()
	info, err := keyfile.Add(home, "bob", bytes.NewReader(bytes.Repeat([]byte{7}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"-a", "--address"} {
		code, out, errOut := runCmd(t, "keys", "show", "bob", flag, "--home", home)
		if code != 0 || out != info.PubKey+"\n" || errOut != "" {
			t.Errorf("keys show bob %s: code %d stdout %q stderr %q, want %q", flag, code, out, errOut, info.PubKey)
		}
	}
	if code, _, errOut := runCmd(t, "keys", "list", "-a", "--home", home); code != 1 || !strings.Contains(errOut, "-a: only for keys show") {
		t.Errorf("keys list -a: code %d stderr %q", code, errOut)
	}
}

// The task windows that post-task gives by default are minutes of block
// time at init's 1 s blocks, and the help says so in blocks and in time
// (before: 10 and 20 blocks, ~10 s: a person could not type a submit in
// time).
func TestPostTaskDefaultWindowsAreMinutes(t *testing.T) {
	for _, kind := range []string{"workflow", "arena"} {
		args := map[string][]string{
			"workflow": {"--total-steps", "2", "--max-budget", "1", "--max-latency-seconds", "10"},
			"arena":    {"--category", "debugging", "--difficulty", "advanced", "--criteria-total", "4"},
		}[kind]
		msg, err := buildMsg(t, "post-task "+kind, args...)
		if err != nil {
			t.Fatal(err)
		}
		var sub, rep int64
		switch task := msg.GetPostTask(); {
		case task.GetWorkflow() != nil:
			sub, rep = task.GetWorkflow().SubmissionBlocks, task.GetWorkflow().ReportBlocks
		default:
			sub, rep = task.GetArena().SubmissionBlocks, task.GetArena().ReportBlocks
		}
		if sub != 300 || rep != 600 {
			t.Errorf("post-task %s: windows %d/%d blocks, want 300/600", kind, sub, rep)
		}
		_, out, _ := runCmd(t, "tx", "post-task", kind, "-h")
		if !strings.Contains(out, "300 blocks is ~5 min at init's 1 s blocks") || !strings.Contains(out, "600 blocks is ~10 min at 1 s blocks") {
			t.Errorf("post-task %s -h does not state the windows in blocks and time:\n%s", kind, out)
		}
	}
}

// --generate-only with --chain-id and --nonce needs no node: the unsigned
// transaction is printed, `tx sign` signs it with the key (its sender in
// either hex case), and the bytes are the envelope the app would check.
func TestGenerateOnlyAndSignOffline(t *testing.T) {
	home := t.TempDir()
	info, err := keyfile.Add(home, "val", bytes.NewReader(bytes.Repeat([]byte{9}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	noNode := freeAddr(t) // nothing listens: nothing may be asked of it
	for _, from := range []string{"val", strings.ToUpper(info.PubKey)} {
		code, out, errOut := runCmd(t, "tx", "truth", "--from", from, "--evm-chain-id", "1", "--evm-block", "7", "--min-price", "2.5",
			"--timestamp", "1700000000", "--chain-id", "off-1", "--nonce", "4", "--generate-only", "--home", home, "--node", noNode)
		if code != 0 {
			t.Fatalf("--generate-only --from %s: code %d stderr %q", from, code, errOut)
		}
		var u client.UnsignedTx
		if err := json.Unmarshal([]byte(out), &u); err != nil {
			t.Fatal(err)
		}
		if u.ChainID != "off-1" || u.Nonce != 4 || u.Sender != info.PubKey || !strings.Contains(compact(t, u.Message), `"min_price":"2.500000000000000000"`) {
			t.Fatalf("unsigned tx %+v (message %s)", u, u.Message)
		}
	}
	_, out, _ := runCmd(t, "tx", "truth", "--from", "val", "--evm-chain-id", "1", "--evm-block", "7", "--min-price", "2.5",
		"--timestamp", "1700000000", "--chain-id", "off-1", "--nonce", "4", "--generate-only", "--home", home, "--node", noNode)
	unsigned := filepath.Join(t.TempDir(), "unsigned.json")
	if err := os.WriteFile(unsigned, []byte(strings.Replace(out, info.PubKey, strings.ToUpper(info.PubKey), 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "tx", "sign", unsigned, "--from", "val", "--home", home, "--nonce", "5")
	if code != 0 {
		t.Fatalf("tx sign: code %d stderr %q", code, errOut)
	}
	var signed client.SignedTx
	if err := json.Unmarshal([]byte(out), &signed); err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(signed.Tx)
	d, terr := wire.DecodeTx(raw)
	if terr != nil {
		t.Fatal(terr)
	}
	want := &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: 7, MinPrice: "2.500000000000000000", Timestamp: 1700000000}}}
	if d.Body.ChainId != "off-1" || d.Body.Nonce != 5 || hex.EncodeToString(d.Body.Sender) != info.PubKey || !proto.Equal(d.Body.Msg, want) ||
		!ed25519.Verify(d.Body.Sender, wire.SignBytes(d.Tx.Body), d.Tx.Signature) || signed.Hash != client.TxHash(raw) || signed.Hash != strings.ToUpper(signed.Hash) {
		t.Fatalf("signed tx: body %+v, printed %+v", d.Body, signed)
	}
	// Another key than the file's sender is refused, naming the field.
	if _, err := keyfile.Add(home, "other", bytes.NewReader(bytes.Repeat([]byte{1}, 32))); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCmd(t, "tx", "sign", unsigned, "--from", "other", "--home", home)
	if code != 1 || !strings.Contains(errOut, "sender: "+info.PubKey+" is not the signing key") {
		t.Fatalf("tx sign with another key: code %d stderr %q", code, errOut)
	}
	// The commit-reveal steps keep their salt in the key's home: not offline.
	code, _, errOut = runCmd(t, "tx", "submit", "workflow", "--from", "val", "--task-id", "1", "--artifact-hash", strings.ToUpper(hashA),
		"--chain-id", "off-1", "--nonce", "0", "--generate-only", "--home", home, "--node", noNode)
	if code != 1 || !strings.Contains(errOut, "--generate-only: a commit or reveal needs the salt") {
		t.Fatalf("submit --generate-only: code %d stderr %q", code, errOut)
	}
	code, _, errOut = runCmd(t, "tx", "truth", "--from", "val", "--evm-chain-id", "1", "--evm-block", "7", "--min-price", "2.5",
		"--timestamp", "1", "--generate-only", "--wait", "--home", home)
	if code != 1 || !strings.Contains(errOut, "--generate-only and --wait") {
		t.Fatalf("--generate-only --wait: code %d stderr %q", code, errOut)
	}
}

// `start` names the app's failure with one "app: " (before: "app: app:").
func TestStartErrorHasOnePrefix(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	cli(t, "init", "--home", home, "--rpc-laddr", freeAddr(t), "--p2p-laddr", freeAddr(t))
	// data/app as a file: badger cannot open the app's state there.
	if err := os.WriteFile(appDataDir(home), []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "start", "--home", home)
	if code != 1 || !strings.Contains(errOut, "validatord start: app: open state") || strings.Contains(errOut, "app: app:") {
		t.Fatalf("start: code %d stderr %q", code, errOut)
	}
}

// compact is raw JSON without its spaces.
func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// On a real node: --dry-run answers CheckTx's code and changes nothing;
// --generate-only, `tx sign` and `tx broadcast --wait` post a task; -o text
// prints lines for people; `tx report arena --wait` prints the arena score
// that the end of its block gave (before: only a workflow report's score,
// which is in the tx's own events); export on the running node says the
// node is running.
func TestTxForPeopleOnANode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	home := filepath.Join(t.TempDir(), "home")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", home, "--chain-id", "people-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms", "--registration-difficulty", "16")
	n := startNode(t, home)
	n.waitHeight(t, node, 1)
	cli(t, "keys", "add", "bob", "--home", home)
	on := []string{"--home", home, "--node", node}
	msgArgs := []string{"post-task", "workflow", "--from", "validator", "--total-steps", "2", "--max-budget", "1", "--max-latency-seconds", "10"}
	post := append(append([]string{"tx"}, msgArgs...), on...)

	// --dry-run: code 0, nothing posted; the same key's next transaction,
	// sent at once at the same nonce, is taken (the app's CheckTx holds an
	// accepted nonce as pending until the next block: the dry run waits for
	// it). A refusal exits 1 with CheckTx's code.
	code, out, errOut := runCmd(t, append(post, "--dry-run")...)
	var res client.TxResult
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || res.Code != 0 || res.Name != "ok" || res.Height != 0 {
		t.Fatalf("--dry-run: code %d stdout %q stderr %q", code, out, errOut)
	}
	sent, code, errOut := cliTx(t, home, node, msgArgs...)
	if id, _ := sent.Attr(wire.EventTaskPosted, "task_id"); code != 0 || id != "0" {
		t.Fatalf("the tx after a dry run: exit %d %+v stderr %q", code, sent, errOut)
	}
	code, out, errOut = runCmd(t, append(post, "--dry-run", "-o", "text", "--submission-blocks", "5000")...)
	if code != 1 || !strings.HasPrefix(out, "dry run: CheckTx's answer; nothing was broadcast\ncode 21 (blocks_range)") ||
		!strings.Contains(errOut, "code 21") {
		t.Fatalf("--dry-run refused: code %d stdout %q stderr %q", code, out, errOut)
	}

	// Offline: generate, sign without a node, broadcast --wait; -o text.
	unsigned := filepath.Join(t.TempDir(), "unsigned.json")
	signed := filepath.Join(t.TempDir(), "signed.json")
	if err := os.WriteFile(unsigned, []byte(cli(t, append(post, "--generate-only", "--submission-blocks", "3", "--report-blocks", "500")...)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(signed, []byte(cli(t, "tx", "sign", unsigned, "--from", "validator", "--home", home)), 0o600); err != nil {
		t.Fatal(err)
	}
	var dry client.TxResult
	if err := json.Unmarshal([]byte(cli(t, "tx", "broadcast", signed, "--node", node, "--dry-run")), &dry); err != nil || dry.Code != 0 || dry.Height != 0 {
		t.Fatalf("tx broadcast --dry-run: %+v, %v", dry, err)
	}
	out = cli(t, "tx", "broadcast", signed, "--node", node, "--wait", "-o", "text")
	if !strings.HasPrefix(out, "code 0 (ok)\nhash ") || !strings.Contains(out, "\nevent task_posted task_id=1 track=workflow") {
		t.Fatalf("tx broadcast --wait -o text: %q", out)
	}

	// Arena: the score of a report is the end of its block's; --wait shows it.
	tx := func(typ, key string, args ...string) string { return mustTx(t, home, node, typ, key, args...) }
	tx(wire.EventMinerRegistered, "uid", "register-miner", "--from", "bob")
	task := tx(wire.EventTaskPosted, "task_id", "post-task", "arena", "--from", "validator", "--category", "debugging",
		"--difficulty", "beginner", "--criteria-total", "10", "--submission-blocks", "3", "--report-blocks", "500")
	sres := mustSubmit(t, home, node, true, "arena", "--from", "bob", "--task-id", task, "--artifact-hash", strings.ToUpper(hash32("bob arena")))
	sub := attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id")
	var tv struct {
		RevealDeadline int64 `json:"reveal_deadline"`
	}
	queryJSON(t, node, &tv, "task", task)
	n.waitHeight(t, node, tv.RevealDeadline)
	rep, code, errOut := cliTx(t, home, node, "report", "arena", "--from", "validator", "--submission-id", sub, "--total-tokens", "2500",
		"--tool-calls", "8", "--iterations", "3", "--execution-time", "42", "--estimated-cost", "0.05", "--criteria-passed", "9")
	got := waitScored(t, node, sub)
	if code != 0 || len(rep.Scores) != 1 || strconv.FormatUint(rep.Scores[0].SubmissionID, 10) != sub || rep.Scores[0].Track != "arena" ||
		rep.Scores[0].Score != got.Receipt.Score || got.Receipt.Height != rep.Height {
		t.Fatalf("report arena --wait: exit %d, scores %+v (stderr %q); the submission's receipt: score %s at height %d, the report at %d",
			code, rep.Scores, errOut, got.Receipt.Score, got.Receipt.Height, rep.Height)
	}

	code, _, errOut = runCmd(t, "export", "--home", home)
	if code != 1 || errOut != "validatord export: the node of --home "+home+" is running (it holds the lock on its stores): stop it first, or export a copy of the home\n" {
		t.Fatalf("export of a running node: code %d stderr %q", code, errOut)
	}
}

// -o text: one line per field, event and score; a report whose block gave
// no score says when it will come.
func TestTextOutput(t *testing.T) {
	report := client.Event{Type: wire.EventReportReceived, Attributes: []client.Attribute{{Key: "submission_id", Value: "4"}}}
	scored := client.TxResult{Code: 0, Name: "ok", Hash: "AB12", Height: 9, Events: []client.Event{report},
		Scores: []client.Score{{SubmissionID: 4, UID: 2, Track: "arena", Score: "84.5"}}}
	var b bytes.Buffer
	o := &outputFlag{format: outputText}
	if err := o.print(&b, scored); err != nil {
		t.Fatal(err)
	}
	if want := "code 0 (ok)\nhash AB12\nheight 9\nevent report_received submission_id=4\nscore arena: submission 4 (uid 2) 84.5\n"; b.String() != want {
		t.Fatalf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	scored.Scores = nil
	if err := o.print(&b, scored); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "score none yet: a workflow submission is scored when its reports reach quorum or at its report deadline, "+
		"an arena run at the end of a block with work budget left (validatord query submission 4)\n") {
		t.Fatalf("text without a score:\n%s", b.String())
	}
	b.Reset()
	if err := o.print(&b, client.SubmitResult{Commit: client.TxResult{Name: "ok", Hash: "CD", Height: 3}, Pending: "/h/reveals/x.json"}); err != nil {
		t.Fatal(err)
	}
	if want := "commit:\n  code 0 (ok)\n  hash CD\n  height 3\npending reveal /h/reveals/x.json (reveal with `validatord tx reveal` once its window is open)\n"; b.String() != want {
		t.Fatalf("text of a commit:\n%s\nwant:\n%s", b.String(), want)
	}
}
