package genesis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
)

// MaxPatchDepth bounds the nesting of a params patch (the app state is
// three levels deep).
const MaxPatchDepth = 8

// Upgrade applies a params proposal's JSON merge patch (RFC 7396) to the
// params in force and returns the new params, validated as a genesis with
// the given validators and checked against the transition rules
// (CheckTransition). The patch is an object; "validators" may not appear
// in it (validators change only by validator proposals). Numbers keep
// their text (json.Number), so no value passes through a float.
func Upgrade(current AppState, patch []byte, validators []Validator) (AppState, error) {
	p, err := decodeObject(patch, "params")
	if err != nil {
		return AppState{}, err
	}
	if err := CheckKeys(patch, reflect.TypeFor[AppState](), "params"); err != nil {
		return AppState{}, err
	}
	if _, ok := p["validators"]; ok {
		return AppState{}, fieldErr("params.validators", "(set)", "validators change by validator proposals, not params proposals")
	}
	if depth(p, 0) > MaxPatchDepth {
		return AppState{}, fieldErr("params", "(json)", fmt.Sprintf("nested deeper than %d", MaxPatchDepth))
	}
	curJSON, err := json.Marshal(current.Params())
	if err != nil {
		return AppState{}, fmt.Errorf("genesis: encode params: %w", err)
	}
	cur, err := decodeObject(curJSON, "params")
	if err != nil {
		return AppState{}, err
	}
	merged, err := json.Marshal(mergePatch(cur, p)) // encoding/json sorts map keys: the bytes are deterministic
	if err != nil {
		return AppState{}, fmt.Errorf("genesis: encode patched params: %w", err)
	}
	next, err := DecodeParams(merged)
	if err != nil {
		return AppState{}, err
	}
	next.Validators = slices.Clone(validators)
	if err := next.Validate(); err != nil {
		return AppState{}, err
	}
	if err := CheckTransition(current, next); err != nil {
		return AppState{}, err
	}
	next.Validators = []Validator{}
	return next, nil
}

// CheckTransition refuses the changes that state written under the old
// params could not follow (docs/governance.md §4): the sizes of the rings
// every miner's state already holds (window.WindowSize, window.BaselineK,
// window.GasHistoryMax, gas.MemorySize), the burn uid, fewer uids than
// before, an EVM chain or a track dropped (their open rounds, windows and
// agents would be stranded), the registration mode, and in mirror mode the
// uid space and the attestation cadence. Everything else may change.
func CheckTransition(old, next AppState) error {
	fixed := []struct {
		field     string
		old, next any
	}{
		{"window.window_size", old.Window.WindowSize, next.Window.WindowSize},
		{"window.baseline_k", old.Window.BaselineK, next.Window.BaselineK},
		{"window.gas_history_max", old.Window.GasHistoryMax, next.Window.GasHistoryMax},
		{"window.burn_uid", old.Window.BurnUID, next.Window.BurnUID},
		{"gas.memory_size", old.Gas.MemorySize, next.Gas.MemorySize},
	}
	for _, f := range fixed {
		if f.old != f.next {
			return fieldErr("params."+f.field, fmt.Sprint(f.next), fmt.Sprintf("cannot change on a running chain (in force: %v): miners' state is sized by it", f.old))
		}
	}
	if next.Chain.Registration != old.Chain.Registration {
		return fieldErr("params.chain.registration", fmt.Sprintf("%q", next.Chain.Registration),
			fmt.Sprintf("cannot change on a running chain (in force: %q): the uids of one mode mean nothing in the other", old.Chain.Registration))
	}
	if old.IsMirror() {
		// The uid space is the parent's, and the final metagraph was attested
		// at the old cadence: both stay.
		if next.Chain.MaxUIDs != old.Chain.MaxUIDs {
			return fieldErr("params.chain.max_uids", fmt.Sprint(next.Chain.MaxUIDs), fmt.Sprintf("cannot change in mirror mode (in force: %d): the uids are the parent's", old.Chain.MaxUIDs))
		}
		o, n := *old.Mirror, *next.Mirror
		if n.NetUID != o.NetUID || n.StartBlock != o.StartBlock || n.AttestationBlocks != o.AttestationBlocks || n.MaxEntries != o.MaxEntries {
			return fieldErr("params.mirror", fmt.Sprintf("%+v", n), fmt.Sprintf("netuid, start_block, attestation_blocks and max_entries cannot change on a running chain (in force: %+v); max_blocks_behind may", o))
		}
	}
	if next.Chain.MaxUIDs < old.Chain.MaxUIDs {
		return fieldErr("params.chain.max_uids", fmt.Sprint(next.Chain.MaxUIDs), fmt.Sprintf("may grow, not shrink (in force: %d)", old.Chain.MaxUIDs))
	}
	for _, c := range old.Chain.GasChains {
		if !slices.Contains(next.Chain.GasChains, c) {
			return fieldErr("params.chain.gas_chains", fmt.Sprint(next.Chain.GasChains), fmt.Sprintf("drops EVM chain %d: chains may be added, not removed", c))
		}
	}
	if err := checkGasWindows(old.Chain, next.Chain); err != nil {
		return err
	}
	if err := checkGasPaused(old.Chain, next.Chain); err != nil {
		return err
	}
	for _, t := range old.Tracks {
		if !next.HasTrack(t.Name) {
			return fieldErr("params.tracks", t.Name, "drops a track: tracks may be added, not removed")
		}
	}
	return nil
}

func decodeObject(bz []byte, field string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &FieldError{Field: field, Value: "(json)", Reason: err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fieldErr(field, "(json)", "trailing data after the object")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fieldErr(field, "(json)", "must be a JSON object (a merge patch over the params in force)")
	}
	return obj, nil
}

// mergePatch is RFC 7396: an object merges key by key, null deletes, any
// other value replaces. Keys are visited in sorted order (json.Marshal
// sorts them again on output).
func mergePatch(target any, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	out := make(map[string]any, len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		out[k] = t[k]
	}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		v := p[k]
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatch(out[k], v)
	}
	return out
}

func depth(v any, d int) int {
	m, ok := v.(map[string]any)
	if !ok {
		if a, ok := v.([]any); ok {
			best := d + 1
			for _, e := range a {
				best = max(best, depth(e, d+1))
			}
			return best
		}
		return d
	}
	best := d + 1
	for _, k := range slices.Sorted(maps.Keys(m)) {
		best = max(best, depth(m[k], d+1))
	}
	return best
}
