package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/membership"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/shopspring/decimal"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"

	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

const testChainID = "subnet-test"

// testKey derives a deterministic ed25519 key from a label.
func testKey(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// testGenesis has n validators of power 10 each, all tracks, epochs every 5 blocks.
func testGenesis(n int) genesis.AppState {
	g := genesis.DefaultGenesis()
	for i := 0; i < n; i++ {
		cons := testKey(fmt.Sprintf("consensus-%d", i)).Public().(ed25519.PublicKey)
		rep := testKey(fmt.Sprintf("report-%d", i)).Public().(ed25519.PublicKey)
		g.Validators = append(g.Validators, genesis.Validator{
			Name: fmt.Sprintf("val%d", i), Address: hex.EncodeToString(genesis.ConsensusAddress(cons)),
			PubKey: base64.StdEncoding.EncodeToString(cons), Power: 10, ReportKey: hex.EncodeToString(rep),
		})
	}
	g.Window.EpochBlocks = 5
	g.Window.WarmupTasks = 2
	g.Window.ArenaWarmupTasks = 2
	g.Gas.MemorySize = 2
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = testRevealBlocks
	}
	g.Membership = testMembership(g.Chain.MaxUIDs)
	return g
}

// testMembership is the membership section of the test genesis for
// maxUIDs uids: difficulty 1 (every nonce meets it, so a registration's
// work is only its fresh height), every uid registrable in one block, no
// min_non_immune, and the longest record of block hashes, so that the
// genesis entry (height 0, which msgRegister binds) stays fresh for 256
// blocks. A test that changes chain.max_uids calls it again.
func testMembership(maxUIDs int) membership.Params {
	p := membership.DefaultParams()
	p.InitialDifficulty, p.MinDifficulty, p.MaxDifficulty = 1, 1, 1
	p.MaxRegistrationsPerBlock = uint32(maxUIDs)
	p.MinNonImmune = 0
	p.MaxPowAgeBlocks = membership.MaxPowAgeLimit
	return p
}

// testRevealBlocks is the reveal window of every track in the test
// genesis: one block, so a task posted at h with submission_blocks s takes
// commits up to h+s, reveals at h+s+1, and reports from h+s+2.
const testRevealBlocks = 1

// testTrack is a track entry of the test genesis: the track's defaults with
// a one-block reveal window.
func testTrack(name string, share decimal.Decimal) genesis.Track {
	t := genesis.NewTrack(name, share)
	t.RevealBlocks = testRevealBlocks
	return t
}

func initRequest(t testing.TB, g genesis.AppState) *abcitypes.RequestInitChain {
	t.Helper()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	req := &abcitypes.RequestInitChain{ChainId: testChainID, AppStateBytes: bz, InitialHeight: 1}
	for _, v := range g.Validators {
		pk, _ := v.ConsensusPubKey()
		req.Validators = append(req.Validators, abcitypes.ValidatorUpdate{
			PubKey: cmtcrypto.PublicKey{Sum: &cmtcrypto.PublicKey_Ed25519{Ed25519: pk}}, Power: v.Power})
	}
	return req
}

// node drives one App through blocks.
type node struct {
	t      testing.TB
	app    *App
	height int64
	hashes [][]byte // app hash after each committed height (index = height)
	// receipts counts the scored receipts verified after each block.
	receipts int
	// stats are the decided blocks' results (writes, work, carried steps).
	stats []blockResult
	// log is every committed block's request, for replays (replayCompare).
	log []loggedBlock
}

// loggedBlock is what a node replaying a block needs of it.
type loggedBlock struct {
	txs  [][]byte
	hash []byte
}

func newNode(t testing.TB, dir string, g genesis.AppState) *node {
	t.Helper()
	return newNodeLimits(t, dir, g, budget.Limits{})
}

// newNodeLimits is newNode with block limits (zero fields: the defaults).
func newNodeLimits(t testing.TB, dir string, g genesis.AppState, lim budget.Limits) *node {
	t.Helper()
	return newNodeConfig(t, Config{DataDir: dir, Limits: lim}, g)
}

// newNodeConfig is newNode with a whole app config.
func newNodeConfig(t testing.TB, cfg Config, g genesis.AppState) *node {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := &node{t: t, app: a, hashes: [][]byte{nil}}
	t.Cleanup(func() { _ = n.app.Close() })
	if _, err := a.InitChain(context.Background(), initRequest(t, g)); err != nil {
		t.Fatal(err)
	}
	return n
}

// blockTime is the block time of a height: 6 seconds apart from a fixed origin.
func blockTime(h int64) time.Time { return time.Unix(1_700_000_000+6*h, 0).UTC() }

// block decides and commits the next height with txs (see decide).
func (n *node) block(txs ...[]byte) *abcitypes.ResponseFinalizeBlock {
	n.t.Helper()
	resp, err := n.decide(n.height+1, blockTime(n.height+1), txs, []byte(fmt.Sprintf("block-%d", n.height+1)))
	if err != nil {
		n.t.Fatal(err)
	}
	return resp
}

// finalize runs the next height through FinalizeBlock and Commit only, as a
// node does that replays a decided block (and as the benchmarks measure).
func (n *node) finalize(txs ...[]byte) *abcitypes.ResponseFinalizeBlock {
	n.t.Helper()
	ctx := context.Background()
	h := n.height + 1
	resp, err := n.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: txs,
		Hash: []byte(fmt.Sprintf("block-%d", h))})
	if err != nil {
		n.t.Fatal(err)
	}
	n.stats = append(n.stats, *n.app.pending)
	if _, err := n.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
		n.t.Fatal(err)
	}
	n.waitSnapshot()
	n.log = append(n.log, loggedBlock{txs: txs, hash: []byte(fmt.Sprintf("block-%d", h))})
	n.height = h
	n.hashes = append(n.hashes, resp.AppHash)
	return resp
}

// waitSnapshot waits for the snapshot the last Commit may have started. A
// node's writer skips a height while it still writes an earlier one (the
// chain never waits for it); the harness runs blocks far faster than a chain,
// so without the wait which heights get a snapshot would depend on the
// machine's speed.
func (n *node) waitSnapshot() {
	if n.app.snapWriter != nil {
		n.app.snapWriter.Wait()
	}
}

// decide runs a height through every ABCI step a validator runs:
// PrepareProposal over txs, ProcessProposal over txs as proposed, then
// FinalizeBlock and Commit. It checks that the steps agree: PrepareProposal
// keeps exactly the txs FinalizeBlock accepts, and ProcessProposal accepts
// the block exactly when every tx is valid (a block with a refused tx is a
// faulty proposer's, which honest validators reject).
func (n *node) decide(height int64, at time.Time, txs [][]byte, hash []byte) (*abcitypes.ResponseFinalizeBlock, error) {
	ctx := context.Background()
	prep, err := n.app.PrepareProposal(ctx, &abcitypes.RequestPrepareProposal{Height: height, Time: at, Txs: txs, MaxTxBytes: 1 << 40})
	if err != nil {
		return nil, fmt.Errorf("PrepareProposal: %w", err)
	}
	proc, err := n.app.ProcessProposal(ctx, &abcitypes.RequestProcessProposal{Height: height, Time: at, Txs: txs, Hash: hash})
	if err != nil {
		return nil, fmt.Errorf("ProcessProposal: %w", err)
	}
	resp, err := n.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: height, Time: at, Txs: txs, Hash: hash})
	if err != nil {
		return nil, fmt.Errorf("FinalizeBlock: %w", err)
	}
	res := n.app.pending
	n.stats = append(n.stats, *res)
	if res.starved || res.written > n.app.limits.CommitWrites {
		return nil, fmt.Errorf("height %d: the block wrote %d bytes (limit %d), starved %v: a bound is broken", height, res.written, n.app.limits.CommitWrites, res.starved)
	}
	var valid [][]byte
	for i, r := range resp.TxResults {
		if r.Code == wire.CodeOK {
			valid = append(valid, txs[i])
		}
	}
	if len(prep.Txs) != len(valid) {
		return nil, fmt.Errorf("height %d: PrepareProposal kept %d txs, FinalizeBlock accepted %d", height, len(prep.Txs), len(valid))
	}
	for i := range valid {
		if !bytes.Equal(prep.Txs[i], valid[i]) {
			return nil, fmt.Errorf("height %d: PrepareProposal's tx %d is not FinalizeBlock's %d-th accepted tx", height, i, i)
		}
	}
	if accept := proc.Status == abcitypes.ResponseProcessProposal_ACCEPT; accept != (len(valid) == len(txs)) {
		return nil, fmt.Errorf("height %d: ProcessProposal %s a block with %d of %d txs valid", height, proc.Status, len(valid), len(txs))
	}
	if _, err := n.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
		return nil, fmt.Errorf("Commit: %w", err)
	}
	n.waitSnapshot()
	n.log = append(n.log, loggedBlock{txs: txs, hash: hash})
	n.height = height
	n.hashes = append(n.hashes, resp.AppHash)
	return resp, n.verifyScored(resp)
}

// verifyScored recomputes, with x/receipt, every receipt the block scored
// (its submission_scored events) against the chain's own params.
func (n *node) verifyScored(resp *abcitypes.ResponseFinalizeBlock) error {
	evs := resp.Events
	for _, r := range resp.TxResults {
		evs = append(evs, r.Events...)
	}
	base, _ := n.app.base()
	st := store.State{O: store.NewOverlay(base)}
	for _, e := range evs {
		if e.Type != wire.EventSubmissionScored {
			continue
		}
		id, _ := eventAttr([]abcitypes.Event{e}, wire.EventSubmissionScored, "submission_id")
		sid, _ := strconv.ParseUint(id, 10, 64)
		sub, ok := st.Submission(sid)
		if !ok {
			return fmt.Errorf("height %d: scored submission %s is not stored", n.height, id)
		}
		chain, err := n.app.chains.At(st, n.app.chain.ID, n.height) // the rules the block ran under
		if err != nil {
			return err
		}
		in, err := receipt.FromSubmission(sub, chain.Registry())
		if err != nil {
			return fmt.Errorf("height %d: submission %d: %w", n.height, sid, err)
		}
		in.Chain = chain.Gen.ReceiptChain()
		res, err := receipt.Verify(in)
		if err != nil || !res.Verified {
			return fmt.Errorf("height %d: receipt of submission %d does not verify: %v %+v", n.height, sid, err, res.Mismatches)
		}
		n.receipts++
	}
	return nil
}

// mustOK fails unless every tx result is OK.
func mustOK(t testing.TB, resp *abcitypes.ResponseFinalizeBlock) {
	t.Helper()
	for i, r := range resp.TxResults {
		if r.Code != wire.CodeOK {
			t.Fatalf("tx %d: code %d (%s): %s", i, r.Code, wire.CodeName(r.Code), r.Log)
		}
	}
}

// query runs a JSON query and decodes it into a generic map.
func (n *node) query(path string) (map[string]any, uint32) {
	n.t.Helper()
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
	if err != nil {
		n.t.Fatal(err)
	}
	if resp.Code != wire.QueryOK {
		return map[string]any{"log": resp.Log}, resp.Code
	}
	var out map[string]any
	if err := json.Unmarshal(resp.Value, &out); err != nil {
		n.t.Fatalf("query %s: %v", path, err)
	}
	return out, resp.Code
}

// signer signs txs for one key and tracks its nonce; a miner's signer also
// knows its uid, which its commitments bind.
type signer struct {
	key    ed25519.PrivateKey
	nonce  uint64
	uid    uint32
	hasUID bool
}

func newSigner(label string) *signer { return &signer{key: testKey(label)} }

// newMiner is the signer of a miner that will hold uid (uids go in
// registration order from 1: uid 0 is the burn uid).
func newMiner(label string, uid uint32) *signer {
	s := newSigner(label)
	s.uid, s.hasUID = uid, true
	return s
}

// salt is the signer's salt for a payload: derived from its key and the
// payload, so a test chain replays to the same app hash and a reveal needs
// no stored salt.
func (s *signer) salt(p *subnetv1.MsgSubmit) client.Salt {
	bz, _ := p.Marshal()
	return sha256.Sum256(append(append([]byte("test salt\x00"), s.key.Seed()...), bz...))
}

// commit signs the MsgCommit of payload p under the signer's uid.
func (s *signer) commit(t testing.TB, p *subnetv1.MsgSubmit) []byte {
	t.Helper()
	if !s.hasUID {
		t.Fatalf("signer %x commits without a uid: build it with newMiner", s.pub())
	}
	msg, err := client.Commit(testChainID, s.pub(), s.uid, p, s.salt(p))
	if err != nil {
		t.Fatal(err)
	}
	return s.tx(t, msg)
}

// reveal signs the MsgReveal of payload p (with the salt commit used).
func (s *signer) reveal(t testing.TB, p *subnetv1.MsgSubmit) []byte {
	t.Helper()
	return s.tx(t, client.Reveal(p, s.salt(p)))
}

func reporter(i int) *signer { return newSigner(fmt.Sprintf("report-%d", i)) }

func (s *signer) pub() []byte { return s.key.Public().(ed25519.PublicKey) }

// tx signs msg with the next nonce.
func (s *signer) tx(t testing.TB, msg *subnetv1.Msg) []byte {
	t.Helper()
	bz, err := wire.SignTx(testChainID, s.key, s.nonce, msg)
	if err != nil {
		t.Fatal(err)
	}
	s.nonce++
	return bz
}

// The test messages: client's builders with the harness's defaults.

// msgRegister binds the genesis entry (height 0) with nonce 0: at the test
// genesis' difficulty 1 that is valid work in the first 256 blocks.
func msgRegister() *subnetv1.Msg { return client.RegisterMiner(0, 0) }

func msgWorkflowTask(steps int64, sb, rb int64) *subnetv1.Msg {
	return client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: steps, MaxBudget: "2", MaxLatencySeconds: "100", SubmissionBlocks: sb, ReportBlocks: rb})
}

func msgArenaTask(criteria int64, sb, rb int64) *subnetv1.Msg {
	return client.PostArenaTask(&subnetv1.ArenaTask{CriteriaTotal: criteria, SubmissionBlocks: sb, ReportBlocks: rb})
}

func artifact(label string) []byte {
	h := sha256.Sum256([]byte(label))
	return h[:]
}

// wfPayload is a workflow for task: one artifact per task, so two miners
// who reveal it for one task are a keeper and a duplicate; use
// wfPayloadOf for distinct artifacts.
func wfPayload(task uint64) *subnetv1.MsgSubmit {
	return client.WorkflowPayload(task, artifact(fmt.Sprint("workflow ", task)))
}

// wfPayloadOf is a workflow for task with the miner's own artifact.
func wfPayloadOf(s *signer, task uint64) *subnetv1.MsgSubmit {
	return client.WorkflowPayload(task, artifact(fmt.Sprintf("workflow %d by %x", task, s.pub())))
}

// arenaPayloadOf is an arena run of task with the miner's own artifact.
func arenaPayloadOf(s *signer, task uint64) *subnetv1.MsgSubmit {
	return client.ArenaPayload(task, artifact(fmt.Sprintf("arena %d by %x", task, s.pub())))
}

func gasPayload(chain, block uint64, price string) *subnetv1.MsgSubmit {
	return client.GasPayload(chain, block, price)
}

// workflowM is a measurement of a workflow that declares one retry
// (retry_count 1) and was measured retrying once: no unplanned retry.
func workflowM() *subnetv1.WorkflowMeasurement {
	return &subnetv1.WorkflowMeasurement{OutputQuality: "0.9", StepsCompleted: 4, Cost: "0.5", LatencySeconds: "20",
		Retries: 1, DeclaredRetryBudget: 1, Timeouts: 0, HardFailures: 0}
}

func msgWorkflowReport(sub uint64, m *subnetv1.WorkflowMeasurement) *subnetv1.Msg {
	return client.ReportWorkflow(sub, m)
}

func arenaM() *subnetv1.ArenaMeasurement {
	return &subnetv1.ArenaMeasurement{TotalTokens: 8000, ToolCalls: 6, Iterations: 2, ExecutionTime: "200", EstimatedCost: "0.04", CriteriaPassed: 4}
}

func msgArenaReport(sub uint64, m *subnetv1.ArenaMeasurement) *subnetv1.Msg {
	return client.ReportArena(sub, m)
}

func msgTruth(chain, block uint64, price string, ts int64) *subnetv1.Msg {
	return client.Truth(chain, block, price, ts)
}

// eventAttr returns the value of key in the first event of type typ.
func eventAttr(evs []abcitypes.Event, typ, key string) (string, bool) {
	for _, e := range evs {
		if e.Type != typ {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == key {
				return a.Value, true
			}
		}
	}
	return "", false
}

// anchorTxs are the truths of EVM block `block` of chain, one per reporter:
// with more than 2/3 of the power they close it, which anchors the chain so
// that it takes predictions (up to max_prediction_ahead blocks past it).
func anchorTxs(t testing.TB, reps []*signer, chain, block uint64, ts int64) [][]byte {
	t.Helper()
	var txs [][]byte
	for _, r := range reps {
		txs = append(txs, r.tx(t, msgTruth(chain, block, "1", ts)))
	}
	return txs
}

// arenaPayload is an arena run of task (one artifact per task).
func arenaPayload(task uint64) *subnetv1.MsgSubmit {
	return client.ArenaPayload(task, artifact(fmt.Sprint("arena", task)))
}

// replayCompare replays n's committed blocks on a fresh node of genesis g
// through FinalizeBlock and Commit, as an auditor's replay does, and
// requires the same app hash at every height.
func replayCompare(t testing.TB, n *node, g genesis.AppState) {
	t.Helper()
	replayOn(t, n, newNode(t, "", g))
}

// replayOn is replayCompare on the fresh node r (of n's genesis), e.g. one
// with n's limits.
func replayOn(t testing.TB, n, r *node) {
	t.Helper()
	ctx := context.Background()
	for i, b := range n.log {
		h := int64(i + 1)
		resp, err := r.app.FinalizeBlock(ctx, &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h), Txs: b.txs, Hash: b.hash})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.app.Commit(ctx, &abcitypes.RequestCommit{}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(resp.AppHash, n.hashes[h]) {
			t.Fatalf("replay: height %d app hash %X, the chain's %X", h, resp.AppHash, n.hashes[h])
		}
	}
}
