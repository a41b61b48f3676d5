package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// newValidatorKeys are the consensus and report keys of a validator added
// by proposal.
func newValidatorKeys(label string) (cons []byte, rep *signer) {
	return testKey("consensus-" + label).Public().(ed25519.PublicKey), newSigner("report-" + label)
}

// codeOf is the code of the only tx of a block executed at the next height
// without committing it, and whether the app hash is the empty block's.
func codeOf(t *testing.T, n *node, tx []byte) (uint32, string, bool) {
	t.Helper()
	h := n.height + 1
	empty := finalizeOnly(t, n, h, nil)
	resp := finalizeOnly(t, n, h, [][]byte{tx})
	return resp.TxResults[0].Code, resp.TxResults[0].Log, bytes.Equal(resp.AppHash, empty.AppHash)
}

func powerOf(t *testing.T, n *node, name string) float64 {
	t.Helper()
	vals, _ := n.query("validators")
	for _, v := range vals["validators"].([]any) {
		m := v.(map[string]any)
		if m["name"] == name {
			return m["power"].(float64)
		}
	}
	return 0
}

// TestValidatorAddRemoveRotate: a validator joins by proposal and > 2/3
// approval, its update reaches CometBFT in the block that passes it and
// its report key works from two blocks later (CometBFT's delay), not
// before; a validator leaves the same way; a report key rotates and the old
// one is refused from the height the new one holds.
func TestValidatorAddRemoveRotate(t *testing.T) {
	n := newNode(t, "", testGenesis(4))
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	cons, r4 := newValidatorKeys("val4")
	mustOK(t, n.block(r[0].tx(t, client.ProposeValidators(100, client.AddValidator("val4", cons, 10, r4.pub())))))
	prop, _ := n.query("proposal/0")
	if prop["status"] != governance.ProposalOpen || prop["approved_power"].(float64) != 10 {
		t.Fatalf("proposal after its submission: %v", prop)
	}
	mustOK(t, n.block(r[1].tx(t, client.Approve(0)))) // 20 of 40: not yet
	if prop, _ := n.query("proposal/0"); prop["status"] != governance.ProposalOpen {
		t.Fatalf("two of four approvals passed it: %v", prop)
	}
	resp := n.block(r[2].tx(t, client.Approve(0))) // 30 of 40 > 2/3
	mustOK(t, resp)
	passedAt := n.height
	if len(resp.ValidatorUpdates) != 1 || resp.ValidatorUpdates[0].Power != 10 ||
		!bytes.Equal(resp.ValidatorUpdates[0].PubKey.GetEd25519(), cons) {
		t.Fatalf("validator updates of the passing block: %v", resp.ValidatorUpdates)
	}
	if prop, _ := n.query("proposal/0"); prop["status"] != governance.ProposalPassed {
		t.Fatalf("proposal after the third approval: %v", prop)
	}
	// At passedAt+1 the new key is not in force yet; at passedAt+2 it is.
	if code, log, _ := codeOf(t, n, r4.next(msgWorkflowTask(4, 5, 5))); code != wire.CodeNotValidator {
		t.Fatalf("new validator's key one block after: code %d %s", code, log)
	}
	mustOK(t, n.block())
	if n.height != passedAt+1 {
		t.Fatal("height")
	}
	mustOK(t, n.block(r4.tx(t, msgWorkflowTask(4, 5, 5))))
	if p := powerOf(t, n, "val4"); p != 10 {
		t.Fatalf("val4 power %v", p)
	}
	vals, _ := n.query("validators")
	if vals["total_power"].(float64) != 50 {
		t.Fatalf("total power %v, want 50", vals["total_power"])
	}

	// Rotate val1's key, remove val3: one proposal, four approvals needed
	// of 50 (> 33.3): val0, val1, val2, val4 = 40.
	newKey := newSigner("report-val1-rotated")
	mustOK(t, n.block(r[0].tx(t, client.ProposeValidators(n.height+50, client.RotateReportKey("val1", newKey.pub()), client.RemoveValidator("val3")))))
	mustOK(t, n.block(r[1].tx(t, client.Approve(1)), r[2].tx(t, client.Approve(1))))
	resp = n.block(r4.tx(t, client.Approve(1)))
	mustOK(t, resp)
	if len(resp.ValidatorUpdates) != 1 || resp.ValidatorUpdates[0].Power != 0 {
		t.Fatalf("updates of the removal: %v", resp.ValidatorUpdates)
	}
	mustOK(t, n.block(r[1].tx(t, msgWorkflowTask(4, 5, 5)))) // the old key still holds at H+1
	mustOK(t, n.block())
	if code, _, _ := codeOf(t, n, r[1].next(msgWorkflowTask(4, 5, 5))); code != wire.CodeNotValidator {
		t.Fatalf("rotated-out key: code %d", code)
	}
	if code, _, _ := codeOf(t, n, r[3].next(msgWorkflowTask(4, 5, 5))); code != wire.CodeNotValidator {
		t.Fatalf("removed validator's key: code %d", code)
	}
	mustOK(t, n.block(newKey.tx(t, msgWorkflowTask(4, 5, 5))))
	if p := powerOf(t, n, "val3"); p != 0 {
		t.Fatalf("val3 still has power %v", p)
	}
	// A key once a validator's is never given again.
	if code, _, same := codeOf(t, n, r[0].next(client.ProposeValidators(n.height+50, client.AddValidator("val5", cons5(), 1, r[3].pub())))); code != wire.CodeDuplicateKey || !same {
		t.Fatalf("reuse of a removed validator's report key: code %d", code)
	}
	replayCompare(t, n, testGenesis(4))
}

func cons5() []byte { c, _ := newValidatorKeys("val5"); return c }

// TestGovernanceRejections: every governance refusal has its code and
// changes nothing (the app hash of a block with only the refused tx equals
// the empty block's), and CheckTx agrees.
func TestGovernanceRejections(t *testing.T) {
	g := testGenesis(4)
	g.Governance.MaxOpenProposals = 2
	g.Governance.MinUpgradeDelayBlocks = 10
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	outsider := newSigner("outsider")
	miner := newMiner("miner-a", 1)
	cons, r4 := newValidatorKeys("val4")
	add := func(power int64) *subnetv1.ValidatorChange { return client.AddValidator("val4", cons, power, r4.pub()) }
	mustOK(t, n.block(miner.tx(t, msgRegister()),
		r[0].tx(t, client.ProposeValidators(20, client.SetPower("val0", 11))), // 0
		r[0].tx(t, client.ProposeValidators(5, client.SetPower("val0", 12))),  // 1: expires at 5
	))
	for n.height < 6 {
		mustOK(t, n.block())
	}
	// Proposal 1 expired at the end of height 6, freeing one of val0's two
	// slots; proposal 2 takes it again.
	mustOK(t, n.block(r[0].tx(t, client.ProposeValidators(30, client.SetPower("val0", 13)))))
	h := n.height + 1
	genesisCons := testKey("consensus-0").Public().(ed25519.PublicKey)
	cases := []struct {
		name string
		tx   []byte
		code uint32
	}{
		{"a proposal from a non-validator", outsider.next(client.ProposeValidators(h+10, add(5))), wire.CodeNotValidator},
		{"an approval from a non-validator", outsider.next(client.Approve(0)), wire.CodeNotValidator},
		{"a proposal with no changes", r[1].next(client.ProposeValidators(h + 10)), wire.CodeBadProposal},
		{"a short consensus key", r[1].next(client.ProposeValidators(h+10, client.AddValidator("val4", cons[:31], 5, r4.pub()))), wire.CodeBadProposal},
		{"an unknown validator", r[1].next(client.ProposeValidators(h+10, client.SetPower("nobody", 5))), wire.CodeBadProposal},
		{"a miner's key as report key", r[1].next(client.ProposeValidators(h+10, client.AddValidator("val4", cons, 5, miner.pub()))), wire.CodeBadProposal},
		{"a consensus key already in the set", r[1].next(client.ProposeValidators(h+10, client.AddValidator("val4", genesisCons, 5, r4.pub()))), wire.CodeDuplicateKey},
		{"a report key already in the set", r[1].next(client.ProposeValidators(h+10, client.AddValidator("val4", cons, 5, r[2].pub()))), wire.CodeDuplicateKey},
		{"an empty set", r[1].next(client.ProposeValidators(h+10, client.RemoveValidator("val0"), client.RemoveValidator("val1"),
			client.RemoveValidator("val2"), client.RemoveValidator("val3"))), wire.CodeEmptySet},
		{"more than a third of the power", r[1].next(client.ProposeValidators(h+10, add(14))), wire.CodePowerChange},
		{"a third of the power in two changes", r[1].next(client.ProposeValidators(h+10, add(7), client.SetPower("val1", 3))), wire.CodePowerChange},
		{"an expiry in the past", r[1].next(client.ProposeValidators(h-1, add(5))), wire.CodeProposalClosed},
		{"an expiry too far", r[1].next(client.ProposeValidators(h+g.Governance.MaxProposalBlocks+1, add(5))), wire.CodeProposalClosed},
		{"an activation height in the past", r[1].next(client.ProposeParams([]byte(`{"window":{"cap":"0.2"}}`), h-1, h+5)), wire.CodeActivationHeight},
		{"an activation height too soon", r[1].next(client.ProposeParams([]byte(`{"window":{"cap":"0.2"}}`), h+5+9, h+5)), wire.CodeActivationHeight},
		{"params that fail genesis validation", r[1].next(client.ProposeParams([]byte(`{"window":{"cap":"1.5"}}`), h+100, h+5)), wire.CodeBadProposal},
		{"params that change a ring size", r[1].next(client.ProposeParams([]byte(`{"window":{"window_size":50}}`), h+100, h+5)), wire.CodeBadProposal},
		{"params that set validators", r[1].next(client.ProposeParams([]byte(`{"validators":[]}`), h+100, h+5)), wire.CodeBadProposal},
		{"params that are not an object", r[1].next(client.ProposeParams([]byte(`[1]`), h+100, h+5)), wire.CodeBadProposal},
		{"an unknown field", r[1].next(client.ProposeParams([]byte(`{"window":{"Kap":"0.2"}}`), h+100, h+5)), wire.CodeBadProposal},
		{"an unknown formula version", r[1].next(client.ProposeParams([]byte(`{"tracks":[{"name":"workflow","share":"1","activity_cutoff_blocks":500,"reveal_blocks":1,"formula":"v9"}]}`), h+100, h+5)), wire.CodeBadProposal},
		{"an unknown proposal", r[1].next(client.Approve(99)), wire.CodeUnknownProposal},
		{"an expired proposal", r[1].next(client.Approve(1)), wire.CodeProposalClosed},
		{"a double approval (the proposer's own)", r[0].next(client.Approve(0)), wire.CodeDuplicateApproval},
		{"a third open proposal", r[0].next(client.ProposeValidators(h+10, add(5))), wire.CodeTooManyProposals},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, log, same := codeOf(t, n, tc.tx)
			if code != tc.code {
				t.Fatalf("code %d (%s), want %d (%s): %s", code, wire.CodeName(code), tc.code, wire.CodeName(tc.code), log)
			}
			if log == "" || !same {
				t.Fatalf("log %q, app hash unchanged %v", log, same)
			}
			chk, _ := n.app.CheckTx(context.Background(), &abcitypes.RequestCheckTx{Tx: tc.tx})
			if chk.Code != tc.code {
				t.Fatalf("CheckTx code %d, FinalizeBlock %d", chk.Code, tc.code)
			}
		})
	}
	// Expiry happened at height 6 and freed the proposer's slot.
	if p, _ := n.query("proposal/1"); p["status"] != governance.ProposalExpired {
		t.Fatalf("proposal 1: %v", p)
	}
}

// TestApprovalRecheck: two proposals that each are valid alone but not
// together (both add a validator with the same consensus key): once the
// first passed, the approval that would pass the second is refused with
// the code the second would now get as a new proposal, and changes nothing.
func TestApprovalRecheck(t *testing.T) {
	n := newNode(t, "", testGenesis(4))
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	cons, r4 := newValidatorKeys("val4")
	mustOK(t, n.block(r[0].tx(t, client.ProposeValidators(100, client.AddValidator("val4", cons, 10, r4.pub()))),
		r[1].tx(t, client.ProposeValidators(100, client.AddValidator("val4b", cons, 5, newSigner("x").pub())))))
	mustOK(t, n.block(r[1].tx(t, client.Approve(0)), r[2].tx(t, client.Approve(0)), r[0].tx(t, client.Approve(1))))
	before := n.app.AppHash()
	code, log, same := codeOf(t, n, r[2].next(client.Approve(1)))
	if code != wire.CodeDuplicateKey || !same {
		t.Fatalf("approval passing a proposal that no longer applies: code %d %s", code, log)
	}
	if !bytes.Equal(before, n.app.AppHash()) {
		t.Fatal("hash moved")
	}
}

// TestMisbehaviourSlash: evidence of a duplicate vote is recorded and, with
// governance.slash_misbehaviour, removes the offender two blocks later;
// with the switch off it is only recorded.
func TestMisbehaviourSlash(t *testing.T) {
	for _, slash := range []bool{true, false} {
		t.Run(fmt.Sprint("slash=", slash), func(t *testing.T) {
			g := testGenesis(4)
			g.Governance.SlashMisbehaviour = slash
			n := newNode(t, "", g)
			mustOK(t, n.block())
			addr := n.app.chain.Address(3)
			h := n.height + 1
			ev := abcitypes.Misbehavior{Type: abcitypes.MisbehaviorType_DUPLICATE_VOTE, Height: 1, TotalVotingPower: 40,
				Validator: abcitypes.Validator{Address: addr, Power: 10}}
			resp, err := n.app.FinalizeBlock(context.Background(), &abcitypes.RequestFinalizeBlock{Height: h, Time: blockTime(h),
				Hash: []byte("evidence"), Misbehavior: []abcitypes.Misbehavior{ev}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := n.app.Commit(context.Background(), &abcitypes.RequestCommit{}); err != nil {
				t.Fatal(err)
			}
			n.height = h
			if got, _ := eventAttr(resp.Events, wire.EventMisbehaviour, "slashed"); got != fmt.Sprint(slash) {
				t.Fatalf("misbehaviour event slashed=%q", got)
			}
			wantUpdates := 0
			if slash {
				wantUpdates = 1
			}
			if len(resp.ValidatorUpdates) != wantUpdates || (slash && resp.ValidatorUpdates[0].Power != 0) {
				t.Fatalf("updates %v", resp.ValidatorUpdates)
			}
			mustOK(t, n.block())
			mustOK(t, n.block())
			want := 10.0
			if slash {
				want = 0
			}
			if p := powerOf(t, n, "val3"); p != want {
				t.Fatalf("val3 power %v, want %v", p, want)
			}
			m, code := n.query("misbehaviour/0")
			if code != wire.QueryOK || m["validator"] != "val3" {
				t.Fatalf("misbehaviour record: %v", m)
			}
		})
	}
}

// receiptParam is the value of a param of a submission's receipt.
func receiptParam(t *testing.T, n *node, sid uint64, name string) string {
	t.Helper()
	sub, code := n.query(fmt.Sprint("submission/", sid))
	if code != wire.QueryOK {
		t.Fatalf("submission %d: %v", sid, sub)
	}
	rec, _ := sub["receipt"].(map[string]any)
	for _, f := range rec["params"].([]any) {
		m := f.(map[string]any)
		if m["name"] == name {
			return m["value"].(string)
		}
	}
	t.Fatalf("submission %d: receipt has no param %q: %v", sid, name, rec)
	return ""
}

// scoreOne posts a workflow task, has miner commit, reveal and three
// validators report it; it returns the submission id once scored.
func scoreOne(t *testing.T, n *node, r []*signer, miner *signer, task, sid uint64) {
	t.Helper()
	mustOK(t, n.block(r[0].tx(t, msgWorkflowTask(4, 1, 10))))
	mustOK(t, n.block(miner.commit(t, wfPayloadOf(miner, task))))
	mustOK(t, n.block(miner.reveal(t, wfPayloadOf(miner, task))))
	mustOK(t, n.block(r[0].tx(t, msgWorkflowReport(sid, workflowM())), r[1].tx(t, msgWorkflowReport(sid, workflowM())),
		r[2].tx(t, msgWorkflowReport(sid, workflowM()))))
	if sub, _ := n.query(fmt.Sprint("submission/", sid)); sub["status"] != "scored" {
		t.Fatalf("submission %d: %v", sid, sub["status"])
	}
}

// TestParamsUpgradeAtHeight: a params proposal passes and schedules new
// workflow weights from height H; a submission scored before H carries and
// uses the old weights, one scored from H the new (the harness verifies
// every receipt against the params in force at its height); a second node
// replaying the same blocks reaches the same app hash at every height.
func TestParamsUpgradeAtHeight(t *testing.T) {
	g := testGenesis(4)
	g.Governance.MinUpgradeDelayBlocks = 5
	n := newNode(t, "", g)
	r := []*signer{reporter(0), reporter(1), reporter(2), reporter(3)}
	miner := newMiner("miner-a", 1)
	const activation = 20
	patch := []byte(`{"workflow":{"w_success":"0.4","w_cost":"0.35"}}`)
	mustOK(t, n.block(miner.tx(t, msgRegister()), r[0].tx(t, client.ProposeParams(patch, activation, 10))))
	resp := n.block(r[1].tx(t, client.Approve(0)), r[2].tx(t, client.Approve(0)))
	mustOK(t, resp)
	if got, _ := eventAttr(resp.TxResults[1].Events, wire.EventProposalPassed, "activation_height"); got != fmt.Sprint(activation) {
		t.Fatalf("passed event activation_height %q", got)
	}
	params, _ := n.query("params")
	if sch := params["scheduled"].([]any); len(sch) != 1 {
		t.Fatalf("scheduled upgrades: %v", sch)
	}
	scoreOne(t, n, r, miner, 0, 0) // heights 3–6
	for n.height < activation-1 {
		mustOK(t, n.block())
	}
	if w := n.app.chain.Gen.Workflow.WSuccess.String(); w != "0.4" {
		t.Fatalf("params in force at %d: WSuccess %s", activation, w)
	}
	scoreOne(t, n, r, miner, 1, 1)
	if a, b := receiptParam(t, n, 0, "w_success"), receiptParam(t, n, 1, "w_success"); a != "0.500000000000000000" || b != "0.400000000000000000" {
		t.Fatalf("receipts' w_success before and after the upgrade: %s, %s", a, b)
	}
	s0, _ := n.query("submission/0")
	s1, _ := n.query("submission/1")
	r0, r1 := s0["receipt"].(map[string]any)["score"], s1["receipt"].(map[string]any)["score"]
	if r0 == nil || r0 == r1 {
		t.Fatalf("the same measurement scored %v and %v under the two weights", r0, r1)
	}
	params, _ = n.query("params")
	if sch := params["scheduled"].([]any); len(sch) != 0 || params["in_force_from"].(float64) != activation {
		t.Fatalf("params after activation: in force from %v, scheduled %v", params["in_force_from"], sch)
	}
	replayCompare(t, n, g)
}
