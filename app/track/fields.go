package track

import (
	"strconv"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Fields accumulates named values of a receipt in the order they are added.
type Fields []*subnetv1.Field

func (f *Fields) Dec(name string, d decimal.Decimal) { f.Str(name, FmtDec(d)) }
func (f *Fields) Int(name string, n int64)           { f.Str(name, strconv.FormatInt(n, 10)) }
func (f *Fields) Bool(name string, b bool)           { f.Str(name, strconv.FormatBool(b)) }
func (f *Fields) Str(name, v string) {
	*f = append(*f, &subnetv1.Field{Name: name, Value: v})
}

// VotePowerFields records the voting power of each vote's validator as
// "power.<validator name>", in the votes' (arrival) order: with the votes of
// the submission answer they give every weighted median of the inputs.
func (c *Chain) VotePowerFields(votes []*subnetv1.Vote) Fields {
	var f Fields
	for _, v := range votes {
		val := c.Gen.Validators[v.Validator]
		f.Int("power."+val.Name, val.Power)
	}
	return f
}

// GasMemoryFields records an agent's memory array, oldest slot first, as
// memory.<i>.included, memory.<i>.overpayment and memory.<i>.fresh.
func GasMemoryFields(mem []scoring.GasSlot) Fields {
	var f Fields
	for i, s := range mem {
		at := "memory." + strconv.Itoa(i) + "."
		f.Bool(at+"included", s.Included)
		f.Dec(at+"overpayment", s.Overpayment)
		f.Bool(at+"fresh", s.Fresh)
	}
	return f
}

// GasHistoryFields records the history points ScoreGas scored (after the
// horizon cut, the newest last) as history.<i>.time, history.<i>.inclusion_rate
// and history.<i>.avg_overpayment.
func GasHistoryFields(h []scoring.GasHistoryPoint) Fields {
	var f Fields
	for i, p := range h {
		at := "history." + strconv.Itoa(i) + "."
		f.Int(at+"time", p.Time)
		f.Dec(at+"inclusion_rate", p.InclusionRate)
		f.Dec(at+"avg_overpayment", p.AvgOverpayment)
	}
	return f
}
