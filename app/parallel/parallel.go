package parallel

import (
	"sync"
	"sync/atomic"
)

// Run is a set of tasks 0..n-1 being executed by workers, lowest index
// first, so that a caller consuming results in order waits as little as
// possible.
type Run struct {
	done []chan struct{}
	next atomic.Int64
	stop atomic.Bool
	wg   sync.WaitGroup
}

// Start runs fn(0), …, fn(n-1) on up to workers goroutines and returns at
// once. With workers < 1 it is 1. fn must obey the package contract.
func Start(n, workers int, fn func(task int)) *Run {
	r := &Run{done: make([]chan struct{}, n)}
	for i := range r.done {
		r.done[i] = make(chan struct{})
	}
	workers = max(1, min(workers, n))
	r.wg.Add(workers)
	for w := 0; w < workers; w++ {
		// det: pure parallel — each task writes only its own outputs, read after Wait.
		go func() {
			defer r.wg.Done()
			for {
				t := int(r.next.Add(1) - 1)
				if t >= n {
					return
				}
				if !r.stop.Load() {
					fn(t)
				}
				close(r.done[t])
			}
		}()
	}
	return r
}

// Wait blocks until task t has finished; its outputs are then visible to
// the caller.
func (r *Run) Wait(t int) { <-r.done[t] }

// Close skips the tasks not yet started and waits for every worker to
// return. A task skipped this way produced nothing: call Close only once
// no more results are wanted.
func (r *Run) Close() {
	r.stop.Store(true)
	r.wg.Wait()
}

// Ranges splits [0, n) into at most workers contiguous ranges of at least
// minPer items (one range when n < 2·minPer) and runs fn(k, lo, hi) for
// range k on its own goroutine, the first on the caller's; it returns when
// all are done, with the number of ranges.
func Ranges(n, workers, minPer int, fn func(k, lo, hi int)) int {
	parts := max(1, min(workers, n/max(1, minPer)))
	if parts == 1 {
		fn(0, 0, n)
		return 1
	}
	per := (n + parts - 1) / parts
	parts = (n + per - 1) / per
	r := Start(parts-1, parts-1, func(k int) {
		lo := (k + 1) * per
		fn(k+1, lo, min(lo+per, n))
	})
	fn(0, 0, min(per, n))
	for k := 0; k < parts-1; k++ {
		r.Wait(k)
	}
	r.Close()
	return parts
}
