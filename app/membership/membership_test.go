package membership

import (
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// TestBlockRegistrations: the block's count is the record's only when the
// record is of this height; a new height starts at 0.
func TestBlockRegistrations(t *testing.T) {
	r := &subnetv1.Registration{BlockHeight: 7, BlockRegistrations: 3}
	if got := blockRegistrations(r, 7); got != 3 {
		t.Errorf("at height 7: %d, want 3", got)
	}
	if got := blockRegistrations(r, 8); got != 0 {
		t.Errorf("at height 8: %d, want 0", got)
	}
}
