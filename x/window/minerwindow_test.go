package window

import (
	"errors"
	"testing"
)

func TestMinerWindowPushKeepsLastN(t *testing.T) {
	p := DefaultParams()
	p.WindowSize, p.WarmupTasks = 3, 2
	var w MinerWindow
	for _, s := range []string{"0.1", "0.2", "0.3", "0.4", "0.5"} {
		next, err := w.Push(p, d(t, s))
		if err != nil {
			t.Fatal(err)
		}
		w = next
	}
	if len(w.Scores) != 3 || w.TasksSeen != 5 {
		t.Fatalf("window = %d scores, %d seen; want 3, 5", len(w.Scores), w.TasksSeen)
	}
	for i, want := range []string{"0.3", "0.4", "0.5"} {
		assertDec(t, "score", w.Scores[i], want)
	}
	assertDec(t, "mean", w.Mean(), "0.4")
}

func TestMinerWindowPushDoesNotModifyReceiver(t *testing.T) {
	p := DefaultParams()
	p.WindowSize, p.WarmupTasks = 2, 1
	w := MinerWindow{Scores: ds(t, "0.1", "0.2"), TasksSeen: 2}
	next, err := w.Push(p, d(t, "0.9"))
	if err != nil {
		t.Fatal(err)
	}
	assertDec(t, "old[0]", w.Scores[0], "0.1")
	assertDec(t, "old[1]", w.Scores[1], "0.2")
	assertDec(t, "new[1]", next.Scores[1], "0.9")
	if w.TasksSeen != 2 {
		t.Fatalf("receiver TasksSeen changed to %d", w.TasksSeen)
	}
}

func TestMinerWindowPushShrinksToSmallerWindow(t *testing.T) {
	p := DefaultParams()
	p.WindowSize, p.WarmupTasks = 2, 1
	w := MinerWindow{Scores: ds(t, "0.1", "0.2", "0.3", "0.4"), TasksSeen: 4}
	next, err := w.Push(p, d(t, "1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Scores) != 2 {
		t.Fatalf("len = %d, want 2", len(next.Scores))
	}
	assertDec(t, "mean", next.Mean(), "0.7")
}

func TestMinerWindowPushRejects(t *testing.T) {
	p := DefaultParams()
	for _, s := range []string{"-0.000000000000000001", "1.000000000000000001", "0.5000000000000000001"} {
		if _, err := (MinerWindow{}).Push(p, d(t, s)); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("Push(%s) = %v, want ErrInvalidInput", s, err)
		}
	}
	for _, s := range []string{"0", "1", "0.999999999999999999"} {
		if _, err := (MinerWindow{}).Push(p, d(t, s)); err != nil {
			t.Errorf("Push(%s) = %v, want nil (boundary)", s, err)
		}
	}
	p.WindowSize = 0
	if _, err := (MinerWindow{}).Push(p, d(t, "0.5")); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("Push with WindowSize 0 = %v, want ErrInvalidParams", err)
	}
	if _, err := (MinerWindow{TasksSeen: ^uint64(0)}).Push(DefaultParams(), d(t, "0.5")); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("Push at max TasksSeen = %v, want overflow error", err)
	}
}

func TestMinerWindowMeanAndAggregate(t *testing.T) {
	p := DefaultParams() // warm-up 20
	tests := []struct {
		name      string
		scores    []string
		seen      uint64
		mean, agg string
	}{
		{"empty", nil, 0, "0", "0"},
		{"one lucky task is 1/20 of its score", []string{"1"}, 1, "1", "0.05"},
		{"thirds round half away from zero", []string{"1", "0", "0"}, 3, "0.333333333333333333", "0.05"},
		{"two thirds", []string{"1", "1", "0"}, 3, "0.666666666666666667", "0.1"},
		{"19 seen is still discounted", []string{"0.8"}, 19, "0.8", "0.76"},
		{"20 seen is the full mean", []string{"0.8"}, 20, "0.8", "0.8"},
		{"seen beyond the window", []string{"0.5", "0.7"}, 1000, "0.6", "0.6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := MinerWindow{Scores: ds(t, tt.scores...), TasksSeen: tt.seen}
			assertDec(t, "Mean", w.Mean(), tt.mean)
			assertDec(t, "Aggregate", w.Aggregate(p), tt.agg)
		})
	}
	p.WarmupTasks = 0
	assertDec(t, "Aggregate without warm-up", MinerWindow{Scores: ds(t, "0.9"), TasksSeen: 1}.Aggregate(p), "0.9")
}
