package valset

import (
	"bytes"
	"strings"
	"testing"

	cmted25519 "github.com/cometbft/cometbft/crypto/ed25519"
	cmttypes "github.com/cometbft/cometbft/types"
)

func TestMaxTotalVotingPowerIsCometBFTs(t *testing.T) {
	if MaxTotalVotingPower != cmttypes.MaxTotalVotingPower {
		t.Fatalf("MaxTotalVotingPower = %d, CometBFT's %d", MaxTotalVotingPower, cmttypes.MaxTotalVotingPower)
	}
	if MaxTotalVotingPower != 1<<60-1 {
		t.Fatalf("MaxInt64/8 = %d, want 2^60 − 1", MaxTotalVotingPower)
	}
}

func TestAddressIsCometBFTs(t *testing.T) {
	for _, label := range []string{"a", "b", "c"} {
		pk := key(label)
		if want := cmted25519.PubKey(pk).Address(); !bytes.Equal(Address(pk), want) {
			t.Fatalf("Address(%x) = %x, CometBFT %x", pk, Address(pk), []byte(want))
		}
	}
}

func TestNewSetRefusals(t *testing.T) {
	short := val("a", 1)
	short.PubKey = short.PubKey[:31]
	noReport := val("a", 1)
	noReport.ReportKey = nil
	sameKey := val("b", 1)
	sameKey.PubKey = key("c:a")
	sameReport := val("b", 1)
	sameReport.ReportKey = key("r:a")
	blank, long, badUTF8 := val("a", 1), val("a", 1), val("a", 1)
	blank.Name, long.Name, badUTF8.Name = " \t", strings.Repeat("x", MaxNameBytes+1), "\xff"
	tests := []struct {
		name  string
		vals  []Validator
		want  error
		field string
	}{
		{"empty", nil, ErrEmptySet, "validators"},
		{"short consensus key", []Validator{short}, ErrInvalidInput, "validators[0].pub_key"},
		{"missing report key", []Validator{noReport}, ErrInvalidInput, "validators[0].report_key"},
		{"blank name", []Validator{blank}, ErrInvalidInput, "validators[0].name"},
		{"long name", []Validator{long}, ErrInvalidInput, "validators[0].name"},
		{"invalid UTF-8 name", []Validator{badUTF8}, ErrInvalidInput, "validators[0].name"},
		{"power 0", []Validator{val("a", 0)}, ErrInvalidInput, "validators[0].power"},
		{"negative power", []Validator{val("a", -1)}, ErrInvalidInput, "validators[0].power"},
		{"power above the limit", []Validator{val("a", MaxTotalVotingPower+1)}, ErrInvalidInput, "validators[0].power"},
		{"duplicate name", []Validator{val("a", 1), val("a", 2)}, ErrDuplicateName, "validators[1].name"},
		{"duplicate consensus key", []Validator{val("a", 1), sameKey}, ErrDuplicateKey, "validators[1].pub_key"},
		{"duplicate report key", []Validator{val("a", 1), sameReport}, ErrDuplicateKey, "validators[1].report_key"},
		{"total above the limit", []Validator{val("a", MaxTotalVotingPower), val("b", 1)}, ErrTotalPower, "validators[1].power"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSet(tt.vals)
			wantErr(t, err, tt.want)
			if f := err.(*InputError).Field; f != tt.field {
				t.Fatalf("field = %q, want %q", f, tt.field)
			}
		})
	}
}

func TestNewSetBoundaries(t *testing.T) {
	// The total at exactly the limit, and a genesis set below MinTotalPower, are sets.
	if _, err := NewSet([]Validator{val("a", MaxTotalVotingPower-1), val("b", 1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSet([]Validator{val("a", 1)}); err != nil {
		t.Fatal(err)
	}
	long := val(strings.Repeat("x", MaxNameBytes), 1)
	if _, err := NewSet([]Validator{long}); err != nil {
		t.Fatal(err)
	}
}

func TestSetCanonicalOrderAndCopies(t *testing.T) {
	in := []Validator{val("a", 1), val("b", 2), val("c", 3), val("d", 4)}
	s1, err := NewSet(in)
	if err != nil {
		t.Fatal(err)
	}
	rev := []Validator{in[3], in[2], in[1], in[0]}
	s2, _ := NewSet(rev)
	if !s1.Equal(s2) {
		t.Fatalf("order of input leaks: %s vs %s", s1, s2)
	}
	for i := 1; i < s1.Len(); i++ {
		if bytes.Compare(s1.Validator(i-1).PubKey, s1.Validator(i).PubKey) >= 0 {
			t.Fatalf("not ascending by consensus key at %d", i)
		}
	}
	// Neither the input nor what the set hands out aliases its memory.
	in[0].PubKey[0] ^= 0xff
	got := s1.Validators()
	got[0].ReportKey[0] ^= 0xff
	v := s1.Validator(0)
	v.PubKey[0] ^= 0xff
	if !s1.Equal(s2) {
		t.Fatal("a Set changed through a slice it was given or handed out")
	}
	if s1.TotalPower() != 10 || s1.Len() != 4 {
		t.Fatalf("total %d len %d", s1.TotalPower(), s1.Len())
	}
}

func TestSetLookups(t *testing.T) {
	s := mkSet(t, "a:1", "b:2", "c:3")
	b := val("b", 2)
	i := s.Index(b.PubKey)
	if i < 0 || s.Validator(i).Name != "b" {
		t.Fatalf("Index(b) = %d", i)
	}
	for name, got := range map[string]int{
		"name":       s.IndexOfName("b"),
		"report key": s.IndexOfReportKey(b.ReportKey),
		"address":    s.IndexOfAddress(Address(b.PubKey)),
		"ref name":   s.Resolve(ByName("b")),
		"ref key":    s.Resolve(ByKey(b.PubKey)),
	} {
		if got != i {
			t.Errorf("%s lookup = %d, want %d", name, got, i)
		}
	}
	for name, got := range map[string]int{
		"key":        s.Index(key("x")),
		"name":       s.IndexOfName("x"),
		"report key": s.IndexOfReportKey(b.PubKey), // a consensus key is not a report key
		"address":    s.IndexOfAddress(b.PubKey[:AddressSize]),
	} {
		if got != -1 {
			t.Errorf("missing %s lookup = %d, want -1", name, got)
		}
	}
	if s.Power(b.PubKey) != 2 || s.Power(key("x")) != 0 {
		t.Fatal("Power")
	}
	if got := (Set{}).Index(b.PubKey); got != -1 {
		t.Fatalf("zero Set Index = %d", got)
	}
}
