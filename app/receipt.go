package app

import (
	"strconv"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// fields accumulates named values of a receipt in the order they are added.
type fields []*subnetv1.Field

func (f *fields) dec(name string, d decimal.Decimal) { f.str(name, fmtDec(d)) }
func (f *fields) int(name string, n int64)           { f.str(name, strconv.FormatInt(n, 10)) }
func (f *fields) bool(name string, b bool)           { f.str(name, strconv.FormatBool(b)) }
func (f *fields) str(name, v string) {
	*f = append(*f, &subnetv1.Field{Name: name, Value: v})
}
