package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// TestQueryFindsThings runs a real node and finds what a miner did without
// writing ids down: the tasks (newest first, filtered by track and open
// window, paged), the submissions of a task and of a uid (the miner index),
// a tx by its hash (decoded, with what it created), an account by key name
// and by upper-case hex, and the metagraph; each in JSON and as text.
func TestQueryFindsThings(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a CometBFT node")
	}
	home := t.TempDir()
	rpc := freeAddr(t)
	cli(t, "init", "--home", home, "--rpc-laddr", rpc, "--p2p-laddr", freeAddr(t), "--timeout-commit", "50ms", "--registration-difficulty", "16")
	cli(t, "keys", "add", "alice", "--home", home)
	n := startNode(t, home)
	n.waitHeight(t, rpc, 1)
	reg, code, errOut := cliTx(t, home, rpc, "register-miner", "--from", "alice")
	if code != 0 || reg.Code != 0 {
		t.Fatalf("register: %d %+v %s", code, reg, errOut)
	}
	uid := attr(t, reg, wire.EventMinerRegistered, "uid")
	post := func(blocks string) string {
		return mustTx(t, home, rpc, wire.EventTaskPosted, "task_id", "post-task", "workflow", "--from", "validator", "--total-steps", "4",
			"--max-budget", "2", "--max-latency-seconds", "60", "--submission-blocks", blocks, "--report-blocks", "50")
	}
	shut := post("1")
	open := post("400")
	var tv wire.TaskView
	queryJSON(t, rpc, &tv, "task", shut)
	n.waitHeight(t, rpc, tv.SubmitDeadline+1)
	sres := mustSubmit(t, home, rpc, false, "workflow", "--from", "alice", "--task-id", open, "--artifact-hash", hash32("alice"))
	sub := attr(t, sres.Commit, wire.EventSubmissionAdded, "submission_id")

	q := func(v any, args ...string) {
		t.Helper()
		out := cli(t, append(append([]string{"query"}, args...), "--node", rpc)...)
		if err := json.Unmarshal([]byte(out), v); err != nil {
			t.Fatalf("query %v: %v in %q", args, err, out)
		}
	}
	ids := func(v wire.TasksView) string {
		var s []string
		for _, e := range v.Tasks {
			s = append(s, strconv.FormatUint(e.ID, 10))
		}
		return strings.Join(s, ",")
	}
	var all, openOnly, page1, page2, arena wire.TasksView
	q(&all, "tasks", "-o", "json")
	q(&openOnly, "tasks", "--open", "-o", "json")
	q(&page1, "tasks", "--limit", "1", "--output", "json")
	if ids(all) != open+","+shut || ids(openOnly) != open || !openOnly.Tasks[0].Open || ids(page1) != open || page1.NextAfter == nil {
		t.Fatalf("tasks %s, open %s, page 1 %s (next %v): want %s,%s newest first, only %s open, a next page",
			ids(all), ids(openOnly), ids(page1), page1.NextAfter, open, shut, open)
	}
	q(&page2, "tasks", "--limit", "1", "--after", strconv.FormatUint(*page1.NextAfter, 10), "-o", "json")
	q(&arena, "tasks", "--track", "arena", "-o", "json")
	if ids(page2) != shut || len(arena.Tasks) != 0 {
		t.Fatalf("page 2 %s, arena %s: want %s and none", ids(page2), ids(arena), shut)
	}
	if text := cli(t, "query", "tasks", "--node", rpc); !strings.Contains(text, "SUBMIT_UNTIL") || !strings.Contains(text, "2 tasks at height") {
		t.Fatalf("tasks as text:\n%s", text)
	}

	var byTask, byMiner wire.SubmissionsView
	q(&byTask, "submissions", "--task", open, "-o", "json")
	q(&byMiner, "submissions", "--miner", uid, "-o", "json")
	for _, v := range []wire.SubmissionsView{byTask, byMiner} {
		if len(v.Submissions) != 1 || strconv.FormatUint(v.Submissions[0].ID, 10) != sub || v.Submissions[0].Status != "committed" {
			t.Fatalf("submissions by %s: %+v, want submission %s committed", v.By, v.Submissions, sub)
		}
	}
	if text := cli(t, "query", "submissions", "--miner", uid, "--node", rpc); !strings.Contains(text, "task "+open) || !strings.Contains(text, "committed") {
		t.Fatalf("submissions as text:\n%s", text)
	}
	// a miner by its key's name, as a person knows it, and by its public key
	var subsByName, subsByHex wire.SubmissionsView
	q(&subsByName, "submissions", "--miner", "alice", "--home", home, "-o", "json")
	q(&subsByHex, "submissions", "--miner", strings.ToUpper(strings.TrimSpace(cli(t, "keys", "show", "alice", "-a", "--home", home))), "-o", "json")
	for _, v := range []wire.SubmissionsView{subsByName, subsByHex} {
		if strconv.FormatUint(uint64(v.ID), 10) != uid || len(v.Submissions) != 1 || strconv.FormatUint(v.Submissions[0].ID, 10) != sub {
			t.Fatalf("submissions of alice by name or key: %+v, want uid %s's submission %s", v, uid, sub)
		}
	}
	cli(t, "keys", "add", "bob", "--home", home)
	for arg, want := range map[string]string{
		"bob":    "holds no uid on this chain (register it with `validatord tx register-miner --from bob --wait`)",
		"nobody": `account "nobody" is neither a public key (64 hex digits) nor a key in the keyring`,
		"70000":  "--miner 70000: a uid is in [0, 65535]",
	} {
		if code, _, errOut := runCmd(t, "query", "submissions", "--miner", arg, "--home", home, "--node", rpc); code != 1 || !strings.Contains(errOut, want) {
			t.Fatalf("--miner %s: exit %d %q, want %q", arg, code, errOut, want)
		}
	}
	if code, _, errOut := runCmd(t, "query", "submissions", "--node", rpc); code != 1 || !strings.Contains(errOut, "--task ID or --miner UID") {
		t.Fatalf("submissions without --task or --miner: %d %q", code, errOut)
	}

	var txi client.TxInfo
	q(&txi, "tx", strings.ToLower(sres.Commit.Hash))
	if txi.Hash != strings.ToUpper(sres.Commit.Hash) || txi.Code != 0 || txi.CodeName != "ok" || txi.Created.SubmissionID == nil ||
		strconv.FormatUint(*txi.Created.SubmissionID, 10) != sub || !strings.Contains(string(txi.Msg), `"commit"`) {
		t.Fatalf("query tx: %+v", txi)
	}
	q(&txi, "tx", reg.Hash)
	if txi.Created.UID == nil || strconv.FormatUint(*txi.Created.UID, 10) != uid || !strings.Contains(string(txi.Msg), "register_miner") {
		t.Fatalf("query tx of the registration: %+v", txi)
	}
	if text := cli(t, "query", "tx", reg.Hash, "-o", "text", "--node", rpc); !strings.Contains(text, "created:   uid "+uid) {
		t.Fatalf("tx as text:\n%s", text)
	}

	var byName, byHex wire.AccountView
	q(&byName, "account", "alice", "--home", home)
	q(&byHex, "account", strings.ToUpper(byName.Pubkey))
	if byName.UID == nil || strconv.FormatUint(uint64(*byName.UID), 10) != uid || byHex.Pubkey != byName.Pubkey || byHex.Pubkey != strings.ToLower(byHex.Pubkey) {
		t.Fatalf("account by name %+v, by upper-case hex %+v", byName, byHex)
	}
	if code, _, errOut := runCmd(t, "query", "account", "nobody", "--home", home, "--node", rpc); code != 1 || !strings.Contains(errOut, "keyring") {
		t.Fatalf("account of an unknown name: %d %q", code, errOut)
	}

	var mg wire.MetagraphView
	q(&mg, "metagraph", "-o", "json")
	if len(mg.UIDs) != 1 || strconv.FormatUint(uint64(mg.UIDs[0].UID), 10) != uid || mg.UIDs[0].Key != byName.Pubkey || !mg.UIDs[0].Immune ||
		len(mg.UIDs[0].Scores) != len(mg.Tracks) {
		t.Fatalf("metagraph %+v", mg)
	}
	if text := cli(t, "query", "metagraph", "--node", rpc); !strings.Contains(text, "WORKFLOW") || !strings.Contains(text, byName.Pubkey[:keyCellLen]) {
		t.Fatalf("metagraph as text:\n%s", text)
	}

	if text := cli(t, "query", "status", "-o", "text", "--home", home, "--node", rpc); !strings.Contains(text, "height: ") || !strings.Contains(text, "genesis_hash: ") {
		t.Fatalf("status as text:\n%s", text)
	}
}
