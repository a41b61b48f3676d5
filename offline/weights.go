package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// WeightsLine is the output for one object of scores.
type WeightsLine struct {
	Weights     map[string]string `json:"weights"`
	Unallocated string            `json:"unallocated"`
	Rounds      int               `json:"rounds"`
	UIDs        map[string]uint16 `json:"uids"`
	U16         []U16Entry        `json:"u16"`
}

// U16Entry is one uid's weight in the u16 vector.
type U16Entry struct {
	UID    uint16 `json:"uid"`
	Weight uint16 `json:"weight"`
}

// Weights turns each line of r, one JSON object of key → score, into capped
// weights (CapWeights with limit) and the u16 vector (ToU16, residual to burn).
// Integer keys in [0, 65535] are uids; names get the free uids in sorted order.
func Weights(r io.Reader, w io.Writer, limit decimal.Decimal, burn uint16) error {
	return Lines(r, w, func(line []byte) (any, error) { return ScoreWeightsLine(limit, burn, line) })
}

// ScoreWeightsLine scores one line of Weights.
func ScoreWeightsLine(limit decimal.Decimal, burn uint16, line []byte) (WeightsLine, error) {
	keys, raws, err := decodeScoreObject(line)
	if err != nil {
		return WeightsLine{}, err
	}
	uidOf, err := assignUIDs(keys, burn)
	if err != nil {
		return WeightsLine{}, err
	}
	// score in uid order, so that CapWeights' dust ties (lower index) are uid ties too
	byUID := slices.Clone(keys)
	slices.SortFunc(byUID, func(a, b string) int { return int(uidOf[a]) - int(uidOf[b]) })
	scores := make([]decimal.Decimal, len(byUID))
	uids := make([]uint16, len(byUID))
	for i, k := range byUID {
		if scores[i], err = decimalField(k, raws[k]); err != nil {
			return WeightsLine{}, err
		}
		if scores[i].Sign() < 0 {
			return WeightsLine{}, fmt.Errorf("%s: score %s is negative", k, scores[i].String())
		}
		uids[i] = uidOf[k]
	}
	res, err := scoring.CapWeights(scores, limit)
	if err != nil {
		return WeightsLine{}, err
	}
	vec, err := scoring.ToU16(uids, res.Weights, res.Unallocated, burn)
	if err != nil {
		return WeightsLine{}, err
	}
	out := WeightsLine{
		Weights: make(map[string]string, len(keys)), Unallocated: scoring.Format(res.Unallocated),
		Rounds: res.Rounds, UIDs: uidOf, U16: make([]U16Entry, len(vec)),
	}
	for i, k := range byUID {
		out.Weights[k] = scoring.Format(res.Weights[i])
	}
	for i, v := range vec {
		out.U16[i] = U16Entry{UID: v.UID, Weight: v.Weight}
	}
	return out, nil
}

// decodeScoreObject reads one JSON object of key → score, keeping the raw
// values and rejecting duplicate keys (a map decode would keep the last silently).
func decodeScoreObject(line []byte) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, fmt.Errorf("want one JSON object of scores")
	}
	var keys []string
	raws := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("bad JSON: %v", err)
		}
		key := tok.(string) // inside an object, a token before a value is always a key
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, fmt.Errorf("%s: bad JSON: %v", key, err)
		}
		if _, dup := raws[key]; dup {
			return nil, nil, fmt.Errorf("%s: duplicate key", key)
		}
		keys = append(keys, key)
		raws[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("bad JSON: %v", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, nil, fmt.Errorf("trailing data after the JSON object")
	}
	return keys, raws, nil
}

// assignUIDs maps integer keys to themselves and names, in sorted order, to the
// smallest uids that no integer key and not the burn uid hold.
func assignUIDs(keys []string, burn uint16) (map[string]uint16, error) {
	uidOf := make(map[string]uint16, len(keys))
	taken := map[uint16]string{}
	var names []string
	for _, k := range keys {
		u, ok := parseUID(k)
		if !ok {
			names = append(names, k)
			continue
		}
		if other, dup := taken[u]; dup {
			return nil, fmt.Errorf("%s: uid %d already used by key %q", k, u, other)
		}
		taken[u], uidOf[k] = k, u
	}
	slices.Sort(names)
	next := 0
	for _, k := range names {
		for next <= 65535 && (uidTaken(taken, uint16(next)) || uint16(next) == burn) {
			next++
		}
		if next > 65535 {
			return nil, fmt.Errorf("%s: no free uid left", k)
		}
		uidOf[k] = uint16(next)
		taken[uint16(next)] = k
	}
	return uidOf, nil
}

func uidTaken(taken map[uint16]string, u uint16) bool {
	_, ok := taken[u]
	return ok
}

// parseUID accepts a plain decimal integer in [0, 65535] without sign or
// leading zeros ("007" is a name, so that one uid has one spelling).
func parseUID(k string) (uint16, bool) {
	if k == "" || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(k, 10, 16)
	return uint16(v), err == nil
}
