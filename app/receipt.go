package app

import (
	"strconv"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// fields accumulates named values of a receipt in the order they are added.
type fields []*subnetv1.Field

func (f *fields) dec(name string, d decimal.Decimal) { f.str(name, fmtDec(d)) }
func (f *fields) int(name string, n int64)           { f.str(name, strconv.FormatInt(n, 10)) }
func (f *fields) bool(name string, b bool)           { f.str(name, strconv.FormatBool(b)) }
func (f *fields) str(name, v string) {
	*f = append(*f, &subnetv1.Field{Name: name, Value: v})
}

// votePowerFields records the voting power of each vote's validator as
// "power.<validator name>", in the votes' (arrival) order: with the votes of
// the submission answer they give every weighted median of the inputs.
func (a *App) votePowerFields(votes []*subnetv1.Vote) fields {
	var f fields
	for _, v := range votes {
		val := a.chain.gen.Validators[v.Validator]
		f.int("power."+val.Name, val.Power)
	}
	return f
}

// gasMemoryFields records an agent's memory array, oldest slot first, as
// memory.<i>.included, memory.<i>.overpayment and memory.<i>.fresh.
func gasMemoryFields(mem []scoring.GasSlot) fields {
	var f fields
	for i, s := range mem {
		at := "memory." + strconv.Itoa(i) + "."
		f.bool(at+"included", s.Included)
		f.dec(at+"overpayment", s.Overpayment)
		f.bool(at+"fresh", s.Fresh)
	}
	return f
}

// gasHistoryFields records the history points ScoreGas scored (after the
// horizon cut, the newest last) as history.<i>.time, history.<i>.inclusion_rate
// and history.<i>.avg_overpayment.
func gasHistoryFields(h []scoring.GasHistoryPoint) fields {
	var f fields
	for i, p := range h {
		at := "history." + strconv.Itoa(i) + "."
		f.int(at+"time", p.Time)
		f.dec(at+"inclusion_rate", p.InclusionRate)
		f.dec(at+"avg_overpayment", p.AvgOverpayment)
	}
	return f
}
