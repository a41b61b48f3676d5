package valset

import (
	"bytes"
	"testing"
)

func TestApproveRefusals(t *testing.T) {
	set := mkSet(t, "a:10", "b:20", "c:30")
	p := setProposal(AddValidator(val("d", 5))) // expires at 150
	p, err := Approve(p, key("c:a"), set, 60)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		voter  []byte
		height int64
		want   error
	}{
		{"past the expiry", key("c:b"), 151, ErrExpired},
		{"not a validator", key("c:z"), 60, ErrNotValidator},
		{"a report key is not a voter", key("r:b"), 60, ErrNotValidator},
		{"a second approval", key("c:a"), 61, ErrDuplicateApproval},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Approve(p, tt.voter, set, tt.height)
			wantErr(t, err, tt.want)
			if got.ID != 0 || len(p.Approvals) != 1 {
				t.Fatal("a refused approval returned a proposal or changed its input")
			}
		})
	}
	if _, err := Approve(p, key("c:b"), set, 150); err != nil {
		t.Fatalf("an approval at the expiry height: %v", err)
	}
}

func TestApproveKeepsApprovalsSortedAndInputIntact(t *testing.T) {
	set := mkSet(t, "a:10", "b:20", "c:30")
	p0 := setProposal(AddValidator(val("d", 5)))
	p1, _ := Approve(p0, key("c:c"), set, 60)
	p2, _ := Approve(p1, key("c:a"), set, 60)
	p3, err := Approve(p2, key("c:b"), set, 60)
	if err != nil {
		t.Fatal(err)
	}
	if len(p0.Approvals) != 0 || len(p1.Approvals) != 1 || len(p2.Approvals) != 2 || len(p3.Approvals) != 3 {
		t.Fatal("Approve changed its input")
	}
	for i := 1; i < len(p3.Approvals); i++ {
		if bytes.Compare(p3.Approvals[i-1], p3.Approvals[i]) >= 0 {
			t.Fatal("approvals not ascending")
		}
	}
}

func TestApproved(t *testing.T) {
	// Total 30: 2/3 is 20, which is not enough; 21 is.
	set := mkSet(t, "a:10", "b:10", "c:9", "d:1")
	tests := []struct {
		name   string
		voters []string
		want   bool
	}{
		{"none", nil, false},
		{"a third", []string{"a"}, false},
		{"exactly 2/3", []string{"a", "b"}, false},
		{"just over 2/3", []string{"a", "b", "d"}, true},
		{"all", []string{"a", "b", "c", "d"}, true},
		{"over 2/3 without the largest", []string{"b", "c", "d"}, false}, // 20
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setProposal(Remove(ByName("d")))
			for _, v := range tt.voters {
				var err error
				if p, err = Approve(p, key("c:"+v), set, 60); err != nil {
					t.Fatal(err)
				}
			}
			if got := Approved(p, set); got != tt.want {
				t.Fatalf("Approved = %v with %d of %d", got, ApprovedPower(p, set), set.TotalPower())
			}
		})
	}
}

func TestApprovedUsesTheCurrentSet(t *testing.T) {
	// a and b approved under the old set (20 of 30: not enough). Then b's
	// power rises to 40 and d joins at 1: 50 of 61 is over 2/3. Then b leaves:
	// its approval counts nothing, a's 10 remain.
	old := mkSet(t, "a:10", "b:10", "c:10")
	p := setProposal(RotateReportKey(ByName("c"), key("x")))
	p, _ = Approve(p, key("c:a"), old, 60)
	p, _ = Approve(p, key("c:b"), old, 60)
	if Approved(p, old) {
		t.Fatal("2/3 approved")
	}
	cur, _, err := Apply(old, []Change{SetPower(ByName("b"), 40), AddValidator(val("d", 1))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !Approved(p, cur) || ApprovedPower(p, cur) != 50 {
		t.Fatalf("approved power %d of %d", ApprovedPower(p, cur), cur.TotalPower())
	}
	gone, _, _ := Apply(cur, []Change{Remove(ByName("b"))}, nil)
	if Approved(p, gone) || ApprovedPower(p, gone) != 10 {
		t.Fatalf("a removed approver still counts: %d", ApprovedPower(p, gone))
	}
	if Approved(p, Set{}) {
		t.Fatal("approved by the empty set")
	}
	// A duplicated approval (a malformed stored proposal) counts once.
	p.Approvals = append(p.Approvals, key("c:a"))
	if ApprovedPower(p, old) != 20 {
		t.Fatal("a duplicate approval counts twice")
	}
}
