package valset

import (
	"bytes"
	"testing"
)

func TestApplyRefusals(t *testing.T) {
	base := func(t *testing.T) Set { return mkSet(t, "a:10", "b:20", "c:30") } // total 60
	miner := key("miner")
	withKey := func(v Validator, pk, rk []byte) Validator {
		if pk != nil {
			v.PubKey = pk
		}
		if rk != nil {
			v.ReportKey = rk
		}
		return v
	}
	tests := []struct {
		name    string
		set     Set
		changes []Change
		want    error
		field   string
	}{
		{"unknown kind", base(t), []Change{{Kind: 9}}, ErrInvalidInput, "changes[0].kind"},
		{"zero kind", base(t), []Change{{}}, ErrInvalidInput, "changes[0].kind"},
		{"add with a target", base(t), []Change{{Kind: KindAdd, Validator: val("d", 1), Target: ByName("a")}}, ErrInvalidInput, "changes[0].target"},
		{"remove with a power", base(t), []Change{{Kind: KindRemove, Target: ByName("a"), Power: 3}}, ErrInvalidInput, "changes[0].power"},
		{"set_power with a validator", base(t), []Change{{Kind: KindSetPower, Target: ByName("a"), Power: 3, Validator: val("x", 1)}}, ErrInvalidInput, "changes[0].validator"},
		{"remove with a report key", base(t), []Change{{Kind: KindRemove, Target: ByName("a"), ReportKey: key("x")}}, ErrInvalidInput, "changes[0].report_key"},
		{"ref with both", base(t), []Change{Remove(Ref{Name: "a", PubKey: key("c:a")})}, ErrInvalidInput, "changes[0].target"},
		{"ref with neither", base(t), []Change{Remove(Ref{})}, ErrInvalidInput, "changes[0].target"},
		{"ref with a short key", base(t), []Change{Remove(ByKey(key("c:a")[:20]))}, ErrInvalidInput, "changes[0].target.pub_key"},
		{"add power 0", base(t), []Change{AddValidator(val("d", 0))}, ErrInvalidInput, "changes[0].validator.power"},
		{"add bad report key", base(t), []Change{AddValidator(withKey(val("d", 1), nil, []byte{1}))}, ErrInvalidInput, "changes[0].validator.report_key"},
		{"set_power 0", base(t), []Change{SetPower(ByName("a"), 0)}, ErrInvalidInput, "changes[0].power"},
		{"set_power negative", base(t), []Change{SetPower(ByName("a"), -5)}, ErrInvalidInput, "changes[0].power"},
		{"rotate to a short key", base(t), []Change{RotateReportKey(ByName("a"), []byte{1, 2})}, ErrInvalidInput, "changes[0].report_key"},
		{"add an existing name", base(t), []Change{AddValidator(withKey(val("a", 1), key("new"), key("new-r")))}, ErrDuplicateName, "changes[0].validator.name"},
		{"add an existing consensus key", base(t), []Change{AddValidator(withKey(val("d", 1), key("c:a"), nil))}, ErrDuplicateKey, "changes[0].validator.pub_key"},
		{"add an existing report key", base(t), []Change{AddValidator(withKey(val("d", 1), nil, key("r:b")))}, ErrDuplicateKey, "changes[0].validator.report_key"},
		{"add a miner's report key", base(t), []Change{AddValidator(withKey(val("d", 1), nil, miner))}, ErrMinerKey, "changes[0].validator.report_key"},
		{"two adds of one consensus key", base(t), []Change{AddValidator(val("d", 1)), AddValidator(withKey(val("e", 1), key("c:d"), nil))}, ErrDuplicateKey, "changes[1].validator.pub_key"},
		{"two adds of one report key", base(t), []Change{AddValidator(val("d", 1)), AddValidator(withKey(val("e", 1), nil, key("r:d")))}, ErrDuplicateKey, "changes[1].validator.report_key"},
		{"rotate to a key an earlier add took", base(t), []Change{AddValidator(val("d", 1)), RotateReportKey(ByName("a"), key("r:d"))}, ErrDuplicateKey, "changes[1].report_key"},
		{"rotate to its own key", base(t), []Change{RotateReportKey(ByName("a"), key("r:a"))}, ErrDuplicateKey, "changes[0].report_key"},
		{"rotate to another's key", base(t), []Change{RotateReportKey(ByName("a"), key("r:c"))}, ErrDuplicateKey, "changes[0].report_key"},
		{"rotate to a miner's key", base(t), []Change{RotateReportKey(ByName("a"), miner)}, ErrMinerKey, "changes[0].report_key"},
		{"set_power of an unknown name", base(t), []Change{SetPower(ByName("z"), 5)}, ErrUnknownValidator, "changes[0].target"},
		{"remove an unknown key", base(t), []Change{Remove(ByKey(key("z")))}, ErrUnknownValidator, "changes[0].target"},
		{"rotate an unknown", base(t), []Change{RotateReportKey(ByName("z"), key("q"))}, ErrUnknownValidator, "changes[0].target"},
		{"remove twice", base(t), []Change{Remove(ByName("a")), Remove(ByName("a"))}, ErrUnknownValidator, "changes[1].target"},
		{"remove the last", mkSet(t, "a:10"), []Change{Remove(ByName("a"))}, ErrEmptySet, "changes[0].target"},
		{"remove before add empties", mkSet(t, "a:10"), []Change{Remove(ByName("a")), AddValidator(val("b", 10))}, ErrEmptySet, "changes[0].target"},
		{"add above the total limit", base(t), []Change{AddValidator(val("d", MaxTotalVotingPower-59))}, ErrTotalPower, "changes[0].validator.power"},
		{"set_power above the total limit", base(t), []Change{SetPower(ByName("c"), MaxTotalVotingPower-29)}, ErrTotalPower, "changes[0].power"},
		{"add then set_power above the limit", base(t), []Change{AddValidator(val("d", 1)), SetPower(ByName("d"), MaxTotalVotingPower-59)}, ErrTotalPower, "changes[1].power"},
		{"set_power below the minimum total", mkSet(t, "a:3"), []Change{SetPower(ByName("a"), 2)}, ErrTotalPower, "changes[0].power"},
		{"remove below the minimum total", mkSet(t, "a:2", "b:2"), []Change{Remove(ByName("a"))}, ErrTotalPower, "changes[0].target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.set.Validators()
			got, ups, err := Apply(tt.set, tt.changes, minerSet{miner})
			wantErr(t, err, tt.want)
			if f := err.(*InputError).Field; f != tt.field {
				t.Fatalf("field = %q, want %q (%v)", f, tt.field, err)
			}
			if got.Len() != 0 || ups != nil {
				t.Fatalf("a refused Apply returned %s, %v", got, ups)
			}
			if after, _ := NewSet(before); !after.Equal(tt.set) {
				t.Fatal("a refused Apply changed its input")
			}
		})
	}
}

func TestApplyBoundaries(t *testing.T) {
	tests := []struct {
		name    string
		set     Set
		changes []Change
		want    string // the set after, name:power
	}{
		{"add to exactly the total limit", mkSet(t, "a:10"), []Change{AddValidator(val("b", MaxTotalVotingPower-10))}, "a:10 b:1152921504606846965"},
		{"remove to exactly the minimum total", mkSet(t, "a:3", "b:1"), []Change{Remove(ByName("b"))}, "a:3"},
		{"add then remove the old only one", mkSet(t, "a:10"), []Change{AddValidator(val("b", 10)), Remove(ByName("a"))}, "b:10"},
		{"set_power to the same power", mkSet(t, "a:10"), []Change{SetPower(ByName("a"), 10)}, "a:10"},
		{"rotate in a set below the minimum", mkSet(t, "a:1"), []Change{RotateReportKey(ByName("a"), key("new"))}, "a:1"},
		{"rotate to a key another change freed", mkSet(t, "a:10", "b:10"), []Change{RotateReportKey(ByName("a"), key("tmp")), RotateReportKey(ByName("b"), key("r:a"))}, "a:10 b:10"},
		{"refs by key and by name agree", mkSet(t, "a:10", "b:10"), []Change{SetPower(ByKey(key("c:a")), 4), SetPower(ByName("a"), 5)}, "a:5 b:10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Apply(tt.set, tt.changes, nil)
			if err != nil {
				t.Fatal(err)
			}
			if byName(got) != tt.want {
				t.Fatalf("set = %s, want %s", byName(got), tt.want)
			}
		})
	}
}

func TestApplyUpdates(t *testing.T) {
	s := mkSet(t, "a:10", "b:20", "c:30")
	got, ups, err := Apply(s, []Change{
		AddValidator(val("d", 5)),
		SetPower(ByName("b"), 25),
		Remove(ByName("c")),
		RotateReportKey(ByName("a"), key("a-new")), // no update: report keys are the app's
		SetPower(ByName("d"), 7),                   // d once, at its final power
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name  string
		power int64
	}{{"b", 25}, {"c", 0}, {"d", 7}}
	if len(ups) != len(want) {
		t.Fatalf("updates %v", ups)
	}
	for i, u := range ups {
		if i > 0 && bytes.Compare(ups[i-1].PubKey, u.PubKey) >= 0 {
			t.Fatal("updates not ascending by key")
		}
		found := false
		for _, w := range want {
			found = found || (bytes.Equal(u.PubKey, key("c:"+w.name)) && u.Power == w.power)
		}
		if !found {
			t.Fatalf("unexpected update %x %d", u.PubKey, u.Power)
		}
	}
	if got.TotalPower() != 42 || !bytes.Equal(got.Validator(got.IndexOfName("a")).ReportKey, key("a-new")) {
		t.Fatalf("set %s", got)
	}
	if Diff(s, s) != nil {
		t.Fatal("Diff of a set with itself is not empty")
	}
}
