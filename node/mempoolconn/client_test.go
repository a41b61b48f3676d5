package mempoolconn

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cometbft/cometbft/abci/example/kvstore"
	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// kvClient is a started mempool client over CometBFT's kvstore (an app
// without CheckTxs, answered one request at a time), with every answer
// the response callback saw, in order.
type kvClient struct {
	*Client
	mu   sync.Mutex
	seen []string
}

func newKVClient(t *testing.T) *kvClient {
	cr := NewClientCreator(kvstore.NewInMemoryApplication(), SharedLock, true)
	c, err := cr.NewABCIClient()
	if err != nil {
		t.Fatal(err)
	}
	kc := &kvClient{Client: c.(*Client)}
	kc.SetResponseCallback(func(req *abcitypes.Request, res *abcitypes.Response) {
		kc.mu.Lock()
		defer kc.mu.Unlock()
		kc.seen = append(kc.seen, fmt.Sprintf("%s:%d", req.GetCheckTx().Tx, res.GetCheckTx().Code))
	})
	if err := kc.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = kc.Stop() })
	return kc
}

func (kc *kvClient) send(t *testing.T, tx string) *reqRes {
	t.Helper()
	rr, err := kc.CheckTxAsync(context.Background(), &abcitypes.RequestCheckTx{Tx: []byte(tx)})
	if err != nil {
		t.Fatal(err)
	}
	r := &reqRes{done: make(chan uint32, 1)}
	rr.SetCallback(func(res *abcitypes.Response) { r.done <- res.GetCheckTx().Code })
	return r
}

type reqRes struct{ done chan uint32 }

func (r *reqRes) answered() (uint32, bool) {
	select {
	case c := <-r.done:
		return c, true
	default:
		return 0, false
	}
}

// TestQueuedInOrderAndFlushed: requests made while the app's lock is held
// wait in the queue; once it is free they are answered in the order made,
// the response callback before each request's own, and Flush returns only
// after the last.
func TestQueuedInOrderAndFlushed(t *testing.T) {
	kc := newKVClient(t)
	kc.mtx.Lock() // what block execution holds under the shared lock
	var rrs []*reqRes
	for i := 0; i < 150; i++ {
		rrs = append(rrs, kc.send(t, fmt.Sprintf("k%03d=v", i)))
	}
	bad := kc.send(t, "") // kvstore refuses an empty tx
	time.Sleep(20 * time.Millisecond)
	for i, r := range rrs {
		if _, ok := r.answered(); ok {
			t.Fatalf("request %d answered while the app's lock was held", i)
		}
	}
	kc.mtx.Unlock()
	if err := kc.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, r := range rrs {
		if code, ok := r.answered(); !ok || code != 0 {
			t.Fatalf("after Flush, request %d: answered %v, code %d", i, ok, code)
		}
	}
	if code, ok := bad.answered(); !ok || code == 0 {
		t.Fatalf("the empty tx: answered %v, code %d", ok, code)
	}
	kc.mu.Lock()
	defer kc.mu.Unlock()
	if len(kc.seen) != 151 {
		t.Fatalf("the response callback saw %d answers, want 151", len(kc.seen))
	}
	for i := 0; i < 150; i++ {
		if want := fmt.Sprintf("k%03d=v:0", i); kc.seen[i] != want {
			t.Fatalf("answer %d is %s, want %s", i, kc.seen[i], want)
		}
	}
	if st := kc.Stats(); st.Requests != 151 || st.Runs >= 151 || st.Largest > MaxRun {
		t.Fatalf("stats %+v: want 151 requests in runs of at most %d", st, MaxRun)
	}
}

// TestFullQueueWaits: a request made while the queue is full waits for
// room instead of growing it.
func TestFullQueueWaits(t *testing.T) {
	kc := newKVClient(t)
	kc.mtx.Lock()
	first := kc.send(t, "first=1")
	for kc.busyNow() == false {
		time.Sleep(time.Millisecond) // the worker took the first request and waits for the lock
	}
	for i := 0; i < QueueSize; i++ {
		kc.send(t, fmt.Sprintf("q%d=1", i))
	}
	sent := make(chan struct{})
	go func() {
		kc.send(t, "over=1")
		close(sent)
	}()
	select {
	case <-sent:
		t.Fatal("a request beyond QueueSize was queued at once")
	case <-time.After(50 * time.Millisecond):
	}
	kc.mtx.Unlock()
	<-sent
	if err := kc.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := first.answered(); !ok {
		t.Fatal("the first request was not answered")
	}
}

func (c *Client) stoppedNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopped
}

func (c *Client) busyNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.busy
}

// TestStopAnswersTheQueue: Stop answers what is still queued with
// code_internal (the app never saw it), and a request after Stop is
// answered at once the same way; CheckTxAsync never fails, since the
// mempool panics if it does.
func TestStopAnswersTheQueue(t *testing.T) {
	kc := newKVClient(t)
	kc.mtx.Lock()
	taken := kc.send(t, "taken=1")
	for !kc.busyNow() {
		time.Sleep(time.Millisecond)
	}
	queued := []*reqRes{kc.send(t, "a=1"), kc.send(t, "b=1")}
	stopped := make(chan error, 1)
	go func() { stopped <- kc.Stop() }()
	for {
		if kc.stoppedNow() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	kc.mtx.Unlock()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if code, ok := taken.answered(); !ok || code != 0 {
		t.Fatalf("the request the app held: answered %v code %d", ok, code)
	}
	for i, r := range queued {
		if code, ok := r.answered(); !ok || code != wire.CodeInternal {
			t.Fatalf("queued request %d after Stop: answered %v code %d", i, ok, code)
		}
	}
	if code, ok := kc.send(t, "late=1").answered(); !ok || code != wire.CodeInternal {
		t.Fatalf("a request after Stop: answered %v code %d", ok, code)
	}
	if err := kc.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}
