package budget

import (
	"errors"
	"testing"
)

func TestDefaultLimitsValid(t *testing.T) {
	if err := DefaultLimits().Validate(); err != nil {
		t.Fatal(err)
	}
	if got := DefaultLimits().GasCloseBytes(); got != 4<<20 {
		t.Fatalf("GasCloseBytes = %d, want 4 MiB", got)
	}
}

func TestOrDefault(t *testing.T) {
	got := Limits{SettleWrites: 9 << 20}.OrDefault()
	want := DefaultLimits()
	want.SettleWrites = 9 << 20
	if got != want {
		t.Fatalf("OrDefault = %+v, want %+v", got, want)
	}
}

func TestValidateNamesTheField(t *testing.T) {
	cases := []struct {
		mod   func(*Limits)
		field string
	}{
		{func(l *Limits) { l.BlockWrites = 0 }, "block_writes"},
		{func(l *Limits) { l.TxWrites = -1 }, "tx_writes"},
		{func(l *Limits) { l.SettleWrites = MaxTxnBytes + 1 }, "settle_writes"},
		{func(l *Limits) { l.TruthWrites = MaxTxnBytes + 1 }, "truth_writes"},
		{func(l *Limits) { l.TxWrites = l.BlockWrites + 1 }, "tx_writes"},
	}
	for _, c := range cases {
		l := DefaultLimits()
		c.mod(&l)
		var le *LimitError
		if err := l.Validate(); !errors.As(err, &le) || le.Field != c.field {
			t.Errorf("%+v: Validate = %v, want a LimitError on %s", l, err, c.field)
		}
	}
}

type size int

func (s size) Size() int { return int(s) }

func TestMeter(t *testing.T) {
	lim := Limits{BlockWrites: 100, SettleWrites: 150, TruthWrites: 200, TxWrites: 100}
	m := NewMeter(lim, size(90))
	if !m.TxFits(10) || m.TxFits(11) {
		t.Fatal("TxFits at the block budget's edge")
	}
	if !m.TxAlone(100) || m.TxAlone(101) {
		t.Fatal("TxAlone at the edge")
	}
	if !m.TruthFits(110) || m.TruthFits(111) {
		t.Fatal("TruthFits at the edge")
	}
	over := NewMeter(lim, size(151))
	if !over.SettlementOpen(0) || over.SettlementOpen(1) {
		t.Fatal("a block past SettleWrites settles exactly its first submission")
	}
	if !NewMeter(lim, size(150)).SettlementOpen(5) {
		t.Fatal("SettleWrites itself is still open")
	}
}
