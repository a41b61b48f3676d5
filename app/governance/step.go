package governance

import (
	"fmt"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/budget"
	"github.com/scoringsubnet/validatord/x/valset"
)

// maxStepChanges bounds the queued changes one block examines: the queue
// can hold many approved proposals, and each change costs a pass over the
// set; the rest wait for the next blocks.
const maxStepChanges = valset.DefaultMaxChanges

// maxEvidence bounds the evidence one block records (CometBFT bounds it by
// the block's bytes; this bounds the work whatever the consensus params).
const maxEvidence = 64

// End is the end of block's governance step: proposals that
// expired, the block's evidence, one step of the queue of approved
// validator changes (its updates go to CometBFT), and the pruning of sets
// and params no coming height needs.
func End(env kernel.Env, m *budget.Meter) (evs []abcitypes.Event, carried bool) {
	st, h := env.St, env.Block.Height
	env.Block.Updates = nil
	// Expired proposals, as many as the meter allows.
	due := store.Due{St: st, Kind: store.DueProposals}
	done, stopped := 0, false
	look := m.Looker(&done, &stopped)
	for {
		it, ok := due.Next(h, look)
		if !ok {
			break
		}
		if !m.EndOpen(done) {
			stopped = true
			break
		}
		done++
		m.ChargeEnd(budget.UnitsDueItem)
		p := &subnetv1.Proposal{}
		if st.Load(store.KeyProposal(it.IDs[0]), p) && p.Status == ProposalOpen {
			p.Status, p.DecidedHeight = ProposalExpired, h
			st.Save(store.KeyProposal(p.Id), p)
			st.DecU64(store.KeyOpenProposals(p.Proposer))
			evs = append(evs, wire.Event(wire.EventProposalExpired, "proposal_id", kernel.U64s(p.Id),
				"approved_power", kernel.I64s(p.ApprovedPower), "total_power", kernel.I64s(p.TotalPower)))
		}
		due.Done(it)
	}
	vs := LoadValset(st)
	changed := false
	latest := latestSet(vs)
	// Evidence: recorded always; with governance.slash_misbehaviour, the
	// offender's removal heads the queue.
	for i, ev := range env.Block.Misbehavior {
		if i == maxEvidence {
			break
		}
		m.ChargeEnd(budget.UnitsDueItem)
		rec, slash := recordMisbehaviour(env, latest, ev)
		evs = append(evs, wire.Event(wire.EventMisbehaviour, "validator", rec.validatorName(env), "kind", rec.Kind,
			"height", kernel.I64s(rec.Height), "slashed", fmt.Sprint(rec.Slashed), "note", rec.Note))
		if slash != nil {
			vs.Queue = append([]*subnetv1.ValidatorChange{slash}, vs.Queue...)
			changed = true
		}
	}
	// One step of the queue.
	if len(vs.Queue) > 0 {
		n := min(len(vs.Queue), maxStepChanges)
		head, err := ChangesOf(&subnetv1.MsgValidatorProposal{Changes: vs.Queue[:n]})
		if err != nil {
			panic("app: a queued validator change does not decode: " + err.Error())
		}
		m.ChargeEnd(budget.UnitsDueItem * int64(n))
		res := valset.Step(latest, head, minerKeys{st})
		for _, o := range res.Outcomes {
			kv := []string{"change", o.Change.String(), "status", o.Status.String()}
			if o.Err != nil {
				kv = append(kv, "reason", o.Err.Error())
			}
			evs = append(evs, wire.Event(wire.EventValidatorChange, kv...))
		}
		rest := make([]*subnetv1.ValidatorChange, 0, len(res.Remaining)+len(vs.Queue)-n)
		for _, c := range res.Remaining {
			rest = append(rest, changeProto(c))
		}
		vs.Queue = append(rest, vs.Queue[n:]...)
		changed = true
		if !res.Set.Equal(latest) {
			vs.History = append(vs.History, fromSet(vs, res.Set, h+valset.UpdateDelay))
			env.Block.Updates = updatesOf(res.Updates)
			for _, u := range res.Updates {
				evs = append(evs, wire.Event(wire.EventValidatorUpdate, "pub_key", kernel.Hexs(u.PubKey), "power", kernel.I64s(u.Power),
					"from_height", kernel.I64s(h+valset.UpdateDelay)))
			}
		}
	}
	// Prune: keep the entries the next height on needs.
	if keep := SetAt(vs.History, h+1); keep != nil && vs.History[0] != keep {
		for vs.History[0] != keep {
			vs.History = vs.History[1:]
		}
		changed = true
	}
	if changed {
		st.Save(store.KeyValset, vs)
	}
	ph := LoadParams(st)
	if keep := ParamsAt(ph.Entries, h+1); keep != nil && ph.Entries[0] != keep {
		for ph.Entries[0] != keep {
			ph.Entries = ph.Entries[1:]
		}
		st.Save(store.KeyParams, ph)
	}
	// An entry from h + 1 (> the initial height) is an upgrade's, the
	// chain's first proposal (id 0) included.
	if next := ParamsAt(ph.Entries, h+1); next != nil && next.From == h+1 {
		evs = append(evs, wire.Event(wire.EventParamsActivated, "proposal_id", kernel.U64s(next.ProposalId), "from_height", kernel.I64s(h+1)))
	}
	return evs, stopped
}

// recordMisbehaviour stores one piece of evidence and returns the removal
// to queue, if slashing is on and applies.
func recordMisbehaviour(env kernel.Env, latest valset.Set, ev abcitypes.Misbehavior) (*misbehaviour, *subnetv1.ValidatorChange) {
	st := env.St
	c := st.Counters()
	rec := &misbehaviour{Misbehaviour: subnetv1.Misbehaviour{Kind: ev.Type.String(), Height: ev.Height, RecordedHeight: env.Block.Height}}
	i := env.Chain.IndexOfAddress(ev.Validator.Address)
	var slash *subnetv1.ValidatorChange
	switch {
	case i < 0:
		rec.Note = fmt.Sprintf("address %X is no validator the chain ever had", ev.Validator.Address)
		rec.Validator = ^uint32(0)
	default:
		rec.Validator = uint32(i)
		change, ok, err := valset.Slash(latest, ev.Validator.Address, env.Chain.Gen.Governance.SlashMisbehaviour)
		switch {
		case err != nil:
			rec.Note = err.Error()
		case !ok:
			rec.Note = "recorded only (governance.slash_misbehaviour is off)"
		default:
			rec.Slashed, rec.Note = true, "removal queued at the head of the validator queue"
			slash = changeProto(change)
		}
	}
	st.Save(store.KeyMisbehaviour(c.Misbehaviours), &rec.Misbehaviour)
	c.Misbehaviours++
	st.Save(store.KeyCounters, c)
	return rec, slash
}

type misbehaviour struct{ subnetv1.Misbehaviour }

func (r *misbehaviour) validatorName(env kernel.Env) string {
	if int(r.Validator) < env.Chain.Validators() {
		return env.Chain.ValidatorName(int(r.Validator))
	}
	return "(unknown)"
}

// changeProto is a change as stored in the queue.
func changeProto(c valset.Change) *subnetv1.ValidatorChange {
	ref := &subnetv1.ValidatorRef{Name: c.Target.Name, PubKey: c.Target.PubKey}
	switch c.Kind {
	case valset.KindAdd:
		v := c.Validator
		return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_Add{Add: &subnetv1.NewValidator{Name: v.Name, PubKey: v.PubKey, Power: v.Power, ReportKey: v.ReportKey}}}
	case valset.KindSetPower:
		return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_SetPower{SetPower: &subnetv1.PowerChange{Validator: ref, Power: c.Power}}}
	case valset.KindRemove:
		return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_Remove{Remove: ref}}
	}
	return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_RotateReportKey{RotateReportKey: &subnetv1.ReportKeyChange{Validator: ref, ReportKey: c.ReportKey}}}
}
