package app

import (
	"reflect"
	"testing"

	"github.com/scoringsubnet/validatord/app/gas"
	"github.com/scoringsubnet/validatord/app/governance"
	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/membership"
	"github.com/scoringsubnet/validatord/app/mirror"
	"github.com/scoringsubnet/validatord/app/tasks"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestRouteEveryMessage: every case of Msg.sum has a row in the route
// table. A Commit or Reveal without its content is refused (it names no
// unit yet); given one, it goes to the unit its content picks.
func TestRouteEveryMessage(t *testing.T) {
	want := map[string]kernel.Unit{
		"*subnetv1.Msg_RegisterMiner": membership.Unit, "*subnetv1.Msg_DeregisterMiner": membership.Unit,
		"*subnetv1.Msg_Serve":           membership.Unit,
		"*subnetv1.Msg_AttestMetagraph": mirror.Unit, "*subnetv1.Msg_BindHotkey": mirror.Unit,
		"*subnetv1.Msg_ValidatorProposal": governance.Unit, "*subnetv1.Msg_ParamsProposal": governance.Unit,
		"*subnetv1.Msg_ApproveProposal": governance.Unit,
		"*subnetv1.Msg_PostTask":        tasks.Unit, "*subnetv1.Msg_Report": tasks.Unit, "*subnetv1.Msg_ReportBatch": theBatchUnit,
		"*subnetv1.Msg_Truth":  gas.Unit,
		"*subnetv1.Msg_Commit": nil, "*subnetv1.Msg_Reveal": nil,
		"*subnetv1.Msg_TruthBatch": theBatchUnit, "*subnetv1.Msg_CommitBatch": theBatchUnit, "*subnetv1.Msg_RevealBatch": theBatchUnit,
	}
	// the miners' batches and serves are refused to a non-miner before their unit runs
	minerOnly := map[string]bool{"*subnetv1.Msg_CommitBatch": true, "*subnetv1.Msg_RevealBatch": true, "*subnetv1.Msg_Serve": true}
	for _, w := range (&subnetv1.Msg{}).XXX_OneofWrappers() {
		name := reflect.TypeOf(w).String()
		u, ok := want[name]
		if !ok {
			t.Errorf("%s: no row in the route table's test; add one", name)
			continue
		}
		msg := &subnetv1.Msg{}
		reflect.ValueOf(msg).Elem().FieldByName("Sum").Set(reflect.New(reflect.TypeOf(w).Elem()))
		r := routeOf(msg)
		if u == nil {
			if r.err == nil || r.miner == "" {
				t.Errorf("%s without content: route %+v, want a refusal after the miner check", name, r)
			}
			continue
		}
		if r.unit != u || r.err != nil || (r.miner != "") != minerOnly[name] {
			t.Errorf("%s: route %+v, want unit %T", name, r, u)
		}
	}
	picked := []struct {
		msg  *subnetv1.Msg
		unit kernel.Unit
	}{
		{&subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_TaskId{TaskId: 1}}}}, tasks.Unit},
		{&subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_Gas{}}}}, gas.Unit},
		{&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Workflow{}}}}}, tasks.Unit},
		{&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Arena{}}}}}, tasks.Unit},
		{&subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{}}}}}, gas.Unit},
	}
	for _, p := range picked {
		if r := routeOf(p.msg); r.unit != p.unit || r.err != nil {
			t.Errorf("%v: route %+v", p.msg, r)
		}
	}
	if r := routeOf(&subnetv1.Msg{}); r.unit != nil || r.err == nil || r.err.Msg != "msg has no content" {
		t.Errorf("a message without content: route %+v", r)
	}
}

// TestBatchEntriesChargeNoMore: the messages a batch carries go to units
// that charge nothing beyond a transaction's units (no kernel.Verifier, no
// kernel.Charger), which is why a batch's charge is UnitsTx per entry
// (batchUnit.MsgUnits). A unit that starts charging more for one of them
// must make the batch charge it per entry too.
func TestBatchEntriesChargeNoMore(t *testing.T) {
	entries := []*subnetv1.Msg{
		{Sum: &subnetv1.Msg_Report{Report: &subnetv1.MsgReport{}}},
		{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{}}},
		{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_TaskId{TaskId: 1}}}},
		{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Target: &subnetv1.MsgCommit_Gas{Gas: &subnetv1.GasTarget{}}}}},
		{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Workflow{}}}}},
		{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{}}}}},
	}
	for _, m := range entries {
		u := routeOf(m).unit
		if _, ok := u.(kernel.Verifier); ok {
			t.Errorf("%T goes to a kernel.Verifier: a batch of it must charge its signatures per entry", m.Sum)
		}
		if _, ok := u.(kernel.Charger); ok {
			t.Errorf("%T goes to a kernel.Charger: a batch of it must charge its units per entry", m.Sum)
		}
	}
}
