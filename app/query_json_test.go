package app

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestFullJSONKeepsZeros: zero values of the wire types are rendered, not
// omitted (the u16 entry of burn uid 0, empty lists, zero counts), in field
// order; nil pointers are null; proto bookkeeping fields never appear.
func TestFullJSONKeepsZeros(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"burn uid 0 in an epoch", &subnetv1.Epoch{Number: 1, U16: []*subnetv1.U16Weight{{Uid: 0, Weight: 65535}}},
			`{"number":1,"height":0,"uids":[],"weights":[],"unallocated":"","u16":[{"uid":0,"weight":65535}],"tracks":[]}`},
		{"zero counts of a measurement", &subnetv1.WorkflowMeasurement{OutputQuality: "1"},
			`{"output_quality":"1","steps_completed":0,"cost":"","latency_seconds":"","retries":0,"timeouts":0,"hard_failures":0}`},
		{"receipt without score or note", &subnetv1.Receipt{Height: 3, Inputs: []*subnetv1.Field{{Name: "x"}}},
			`{"height":3,"track":"","status":"","reported_power":0,"total_power":0,"inputs":[{"name":"x","value":""}],"params":[],"values":[],"score":"","note":""}`},
		{"nil pointer", (*subnetv1.Receipt)(nil), `null`},
		{"vote without measurement", voteView{Validator: "v1"}, `{"validator":"v1","height":0,"workflow":null,"arena":null,"truth":null}`},
		{"map keys sorted, raw JSON kept", map[string]any{"b": json.RawMessage(`{"k":1}`), "a": []int(nil)}, `{"a":[],"b":{"k":1}}`},
		{"unexported fields skipped", leaderEntry{Rank: 1, UID: 0, Score: "0"}, `{"rank":1,"uid":0,"score":"0"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(fullJSON(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestFullJSONEveryProtoField: for each wire type a query can answer with,
// the zero value renders every protobuf field under its json name.
func TestFullJSONEveryProtoField(t *testing.T) {
	for _, m := range []any{&subnetv1.Epoch{}, &subnetv1.U16Weight{}, &subnetv1.TrackScore{}, &subnetv1.Receipt{},
		&subnetv1.Field{}, &subnetv1.GasAgent{}, &subnetv1.GasSlot{}, &subnetv1.GasHistoryPoint{}, &subnetv1.GasPredict{},
		&subnetv1.WorkflowTask{}, &subnetv1.ArenaTask{}, &subnetv1.ArenaBaseline{}, &subnetv1.ArenaSample{},
		&subnetv1.WorkflowMeasurement{}, &subnetv1.ArenaMeasurement{}, &subnetv1.MsgTruth{}} {
		bz, err := json.Marshal(fullJSON(m))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(bz, &got); err != nil {
			t.Fatal(err)
		}
		typ := reflect.TypeOf(m).Elem()
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Tag.Get("protobuf") == "" {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if _, ok := got[name]; !ok {
				t.Errorf("%s: field %q missing from %s", typ.Name(), name, bz)
			}
		}
	}
}

// TestQueryOptionalKeysPresent: keys that do not apply are null, not absent:
// an account that is neither miner nor validator, a gas submission's task
// fields, a miner without aggregates, a window without arena scores.
func TestQueryOptionalKeysPresent(t *testing.T) {
	n := newNode(t, "", testGenesis(3))
	m := newSigner("miner-a")
	r := []*signer{reporter(0), reporter(1), reporter(2)}
	mustOK(t, n.block(append([][]byte{m.tx(t, msgRegister())}, anchorTxs(t, r, 1, 99, 1_700_000_001)...)...))
	mustOK(t, n.block(m.tx(t, msgGas(1, 100, "12"))))
	want := map[string][]string{
		"account/" + hexs(newSigner("nobody").pub()): {"uid", "validator"},
		"submission/0": {"task_id", "report_deadline", "artifact_hash", "declared_retry_budget", "receipt"},
		"miner/1":      {"workflow", "arena", "gas"},
		"window/1":     {"workflow", "arena"},
	}
	for path, keys := range want {
		got, code := n.query(path)
		if code != QueryOK {
			t.Fatalf("%s: code %d %v", path, code, got)
		}
		for _, k := range keys {
			if v, ok := got[k]; !ok || v != nil {
				t.Errorf("%s: %q = %v (present %v), want null", path, k, v, ok)
			}
		}
	}
	st, _ := n.query("status")
	if st["chain_id"] != testChainID {
		t.Fatalf("status = %v", st)
	}
}

// FuzzFullJSON: any decodable epoch renders as valid JSON whose u16 entries
// all carry "uid" and "weight", zeros included.
func FuzzFullJSON(f *testing.F) {
	seed, _ := (&subnetv1.Epoch{Number: 1, U16: []*subnetv1.U16Weight{{Uid: 0, Weight: 65535}}}).Marshal()
	f.Add(seed)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, bz []byte) {
		ep := &subnetv1.Epoch{}
		if ep.Unmarshal(bz) != nil {
			return
		}
		out, err := json.Marshal(fullJSON(ep))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			U16 []map[string]any `json:"u16"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("invalid JSON %s: %v", out, err)
		}
		for _, e := range got.U16 {
			if _, ok := e["uid"]; !ok {
				t.Fatalf("u16 entry without uid: %s", out)
			}
			if _, ok := e["weight"]; !ok {
				t.Fatalf("u16 entry without weight: %s", out)
			}
		}
	})
}
