package valset

import (
	"errors"
	"testing"
)

func TestStepLeavesItsInputsAlone(t *testing.T) {
	set := mkSet(t, "a:10", "b:20", "c:30")
	queue := []Change{AddValidator(val("d", 100)), Remove(ByName("a")), RotateReportKey(ByName("b"), key("x"))}
	before, q0 := set.Validators(), append([]Change(nil), queue...)
	res := Step(set, queue, nil)
	if res.Set.Equal(set) {
		t.Fatal("nothing happened")
	}
	if again, _ := NewSet(before); !again.Equal(set) {
		t.Fatal("Step changed its set")
	}
	for i := range queue {
		if queue[i].String() != q0[i].String() {
			t.Fatalf("Step changed pending[%d]: %s", i, queue[i])
		}
	}
	if len(res.Remaining) != 3 || res.Remaining[0].Kind != KindSetPower {
		t.Fatalf("remaining %v", res.Remaining)
	}
}

func TestStepOfAnEmptyQueue(t *testing.T) {
	set := mkSet(t, "a:10", "b:20")
	res := Step(set, nil, nil)
	if !res.Set.Equal(set) || res.Updates != nil || res.Remaining != nil || res.Outcomes != nil || res.Moved != 0 || res.Budget != 10 {
		t.Fatalf("%+v", res)
	}
}

func TestValidateAgainstTheQueue(t *testing.T) {
	// The queue adds d; a proposal to raise d is valid against the
	// projection, not against the current set.
	set := mkSet(t, "a:10", "b:20", "c:30")
	queue := []Change{AddValidator(val("d", 5))}
	p := setProposal(SetPower(ByName("d"), 9))
	if err := Validate(p, set, 50, testParams(), nil); !errors.Is(err, ErrUnknownValidator) {
		t.Fatalf("against the set: %v", err)
	}
	if err := Validate(p, Project(set, queue, nil), 50, testParams(), nil); err != nil {
		t.Fatalf("against the projection: %v", err)
	}
}

func TestSlash(t *testing.T) {
	set := mkSet(t, "a:10", "b:20")
	c, ok, err := Slash(set, Address(key("c:a")), true)
	if err != nil || !ok || c.Kind != KindRemove || set.Resolve(c.Target) != set.Index(key("c:a")) {
		t.Fatalf("Slash = %v, %v, %v", c, ok, err)
	}
	if c, ok, err := Slash(set, Address(key("c:a")), false); err != nil || ok || c.Kind != 0 {
		t.Fatalf("with the switch off: %v, %v, %v", c, ok, err)
	}
	tests := []struct {
		name string
		set  Set
		addr []byte
		want error
	}{
		{"unknown address", set, Address(key("c:z")), ErrUnknownValidator},
		{"a consensus key is not an address", set, key("c:a"), ErrUnknownValidator},
		{"the only validator", mkSet(t, "a:10"), Address(key("c:a")), ErrEmptySet},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, err := Slash(tt.set, tt.addr, true)
			wantErr(t, err, tt.want)
			if ok {
				t.Fatal("ok with an error")
			}
		})
	}
}
