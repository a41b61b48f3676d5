package window

import (
	"testing"

	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TestQuorumPlacesMatchScoring ties x/quorum's own copy of the place limit
// (it imports nothing of the module) to scoring.Places, which this package
// and every value it stores use: a vote value that the quorum accepts must fit here too.
func TestQuorumPlacesMatchScoring(t *testing.T) {
	if quorum.Places != scoring.Places {
		t.Fatalf("quorum.Places = %d, scoring.Places = %d", quorum.Places, scoring.Places)
	}
}
