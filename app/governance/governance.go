package governance

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/valset"
)

// Proposal statuses, and the kinds a proposal view names.
const (
	ProposalOpen       = "open"
	ProposalPassed     = "passed"
	ProposalExpired    = "expired"
	ProposalValidators = "validators"
	ProposalParams     = "params"
)

// valsetCode maps an x/valset refusal to its result code.
func valsetCode(err error) uint32 {
	switch {
	case errors.Is(err, valset.ErrDuplicateKey):
		return wire.CodeDuplicateKey
	case errors.Is(err, valset.ErrEmptySet):
		return wire.CodeEmptySet
	case errors.Is(err, valset.ErrTotalPower):
		return wire.CodePowerChange
	case errors.Is(err, valset.ErrActivation):
		return wire.CodeActivationHeight
	case errors.Is(err, valset.ErrExpiry), errors.Is(err, valset.ErrExpired):
		return wire.CodeProposalClosed
	case errors.Is(err, valset.ErrDuplicateApproval):
		return wire.CodeDuplicateApproval
	case errors.Is(err, valset.ErrNotValidator):
		return wire.CodeNotValidator
	}
	return wire.CodeBadProposal
}

func rejectValset(err error) *wire.TxError { return wire.Reject(valsetCode(err), err.Error()) }

// ChangesOf decodes a proposal's changes.
func ChangesOf(m *subnetv1.MsgValidatorProposal) ([]valset.Change, error) {
	out := make([]valset.Change, len(m.Changes))
	for i, c := range m.Changes {
		field := fmt.Sprintf("changes[%d]", i)
		switch x := c.GetChange().(type) {
		case *subnetv1.ValidatorChange_Add:
			if x.Add == nil {
				return nil, badField(field+".add", "is empty")
			}
			out[i] = valset.AddValidator(valset.Validator{Name: x.Add.Name, PubKey: x.Add.PubKey, Power: x.Add.Power, ReportKey: x.Add.ReportKey})
		case *subnetv1.ValidatorChange_SetPower:
			if x.SetPower == nil {
				return nil, badField(field+".set_power", "is empty")
			}
			out[i] = valset.SetPower(refOf(x.SetPower.Validator), x.SetPower.Power)
		case *subnetv1.ValidatorChange_Remove:
			out[i] = valset.Remove(refOf(x.Remove))
		case *subnetv1.ValidatorChange_RotateReportKey:
			if x.RotateReportKey == nil {
				return nil, badField(field+".rotate_report_key", "is empty")
			}
			out[i] = valset.RotateReportKey(refOf(x.RotateReportKey.Validator), x.RotateReportKey.ReportKey)
		default:
			return nil, badField(field, "has no change (add, set_power, remove or rotate_report_key)")
		}
	}
	return out, nil
}

func refOf(r *subnetv1.ValidatorRef) valset.Ref {
	if r == nil {
		return valset.Ref{}
	}
	if len(r.PubKey) > 0 {
		return valset.ByKey(r.PubKey)
	}
	return valset.ByName(r.Name)
}

func badField(field, reason string) error {
	return &valset.InputError{Field: field, Value: "(see reason)", Reason: reason, Err: valset.ErrInvalidInput}
}

// govCtx is what a proposal's checks read from state.
type govCtx struct {
	vs     *subnetv1.Valset
	ph     *subnetv1.ParamsHistory
	latest valset.Set
	queue  []valset.Change
	miners minerKeys
	params valset.Params
}

func loadGov(env kernel.Env) (*govCtx, error) {
	vs := LoadValset(env.St)
	g := &govCtx{vs: vs, ph: LoadParams(env.St), latest: latestSet(vs), miners: minerKeys{env.St},
		params: env.Chain.Gen.Governance.Valset()}
	for i, c := range vs.Queue {
		ch, err := ChangesOf(&subnetv1.MsgValidatorProposal{Changes: []*subnetv1.ValidatorChange{c}})
		if err != nil {
			return nil, fmt.Errorf("app: queued change %d: %w", i, err)
		}
		g.queue = append(g.queue, ch...)
	}
	return g, nil
}

// checkValidatorChanges: x/valset's validity against the latest set with
// the queue applied, no report key that any validator ever had, and at most
// a third of the power in force moved by the proposal as a whole.
func checkValidatorChanges(env kernel.Env, g *govCtx, p valset.Proposal) *wire.TxError {
	projected := valset.Project(g.latest, g.queue, g.miners)
	if err := valset.Validate(p, projected, env.Block.Height, g.params, g.miners); err != nil {
		return rejectValset(err)
	}
	for i, c := range p.Changes {
		key := c.ReportKey
		if c.Kind == valset.KindAdd {
			key = c.Validator.ReportKey
		}
		if key == nil {
			continue
		}
		if j := env.Chain.FormerValidatorIndex(key); j >= 0 {
			return wire.Rejectf(wire.CodeDuplicateKey, "changes[%d]: report key %x was validator %q's: a report key is never given twice", i, key, env.Chain.ValidatorName(j))
		}
	}
	after, _, _ := valset.Apply(projected, p.Changes, g.miners)
	moved := movedPower(projected, after)
	if limit := env.Chain.Total / 3; moved > limit {
		return wire.Rejectf(wire.CodePowerChange, "the changes move %d of power, more than a third of the %d in force (%d): split them into proposals of at most %d",
			moved, env.Chain.Total, limit, limit)
	}
	return nil
}

// movedPower is Σ|Δ| over the validators of before and after.
func movedPower(before, after valset.Set) int64 {
	var moved int64
	for _, u := range valset.Diff(before, after) {
		old := before.Power(u.PubKey)
		if u.Power > old {
			moved += u.Power - old
		} else {
			moved += old - u.Power
		}
	}
	return moved
}

// resolveParams applies a params proposal's patch to the last scheduled
// params (so upgrades compose in activation order) and checks the
// activation height comes after it.
func resolveParams(env kernel.Env, g *govCtx, m *subnetv1.MsgParamsProposal) ([]byte, *wire.TxError) {
	last := g.ph.Entries[len(g.ph.Entries)-1]
	if m.ActivationHeight <= last.From || m.ActivationHeight <= env.Block.Height {
		return nil, wire.Rejectf(wire.CodeActivationHeight, "activation_height = %d: must be after height %d, from which params are already scheduled",
			m.ActivationHeight, max(last.From, env.Block.Height))
	}
	base, err := genesis.DecodeParams(last.AppState)
	if err != nil {
		return nil, wire.Rejectf(wire.CodeInternal, "stored params: %v", err)
	}
	next, err := genesis.Upgrade(base, m.Params, env.Chain.Gen.Validators)
	if err != nil {
		return nil, wire.Rejectf(wire.CodeBadProposal, "params: %v", err)
	}
	bz, err := next.Encode()
	if err != nil {
		return nil, wire.Rejectf(wire.CodeInternal, "params: %v", err)
	}
	return bz, nil
}

// checkProposal checks MsgValidatorProposal and MsgParamsProposal: a
// validator in force (10), its open proposals (62), then the proposal.
func checkProposal(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	if terr := env.RequireValidator(tx, "proposal"); terr != nil {
		return terr
	}
	if n := env.St.U64(store.KeyOpenProposals(uint32(tx.Validator))); n >= uint64(env.Chain.Gen.Governance.MaxOpenProposals) {
		return wire.Rejectf(wire.CodeTooManyProposals, "validator %q has %d open proposals (governance.max_open_proposals %d)",
			env.Chain.ValidatorName(tx.Validator), n, env.Chain.Gen.Governance.MaxOpenProposals)
	}
	g, err := loadGov(env)
	if err != nil {
		return wire.Reject(wire.CodeInternal, err.Error())
	}
	h := env.Block.Height
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_ValidatorProposal:
		if m.ValidatorProposal == nil {
			return wire.Reject(wire.CodeEmptyMsg, "validator_proposal is empty")
		}
		changes, err := ChangesOf(m.ValidatorProposal)
		if err != nil {
			return rejectValset(err)
		}
		return checkValidatorChanges(env, g, valset.Proposal{Changes: changes, ProposedHeight: h, ExpiresHeight: m.ValidatorProposal.ExpiresHeight})
	case *subnetv1.Msg_ParamsProposal:
		pp := m.ParamsProposal
		if pp == nil {
			return wire.Reject(wire.CodeEmptyMsg, "params_proposal is empty")
		}
		p := valset.Proposal{ProposedHeight: h, ExpiresHeight: pp.ExpiresHeight,
			Params: &valset.ParamsChange{Payload: pp.Params, ActivationHeight: pp.ActivationHeight}}
		if err := valset.Validate(p, g.latest, h, g.params, nil); err != nil {
			return rejectValset(err)
		}
		_, terr := resolveParams(env, g, pp)
		return terr
	}
	return wire.Reject(wire.CodeEmptyMsg, "not a proposal")
}

// checkApprove: a validator in force (10), a known proposal (59), open and
// not expired (60), not approved by it yet (61); and when this approval
// passes it, the proposal must still be valid against the state it meets
// now (other proposals may have passed since), or the approval is refused
// with the proposal's own code.
func checkApprove(env kernel.Env, tx *kernel.Tx) *wire.TxError {
	if terr := env.RequireValidator(tx, "approve"); terr != nil {
		return terr
	}
	m := tx.Body.Msg.GetApproveProposal()
	if m == nil {
		return wire.Reject(wire.CodeEmptyMsg, "approve_proposal is empty")
	}
	p := &subnetv1.Proposal{}
	if !env.St.Load(store.KeyProposal(m.ProposalId), p) {
		return wire.Rejectf(wire.CodeUnknownProposal, "proposal %d does not exist (next id %d)", m.ProposalId, env.St.Counters().NextProposalId)
	}
	h := env.Block.Height
	switch {
	case p.Status != ProposalOpen:
		return wire.Rejectf(wire.CodeProposalClosed, "proposal %d is %s (height %d)", p.Id, p.Status, p.DecidedHeight)
	case h > p.ExpiresHeight:
		return wire.Rejectf(wire.CodeProposalClosed, "proposal %d expired at height %d", p.Id, p.ExpiresHeight)
	case slices.Contains(p.Approvals, uint32(tx.Validator)):
		return wire.Rejectf(wire.CodeDuplicateApproval, "validator %q already approved proposal %d", env.Chain.ValidatorName(tx.Validator), p.Id)
	}
	if !passes(env.Chain, append(slices.Clone(p.Approvals), uint32(tx.Validator))) {
		return nil
	}
	_, terr := recheck(env, p)
	return terr
}

// recheck validates a proposal about to pass against the state now and
// returns the resolved params of a params proposal.
func recheck(env kernel.Env, p *subnetv1.Proposal) ([]byte, *wire.TxError) {
	g, err := loadGov(env)
	if err != nil {
		return nil, wire.Reject(wire.CodeInternal, err.Error())
	}
	if p.Params != nil {
		return resolveParams(env, g, p.Params)
	}
	changes, err := ChangesOf(p.Validators)
	if err != nil {
		return nil, rejectValset(err)
	}
	return nil, checkValidatorChanges(env, g, valset.Proposal{Changes: changes, ProposedHeight: p.ProposedHeight, ExpiresHeight: p.ExpiresHeight})
}

// approvedPower sums the power in force of the approvers.
func approvedPower(c *kernel.Chain, approvals []uint32) int64 {
	var sum int64
	for _, i := range approvals {
		sum += c.Power(int(i))
	}
	return sum
}

// passes: the approvers hold strictly more than 2/3 of the power in force
// (x/quorum's exact rule, as every quorum of the chain).
func passes(c *kernel.Chain, approvals []uint32) bool {
	return c.Quorum.Status(approvedPower(c, approvals), c.Total, false) == quorum.StatusFinal
}

// execProposal stores a proposal with its proposer's approval, and passes
// it at once when that is enough.
func execProposal(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	st, h := env.St, env.Block.Height
	c := st.Counters()
	p := &subnetv1.Proposal{Id: c.NextProposalId, Proposer: uint32(tx.Validator), ProposedHeight: h,
		Approvals: []uint32{uint32(tx.Validator)}, Status: ProposalOpen}
	kind := ProposalValidators
	switch m := tx.Body.Msg.Sum.(type) {
	case *subnetv1.Msg_ValidatorProposal:
		p.Validators, p.ExpiresHeight = m.ValidatorProposal, m.ValidatorProposal.ExpiresHeight
	case *subnetv1.Msg_ParamsProposal:
		p.Params, p.ExpiresHeight, kind = m.ParamsProposal, m.ParamsProposal.ExpiresHeight, ProposalParams
	}
	c.NextProposalId++
	st.Save(store.KeyCounters, c)
	st.SetU64(store.KeyOpenProposals(p.Proposer), st.U64(store.KeyOpenProposals(p.Proposer))+1)
	store.Due{St: st, Kind: store.DueProposals}.Add(p.ExpiresHeight+1, p.Id)
	evs := []abcitypes.Event{wire.Event(wire.EventProposalSubmitted, "proposal_id", kernel.U64s(p.Id), "kind", kind,
		"proposer", env.Chain.ValidatorName(tx.Validator), "expires_height", kernel.I64s(p.ExpiresHeight))}
	return append(evs, decide(env, p)...)
}

// execApprove records an approval and passes the proposal when it is enough.
func execApprove(env kernel.Env, tx *kernel.Tx) []abcitypes.Event {
	p := &subnetv1.Proposal{}
	env.St.Load(store.KeyProposal(tx.Body.Msg.GetApproveProposal().ProposalId), p)
	v := uint32(tx.Validator)
	at, _ := slices.BinarySearch(p.Approvals, v)
	p.Approvals = slices.Insert(p.Approvals, at, v)
	evs := []abcitypes.Event{wire.Event(wire.EventProposalApproved, "proposal_id", kernel.U64s(p.Id), "validator", env.Chain.ValidatorName(tx.Validator))}
	return append(evs, decide(env, p)...)
}

// decide saves p, and when its approvals pass 2/3 of the power in force,
// queues its changes or schedules its params.
func decide(env kernel.Env, p *subnetv1.Proposal) []abcitypes.Event {
	st, h := env.St, env.Block.Height
	p.ApprovedPower, p.TotalPower = approvedPower(env.Chain, p.Approvals), env.Chain.Total
	if !passes(env.Chain, p.Approvals) {
		st.Save(store.KeyProposal(p.Id), p)
		return nil
	}
	resolved, terr := recheck(env, p) // the checks above ran it; this gives the params
	if terr != nil {
		panic("app: a passing proposal failed its recheck after validity: " + terr.Error())
	}
	p.Status, p.DecidedHeight = ProposalPassed, h
	st.Save(store.KeyProposal(p.Id), p)
	st.DecU64(store.KeyOpenProposals(p.Proposer))
	ev := wire.Event(wire.EventProposalPassed, "proposal_id", kernel.U64s(p.Id), "approved_power", kernel.I64s(p.ApprovedPower),
		"total_power", kernel.I64s(p.TotalPower))
	if p.Params != nil {
		ph := LoadParams(st)
		ph.Entries = append(ph.Entries, &subnetv1.ParamsEntry{From: p.Params.ActivationHeight, AppState: resolved, ProposalId: p.Id})
		st.Save(store.KeyParams, ph)
		ev.Attributes = append(ev.Attributes, abcitypes.EventAttribute{Key: "activation_height", Value: kernel.I64s(p.Params.ActivationHeight), Index: true})
		return []abcitypes.Event{ev}
	}
	vs := LoadValset(st)
	vs.Queue = append(vs.Queue, p.Validators.Changes...)
	st.Save(store.KeyValset, vs)
	ev.Attributes = append(ev.Attributes, abcitypes.EventAttribute{Key: "queued_changes", Value: strconv.Itoa(len(vs.Queue)), Index: true})
	return []abcitypes.Event{ev}
}
