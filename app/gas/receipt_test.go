package gas

import (
	"math"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
	"github.com/scoringsubnet/validatord/x/window"
	"github.com/shopspring/decimal"
)

// Worst-case encoded bytes one memory slot and one history point add to a
// gas prediction's receipt (docs/queries.md, "Submissions and score
// receipts"): indices up to 999999 (gas.memory_size ≤ 10^6) and 4095 (the
// history cap's limit), 10^33 overpayments, int64 times.
const (
	receiptSlotBytes  = 150
	receiptPointBytes = 185
	// receiptWorstRatio is the largest overpayment a close can derive:
	// (10^15 − 10^-18) / 10^-18, the largest amount over the smallest price.
	receiptWorstRatio = "999999999999999999999999999999999.999999999999999999"
)

func receiptBytes(fs []*subnetv1.Field) int {
	bz, err := (&subnetv1.Receipt{Inputs: fs}).Marshal()
	if err != nil {
		panic(err)
	}
	return len(bz)
}

// TestGasReceiptRowBounds: the longest slot and point encode within the
// documented per-row bytes, and the rows are the named fields in order.
func TestGasReceiptRowBounds(t *testing.T) {
	big := decimal.RequireFromString(receiptWorstRatio)
	mem := make([]scoring.GasSlot, 1_000_000)
	worstSlot := scoring.GasSlot{Included: false, Overpayment: big, Fresh: false}
	mem[len(mem)-1] = worstSlot
	f := receipt.GasMemory(mem)
	if len(f) != 3*len(mem) || f[len(f)-3].Name != "memory.999999.included" || f[len(f)-2].Value != receiptWorstRatio || f[len(f)-1].Name != "memory.999999.fresh" {
		t.Fatalf("memory rows: %v", f[len(f)-3:])
	}
	slotBytes := receiptBytes(f[len(f)-3:])
	if slotBytes > receiptSlotBytes {
		t.Errorf("worst slot encodes in %d bytes, more than %d", slotBytes, receiptSlotBytes)
	}
	h := make([]scoring.GasHistoryPoint, 4096)
	h[4095] = scoring.GasHistoryPoint{Time: math.MinInt64, InclusionRate: decimal.RequireFromString("0.999999999999999999"), AvgOverpayment: big}
	f = receipt.GasHistory(h)
	last := f[len(f)-3:]
	if last[0].Name != "history.4095.time" || last[0].Value != "-9223372036854775808" || last[1].Name != "history.4095.inclusion_rate" ||
		last[2].Name != "history.4095.avg_overpayment" || last[2].Value != receiptWorstRatio {
		t.Fatalf("history rows: %v", last)
	}
	if n := receiptBytes(last); n > receiptPointBytes {
		t.Errorf("worst point encodes in %d bytes, more than %d", n, receiptPointBytes)
	}
	t.Logf("worst slot %d bytes, worst point %d bytes", slotBytes, receiptBytes(last))
}

// TestGasReceiptWorstDefault: a scored prediction's receipt under the
// default gas params (memory 10) with a full history of the default cap
// (window.DefaultGasHistoryMax points) and every value at its longest is the
// size docs/queries.md states.
func TestGasReceiptWorstDefault(t *testing.T) {
	const documented = 5481 // docs/queries.md, "Receipt size"
	amount := "999999999999999.999999999999999999"
	r := &subnetv1.TruthRound{EvmChainId: math.MaxUint64, EvmBlock: math.MaxUint64, MinPrice: amount,
		Timestamp: math.MaxInt64, ReportedPower: math.MaxInt64}
	pred := &subnetv1.Prediction{SubmissionId: math.MaxUint64, BlockTime: math.MaxInt64, Price: amount}
	gp := scoring.DefaultGasParams()
	rec := gasReceipt(gp, r, pred, math.MaxInt64)
	big := decimal.RequireFromString(receiptWorstRatio)
	almost := decimal.RequireFromString("0.999999999999999999")
	res := scoring.GasResult{Score: almost, InclusionMean: almost, InclusionStd: almost, InclusionCOV: big,
		OverpaymentMean: big, OverpaymentStd: big, OverpaymentCOV: big, Liveliness: almost, Points: window.DefaultGasHistoryMax}
	for i := range res.Utilities {
		res.Utilities[i] = almost
	}
	mem := make([]scoring.GasSlot, gp.MemorySize)
	for i := range mem {
		mem[i] = scoring.GasSlot{Overpayment: big}
	}
	h := make([]scoring.GasHistoryPoint, window.DefaultGasHistoryMax)
	for i := range h {
		h[i] = scoring.GasHistoryPoint{Time: math.MinInt64, InclusionRate: almost, AvgOverpayment: big}
	}
	rec.Inputs = append(append(rec.Inputs, receipt.GasMemory(mem)...), receipt.GasHistory(h)...)
	rec.Values = append(rec.Values, &subnetv1.Field{Name: "slot.included", Value: "false"},
		&subnetv1.Field{Name: "slot.overpayment", Value: receiptWorstRatio}, &subnetv1.Field{Name: "slot.fresh", Value: "false"})
	rec.Values = append(rec.Values, receipt.GasValues(res)...)
	rec.Score, rec.Status, rec.TotalPower = kernel.FmtDec(almost), kernel.StatusScored, math.MaxInt64
	bz, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(bz) != documented {
		t.Errorf("worst default gas receipt: %d bytes, docs/queries.md states %d", len(bz), documented)
	}
	t.Logf("worst default gas receipt: %d bytes", len(bz))
}
