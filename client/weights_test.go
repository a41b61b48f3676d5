package client

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestParentWeightsOf: the u16 vector is copied in order with the digest's
// height, app hash and digest; an entry beyond u16 and a missing epoch are
// errors.
func TestParentWeightsOf(t *testing.T) {
	ep := &wire.EpochResultView{Number: 2, Height: 20, U16: []wire.U16WeightView{{UID: 0, Weight: 45875}, {UID: 1, Weight: 19660}, {UID: 4, Weight: 0}}}
	d := wire.DigestView{Height: 21, AppHash: "ab", ScoreDigest: "cd"}
	w, err := ParentWeightsOf(ep, d, nil, 9)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.UIDs, []uint16{0, 1, 4}) || !slices.Equal(w.Weights, []uint16{45875, 19660, 0}) || w.Epoch != 2 ||
		w.EpochHeight != 20 || w.Height != 21 || w.AppHash != "ab" || w.ScoreDigest != "cd" || w.VersionKey != 9 || w.NetUID != nil {
		t.Fatalf("%+v", w)
	}
	ep.U16[1].UID = 70000
	if _, err := ParentWeightsOf(ep, d, nil, 0); err == nil {
		t.Error("uid 70000: no error")
	}
	if _, err := ParentWeightsOf(nil, d, nil, 0); !errors.Is(err, ErrNoEpoch) {
		t.Errorf("no epoch: %v", err)
	}
}

// fakeNode answers from a table keyed "path@height".
type fakeNode map[string]string

func (f fakeNode) QueryAt(_ context.Context, path string, h int64) ([]byte, error) {
	key := path + "@" + string(rune('0'+h))
	if v, ok := f[key]; ok {
		return []byte(v), nil
	}
	return nil, &QueryError{Path: path, Code: wire.QueryNotFound, Log: "not found"}
}

// TestWeightsReadsOneVersion: the latest epoch is re-read, with the digest
// and the mirror's netuid, at the height that stored it; before the first
// epoch the error wraps ErrNoEpoch.
func TestWeightsReadsOneVersion(t *testing.T) {
	ep := `{"epoch":{"number":1,"height":5,"u16":[{"uid":0,"weight":65535}]}}`
	node := fakeNode{"epoch/latest@0": ep, "epoch/latest@5": ep,
		"digest@5": `{"height":5,"app_hash":"aa","score_digest":"dd"}`, "mirror@5": `{"netuid":12}`}
	w, err := Weights(context.Background(), node, WeightsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Height != 5 || w.AppHash != "aa" || w.ScoreDigest != "dd" || w.NetUID == nil || *w.NetUID != 12 {
		t.Fatalf("%+v", w)
	}
	if _, err := Weights(context.Background(), fakeNode{}, WeightsRequest{}); !errors.Is(err, ErrNoEpoch) {
		t.Fatalf("no epoch yet: %v", err)
	}
}
