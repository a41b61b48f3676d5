package scoring

import (
	"encoding/json"
	"errors"
	"math/big"
	"math/rand"
	"os"
	"testing"

	"github.com/shopspring/decimal"
)

func nums(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = num(s)
	}
	return out
}

func repeatNum(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// Hand-derived cases; the dust of the reference case is worked out in the comment.
func TestCapWeightsTable(t *testing.T) {
	tests := []struct {
		name        string
		scores      []string
		cap         string
		want        []string
		unallocated string
		rounds      int
	}{
		{"issue example: 10,5 capped, 0.7/8 each for the rest",
			append([]string{"10", "5"}, repeatNum("1", 8)...), "0.15",
			append([]string{"0.15", "0.15"}, repeatNum("0.0875", 8)...), "0", 1},
		// round 1 caps .40 and .20 (.20 > .15), round 2 caps .10 (.7×.10/.40 = .175);
		// the rest .55 over .30: thirds whose truncation leaves 3 ulps, which go to
		// the three remainders of 2/3 (.08, .05, .02).
		{"reference validator scores: nobody above 0.15",
			[]string{".40", ".20", ".10", ".08", ".07", ".05", ".04", ".03", ".02", ".01"}, "0.15",
			[]string{"0.15", "0.15", "0.15", "0.146666666666666667", "0.128333333333333333", "0.091666666666666667",
				"0.073333333333333333", "0.055", "0.036666666666666667", "0.018333333333333333"}, "0", 2},
		{"n × cap < 1: the residual is unallocated", []string{"3", "2", "1"}, "0.15",
			[]string{"0.15", "0.15", "0.15"}, "0.55", 1},
		{"only two positive scores among ten", append([]string{"5", "3"}, repeatNum("0", 8)...), "0.15",
			append([]string{"0.15", "0.15"}, repeatNum("0", 8)...), "0.7", 1},
		{"all zero: nothing earned, all unallocated", []string{"0", "0", "0"}, "0.15",
			[]string{"0", "0", "0"}, "1", 0},
		{"no miners", nil, "0.15", nil, "1", 0},
		{"exactly at the cap is not clipped", append([]string{"3"}, repeatNum("1", 17)...), "0.15",
			append([]string{"0.15"}, repeatNum("0.05", 17)...), "0", 0},
		{"sevenths: one ulp of dust to the lowest index", repeatNum("1", 7), "0.15",
			append([]string{"0.142857142857142858"}, repeatNum("0.142857142857142857", 6)...), "0", 0},
		{"cap 1 is plain normalisation", []string{"1", "3"}, "1", []string{"0.25", "0.75"}, "0", 0},
		{"single miner under cap 1", []string{"0.3"}, "1", []string{"1"}, "0", 0},
		// round 1 (15 in all): 5 and 3 exceed .15 × 15; round 2: .7 × 2 > .15 × 7; then .55 over five 1s
		{"zero scores between capped and uncapped", []string{"5", "0", "3", "0", "2", "1", "1", "1", "1", "1"}, "0.15",
			[]string{"0.15", "0", "0.15", "0", "0.15", "0.11", "0.11", "0.11", "0.11", "0.11"}, "0", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := CapWeights(nums(tc.scores...), num(tc.cap))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Weights) != len(tc.want) {
				t.Fatalf("got %d weights, want %d", len(res.Weights), len(tc.want))
			}
			for i, w := range tc.want {
				if !res.Weights[i].Equal(num(w)) {
					t.Errorf("weight[%d] = %s, want %s", i, Format(res.Weights[i]), w)
				}
			}
			if !res.Unallocated.Equal(num(tc.unallocated)) || res.Rounds != tc.rounds {
				t.Errorf("unallocated %s rounds %d, want %s %d", Format(res.Unallocated), res.Rounds, tc.unallocated, tc.rounds)
			}
			if err := checkCapInvariants(res, num(tc.cap)); err != nil {
				t.Error(err)
			}
		})
	}
}

// checkCapInvariants: every weight in [0, cap], Σ + unallocated == 1, 18 places.
func checkCapInvariants(res CapResult, cap decimal.Decimal) error {
	sum := res.Unallocated
	for _, w := range res.Weights {
		if w.Sign() < 0 || w.Cmp(cap) > 0 || !w.Equal(Round(w)) {
			return errors.New("weight " + w.String() + " outside [0, cap] or beyond 18 places")
		}
		sum = sum.Add(w)
	}
	if !sum.Equal(One) || res.Unallocated.Sign() < 0 {
		return errors.New("weights + unallocated = " + sum.String())
	}
	return nil
}

func TestCapWeightsInputErrors(t *testing.T) {
	tests := []struct {
		field  string
		scores []string
		cap    string
	}{
		{"cap", []string{"1"}, "0"},
		{"cap", []string{"1"}, "-0.15"},
		{"cap", []string{"1"}, "1.000000000000000001"},
		{"cap", []string{"1"}, "0.1500000000000000001"},
		{"scores[2]", []string{"1", "2", "-0.1"}, "0.15"},
		{"scores[0]", []string{"0.0000000000000000001"}, "0.15"},
	}
	for _, tc := range tests {
		_, err := CapWeights(nums(tc.scores...), num(tc.cap))
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%v cap %s: err = %v, want an InputError on %s", tc.scores, tc.cap, err, tc.field)
		}
	}
}

// naiveCap is the literal water-fill in exact rationals, one pass over all
// miners per round, with no sorting: the reference for the property test.
func naiveCap(scores []decimal.Decimal, cap decimal.Decimal) ([]*big.Rat, *big.Rat, int) {
	c := cap.Rat()
	capped := make([]bool, len(scores))
	rounds := 0
	rest, su := new(big.Rat), new(big.Rat)
	for {
		rest.SetInt64(1)
		su.SetInt64(0)
		for i, s := range scores {
			if capped[i] {
				rest.Sub(rest, c)
			} else {
				su.Add(su, s.Rat())
			}
		}
		if su.Sign() == 0 {
			break
		}
		clipped := false
		thr := new(big.Rat).Mul(c, su)
		var newly []int
		for i, s := range scores {
			if !capped[i] && new(big.Rat).Mul(rest, s.Rat()).Cmp(thr) > 0 {
				newly = append(newly, i)
				clipped = true
			}
		}
		for _, i := range newly {
			capped[i] = true
		}
		if !clipped {
			break
		}
		rounds++
	}
	w := make([]*big.Rat, len(scores))
	for i, s := range scores {
		switch {
		case capped[i]:
			w[i] = new(big.Rat).Set(c)
		case su.Sign() == 0:
			w[i] = new(big.Rat)
		default:
			w[i] = new(big.Rat).Quo(new(big.Rat).Mul(rest, s.Rat()), su)
		}
	}
	un := new(big.Rat)
	if su.Sign() == 0 {
		un.Set(rest)
	}
	return w, un, rounds
}

func randomScores(rng *rand.Rand) []decimal.Decimal {
	n := rng.Intn(60)
	out := make([]decimal.Decimal, n)
	for i := range out {
		switch rng.Intn(6) {
		case 0:
			out[i] = Zero
		case 1:
			if i > 0 {
				out[i] = out[rng.Intn(i)] // ties
			} else {
				out[i] = One
			}
		case 2:
			out[i] = decimal.New(rng.Int63n(1000), -2)
		default:
			out[i] = decimal.New(rng.Int63n(1_000_000_000_000_000_000), -18)
		}
	}
	return out
}

// Properties against the naive reference: the same clipped set and rounds, each
// weight within one ulp of the exact share, every weight ≤ cap, Σ + unallocated
// == 1, and a higher score never gets a lower weight.
func TestCapWeightsMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	caps := nums("0.15", "0.1", "0.5", "1", "0.05", "0.333333333333333333", "0.01")
	ulpRat := ulp.Rat()
	for iter := 0; iter < 1500; iter++ {
		scores := randomScores(rng)
		cap := caps[rng.Intn(len(caps))]
		if rng.Intn(4) == 0 {
			cap = decimal.New(1+rng.Int63n(1_000_000_000_000_000_000), -18)
		}
		res, err := CapWeights(scores, cap)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkCapInvariants(res, cap); err != nil {
			t.Fatalf("scores %v cap %s: %v", scores, cap, err)
		}
		want, un, rounds := naiveCap(scores, cap)
		if res.Unallocated.Rat().Cmp(un) != 0 || res.Rounds != rounds {
			t.Fatalf("scores %v cap %s: unallocated %s rounds %d, naive %s %d", scores, cap, res.Unallocated, res.Rounds, un.FloatString(20), rounds)
		}
		for i, w := range res.Weights {
			diff := new(big.Rat).Sub(w.Rat(), want[i])
			if diff.Abs(diff).Cmp(ulpRat) >= 0 {
				t.Fatalf("scores %v cap %s: weight[%d] = %s, exact %s", scores, cap, i, w, want[i].FloatString(20))
			}
		}
		for i := range scores {
			for j := range scores {
				if scores[i].Cmp(scores[j]) > 0 && res.Weights[i].Cmp(res.Weights[j]) < 0 {
					t.Fatalf("order broken: score %s > %s but weight %s < %s", scores[i], scores[j], res.Weights[i], res.Weights[j])
				}
			}
		}
	}
}

func u16Of(ws []U16Weight) map[uint16]uint16 {
	m := map[uint16]uint16{}
	for _, w := range ws {
		m[w.UID] = w.Weight
	}
	return m
}

func TestToU16Table(t *testing.T) {
	tests := []struct {
		name    string
		uids    []uint16
		weights []string
		un      string
		burn    uint16
		want    []U16Weight
	}{
		// 32767.5, 16383.75, 16383.75: floors leave 2 units for the two .75 remainders
		{"largest remainder", []uint16{1, 2, 3}, []string{"0.5", "0.25", "0.25"}, "0", 0,
			[]U16Weight{{1, 32767}, {2, 16384}, {3, 16384}}},
		{"tie goes to the lower uid", []uint16{4, 2}, []string{"0.5", "0.5"}, "0", 9,
			[]U16Weight{{2, 32768}, {4, 32767}}},
		// .55 × 65535 = 36044.25, .15 × 65535 = 9830.25: one unit left, four equal remainders
		{"residual to the burn uid", []uint16{1, 2, 3}, []string{"0.15", "0.15", "0.15"}, "0.55", 0,
			[]U16Weight{{0, 36045}, {1, 9830}, {2, 9830}, {3, 9830}}},
		{"burn uid is a miner: amounts add", []uint16{0, 1, 2}, []string{"0.15", "0.15", "0.15"}, "0.55", 1,
			[]U16Weight{{0, 9830}, {1, 45875}, {2, 9830}}},
		{"nothing unallocated, burn not a miner: no burn entry", []uint16{7}, []string{"1"}, "0", 3,
			[]U16Weight{{7, 65535}}},
		{"everything unallocated", []uint16{1, 2}, []string{"0", "0"}, "1", 0,
			[]U16Weight{{0, 65535}, {1, 0}, {2, 0}}},
		{"no miners", nil, nil, "1", 5, []U16Weight{{5, 65535}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToU16(tc.uids, nums(tc.weights...), num(tc.un), tc.burn)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestToU16InputErrors(t *testing.T) {
	tests := []struct {
		field   string
		uids    []uint16
		weights []string
		un      string
	}{
		{"weights", []uint16{1, 2}, []string{"1"}, "0"},
		{"uids[1]", []uint16{1, 1}, []string{"0.5", "0.5"}, "0"},
		{"weights[0]", []uint16{1, 2}, []string{"-0.5", "1.5"}, "0"},
		{"weights", []uint16{1, 2}, []string{"0.5", "0.4"}, "0"},
		{"weights", []uint16{1, 2}, []string{"0.5", "0.5"}, "0.1"},
		{"unallocated", []uint16{1, 2}, []string{"0.6", "0.5"}, "-0.1"},
	}
	for _, tc := range tests {
		_, err := ToU16(tc.uids, nums(tc.weights...), num(tc.un), 0)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%v %v %s: err = %v, want an InputError on %s", tc.uids, tc.weights, tc.un, err, tc.field)
		}
	}
}

// Properties over random capped splits: the vector sums to 65535, is sorted by
// uid, every entry is within one unit of its exact quota, and a larger amount
// never gets fewer units.
func TestToU16Properties(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for iter := 0; iter < 800; iter++ {
		scores := randomScores(rng)
		res, err := CapWeights(scores, num("0.15"))
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(1000)
		uids := make([]uint16, len(scores))
		for i := range uids {
			uids[i] = uint16(perm[i])
		}
		burn := uint16(rng.Intn(1000))
		got, err := ToU16(uids, res.Weights, res.Unallocated, burn)
		if err != nil {
			t.Fatal(err)
		}
		amount := map[uint16]decimal.Decimal{}
		for i, u := range uids {
			amount[u] = res.Weights[i]
		}
		if res.Unallocated.Sign() > 0 || amount[burn].Sign() > 0 {
			amount[burn] = amount[burn].Add(res.Unallocated)
		}
		total := 0
		for i, w := range got {
			total += int(w.Weight)
			if i > 0 && got[i-1].UID >= w.UID {
				t.Fatalf("not sorted by uid: %v", got)
			}
			exact := amount[w.UID].Mul(decimal.NewFromInt(U16Total))
			if exact.Sub(decimal.NewFromInt(int64(w.Weight))).Abs().Cmp(One) >= 0 {
				t.Fatalf("uid %d: %d units for quota %s", w.UID, w.Weight, exact)
			}
			for _, v := range got {
				if amount[w.UID].Cmp(amount[v.UID]) > 0 && w.Weight < v.Weight {
					t.Fatalf("uid %d has more weight than uid %d but fewer units", w.UID, v.UID)
				}
			}
		}
		if total != U16Total {
			t.Fatalf("sum %d", total)
		}
	}
}

type goldenWeightsCase struct {
	Name        string     `json:"name"`
	Scores      []string   `json:"scores"`
	Cap         string     `json:"cap"`
	UIDs        []uint16   `json:"uids"`
	BurnUID     uint16     `json:"burn_uid"`
	Weights     []string   `json:"weights"`
	Unallocated string     `json:"unallocated"`
	Rounds      int        `json:"rounds"`
	U16         [][2]int64 `json:"u16"`
}

func TestGoldenWeights(t *testing.T) {
	bz, err := os.ReadFile("testdata/golden_weights.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []goldenWeightsCase `json:"cases"`
	}
	if err := json.Unmarshal(bz, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 100 {
		t.Fatalf("only %d golden weights cases", len(file.Cases))
	}
	for _, c := range file.Cases {
		res, err := CapWeights(nums(c.Scores...), num(c.Cap))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for i, w := range c.Weights {
			if Format(res.Weights[i]) != w {
				t.Errorf("%s: weight[%d] = %s, want %s", c.Name, i, Format(res.Weights[i]), w)
			}
		}
		if Format(res.Unallocated) != c.Unallocated || res.Rounds != c.Rounds {
			t.Errorf("%s: unallocated %s rounds %d, want %s %d", c.Name, Format(res.Unallocated), res.Rounds, c.Unallocated, c.Rounds)
		}
		got, err := ToU16(c.UIDs, res.Weights, res.Unallocated, c.BurnUID)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if len(got) != len(c.U16) {
			t.Fatalf("%s: u16 %v, want %v", c.Name, got, c.U16)
		}
		for i, w := range got {
			if int64(w.UID) != c.U16[i][0] || int64(w.Weight) != c.U16[i][1] {
				t.Errorf("%s: u16[%d] = %v, want %v", c.Name, i, w, c.U16[i])
			}
		}
	}
}
