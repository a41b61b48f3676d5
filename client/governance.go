package client

import (
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The governance messages (docs/governance.md), validators' report keys only.

// ProposeValidators proposes changes to the validator set, open for
// approval until expiresHeight; the proposer's tx is its own approval.
func ProposeValidators(expiresHeight int64, changes ...*subnetv1.ValidatorChange) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_ValidatorProposal{ValidatorProposal: &subnetv1.MsgValidatorProposal{
		Changes: changes, ExpiresHeight: expiresHeight}}}
}

// ProposeParams proposes a JSON merge patch over the params in force, in
// force from activationHeight, open for approval until expiresHeight.
func ProposeParams(patch []byte, activationHeight, expiresHeight int64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_ParamsProposal{ParamsProposal: &subnetv1.MsgParamsProposal{
		Params: patch, ActivationHeight: activationHeight, ExpiresHeight: expiresHeight}}}
}

// Approve approves proposal id.
func Approve(id uint64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_ApproveProposal{ApproveProposal: &subnetv1.MsgApproveProposal{ProposalId: id}}}
}

// AddValidator is the change that adds a validator: its name, consensus
// key, power and report key.
func AddValidator(name string, pubKey []byte, power int64, reportKey []byte) *subnetv1.ValidatorChange {
	return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_Add{Add: &subnetv1.NewValidator{
		Name: name, PubKey: pubKey, Power: power, ReportKey: reportKey}}}
}

// SetPower is the change that sets the named validator's power.
func SetPower(name string, power int64) *subnetv1.ValidatorChange {
	return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_SetPower{SetPower: &subnetv1.PowerChange{
		Validator: &subnetv1.ValidatorRef{Name: name}, Power: power}}}
}

// RemoveValidator is the change that removes the named validator.
func RemoveValidator(name string) *subnetv1.ValidatorChange {
	return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_Remove{Remove: &subnetv1.ValidatorRef{Name: name}}}
}

// RotateReportKey is the change that gives the named validator a new report key.
func RotateReportKey(name string, reportKey []byte) *subnetv1.ValidatorChange {
	return &subnetv1.ValidatorChange{Change: &subnetv1.ValidatorChange_RotateReportKey{RotateReportKey: &subnetv1.ReportKeyChange{
		Validator: &subnetv1.ValidatorRef{Name: name}, ReportKey: reportKey}}}
}
