package genesis

import (
	"errors"
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

// TestValidateMirror: chain.registration and the mirror section, each
// field and each cross-check of docs/mirror.md §4 at its boundary.
func TestValidateMirror(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*AppState)
		field string // "" = valid
	}{
		{"defaults", func(*AppState) {}, ""},
		{"pow, explicit", func(g *AppState) { g.Chain.Registration, g.Mirror = RegistrationPoW, nil }, ""},
		{"pow, empty (the default)", func(g *AppState) { g.Chain.Registration, g.Mirror = "", nil }, ""},
		{"pow with a mirror section", func(g *AppState) { g.Chain.Registration = RegistrationPoW }, "mirror"},
		{"unknown mode", func(g *AppState) { g.Chain.Registration = "pos" }, "chain.registration"},
		{"mirror without its section", func(g *AppState) { g.Mirror = nil }, "mirror"},
		{"max_entries 0", func(g *AppState) { g.Mirror.MaxEntries = 0 }, "mirror.max_entries"},
		{"max_entries not max_uids", func(g *AppState) { g.Mirror.MaxEntries = 255 }, "mirror.max_entries"},
		{"attestation_blocks 0", func(g *AppState) { g.Mirror.AttestationBlocks = 0 }, "mirror.attestation_blocks"},
		{"max_blocks_behind below 2 × attestation_blocks", func(g *AppState) { g.Mirror.MaxBlocksBehind = 719 }, "mirror.max_blocks_behind"},
		{"max_blocks_behind 2 × attestation_blocks", func(g *AppState) { g.Mirror.MaxBlocksBehind = 720 }, ""},
		{"start_block on the cadence", func(g *AppState) { g.Mirror.StartBlock = 3_600_000 }, ""},
		{"start_block off the cadence", func(g *AppState) { g.Mirror.StartBlock = 3_600_001 }, "mirror.start_block"},
		{"burn uid the last parent uid", func(g *AppState) { g.Window.BurnUID = 255 }, ""},
		{"burn uid beyond the parent's uids", func(g *AppState) { g.Window.BurnUID = 256 }, "window.BurnUID"},
		// 42 + 256 × 44 = 11,306 bytes of snapshot + 256 of envelope.
		{"a full snapshot just fits max_tx_bytes", func(g *AppState) { g.Chain.MaxTxBytes = 11_306 + MirrorEnvelopeBytes }, ""},
		{"a full snapshot exceeds max_tx_bytes", func(g *AppState) { g.Chain.MaxTxBytes = 11_305 + MirrorEnvelopeBytes }, "chain.max_tx_bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := mirrorValid()
			tc.edit(&g)
			err := g.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, ErrInvalidGenesis) {
				t.Fatalf("want a FieldError on %s, got %v", tc.field, err)
			}
		})
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
