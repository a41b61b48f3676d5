package genesis

import (
	"reflect"
	"testing"

	"github.com/scoringsubnet/validatord/x/receipt"
)

// TestReceiptChain: the chain a receipt is verified against is the app
// state's formula params and its validators' names and powers, in order;
// for the default genesis it is receipt.DefaultChain, the defaults a
// receipt checked against itself reads.
func TestReceiptChain(t *testing.T) {
	g := DefaultGenesis()
	if got, want := g.ReceiptChain(), receipt.DefaultChain(); !reflect.DeepEqual(*got, want) {
		t.Fatalf("default genesis: %+v\nwant receipt.DefaultChain() %+v", *got, want)
	}
	g.Validators = []Validator{validator("b"), validator("a")}
	g.Validators[0].Power, g.Validators[1].Power = 7, 3
	g.Gas.MemorySize = 2
	g.Workflow.Gate = g.Workflow.WSuccess
	c := g.ReceiptChain()
	want := []receipt.Validator{{Name: "b", Power: 7}, {Name: "a", Power: 3}}
	if !reflect.DeepEqual(c.Validators, want) {
		t.Fatalf("validators %+v, want %+v", c.Validators, want)
	}
	if !reflect.DeepEqual(c.Workflow, g.Workflow) || !reflect.DeepEqual(c.Arena, g.Arena) || !reflect.DeepEqual(c.Gas, g.Gas) {
		t.Fatalf("params differ from the app state's: %+v", *c)
	}
}
