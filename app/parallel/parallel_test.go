package parallel

import (
	"testing"
)

// TestStartRunsEveryTaskOnce: every task runs exactly once, whatever the
// workers, and Wait(i) sees task i's output.
func TestStartRunsEveryTaskOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100} {
		for _, w := range []int{0, 1, 2, 8, 200} {
			out := make([]int, n)
			r := Start(n, w, func(i int) { out[i] += i*i + 1 })
			for i := 0; i < n; i++ {
				r.Wait(i)
				if out[i] != i*i+1 {
					t.Fatalf("n=%d w=%d: task %d output %d", n, w, i, out[i])
				}
			}
			r.Close()
		}
	}
}

// TestCloseSkipsTheRest: Close returns without running the tasks not yet
// started, and returns at once when all are done.
func TestCloseSkipsTheRest(t *testing.T) {
	gate := make(chan struct{})
	ran := make([]bool, 50)
	r := Start(50, 1, func(i int) {
		if i == 0 {
			<-gate
		}
		ran[i] = true
	})
	go func() { close(gate) }()
	r.Wait(0)
	r.Close()
	n := 0
	for _, ok := range ran {
		if ok {
			n++
		}
	}
	if n == 50 {
		t.Log("every task ran before Close (allowed, but unlikely)")
	}
	if !ran[0] {
		t.Fatal("task 0 did not run")
	}
}

// TestRangesCoverOnce: the ranges partition [0, n) in order.
func TestRangesCoverOnce(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 33, 1000} {
		for _, w := range []int{1, 2, 3, 8} {
			hits := make([]int, n)
			ks := make([]int, 8)
			parts := Ranges(n, w, 16, func(k, lo, hi int) {
				ks[k] = hi - lo
				for i := lo; i < hi; i++ {
					hits[i]++
				}
			})
			if parts < 1 || parts > max(1, w) {
				t.Fatalf("n=%d w=%d: %d ranges", n, w, parts)
			}
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("n=%d w=%d: item %d covered %d times", n, w, i, h)
				}
			}
		}
	}
}
