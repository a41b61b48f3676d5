package genesis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/x/valset"
)

// Governance is the genesis section of proposals (docs/governance.md): how
// long a proposal may stay open, how far ahead a params upgrade must be
// scheduled, how large a proposal and a set may be, how many proposals one
// validator may keep open, and whether evidence of misbehaviour removes the
// offender.
type Governance struct {
	MaxProposalBlocks     int64 `json:"max_proposal_blocks"`
	MinUpgradeDelayBlocks int64 `json:"min_upgrade_delay_blocks"`
	MaxChanges            int   `json:"max_changes"`
	MaxValidators         int   `json:"max_validators"`
	// MaxOpenProposals bounds the open proposals of one validator: what one
	// validator can make every node hold.
	MaxOpenProposals int `json:"max_open_proposals"`
	// SlashMisbehaviour: evidence of a duplicate vote (or a light-client
	// attack) in a block removes the offender from the set, through the
	// same 1/3-per-block queue as every change. Off, evidence is recorded
	// only.
	SlashMisbehaviour bool `json:"slash_misbehaviour"`
}

// MaxOpenProposalsLimit bounds governance.max_open_proposals.
const MaxOpenProposalsLimit = 64

// DefaultGovernance: x/valset's defaults, 4 open proposals per validator,
// slashing on.
func DefaultGovernance() Governance {
	p := valset.DefaultParams()
	return Governance{MaxProposalBlocks: p.MaxProposalBlocks, MinUpgradeDelayBlocks: p.MinUpgradeDelayBlocks,
		MaxChanges: p.MaxChanges, MaxValidators: p.MaxValidators, MaxOpenProposals: 4, SlashMisbehaviour: true}
}

// Valset is the x/valset view of the section.
func (g Governance) Valset() valset.Params {
	return valset.Params{MaxProposalBlocks: g.MaxProposalBlocks, MinUpgradeDelayBlocks: g.MinUpgradeDelayBlocks,
		MaxChanges: g.MaxChanges, MaxValidators: g.MaxValidators}
}

func (s AppState) validateGovernance() error {
	if err := s.Governance.Valset().Validate(); err != nil {
		if ie, ok := err.(*valset.InputError); ok {
			return fieldErr("governance."+ie.Field, fmt.Sprint(ie.Value), ie.Reason)
		}
		return &FieldError{Field: "governance", Value: "(see reason)", Reason: err.Error()}
	}
	if n := s.Governance.MaxOpenProposals; n < 1 || n > MaxOpenProposalsLimit {
		return fieldErr("governance.max_open_proposals", fmt.Sprint(n), fmt.Sprintf("must be in [1, %d]", MaxOpenProposalsLimit))
	}
	if len(s.Validators) > s.Governance.MaxValidators {
		return fieldErr("validators", fmt.Sprint(len(s.Validators)), fmt.Sprintf("more than governance.max_validators %d", s.Governance.MaxValidators))
	}
	return nil
}

// Params is the app state without its validators: what a params proposal
// changes. Its JSON is AppState's with "validators": [].
func (s AppState) Params() AppState {
	s.Validators = []Validator{}
	return s
}

// DecodeParams parses params stored by the chain (AppState.Params encoded):
// strictly, without validation (they were validated before they were
// stored, with the validators in force).
func DecodeParams(bz []byte) (AppState, error) {
	var st AppState
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return AppState{}, &FieldError{Field: "params", Value: "(json)", Reason: err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return AppState{}, fieldErr("params", "(json)", "trailing data after the object")
	}
	return st, nil
}
