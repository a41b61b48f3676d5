package valset

import "testing"

func TestParamsValidate(t *testing.T) {
	if err := DefaultParams().Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(*Params)
		field string
	}{
		{"proposal blocks 0", func(p *Params) { p.MaxProposalBlocks = 0 }, "max_proposal_blocks"},
		{"proposal blocks above", func(p *Params) { p.MaxProposalBlocks = MaxBlocksLimit + 1 }, "max_proposal_blocks"},
		{"upgrade delay 0", func(p *Params) { p.MinUpgradeDelayBlocks = 0 }, "min_upgrade_delay_blocks"},
		{"upgrade delay above", func(p *Params) { p.MinUpgradeDelayBlocks = MaxBlocksLimit + 1 }, "min_upgrade_delay_blocks"},
		{"changes 0", func(p *Params) { p.MaxChanges = 0 }, "max_changes"},
		{"changes above", func(p *Params) { p.MaxChanges = MaxChangesLimit + 1 }, "max_changes"},
		{"validators 0", func(p *Params) { p.MaxValidators = 0 }, "max_validators"},
		{"validators above", func(p *Params) { p.MaxValidators = MaxValidatorsLimit + 1 }, "max_validators"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultParams()
			tt.edit(&p)
			err := p.Validate()
			wantErr(t, err, ErrInvalidParams)
			if f := err.(*InputError).Field; f != tt.field {
				t.Fatalf("field %q, want %q", f, tt.field)
			}
		})
	}
	top := Params{MaxBlocksLimit, MaxBlocksLimit, MaxChangesLimit, MaxValidatorsLimit}
	low := Params{1, 1, 1, 1}
	if top.Validate() != nil || low.Validate() != nil {
		t.Fatal("a bound of a param is refused")
	}
}

// testParams: proposals live 100 blocks, upgrades wait 10 after expiry,
// 4 changes, 5 validators.
func testParams() Params {
	return Params{MaxProposalBlocks: 100, MinUpgradeDelayBlocks: 10, MaxChanges: 4, MaxValidators: 5}
}

func setProposal(changes ...Change) Proposal {
	return Proposal{ID: 1, Changes: changes, ProposedHeight: 50, ExpiresHeight: 150}
}

func paramsProposal(payload []byte, activation int64) Proposal {
	return Proposal{ID: 2, Params: &ParamsChange{Payload: payload, ActivationHeight: activation}, ProposedHeight: 50, ExpiresHeight: 150}
}

func TestValidateRefusals(t *testing.T) {
	set := mkSet(t, "a:10", "b:20", "c:30")
	miner := key("miner")
	add := AddValidator(val("d", 5))
	tests := []struct {
		name   string
		p      Proposal
		set    Set
		height int64
		want   error
		field  string
	}{
		{"proposed height 0", Proposal{Changes: []Change{add}, ExpiresHeight: 10}, set, 1, ErrInvalidInput, "proposed_height"},
		{"proposed after the height", setProposal(add), set, 49, ErrInvalidInput, "proposed_height"},
		{"expiry at the proposal", Proposal{Changes: []Change{add}, ProposedHeight: 50, ExpiresHeight: 50}, set, 50, ErrExpiry, "expires_height"},
		{"expiry before the proposal", Proposal{Changes: []Change{add}, ProposedHeight: 50, ExpiresHeight: -1 << 63}, set, 50, ErrExpiry, "expires_height"},
		{"expiry one past the bound", Proposal{Changes: []Change{add}, ProposedHeight: 50, ExpiresHeight: 151}, set, 50, ErrExpiry, "expires_height"},
		{"expired", setProposal(add), set, 151, ErrExpired, "expires_height"},
		{"both changes and params", Proposal{Changes: []Change{add}, Params: &ParamsChange{Payload: []byte{1}, ActivationHeight: 1000}, ProposedHeight: 50, ExpiresHeight: 150}, set, 50, ErrInvalidInput, "params"},
		{"neither", setProposal(), set, 50, ErrInvalidInput, "changes"},
		{"empty payload", paramsProposal(nil, 1000), set, 50, ErrInvalidInput, "params.payload"},
		{"activation in the past", paramsProposal([]byte{1}, 10), set, 50, ErrActivation, "params.activation_height"},
		{"activation at the expiry", paramsProposal([]byte{1}, 150), set, 50, ErrActivation, "params.activation_height"},
		{"activation one short of the delay", paramsProposal([]byte{1}, 159), set, 50, ErrActivation, "params.activation_height"},
		{"activation at the lowest int64", paramsProposal([]byte{1}, -1<<63), set, 50, ErrActivation, "params.activation_height"},
		{"too many changes", setProposal(add, SetPower(ByName("a"), 11), SetPower(ByName("a"), 12), SetPower(ByName("a"), 13), SetPower(ByName("a"), 14)), set, 50, ErrTooManyChanges, "changes"},
		{"too many validators", setProposal(AddValidator(val("d", 1)), AddValidator(val("e", 1)), AddValidator(val("f", 1))), set, 50, ErrTooManyValidators, "changes"},
		{"miner's report key", setProposal(RotateReportKey(ByName("a"), miner)), set, 50, ErrMinerKey, "changes[0].report_key"},
		{"duplicate key within", setProposal(add, AddValidator(Validator{Name: "e", PubKey: key("c:d"), Power: 1, ReportKey: key("r:e")})), set, 50, ErrDuplicateKey, "changes[1].validator.pub_key"},
		{"empty set", setProposal(Remove(ByName("a"))), mkSet(t, "a:10"), 50, ErrEmptySet, "changes[0].target"},
		{"power change in a frozen set", setProposal(add), mkSet(t, "a:2"), 50, ErrTotalPower, "changes[0]"},
		{"unknown target", setProposal(SetPower(ByName("z"), 1)), set, 50, ErrUnknownValidator, "changes[0].target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.p, tt.set, tt.height, testParams(), minerSet{miner})
			wantErr(t, err, tt.want)
			if f := err.(*InputError).Field; f != tt.field {
				t.Fatalf("field = %q, want %q (%v)", f, tt.field, err)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	set := mkSet(t, "a:10", "b:20", "c:30")
	tests := []struct {
		name   string
		p      Proposal
		set    Set
		height int64
	}{
		{"at the proposal height", setProposal(AddValidator(val("d", 5))), set, 50},
		{"at the expiry height", setProposal(AddValidator(val("d", 5))), set, 150},
		{"expiry at the bound", Proposal{Changes: []Change{Remove(ByName("a"))}, ProposedHeight: 50, ExpiresHeight: 150}, set, 60},
		{"expiry one block ahead", Proposal{Changes: []Change{Remove(ByName("a"))}, ProposedHeight: 50, ExpiresHeight: 51}, set, 51},
		{"max changes, max validators", setProposal(AddValidator(val("d", 1)), AddValidator(val("e", 1)), SetPower(ByName("d"), 2), SetPower(ByName("e"), 2)), set, 50},
		{"activation exactly the delay after expiry", paramsProposal([]byte{1}, 160), set, 50},
		{"activation far ahead", paramsProposal([]byte{1}, 1<<62), set, 50},
		{"a rotation in a frozen set", setProposal(RotateReportKey(ByName("a"), key("new"))), mkSet(t, "a:2"), 50},
		{"a change larger than a third", setProposal(AddValidator(val("d", 1000))), set, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Validate(tt.p, tt.set, tt.height, testParams(), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}
