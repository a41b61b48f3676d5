package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TestQueriesDuringBlocks runs queries in a loop on other goroutines while
// blocks execute and commit (run it with -race: make test does). Queries
// never wait for block execution, always see a committed height (never
// going back), and an answer's height and state belong together.
func TestQueriesDuringBlocks(t *testing.T) {
	n := newNode(t, t.TempDir(), testGenesis(4))
	m := newSigner("miner-a")
	r := reporter(0)
	mustOK(t, n.block(m.tx(t, msgRegister()), r.tx(t, msgWorkflowTask(4, 100, 100))))
	var stop atomic.Bool
	var wg sync.WaitGroup
	var answered atomic.Int64
	errs := make(chan error, 4)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(0)
			for !stop.Load() {
				for _, path := range []string{"status", "miner/1", "leaderboard/workflow", "account/" + fmt.Sprintf("%x", m.pub())} {
					resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: path})
					if err != nil || resp.Code != wire.QueryOK {
						errs <- fmt.Errorf("%s: %v, code %d: %s", path, err, resp.Code, resp.Log)
						return
					}
					if resp.Height < last {
						errs <- fmt.Errorf("%s answered at height %d after %d", path, resp.Height, last)
						return
					}
					last = resp.Height
					if path == "status" {
						var st wire.StatusView
						if err := json.Unmarshal(resp.Value, &st); err != nil || st.Height != resp.Height {
							errs <- fmt.Errorf("status %s at response height %d", resp.Value, resp.Height)
							return
						}
					}
					answered.Add(1)
				}
			}
		}()
	}
	for range 40 {
		mustOK(t, n.block(r.tx(t, msgWorkflowTask(4, 100, 100))))
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if answered.Load() == 0 {
		t.Fatal("no query was answered while blocks ran")
	}
}

// TestQueryDoesNotTakeTheExecutionLock: a query is answered while block
// execution holds the app's lock (before, Query took it too, and this
// test would never return).
func TestQueryDoesNotTakeTheExecutionLock(t *testing.T) {
	n := newNode(t, t.TempDir(), testGenesis(1))
	mustOK(t, n.block(newSigner("miner-a").tx(t, msgRegister())))
	n.app.mu.Lock()
	resp, err := n.app.Query(context.Background(), &abcitypes.RequestQuery{Path: "miner/1"})
	n.app.mu.Unlock()
	if err != nil || resp.Code != wire.QueryOK || resp.Height != 1 {
		t.Fatalf("query under the execution lock: %v, %+v", err, resp)
	}
}
