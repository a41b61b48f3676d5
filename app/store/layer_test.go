package store

import "testing"

// TestLayerReadsTheNewestWrite: a Layer answers from the newest overlay
// that wrote a key (a deletion there hides the base's value), else from
// its base; it never reads through an overlay to that overlay's own base
// (sealed overlays have none), so a chain of committed blocks holds only
// the last one.
func TestLayerReadsTheNewestWrite(t *testing.T) {
	base := &mapReader{m: map[string]string{"a": "base-a", "b": "base-b", "c": "base-c", "d": "base-d"}}
	stale := &mapReader{m: map[string]string{"e": "from an overlay's own base"}}
	genesis := NewOverlay(stale)
	genesis.Set([]byte("a"), []byte("genesis-a"))
	genesis.Set([]byte("b"), []byte("genesis-b"))
	block := NewBlockOverlay(stale, 4)
	block.Set([]byte("b"), []byte("block-b"))
	block.Delete([]byte("c"))
	if _, ok := block.Get([]byte("e")); !ok {
		t.Fatal("the block overlay did not read its base")
	}
	genesis.Seal()
	block.Seal()
	l := Layer{Tops: []*Overlay{genesis, block}, Base: base}
	for k, want := range map[string]string{"a": "genesis-a", "b": "block-b", "d": "base-d"} {
		if v, ok := l.Get([]byte(k)); !ok || string(v) != want {
			t.Errorf("%s: %q %v, want %q", k, v, ok, want)
		}
	}
	if v, ok := l.Get([]byte("c")); ok {
		t.Errorf("c, deleted by the block: %q", v)
	}
	if v, ok := l.Get([]byte("e")); ok {
		t.Errorf("e, only in an overlay's own base: %q (a Layer must not read through it)", v)
	}
	if block.base != nil || block.reads != nil {
		t.Error("Seal kept the overlay's base or its reads")
	}
}
