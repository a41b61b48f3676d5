package app_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The exported API of package app that the recorded chain uses is all in
// this block: when a refactor moves or renames it, only these lines change.
// Everything else goes through the ABCI interface, the genesis package and
// the wire types.

// abciApp is what the test needs of the application.
type abciApp interface {
	abcitypes.Application
	Close() error
}

// newApp opens an app on a badger directory ("" keeps the state in memory)
// with the given durability ("block" or "pipelined").
func newApp(dir, durability string) (abciApp, error) {
	d, err := app.ParseDurability(durability)
	if err != nil {
		return nil, err
	}
	return app.New(app.Config{DataDir: dir, Durability: d})
}

// signTx builds the signed envelope of msg.
func signTx(chainID string, key ed25519.PrivateKey, nonce uint64, msg *subnetv1.Msg) ([]byte, error) {
	return wire.SignTx(chainID, key, nonce, msg)
}

// End of the app API.

var update = flag.Bool("update", false, "rewrite testdata/recorded_chain.golden from this run")

const (
	recordedChainID = "recorded-chain"
	// Query result codes (docs/queries.md).
	queryOK       = 0
	queryNotFound = 2
)

var goldenPath = filepath.Join("testdata", "recorded_chain.golden")

func blockTime(h int64) time.Time { return time.Unix(blockUnix(h), 0).UTC() }

// TestRecordedChain runs the recorded chain (recorded_chain_plan_test.go:
// 300 blocks, four validators of unequal power, 20 miners, every message
// kind, every end-of-block path, refused transactions) through the ABCI
// calls of a real node, on badger and again in memory, and compares the
// record with testdata/recorded_chain.golden: the app hash after InitChain
// and after every height, each block's result codes and an events digest,
// then digests of every query answer of the final state and the counts of
// submissions by status. Regenerate with
//
//	go test ./app -run TestRecordedChain -update
//
// only when a change of behaviour is intended, and review the diff.
func TestRecordedChain(t *testing.T) {
	chain := planChain(t)
	onDisk := runChain(t, t.TempDir(), "block", chain)
	inMemory := runChain(t, "", "block", chain)
	if i := firstDiff(onDisk.lines, inMemory.lines); i >= 0 {
		t.Fatalf("the in-memory app differs from the badger one at %s:\nbadger:    %s\nin memory: %s",
			describe(onDisk.lines, i), lineAt(onDisk.lines, i), lineAt(inMemory.lines, i))
	}
	// Pipelined durability: each block executes, and the queries read,
	// while the block before is still landing in badger.
	pipelined := runChain(t, t.TempDir(), "pipelined", chain)
	if i := firstDiff(onDisk.lines, pipelined.lines); i >= 0 {
		t.Fatalf("the pipelined app differs from the one that writes every block before Commit returns at %s:\nblock:     %s\npipelined: %s",
			describe(onDisk.lines, i), lineAt(onDisk.lines, i), lineAt(pipelined.lines, i))
	}
	onDisk.checkCoverage(t, chain)
	got := strings.Join(onDisk.lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(goldenPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d lines", goldenPath, len(onDisk.lines))
		return
	}
	raw, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if i := firstDiff(want, onDisk.lines); i >= 0 {
		t.Fatalf("the recorded chain differs from %s at %s:\nwant: %s\ngot:  %s\n"+
			"(if the change of behaviour is intended: go test ./app -run TestRecordedChain -update, and review the diff)",
			goldenPath, describe(want, i), lineAt(want, i), lineAt(onDisk.lines, i))
	}
}

// record is what one run of the chain produced.
type record struct {
	lines  []string                  // the golden lines
	events map[string]int            // "tx:<type>" or "block:<type>" → events over the chain
	counts map[string]map[string]int // track (or "all") → status (or "deadline") → submissions
	epochs int
	subs   int
}

// goldenHeader opens the golden file and says how to read it.
var goldenHeader = []string{
	"# The recorded chain of app/recorded_chain_test.go. Regenerate: go test ./app -run TestRecordedChain -update",
	"# <height> <app hash> proposal=<ProcessProposal> kept=<txs PrepareProposal kept>/<txs proposed> codes=<FinalizeBlock codes> events=<digest>",
	"# then digests of the final state's query answers, submissions by track and status, and events by type.",
}

// runChain feeds the chain's blocks to a fresh app at dir.
func runChain(t *testing.T, dir, durability string, chain recordedChain) *record {
	t.Helper()
	a, err := newApp(dir, durability)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := a.Close(); err != nil {
			t.Error(err)
		}
	}()
	r := &record{events: map[string]int{}, counts: map[string]map[string]int{}}
	r.lines = append(r.lines, goldenHeader...)
	genesisResp, err := a.InitChain(context.Background(), initChainRequest(t, chain.genesis))
	if err != nil {
		t.Fatal(err)
	}
	r.lines = append(r.lines, fmt.Sprintf("0 %x initchain", genesisResp.AppHash))
	for h := 1; h < len(chain.blocks); h++ {
		r.lines = append(r.lines, r.runBlock(t, a, int64(h), chain.blocks[h]))
	}
	r.digests(t, a, chain)
	return r
}

func initChainRequest(t *testing.T, g genesis.AppState) *abcitypes.RequestInitChain {
	t.Helper()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	req := &abcitypes.RequestInitChain{Time: blockTime(0), ChainId: recordedChainID, AppStateBytes: bz, InitialHeight: 1}
	for _, v := range g.Validators {
		pk, err := v.ConsensusPubKey()
		if err != nil {
			t.Fatal(err)
		}
		req.Validators = append(req.Validators, abcitypes.ValidatorUpdate{
			PubKey: cmtcrypto.PublicKey{Sum: &cmtcrypto.PublicKey_Ed25519{Ed25519: pk}}, Power: v.Power})
	}
	return req
}

// runBlock takes one height through the calls CometBFT makes:
// PrepareProposal (as the proposer), ProcessProposal and FinalizeBlock with
// the same block hash, Commit. A block in which the plan expects a refusal
// stands for a faulty proposer's block: it is proposed as planned, refused
// transactions included, so ProcessProposal rejects it and FinalizeBlock
// executes it (as a node replaying a decided block does), refusing those
// transactions with their codes. Every other block is proposed as
// PrepareProposal returned it, which must be all of it.
func (r *record) runBlock(t *testing.T, a abciApp, h int64, b recBlock) string {
	t.Helper()
	ctx := context.Background()
	blockHash := sha256.Sum256([]byte("block/" + strconv.FormatInt(h, 10)))
	prep, err := a.PrepareProposal(ctx, &abcitypes.RequestPrepareProposal{Height: h, Time: blockTime(h), Txs: b.txs, MaxTxBytes: 1 << 30})
	if err != nil {
		t.Fatalf("height %d: PrepareProposal: %v", h, err)
	}
	if !equalTxs(prep.Txs, b.accepted()) {
		t.Fatalf("height %d: PrepareProposal kept %d of %d txs, the plan accepts %d", h, len(prep.Txs), len(b.txs), len(b.accepted()))
	}
	txs, verdict := prep.Txs, abcitypes.ResponseProcessProposal_ACCEPT
	if b.faulty() {
		txs, verdict = b.txs, abcitypes.ResponseProcessProposal_REJECT
	}
	pp, err := a.ProcessProposal(ctx, &abcitypes.RequestProcessProposal{Height: h, Time: blockTime(h), Txs: txs, Hash: blockHash[:]})
	if err != nil || pp.Status != verdict {
		t.Fatalf("height %d: ProcessProposal: %v (%v), want %v", h, pp.GetStatus(), err, verdict)
	}
	fin, err := a.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: txs, Hash: blockHash[:]})
	if err != nil {
		t.Fatalf("height %d: FinalizeBlock: %v", h, err)
	}
	if _, err := a.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
		t.Fatalf("height %d: Commit: %v", h, err)
	}
	codes := make([]string, len(fin.TxResults))
	for i, res := range fin.TxResults {
		if res.Code != b.want[i] {
			t.Fatalf("height %d tx %d: code %d (%s), the plan expects %d", h, i, res.Code, res.Log, b.want[i])
		}
		if b.ids[i] >= 0 {
			checkCreatedID(t, h, i, res.Events, b.ids[i])
		}
		codes[i] = strconv.FormatUint(uint64(res.Code), 10)
	}
	if len(codes) == 0 {
		codes = []string{"-"}
	}
	return fmt.Sprintf("%d %x proposal=%s kept=%d/%d codes=%s events=%s", h, fin.AppHash,
		strings.ToLower(verdict.String()), len(prep.Txs), len(b.txs), strings.Join(codes, ","), r.eventsDigest(fin))
}

func equalTxs(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// checkCreatedID: the id the plan assigned to a PostTask or Commit is the
// one its event reports, so the plan's later references are right.
func checkCreatedID(t *testing.T, h int64, i int, evs []abcitypes.Event, want int64) {
	t.Helper()
	for _, e := range evs {
		for _, at := range e.Attributes {
			if (e.Type == "task_posted" && at.Key == "task_id") || (e.Type == "submission_received" && at.Key == "submission_id") {
				if at.Value != strconv.FormatInt(want, 10) {
					t.Fatalf("height %d tx %d: %s %s = %s, the plan assigned %d", h, i, e.Type, at.Key, at.Value, want)
				}
				return
			}
		}
	}
	t.Fatalf("height %d tx %d: no event names the id %d the plan assigned", h, i, want)
}

// eventsDigest hashes the block's events (every transaction's, then the
// end of block's: type, and each attribute's key, value and index flag) and
// counts them by origin and type. The first 8 bytes of the hash go into the
// line. Logs are free text for people and are left out.
func (r *record) eventsDigest(fin *abcitypes.ResponseFinalizeBlock) string {
	h := sha256.New()
	for i, res := range fin.TxResults {
		fmt.Fprintf(h, "tx %d\n", i)
		writeEvents(h, res.Events)
		r.countEvents("tx:", res.Events)
	}
	fmt.Fprintf(h, "block\n")
	writeEvents(h, fin.Events)
	r.countEvents("block:", fin.Events)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func writeEvents(h hash.Hash, evs []abcitypes.Event) {
	for _, e := range evs {
		fmt.Fprintf(h, "%q", e.Type)
		for _, at := range e.Attributes {
			fmt.Fprintf(h, " %q=%q/%t", at.Key, at.Value, at.Index)
		}
		fmt.Fprintf(h, "\n")
	}
}

func (r *record) countEvents(origin string, evs []abcitypes.Event) {
	for _, e := range evs {
		r.events[origin+e.Type]++
	}
}

// answers hashes query answers: each enters as "<path> <code> <length>\n"
// and its value bytes (none for a failed query: its log is not hashed).
type answers struct{ h hash.Hash }

func newAnswers() *answers { return &answers{h: sha256.New()} }

func (q *answers) add(path string, resp *abcitypes.ResponseQuery) {
	fmt.Fprintf(q.h, "%s %d %d\n", path, resp.Code, len(resp.Value))
	q.h.Write(resp.Value)
}

// line is "<name> <n> <sha256>": n counts what the answers are about.
func (q *answers) line(name string, n int) string {
	return fmt.Sprintf("%s %d %x", name, n, q.h.Sum(nil))
}

func query(t *testing.T, a abciApp, path string) *abcitypes.ResponseQuery {
	t.Helper()
	resp, err := a.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
	if err != nil {
		t.Fatalf("query %s: %v", path, err)
	}
	if resp.Code != queryOK && resp.Code != queryNotFound {
		t.Fatalf("query %s: code %d: %s", path, resp.Code, resp.Log)
	}
	return resp
}

// digests appends the lines of the final state:
//
//	submissions <n> <sha256>  n submissions: submission/0 .. submission/n (the first id not found)
//	epochs <n> <sha256>       n epochs: epoch/latest, then epoch/1 .. epoch/n
//	views <n> <sha256>        n other views: status, params, validators, each
//	                          account, miner/uid, window/uid, gas/uid/chain (uids 0..20),
//	                          task/id and baseline/id (ids up to the first task not
//	                          found), leaderboard/track
//	count <track> ...         submissions by status; deadline = scored at the report
//	                          deadline (reported power ≤ 2/3)
//	event <origin:type> <n>   events over the chain
func (r *record) digests(t *testing.T, a abciApp, chain recordedChain) {
	t.Helper()
	subs := newAnswers()
	for id := 0; ; id++ {
		path := fmt.Sprintf("submission/%d", id)
		resp := query(t, a, path)
		subs.add(path, resp)
		if resp.Code == queryNotFound {
			r.subs = id
			break
		}
		r.countSubmission(t, resp.Value)
	}
	epochs := newAnswers()
	latest := query(t, a, "epoch/latest")
	epochs.add("epoch/latest", latest)
	var last struct {
		Epoch struct {
			Number int `json:"number"`
		} `json:"epoch"`
	}
	if err := json.Unmarshal(latest.Value, &last); err != nil {
		t.Fatalf("epoch/latest: %v", err)
	}
	r.epochs = last.Epoch.Number
	for n := 1; n <= r.epochs; n++ {
		path := fmt.Sprintf("epoch/%d", n)
		epochs.add(path, query(t, a, path))
	}
	views := newAnswers()
	paths := viewPaths(t, a, chain)
	for _, path := range paths {
		views.add(path, query(t, a, path))
	}
	r.lines = append(r.lines, subs.line("submissions", r.subs), epochs.line("epochs", r.epochs), views.line("views", len(paths)))
	r.lines = append(r.lines, r.countLines()...)
}

func viewPaths(t *testing.T, a abciApp, chain recordedChain) []string {
	t.Helper()
	paths := []string{"status", "params", "validators"}
	for _, acc := range chain.accounts {
		paths = append(paths, "account/"+hex.EncodeToString(acc.pub()))
	}
	for uid := 0; uid <= numMiners; uid++ {
		paths = append(paths, fmt.Sprintf("miner/%d", uid), fmt.Sprintf("window/%d", uid))
		for _, c := range chain.genesis.Chain.GasChains {
			paths = append(paths, fmt.Sprintf("gas/%d/%d", uid, c))
		}
	}
	for id := 0; query(t, a, fmt.Sprintf("task/%d", id)).Code == queryOK; id++ {
		paths = append(paths, fmt.Sprintf("task/%d", id), fmt.Sprintf("baseline/%d", id))
	}
	for _, track := range genesis.TrackNames {
		paths = append(paths, "leaderboard/"+track)
	}
	return paths
}

// submissionView is what the counts read of a submission answer.
type submissionView struct {
	Track   string `json:"track"`
	Status  string `json:"status"`
	Receipt *struct {
		ReportedPower int64 `json:"reported_power"`
		TotalPower    int64 `json:"total_power"`
	} `json:"receipt"`
}

func (r *record) countSubmission(t *testing.T, value []byte) {
	var s submissionView
	if err := json.Unmarshal(value, &s); err != nil {
		t.Fatalf("submission answer: %v", err)
	}
	for _, track := range []string{s.Track, "all"} {
		if r.counts[track] == nil {
			r.counts[track] = map[string]int{}
		}
		r.counts[track][s.Status]++
		if s.Status == "scored" && s.Track != genesis.TrackGas && 3*s.Receipt.ReportedPower <= 2*s.Receipt.TotalPower {
			r.counts[track]["deadline"]++
		}
	}
}

// statusOrder is the order of the count lines; any other status follows, sorted.
var statusOrder = []string{"scored", "deadline", "expired", "failed", "counted", "late", "unscored", "pending",
	"duplicate", "unrevealed", "committed"}

func (r *record) countLines() []string {
	var lines []string
	for _, track := range append(append([]string(nil), genesis.TrackNames...), "all") {
		c := r.counts[track]
		var kv []string
		for _, s := range statusOrder {
			kv = append(kv, fmt.Sprintf("%s=%d", s, c[s]))
		}
		for _, s := range sortedKeys(c) {
			if !contains(statusOrder, s) {
				kv = append(kv, fmt.Sprintf("%s=%d", s, c[s]))
			}
		}
		lines = append(lines, "count "+track+" "+strings.Join(kv, " "))
	}
	for _, k := range sortedKeys(r.events) {
		lines = append(lines, fmt.Sprintf("event %s %d", k, r.events[k]))
	}
	return lines
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkCoverage requires the chain to reach every path it is meant to:
// what the golden file records is then known to exercise them. "failed" is
// recorded but not required: every formula input is validated first, so no
// transaction can make a submission fail today.
func (r *record) checkCoverage(t *testing.T, chain recordedChain) {
	t.Helper()
	if r.subs != int(chain.subs) {
		t.Errorf("%d submissions in the final state, the plan made %d", r.subs, chain.subs)
	}
	wf, ar, gas := r.counts[genesis.TrackWorkflow], r.counts[genesis.TrackArena], r.counts[genesis.TrackGas]
	need := []struct {
		what string
		n    int
	}{
		{"workflow submissions scored by quorum", wf["scored"] - wf["deadline"]},
		{"workflow submissions scored at the report deadline", wf["deadline"]},
		{"workflow submissions expired", wf["expired"]},
		{"arena submissions scored by quorum", ar["scored"] - ar["deadline"]},
		{"arena submissions scored at the report deadline", ar["deadline"]},
		{"arena submissions expired", ar["expired"]},
		{"gas predictions scored", gas["scored"]},
		{"gas predictions counted", gas["counted"]},
		{"gas predictions late", gas["late"]},
		{"gas predictions unscored", gas["unscored"]},
		{"workflow duplicates", wf["duplicate"]},
		{"arena duplicates", ar["duplicate"]},
		{"workflow commits never revealed", wf["unrevealed"]},
		{"arena commits never revealed", ar["unrevealed"]},
		{"gas commits never revealed", gas["unrevealed"]},
		{"epochs", r.epochs},
		{"EVM blocks made final by a truth with quorum", r.events["tx:gas_truth_final"]},
		{"EVM blocks made final at the truth deadline", r.events["block:gas_truth_final"]},
		{"EVM blocks closed at the end of their reveal window", r.events["block:gas_window_closed"]},
		{"reveals", r.events["tx:submission_revealed"]},
		{"duplicates found by a reveal", r.events["tx:submission_duplicate"]},
		{"submissions scored by a report", r.events["tx:submission_scored"]},
		{"submissions scored at the end of a block", r.events["block:submission_scored"]},
		{"submissions expired at the end of a block", r.events["block:submission_expired"]},
	}
	for _, n := range need {
		if n.n <= 0 {
			t.Errorf("the recorded chain has no %s", n.what)
		}
	}
	refused := map[uint32]bool{}
	for _, b := range chain.blocks {
		for _, w := range b.want {
			if w != 0 {
				refused[w] = true
			}
		}
	}
	for _, code := range []uint32{codeNonceUsed, codeNonceFuture, codeNotValidator, codeNotMiner,
		codeDuplicateSubmission, codeDuplicateReport, codeDuplicateTruth, codeSubmissionFinal,
		codeBadCommitment, codeNoCommit, codeRevealWindow, codeRevealMismatch} {
		if !refused[code] {
			t.Errorf("the recorded chain refuses no transaction with code %d", code)
		}
	}
}

// firstDiff returns the index of the first line that differs, or -1.
func firstDiff(want, got []string) int {
	for i := 0; i < max(len(want), len(got)); i++ {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			return i
		}
	}
	return -1
}

// describe names line i: its height, or the final-state digest it is.
func describe(lines []string, i int) string {
	l := lineAt(lines, i)
	f := strings.Fields(l)
	if len(f) > 0 && f[0] == "#" {
		return fmt.Sprintf("the header (line %d)", i+1)
	}
	if len(f) > 0 {
		if h, err := strconv.Atoi(f[0]); err == nil {
			return fmt.Sprintf("height %d (line %d)", h, i+1)
		}
		return fmt.Sprintf("the final-state line %q (line %d)", f[0], i+1)
	}
	return fmt.Sprintf("line %d", i+1)
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(no line)"
}
