package replay

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cosmos/gogoproto/proto"
)

// TestReplayRealChain runs a real CometBFT node with the kvstore application, stops it, and
// replays its block store.
func TestReplayRealChain(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a CometBFT node")
	}
	conf := newTestHome(t)
	var runningErr error
	c := runChain(t, conf, 6, 8, func() {
		_, runningErr = OpenSource(conf)
	})
	ctx := context.Background()

	t.Run("refuses a running node", func(t *testing.T) {
		if !errors.Is(runningErr, ErrNodeRunning) {
			t.Fatalf("OpenSource on a running node: got %v, want ErrNodeRunning", runningErr)
		}
	})

	src, err := OpenSource(conf)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	last := src.LastHeight()

	t.Run("InitChain request equals the node's", func(t *testing.T) {
		got, want := InitChainRequest(src.Genesis), c.init
		if want == nil || !proto.Equal(got, want) {
			t.Fatalf("InitChain request differs:\n got %v\nwant %v", got, want)
		}
	})

	t.Run("matches every height", func(t *testing.T) {
		var progress bytes.Buffer
		res, err := Run(ctx, src, kvTarget(0), Options{Progress: &progress})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		if res.From != 1 || res.To != last || res.Heights != last {
			t.Fatalf("from %d to %d heights %d, want 1..%d", res.From, res.To, res.Heights, last)
		}
		if res.Txs != 6 {
			t.Fatalf("txs %d, want 6", res.Txs)
		}
		if !res.LastFromState || !bytes.Equal(res.AppHash, src.State.AppHash) {
			t.Fatalf("last height not checked against the state store: %v %X %X", res.LastFromState, res.AppHash, src.State.AppHash)
		}
		if !strings.Contains(progress.String(), "replay: height") {
			t.Fatalf("no final progress line: %q", progress.String())
		}
	})

	t.Run("--to stops early and checks against the next header", func(t *testing.T) {
		res, err := Run(ctx, src, kvTarget(0), Options{To: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		if res.Heights != 2 || res.LastFromState {
			t.Fatalf("heights %d lastFromState %v, want 2 false", res.Heights, res.LastFromState)
		}
		if want := src.Blocks.LoadBlockMeta(3).Header.AppHash; !bytes.Equal(res.AppHash, want) {
			t.Fatalf("app hash %X, want header 3's %X", res.AppHash, want)
		}
	})

	t.Run("--to beyond the last height is refused", func(t *testing.T) {
		if _, err := Run(ctx, src, kvTarget(0), Options{To: last + 1}); err == nil {
			t.Fatal("no error")
		}
	})

	t.Run("mismatch names the height, both hashes and the block's changes", func(t *testing.T) {
		h := c.txHeight["k3=v3"]
		_, err := Run(ctx, src, kvTarget(h), Options{})
		var mm *MismatchError
		if !errors.As(err, &mm) {
			t.Fatalf("got %v, want a MismatchError", err)
		}
		if mm.Height != h || mm.Expected == nil || bytes.Equal(mm.Expected, mm.Computed) || mm.DiffErr != nil {
			t.Fatalf("mismatch %+v, want height %d", mm, h)
		}
		if !hasChange(mm.Changes, "k3", "v3") {
			t.Fatalf("changes %q lack k3 -> v3", mm.Changes)
		}
		if mm.ChangesNote != "" {
			t.Fatalf("note %q on a block mismatch", mm.ChangesNote)
		}
		for tx, th := range c.txHeight {
			key := strings.SplitN(tx, "=", 2)[0]
			if th != h && hasChange(mm.Changes, key, "") {
				t.Fatalf("change of %s from block %d reported for block %d", key, th, h)
			}
		}
	})
}

func TestReplayInitChainMismatch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a CometBFT node")
	}
	conf := newTestHome(t)
	c := runChain(t, conf, 1, 2, nil)
	src, err := OpenSource(conf)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	_, err = Run(context.Background(), src, kvTarget(initChainFault), Options{})
	var mm *MismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("got %v, want a MismatchError", err)
	}
	if mm.Height != 0 || string(mm.Computed) != "not the genesis app hash" || !strings.Contains(mm.ExpectedFrom, "InitChain") {
		t.Fatalf("mismatch %+v, want height 0 from InitChain", mm)
	}
	if mm.ChangesNote == "" || mm.DiffErr != nil || len(mm.Changes) == 0 {
		t.Fatalf("InitChain mismatch explained by %q %v %q, want block 1's state", mm.ChangesNote, mm.DiffErr, mm.Changes)
	}
	if h := c.txHeight["k0=v0"]; (h == 1) != hasChange(mm.Changes, "k0", "v0") {
		t.Fatalf("k0 committed at height %d, changes %q: want it listed exactly when in block 1", h, mm.Changes)
	}
}

// hasChange reports whether cs holds an addition of a key ending in key (with value val
// unless val is "").
func hasChange(cs []Change, key, val string) bool {
	for _, c := range cs {
		if strings.HasSuffix(string(c.Key), key) && c.Old == nil && (val == "" || string(c.New) == val) {
			return true
		}
	}
	return false
}
