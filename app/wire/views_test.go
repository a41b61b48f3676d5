package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// jsonKeys returns the keys of a JSON object in the order written.
func jsonKeys(t *testing.T, bz []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(bz))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: not an object", bz)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// protoNames are the json names of a proto message's fields, in field order.
func protoNames(m any) []string {
	typ := reflect.TypeOf(m).Elem()
	var names []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Tag.Get("protobuf") == "" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// TestViewsMirrorProto: the view of each proto type a query answers with has
// every proto field, in proto field order, under its json name, written out
// for the zero value, then only the keys the view derives (a receipt's
// commit section, which is its submission's own fields).
func TestViewsMirrorProto(t *testing.T) {
	for _, c := range []struct {
		proto   any
		view    any
		derived []string
	}{
		{&subnetv1.Receipt{}, ReceiptViewOf(&subnetv1.Receipt{}), []string{"commit"}},
		{&subnetv1.Field{}, FieldView{}, nil},
		{&subnetv1.GasPredict{}, GasPredictViewOf(&subnetv1.GasPredict{}), nil},
		{&subnetv1.WorkflowMeasurement{}, WorkflowMeasurementViewOf(&subnetv1.WorkflowMeasurement{}), nil},
		{&subnetv1.ArenaMeasurement{}, ArenaMeasurementViewOf(&subnetv1.ArenaMeasurement{}), nil},
		// empty is written only when set (TestTruthViewOmitsFalseEmpty)
		{&subnetv1.MsgTruth{}, TruthViewOf(&subnetv1.MsgTruth{Empty: true}), nil},
		{&subnetv1.WorkflowTask{}, WorkflowTaskViewOf(&subnetv1.WorkflowTask{}), nil},
		{&subnetv1.ArenaTask{}, ArenaTaskViewOf(&subnetv1.ArenaTask{}), nil},
		{&subnetv1.ArenaBaseline{}, ArenaBaselineViewOf(&subnetv1.ArenaBaseline{}), nil},
		{&subnetv1.ArenaSample{}, ArenaSampleViews([]*subnetv1.ArenaSample{{}})[0], nil},
		{&subnetv1.GasAgent{}, GasAgentViewOf(&subnetv1.GasAgent{}), nil},
		{&subnetv1.GasSlot{}, GasSlotView{}, nil},
		{&subnetv1.GasHistoryPoint{}, GasHistoryPointView{}, nil},
		{&subnetv1.Epoch{}, EpochResultViewOf(&subnetv1.Epoch{}), nil},
		{&subnetv1.U16Weight{}, U16WeightView{}, nil},
		{&subnetv1.TrackScore{}, TrackScoreView{}, nil},
	} {
		bz, err := json.Marshal(c.view)
		if err != nil {
			t.Fatal(err)
		}
		want, got := append(protoNames(c.proto), c.derived...), jsonKeys(t, bz)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%T: view keys %v, want the proto's %v (%s)", c.proto, got, want, bz)
		}
	}
}

// TestTruthViewOmitsFalseEmpty: a truth's empty, added to the proto after
// query answers were pinned, is written only when set, so the answers of
// every priced truth stay byte-identical.
func TestTruthViewOmitsFalseEmpty(t *testing.T) {
	bz, err := json.Marshal(TruthViewOf(&subnetv1.MsgTruth{EvmChainId: 1, EvmBlock: 2, MinPrice: "3", Timestamp: 4}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"evm_chain_id":1,"evm_block":2,"min_price":"3","timestamp":4}`; string(bz) != want {
		t.Fatalf("priced truth view %s, want %s", bz, want)
	}
}

// TestViewsKeepZeros: zero values are written, not omitted (the u16 entry of
// burn uid 0, empty lists, zero counts), and a nil pointer is null.
func TestViewsKeepZeros(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"burn uid 0 in an epoch", EpochResultViewOf(&subnetv1.Epoch{Number: 1, U16: []*subnetv1.U16Weight{{Uid: 0, Weight: 65535}}}),
			`{"number":1,"height":0,"uids":[],"weights":[],"unallocated":"","u16":[{"uid":0,"weight":65535}],"tracks":[]}`},
		{"zero counts of a measurement", WorkflowMeasurementViewOf(&subnetv1.WorkflowMeasurement{OutputQuality: "1"}),
			`{"output_quality":"1","steps_completed":0,"cost":"","latency_seconds":"","retries":0,"declared_retry_budget":0,"timeouts":0,"hard_failures":0}`},
		{"receipt without score or note", ReceiptViewOf(&subnetv1.Receipt{Height: 3, Inputs: []*subnetv1.Field{{Name: "x"}}}),
			`{"height":3,"track":"","status":"","reported_power":0,"total_power":0,"inputs":[{"name":"x","value":""}],"params":[],"values":[],"score":"","note":"","commit":null}`},
		{"nil receipt", ReceiptViewOf(nil), `null`},
		{"vote without measurement", VoteView{Validator: "v1"}, `{"validator":"v1","height":0,"workflow":null,"arena":null,"truth":null}`},
		{"window without aggregate", TrackWindowView{Mean: "0", Scores: List[string](nil)}, `{"last_height":0,"mean":"0","scores":[],"tasks_seen":0}`},
		{"miner without aggregates", &MinerView{UID: 1}, `{"arena":null,"gas":null,"immune_through":0,"pubkey":"","registered_height":0,"uid":1,"workflow":null}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestMinerViewAggregate: each track has its field; an unknown track none.
func TestMinerViewAggregate(t *testing.T) {
	var m MinerView
	for _, track := range []string{"workflow", "arena", "gas"} {
		if _, ok := m.Aggregate(track); ok {
			t.Fatalf("%s: aggregate before it was set", track)
		}
		if !m.SetAggregate(track, track+"-score") {
			t.Fatalf("%s: not a track of the view", track)
		}
		if v, ok := m.Aggregate(track); !ok || v != track+"-score" {
			t.Fatalf("%s: aggregate %q %v", track, v, ok)
		}
	}
	if m.SetAggregate("chess", "1") {
		t.Fatal("unknown track accepted")
	}
}

// TestQueryCodesTable: QueryCodes[i].Code == i, names unique.
func TestQueryCodesTable(t *testing.T) {
	seen := map[string]bool{}
	for i, c := range QueryCodes {
		if c.Code != uint32(i) || seen[c.Name] {
			t.Fatalf("row %d: %+v", i, c)
		}
		seen[c.Name] = true
	}
	if QueryCodeName(QueryNotFound) != "not_found" || QueryCodeName(99) != "unknown" {
		t.Fatal("QueryCodeName")
	}
}

// FuzzEpochView: any decodable epoch renders as valid JSON whose u16 entries
// all carry "uid" and "weight", zeros included, and decodes back to the
// same view.
func FuzzEpochView(f *testing.F) {
	seed, _ := (&subnetv1.Epoch{Number: 1, U16: []*subnetv1.U16Weight{{Uid: 0, Weight: 65535}}}).Marshal()
	f.Add(seed)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, bz []byte) {
		ep := &subnetv1.Epoch{}
		if ep.Unmarshal(bz) != nil {
			return
		}
		view := EpochResultViewOf(ep)
		out, err := json.Marshal(view)
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
		var back EpochResultView
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(&back, view) {
			t.Fatalf("round trip: %+v, want %+v (%v)", back, view, err)
		}
	})
}
