package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/internal/keyfile"
)

// TestGovernanceEndToEnd drives governance through the CLI on a real
// in-process node. Its only running validator (all the power) adds a
// second one with a third of its power, the consensus key read from the
// newcomer's own home with `keys show-consensus` (that home is never
// started: the first validator keeps more than 2/3 of the power, so the
// chain goes on); adding it with more than a third is refused (code 57)
// first. The newcomer, below 2/3 alone, proposes rotating its
// report key to a key named in its home; the proposal stays open until the
// first validator's `tx approve` passes it, and the rotation takes effect.
// Then a params upgrade passes on the first validator's approval alone, and
// `query proposal N`, `proposals` and `params` show all three.
func TestGovernanceEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a CometBFT node")
	}
	root := t.TempDir()
	homeA, homeB := filepath.Join(root, "a"), filepath.Join(root, "b")
	node, p2p := freeAddr(t), freeAddr(t)
	cli(t, "init", "--home", homeA, "--chain-id", "gov-1", "--rpc-laddr", node, "--p2p-laddr", p2p, "--timeout-commit", "100ms")
	n := startNode(t, homeA)
	n.waitHeight(t, node, 1)
	cli(t, "init", "--home", homeB, "--chain-id", "gov-1", "--moniker", "validator1")
	var joining consensusKeyInfo
	decodeJSON(t, cli(t, "keys", "show-consensus", "--home", homeB), &joining)

	var vals wire.ValidatorsView
	queryJSON(t, node, &vals, "validators")
	if len(vals.Validators) != 1 {
		t.Fatalf("validators %+v, want one", vals)
	}
	first := vals.Validators[0].Name
	third := vals.TotalPower / 3 // the most one proposal may move

	// A proposal moving more than a third of the power is refused: the
	// result is printed, with exit 1 and one line naming the code.
	addWith := func(power int64) string {
		return "validator1=" + joining.PubKey + ":" + strconv.FormatInt(power, 10) + ":" + joining.ReportKey
	}
	res, code, errOut := cliTx(t, homeA, node, "propose", "validators", "--from", "validator", "--add", addWith(third+1))
	if code != 1 || res.Code != wire.CodePowerChange || !strings.Contains(errOut, fmt.Sprintf("code %d", wire.CodePowerChange)) || strings.Count(errOut, "\n") != 1 {
		t.Fatalf("adding more than a third: exit %d result %+v stderr %q", code, res, errOut)
	}

	// 1. Add the newcomer: the proposer holds all the power, so its own
	// transaction passes the proposal.
	add := addWith(third)
	id := mustTx(t, homeA, node, wire.EventProposalPassed, "proposal_id", "propose", "validators", "--from", "validator", "--add", add)
	p := wantProposal(t, node, id, "passed")
	// The expiry counts from the height the CLI read before sending; the tx
	// lands in one of the next blocks (more than one when blocks are fast).
	if lag := p.ProposedHeight - (p.ExpiresHeight - defaultExpiryBlocks); p.Kind != "validators" || len(p.Changes) != 1 || p.Proposer != first || lag < 1 || lag > 5 {
		t.Fatalf("proposal %s: %+v", id, p)
	}
	newcomer := waitValidator(t, n, node, "validator1", func(v wire.ValidatorView) bool { return v.Power == third })
	if newcomer.ReportKey != joining.ReportKey || !strings.EqualFold(newcomer.Address, joining.Address) {
		t.Fatalf("newcomer %+v, want address %s report key %s", newcomer, joining.Address, joining.ReportKey)
	}

	// 2. The newcomer proposes rotating its report key, named in its home:
	// its third of the power leaves the proposal open until the first
	// validator approves.
	cli(t, "keys", "add", "rotated", "--home", homeB)
	res, code, errOut = cliTx(t, homeB, node, "propose", "validators", "--from", "validator", "--rotate-report-key", "validator1=rotated", "--expires-in", "200")
	if code != 0 || res.Code != 0 {
		t.Fatalf("rotate proposal: exit %d result %+v stderr %q", code, res, errOut)
	}
	if _, passed := res.Attr(wire.EventProposalPassed, "proposal_id"); passed {
		t.Fatalf("a third of the power passed a proposal: %+v", res.Events)
	}
	rid := attr(t, res, wire.EventProposalSubmitted, "proposal_id")
	if p := wantProposal(t, node, rid, "open"); p.ApprovedPower != third || p.Proposer != "validator1" {
		t.Fatalf("open proposal %s: %+v", rid, p)
	}
	if got := mustTx(t, homeA, node, wire.EventProposalPassed, "proposal_id", "approve", "--from", "validator", "--proposal", rid); got != rid {
		t.Fatalf("approve passed proposal %s, want %s", got, rid)
	}
	if p := wantProposal(t, node, rid, "passed"); len(p.Approvals) != 2 || p.ApprovedPower != vals.TotalPower+third {
		t.Fatalf("approved proposal %s: %+v", rid, p)
	}
	rotated, err := keyfile.Load(homeB, "rotated")
	if err != nil {
		t.Fatal(err)
	}
	rotatedHex := keyfile.InfoOf("rotated", rotated).PubKey
	waitValidator(t, n, node, "validator1", func(v wire.ValidatorView) bool { return v.ReportKey == rotatedHex })

	// 3. A params upgrade: the first validator's power is above 2/3 of the
	// new total, so its proposal passes alone; the activation is the
	// earliest the genesis min_upgrade_delay_blocks (1000) allows.
	var st wire.StatusView
	queryJSON(t, node, &st, "status")
	expires := st.Height + 50
	activation := expires + 1000
	pid := mustTx(t, homeA, node, wire.EventProposalPassed, "proposal_id", "propose", "params", "--from", "validator",
		"--patch", `{"window": {"cap": "0.2"}}`, "--activation-height", strconv.FormatInt(activation, 10), "--expires-height", strconv.FormatInt(expires, 10))
	p = wantProposal(t, node, pid, "passed")
	var patch bytes.Buffer
	if err := json.Compact(&patch, p.Params); err != nil || p.Kind != "params" || patch.String() != `{"window":{"cap":"0.2"}}` ||
		p.ActivationHeight == nil || *p.ActivationHeight != activation || p.ExpiresHeight != expires {
		t.Fatalf("params proposal %s: %+v (params %s), %v", pid, p, p.Params, err)
	}
	var params wire.ParamsView
	queryJSON(t, node, &params, "params")
	if len(params.Scheduled) != 1 || strconv.FormatUint(params.Scheduled[0].ProposalID, 10) != pid || params.Scheduled[0].ActivationHeight != activation {
		t.Fatalf("params scheduled %+v", params.Scheduled)
	}
	var all wire.ProposalsView
	queryJSON(t, node, &all, "proposals")
	if all.Count != 3 || len(all.Proposals) != 3 {
		t.Fatalf("proposals: %+v", all)
	}
	for _, p := range all.Proposals {
		if p.Status != "passed" {
			t.Fatalf("proposals: %+v", all)
		}
	}
}

// wantProposal queries proposal id, which must have status.
func wantProposal(t *testing.T, node, id, status string) wire.ProposalView {
	t.Helper()
	var p wire.ProposalView
	queryJSON(t, node, &p, "proposal", id)
	if p.Status != status || strconv.FormatUint(p.ID, 10) != id {
		t.Fatalf("proposal %s: %+v, want status %q", id, p, status)
	}
	return p
}

// waitValidator waits, block by block, until the set in force holds the
// named validator as ok wants it.
func waitValidator(t *testing.T, n *runningNode, node, name string, ok func(wire.ValidatorView) bool) wire.ValidatorView {
	t.Helper()
	var st wire.StatusView
	queryJSON(t, node, &st, "status")
	for h := st.Height + 1; h <= st.Height+20; h++ {
		n.waitHeight(t, node, h)
		var vals wire.ValidatorsView
		queryJSON(t, node, &vals, "validators")
		for _, v := range vals.Validators {
			if v.Name == name && ok(v) {
				return v
			}
		}
	}
	t.Fatalf("validator %s not in force as wanted after 20 blocks", name)
	return wire.ValidatorView{}
}
