package genesis

import "github.com/scoringsubnet/validatord/x/receipt"

// ReceiptChain is what receipt verification compares a receipt with from
// this app state: the formulas' params and each validator's name and power,
// in the order of Validators (the order votes index).
func (s AppState) ReceiptChain() *receipt.Chain {
	vs := make([]receipt.Validator, len(s.Validators))
	for i, v := range s.Validators {
		vs[i] = receipt.Validator{Name: v.Name, Power: v.Power}
	}
	return &receipt.Chain{Validators: vs, Workflow: s.Workflow, Arena: s.Arena, Gas: s.Gas}
}
