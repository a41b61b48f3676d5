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
	got := Limits{EndWrites: 9 << 20}.OrDefault()
	want := DefaultLimits()
	want.EndWrites = 9 << 20
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
		{func(l *Limits) { l.EndWrites = MaxTxnBytes + 1 }, "end_writes"},
		{func(l *Limits) { l.TxWrites = l.BlockWrites + 1 }, "tx_writes"},
		{func(l *Limits) { l.TxWork = 0 }, "tx_work"},
		{func(l *Limits) { l.EndWork = -5 }, "end_work"},
		{func(l *Limits) { l.CommitWrites = MaxTxnBytes + 1 }, "commit_writes"},
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

func TestMeterBytes(t *testing.T) {
	lim := Limits{BlockWrites: 100, EndWrites: 150, TxWrites: 100, TxWork: 10, EndWork: 10}
	m := NewMeter(lim, size(90))
	if !m.TxFits(10) || m.TxFits(11) {
		t.Fatal("TxFits at the block budget's edge")
	}
	if !m.TxAlone(100) || m.TxAlone(101) {
		t.Fatal("TxAlone at the edge")
	}
	if !m.EndFits(60) || m.EndFits(61) {
		t.Fatal("EndFits at the edge")
	}
	over := NewMeter(lim, size(151))
	if !over.EndOpen(0) || over.EndOpen(1) {
		t.Fatal("a block past EndWrites starts exactly the first item of a step")
	}
	if !NewMeter(lim, size(150)).EndOpen(5) {
		t.Fatal("EndWrites itself is still open")
	}
}

func TestMeterUnits(t *testing.T) {
	m := NewMeter(Limits{TxWork: 10, EndWork: 10}, size(0))
	if !m.ChargeTx(6) || m.ChargeTx(5) || !m.ChargeTx(4) {
		t.Fatal("ChargeTx at the edge")
	}
	if m.TxWork() != 10 {
		t.Fatalf("TxWork = %d, want 10 (a refused charge charges nothing)", m.TxWork())
	}
	m.ChargeEnd(10)
	if !m.EndOpen(1) {
		t.Fatal("EndWork itself is still open")
	}
	m.ChargeEnd(1)
	if m.EndOpen(1) || !m.EndOpen(0) {
		t.Fatal("past EndWork only a step's first item starts")
	}
}
