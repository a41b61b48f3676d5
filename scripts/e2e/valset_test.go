//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cometbft/cometbft/privval"
	rpchttp "github.com/cometbft/cometbft/rpc/client/http"
	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// valsetFigures are the figures of the validator-change scenario.
type valsetFigures struct {
	LoadSummary       string  `json:"loadgen_summary"`
	AddPassedHeight   int64   `json:"add_passed_height"`
	FirstSignedHeight int64   `json:"joiner_first_signed_height"`
	SignedByJoiner    int     `json:"blocks_signed_by_joiner"`
	RotatePassed      int64   `json:"rotate_passed_height"`
	RemovePassed      int64   `json:"remove_passed_height"`
	HeightsCompared   int64   `json:"heights_compared"`
	TxsCommitted      int     `json:"txs_committed"`
	TxsLost           int     `json:"txs_lost"`
	ReplayedHeights   []int64 `json:"replayed_heights"`
	ReplayScoreDigest string  `json:"replay_score_digest"`
}

// TestValidatorChangesUnderLoad: four validators and a fifth full node under the load of
// loadgen. By proposals the validators approve with more than 2/3 of the power: the fifth
// joins the set, CometBFT applies it two blocks after the passing block, and it signs
// blocks; its report key is rotated (the new key posts a task from its height on, the old
// one is refused); it is removed and signs no more. Every node ends with the same headers
// at every height, every committed tx is found everywhere, and the five block stores
// replay to the same app hashes and score digest.
func TestValidatorChangesUnderLoad(t *testing.T) {
	const genesisValidators = 4
	loadFor := time.Duration(envInt("E2E_VALSET_LOAD_SECONDS", 60)) * time.Second
	nw := newNetwork(t, genesisValidators+1, basePort+300, "500ms")
	joiner := nw.detachLast()
	nw.startAll() // the joiner too: a full node from height 1
	out := filepath.Join(nw.dir, "load.jsonl")
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), "rounds",
		"--testnet", nw.dir, "--nodes", join(nw.rpcs[:genesisValidators]), "--duration", loadFor.String(),
		"--rate", "25", "--miners", "4", "--out", out)
	ctx := context.Background()
	gov := nw.governors(t, genesisValidators)
	fig := valsetFigures{}

	if err := nw.waitHeight(0, 8, time.Minute); err != nil {
		t.Fatal(err)
	}
	// Add node4 at power 10 (10 of 40 ≤ a third): node0 proposes, node1 and node2 approve.
	consKey := joinerConsensusKey(t, nw.homes[joiner])
	oldReport := loadReportKey(t, nw.homes[joiner])
	h := nw.maxHeight()
	fig.AddPassedHeight = passProposal(t, ctx, gov, 0, client.ProposeValidators(h+200,
		client.AddValidator("node4", consKey, 10, oldReport.Public().(ed25519.PublicKey))), 1, 2)
	t.Logf("add passed at height %d", fig.AddPassedHeight)
	inForce := fig.AddPassedHeight + 2
	if err := nw.waitAll(inForce+3, time.Minute); err != nil {
		t.Fatal(err)
	}
	vals := cometValidators(t, nw.clients[0], inForce)
	if len(vals) != genesisValidators+1 {
		t.Fatalf("CometBFT's set at %d has %d validators, want %d", inForce, len(vals), genesisValidators+1)
	}
	if before := cometValidators(t, nw.clients[0], inForce-1); len(before) != genesisValidators {
		t.Fatalf("CometBFT's set at %d (before the update's height) has %d validators", inForce-1, len(before))
	}
	addr := types.Address(sha256Sum(consKey)[:20])
	fig.FirstSignedHeight = firstSigned(t, nw.clients[0], addr, inForce, inForce+3)
	if fig.FirstSignedHeight == 0 {
		t.Fatalf("node4 signed none of the commits of heights %d..%d", inForce, inForce+3)
	}

	// Rotate node4's report key: now 50 in force, more than 2/3 is 4 approvals of 10.
	joinerGov := nw.governor(t, nw.rpcs[joiner], oldReport)
	newReport := ed25519.NewKeyFromSeed(sha256Sum([]byte("e2e rotated report key")))
	h = nw.maxHeight()
	fig.RotatePassed = passProposal(t, ctx, gov, 0, client.ProposeValidators(h+200,
		client.RotateReportKey("node4", newReport.Public().(ed25519.PublicKey))), 1, 2, joinerGov)
	if err := nw.waitAll(fig.RotatePassed+2, time.Minute); err != nil {
		t.Fatal(err)
	}
	rotated := nw.governor(t, nw.rpcs[joiner], newReport)
	task := client.PostWorkflowTask(&subnetv1.WorkflowTask{TotalSteps: 2, MaxBudget: "1", MaxLatencySeconds: "10", SubmissionBlocks: 5, ReportBlocks: 5})
	if r, err := rotated.SendWait(ctx, task, time.Minute); err != nil || r.Code != wire.CodeOK {
		t.Fatalf("a task from the rotated-in key: %v %+v", err, r)
	}
	if r, err := joinerGov.SendWait(ctx, task, time.Minute); err == nil || r.Code != wire.CodeNotValidator {
		t.Fatalf("a task from the rotated-out key: code %d, err %v; want %d", r.Code, err, wire.CodeNotValidator)
	}

	// Remove node4 again (four approvals of 50).
	h = nw.maxHeight()
	fig.RemovePassed = passProposal(t, ctx, gov, 0, client.ProposeValidators(h+200, client.RemoveValidator("node4")), 1, 2, rotated)
	gone := fig.RemovePassed + 2
	if err := nw.waitAll(gone+2, time.Minute); err != nil {
		t.Fatal(err)
	}
	if vals := cometValidators(t, nw.clients[0], gone); len(vals) != genesisValidators {
		t.Fatalf("CometBFT's set at %d has %d validators after the removal", gone, len(vals))
	}
	fig.SignedByJoiner = countSigned(t, nw.clients[0], addr, inForce, gone+1)
	if s := firstSigned(t, nw.clients[0], addr, gone+1, gone+1); s != 0 {
		t.Fatalf("node4 signed the commit of height %d after its removal", s)
	}

	if err := load.wait(loadFor + 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	if code := load.exitCode(); code != 0 {
		t.Fatalf("loadgen exited %d (see %s)", code, filepath.Join(nw.dir, "loadgen.log"))
	}
	fig.LoadSummary = loadSummary(filepath.Join(nw.dir, "loadgen.log"))
	recs, err := loadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	fig.TxsCommitted = len(recs)
	settle := max(maxRecordHeight(recs), gone+2) + 45
	if err := nw.waitAll(settle, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if fig.HeightsCompared, err = compareAppHashes(nw, settle); err != nil {
		t.Fatal(err)
	}
	fig.TxsLost, _ = checkCommitted(t, nw, recs, genesisValidators)
	nw.stopAll()
	fig.ReplayedHeights, fig.ReplayScoreDigest = replayAll(t, nw, settle)
	report(t, "validator_changes", fig)
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// detachLast takes the last node out of the genesis set: its validator entries are removed
// from every node's genesis.json (CometBFT's and the app's), and its home is moved out of
// the testnet directory, so the load generator does not take it for a validator. It stays
// a full node of the network (the peers list every node); the index it keeps is returned.
func (nw *network) detachLast() int {
	nw.t.Helper()
	i := len(nw.homes) - 1
	name := fmt.Sprintf("node%d", i)
	nw.editGenesis(func(doc map[string]any) {
		doc["validators"] = withoutName(nw.t, doc["validators"], name)
		st := doc["app_state"].(map[string]any)
		st["validators"] = withoutName(nw.t, st["validators"], name)
	})
	moved := filepath.Join(nw.t.TempDir(), name)
	if err := os.Rename(nw.homes[i], moved); err != nil {
		nw.t.Fatal(err)
	}
	nw.homes[i] = moved
	return i
}

func withoutName(t *testing.T, v any, name string) []any {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("genesis validators: %T", v)
	}
	var out []any
	for _, e := range list {
		if e.(map[string]any)["name"] != name {
			out = append(out, e)
		}
	}
	if len(out) != len(list)-1 {
		t.Fatalf("genesis validators: no single %q among %d", name, len(list))
	}
	return out
}

func joinerConsensusKey(t *testing.T, home string) []byte {
	t.Helper()
	pv := privval.LoadFilePV(filepath.Join(home, "config", "priv_validator_key.json"), filepath.Join(home, "data", "priv_validator_state.json"))
	pk, err := pv.GetPubKey()
	if err != nil {
		t.Fatal(err)
	}
	return pk.Bytes()
}

func loadReportKey(t *testing.T, home string) ed25519.PrivateKey {
	t.Helper()
	k, err := keyfile.Load(home, keyfile.ReportKeyName)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// governor is a signer of governance txs with key through the node at rpc.
func (nw *network) governor(t *testing.T, rpc string, key ed25519.PrivateKey) *client.Signer {
	t.Helper()
	c, err := client.Dial(rpc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.NodeStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return client.NewSigner(c, st.ChainID, key)
}

// governors are the signers of the first n validators' report keys.
func (nw *network) governors(t *testing.T, n int) []*client.Signer {
	var out []*client.Signer
	for i := 0; i < n; i++ {
		out = append(out, nw.governor(t, nw.rpcs[i], loadReportKey(t, nw.homes[i])))
	}
	return out
}

// passProposal sends msg from gov[proposer], then the approvals (indexes into gov, or extra
// signers), and returns the height of the block in which the proposal passed.
func passProposal(t *testing.T, ctx context.Context, gov []*client.Signer, proposer int, msg *subnetv1.Msg, approvers ...any) int64 {
	t.Helper()
	r, err := sendRetrying(ctx, gov[proposer], msg)
	if err != nil || r.Code != wire.CodeOK {
		t.Fatalf("proposal: %v %+v", err, r)
	}
	id, err := r.AttrU64(wire.EventProposalSubmitted, "proposal_id")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range approvers {
		s, ok := a.(*client.Signer)
		if !ok {
			s = gov[a.(int)]
		}
		r, err := sendRetrying(ctx, s, client.Approve(id))
		if err != nil || r.Code != wire.CodeOK {
			t.Fatalf("approval of %d: %v %+v", id, err, r)
		}
		if v, ok := r.Attr(wire.EventProposalPassed, "proposal_id"); ok && v == strconv.FormatUint(id, 10) {
			return r.Height
		}
	}
	t.Fatalf("proposal %d did not pass with its approvals", id)
	return 0
}

func cometValidators(t *testing.T, c *rpchttp.HTTP, h int64) []*types.Validator {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	perPage := 100
	res, err := c.Validators(ctx, &h, nil, &perPage)
	if err != nil {
		t.Fatal(err)
	}
	return res.Validators
}

// firstSigned is the first height in [from, to] whose commit addr signed (0: none).
func firstSigned(t *testing.T, c *rpchttp.HTTP, addr types.Address, from, to int64) int64 {
	t.Helper()
	for h := from; h <= to; h++ {
		if signed(t, c, addr, h) {
			return h
		}
	}
	return 0
}

func countSigned(t *testing.T, c *rpchttp.HTTP, addr types.Address, from, to int64) int {
	t.Helper()
	n := 0
	for h := from; h <= to; h++ {
		if signed(t, c, addr, h) {
			n++
		}
	}
	return n
}

// signed: the commit of height h (in block h+1's last commit) carries addr's signature.
func signed(t *testing.T, c *rpchttp.HTTP, addr types.Address, h int64) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := c.Commit(ctx, &h)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Commit.Signatures {
		if s.BlockIDFlag == types.BlockIDFlagCommit && bytes.Equal(s.ValidatorAddress, addr) {
			return true
		}
	}
	return false
}

// sendRetrying is SendWait, tried again while the key's nonce keeps moving: the load
// generator signs with the same report keys, so a governance tx can lose the race for a nonce
// several times in a row (client.ErrNonceUnstable); the chain refused nothing.
func sendRetrying(ctx context.Context, s *client.Signer, msg *subnetv1.Msg) (client.TxResult, error) {
	var r client.TxResult
	var err error
	for range 10 {
		if r, err = s.SendWait(ctx, msg, time.Minute); !errors.Is(err, client.ErrNonceUnstable) {
			return r, err
		}
		time.Sleep(200 * time.Millisecond)
	}
	return r, err
}
