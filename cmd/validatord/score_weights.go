package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

const weightsUsage = `score weights [--cap 0.15] [--burn-uid 0] < scores.jsonl

Turns miners' scores into capped weights (x/scoring.CapWeights: exact water-fill,
nobody above --cap) and the u16 vector for the parent chain (x/scoring.ToU16:
exactly 65535 in total by largest remainder, ties to the lower uid). Input: one
JSON object per line mapping a miner to its score (number or string, ≥ 0, at most
18 places):

  {"0": "0.9", "1": "0.4", "7": 0.25}          keys are uids
  {"alice": "10", "bob": "5", "carol": "1"}     keys are names

Uids: a key that is a plain integer in [0, 65535] is that uid. Every other key is
a name; names get uids in sorted key order (byte order), each the smallest uid
not taken by an integer key, by an earlier name, or by --burn-uid. The burn uid
receives the unallocated residual (left when fewer than 1/cap miners have a
positive score, or everything when all scores are 0); it may also be a miner's
uid, whose weight and the residual then add up.

Output: one line per input line,
  {"weights": {"<key>": "..."}, "unallocated": "...", "rounds": N,
   "uids": {"<key>": uid}, "u16": [{"uid": U, "weight": W}, ...]}
decimals as 18-place strings, u16 sorted by uid. A bad line gets
{"line": N, "error": "..."} and the exit status is 1.`

func init() {
	registerScoreMode("weights", "capped weights and the u16 vector of one JSON object of scores per line", runScoreWeights)
}

// weightsLine is the output for one object of scores.
type weightsLine struct {
	Weights     map[string]string `json:"weights"`
	Unallocated string            `json:"unallocated"`
	Rounds      int               `json:"rounds"`
	UIDs        map[string]uint16 `json:"uids"`
	U16         []u16Entry        `json:"u16"`
}

type u16Entry struct {
	UID    uint16 `json:"uid"`
	Weight uint16 `json:"weight"`
}

func runScoreWeights(_ context.Context, env Env, args []string) error {
	fs := scoreFlags("weights")
	capText := fs.String("cap", "0.15", "largest weight of one miner, in (0, 1]")
	burn := fs.Uint("burn-uid", 0, "uid that receives the unallocated residual, in [0, 65535]")
	if done, err := parseScoreFlags(env, fs, weightsUsage, args); done || err != nil {
		return err
	}
	limit, err := scoring.Parse(*capText)
	if err != nil {
		return fmt.Errorf("--cap: %w", err)
	}
	if limit.Sign() <= 0 || limit.Cmp(scoring.One) > 0 {
		return fmt.Errorf("--cap = %s: must be in (0, 1]", *capText)
	}
	if *burn > 65535 {
		return fmt.Errorf("--burn-uid = %d: must be in [0, 65535]", *burn)
	}
	return scoreLines(env, func(line []byte) (any, error) { return scoreWeightsLine(limit, uint16(*burn), line) })
}

func scoreWeightsLine(limit decimal.Decimal, burn uint16, line []byte) (any, error) {
	keys, raws, err := decodeScoreObject(line)
	if err != nil {
		return nil, err
	}
	uidOf, err := assignUIDs(keys, burn)
	if err != nil {
		return nil, err
	}
	// score in uid order, so that CapWeights' dust ties (lower index) are uid ties too
	byUID := slices.Clone(keys)
	slices.SortFunc(byUID, func(a, b string) int { return int(uidOf[a]) - int(uidOf[b]) })
	scores := make([]decimal.Decimal, len(byUID))
	uids := make([]uint16, len(byUID))
	for i, k := range byUID {
		if scores[i], err = decimalField(k, raws[k]); err != nil {
			return nil, err
		}
		if scores[i].Sign() < 0 {
			return nil, fmt.Errorf("%s: score %s is negative", k, scores[i].String())
		}
		uids[i] = uidOf[k]
	}
	res, err := scoring.CapWeights(scores, limit)
	if err != nil {
		return nil, err
	}
	vec, err := scoring.ToU16(uids, res.Weights, res.Unallocated, burn)
	if err != nil {
		return nil, err
	}
	out := weightsLine{
		Weights: make(map[string]string, len(keys)), Unallocated: scoring.Format(res.Unallocated),
		Rounds: res.Rounds, UIDs: uidOf, U16: make([]u16Entry, len(vec)),
	}
	for i, k := range byUID {
		out.Weights[k] = scoring.Format(res.Weights[i])
	}
	for i, v := range vec {
		out.U16[i] = u16Entry{UID: v.UID, Weight: v.Weight}
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
