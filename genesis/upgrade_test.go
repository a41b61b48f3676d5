package genesis

import (
	"errors"
	"strings"
	"testing"
)

func upgradeBase(t *testing.T) AppState {
	t.Helper()
	g := DefaultGenesis()
	g.Validators = []Validator{testValidator(t)}
	return g
}

// testValidator is a valid validator entry.
func testValidator(t *testing.T) Validator {
	t.Helper()
	return Validator{Name: "v0", Address: "66687AADF862BD776C8FC18B8E9F8E2008971485", PubKey: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", Power: 10,
		ReportKey: strings.Repeat("11", 32)}
}

// TestUpgradeMergePatch: a patch changes what it names and nothing else;
// a decimal keeps every digit (no float in between); null removes an
// optional field; the result has no validators.
func TestUpgradeMergePatch(t *testing.T) {
	base := upgradeBase(t)
	next, err := Upgrade(base, []byte(`{"window":{"cap":"0.123456789012345678"},"chain":{"max_uids":300,"max_prediction_ahead":4}}`), base.Validators)
	if err != nil {
		t.Fatal(err)
	}
	if next.Window.Cap.String() != "0.123456789012345678" || next.Chain.MaxUIDs != 300 || next.Chain.MaxPredictionAhead != 4 {
		t.Fatalf("patched: cap %s, max_uids %d", next.Window.Cap, next.Chain.MaxUIDs)
	}
	if len(next.Validators) != 0 {
		t.Fatalf("validators in the result: %v", next.Validators)
	}
	next.Window.Cap, next.Chain.MaxUIDs, next.Chain.MaxPredictionAhead, next.Validators = base.Window.Cap, base.Chain.MaxUIDs, base.Chain.MaxPredictionAhead, base.Validators
	a, _ := next.Encode()
	b, _ := base.Encode()
	if string(a) != string(b) {
		t.Fatalf("a patch of three fields changed others:\n%s\n%s", a, b)
	}
}

// TestUpgradeRefusals: each refused patch names its field.
func TestUpgradeRefusals(t *testing.T) {
	base := upgradeBase(t)
	for _, tc := range []struct{ patch, field string }{
		{`{"window":{"window_size":50}}`, "params.window.window_size"},
		{`{"window":{"burn_uid":3}}`, "params.window.burn_uid"},
		{`{"gas":{"memory_size":3}}`, "params.gas.memory_size"},
		{`{"chain":{"max_uids":200},"membership":{"min_non_immune":64}}`, "params.chain.max_uids"},
		{`{"chain":{"gas_chains":[1]}}`, "params.chain.gas_chains"},
		{`{"tracks":[{"name":"workflow","share":"1","activity_cutoff_blocks":500,"reveal_blocks":10,"formula":"v1.0.0"}]}`, "params.tracks"},
		{`{"validators":[]}`, "params.validators"},
		{`{"window":{"cap":"2"}}`, "window"},
		{`{"nope":1}`, "params"},
		{`{"chain":{"retain_state_blocks":2000}}`, "chain.retain_state_blocks"},
		{`{"chain":{"retain_state_blocks":-5}}`, "chain.retain_state_blocks"},
		{`[]`, "params"},
		{`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}}`, "params"},
	} {
		_, err := Upgrade(base, []byte(tc.patch), base.Validators)
		var fe *FieldError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, tc.field) {
			t.Errorf("patch %s: %v, want a FieldError on %s", tc.patch, err, tc.field)
		}
	}
}

// TestUpgradeRetention: retention may be turned on, changed and turned off
// by a params proposal (the value in force at each height decides what is
// retired, docs/retention.md); a report window raised past it needs it
// raised in the same patch.
func TestUpgradeRetention(t *testing.T) {
	base := upgradeBase(t)
	on, err := Upgrade(base, []byte(`{"chain":{"retain_state_blocks":3500}}`), base.Validators)
	if err != nil || on.Chain.RetainStateBlocks != 3500 {
		t.Fatalf("turning retention on: %v, %d", err, on.Chain.RetainStateBlocks)
	}
	on.Validators = base.Validators
	if _, err := Upgrade(on, []byte(`{"chain":{"max_report_blocks":3000}}`), base.Validators); err == nil {
		t.Fatal("a report window past retention was accepted")
	}
	if _, err := Upgrade(on, []byte(`{"chain":{"max_report_blocks":3000,"retain_state_blocks":200000}}`), base.Validators); err != nil {
		t.Fatalf("a report window raised with retention: %v", err)
	}
	off, err := Upgrade(on, []byte(`{"chain":{"retain_state_blocks":0}}`), base.Validators)
	if err != nil || off.Chain.RetainStateBlocks != 0 {
		t.Fatalf("turning retention off: %v", err)
	}
}

// TestUpgradeRegistrationMode: a running chain keeps its registration mode,
// and in mirror mode its uid space and attestation cadence.
func TestUpgradeRegistrationMode(t *testing.T) {
	base := upgradeBase(t)
	if _, err := Upgrade(base, []byte(`{"chain":{"registration":"mirror"}}`), base.Validators); err == nil || !strings.Contains(err.Error(), "registration") {
		t.Fatalf("pow → mirror: %v", err)
	}
	m := base
	m.Chain.Registration = RegistrationMirror
	mp := DefaultMirrorParams(m.Chain.MaxUIDs)
	m.Mirror = &mp
	if err := m.Validate(); err != nil {
		t.Fatalf("mirror base: %v", err)
	}
	for _, patch := range []string{`{"chain":{"max_uids":300,"max_prediction_ahead":4}}`, `{"mirror":{"netuid":9}}`,
		`{"mirror":{"attestation_blocks":720}}`, `{"chain":{"registration":"pow"},"mirror":null}`} {
		if _, err := Upgrade(m, []byte(patch), m.Validators); err == nil {
			t.Errorf("mirror chain, patch %s: accepted", patch)
		}
	}
	if _, err := Upgrade(m, []byte(`{"mirror":{"max_blocks_behind":1000}}`), m.Validators); err != nil {
		t.Fatalf("mirror max_blocks_behind: %v", err)
	}
}
