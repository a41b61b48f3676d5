package genesis

import (
	"strings"
	"testing"
)

// mirrorValid is valid() in mirror mode with the default mirror section.
func mirrorValid() AppState {
	g := valid()
	g.Chain.Registration = RegistrationMirror
	m := DefaultMirrorParams(g.Chain.MaxUIDs)
	g.Mirror = &m
	return g
}

// inMirror edits a genesis in mirror mode (mirrorValid's chain and
// section), for TestValidate's mirror rows: chain.registration and the
// mirror section, each field and each cross-check of docs/mirror.md §4 at
// its boundary.
func inMirror(edit func(*AppState)) func(*AppState) {
	return func(g *AppState) {
		m := mirrorValid()
		g.Chain.Registration, g.Mirror = m.Chain.Registration, m.Mirror
		edit(g)
	}
}

// TestMirrorRoundTrip: a mirror genesis encodes and decodes to itself; the
// default genesis has neither field in its JSON.
func TestMirrorRoundTrip(t *testing.T) {
	g := mirrorValid()
	bz, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(bz)
	if err != nil || !back.IsMirror() || *back.Mirror != *g.Mirror {
		t.Fatalf("round trip: %v %+v", err, back.Mirror)
	}
	def, _ := valid().Encode()
	if strings.Contains(string(def), `"mirror"`) || strings.Contains(string(def), `"registration"`) {
		t.Fatal("the default genesis JSON names the mirror mode")
	}
}
