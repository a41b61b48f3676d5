package genesis

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// Track names.
const (
	TrackWorkflow = "workflow"
	TrackArena    = "arena"
	TrackGas      = "gas"
)

// TrackNames lists every known track in canonical order.
var TrackNames = []string{TrackWorkflow, TrackArena, TrackGas}

// Track is one track the chain runs and its share of the epoch weights.
type Track struct {
	Name  string          `json:"name"`
	Share decimal.Decimal `json:"share"`
}

func knownTrack(name string) bool {
	for _, n := range TrackNames {
		if n == name {
			return true
		}
	}
	return false
}

// validateTracks: at least one, known, unique, shares in (0, 1] with at most
// 18 places, summing to exactly 1.
func validateTracks(tracks []Track) error {
	if len(tracks) == 0 {
		return fieldErr("tracks", "[]", "at least one track is required")
	}
	sum := decimal.Zero
	for i, t := range tracks {
		field := fmt.Sprintf("tracks[%d]", i)
		if !knownTrack(t.Name) {
			return fieldErr(field+".name", t.Name, "unknown track (workflow, arena, gas)")
		}
		for j := 0; j < i; j++ {
			if tracks[j].Name == t.Name {
				return fieldErr(field+".name", t.Name, "duplicate track")
			}
		}
		if t.Share.Sign() <= 0 || t.Share.Cmp(scoring.One) > 0 {
			return fieldErr(field+".share", t.Share.String(), "must be in (0, 1]")
		}
		if !t.Share.Equal(scoring.Round(t.Share)) {
			return fieldErr(field+".share", t.Share.String(), "more than 18 decimal places")
		}
		sum = sum.Add(t.Share)
	}
	if !sum.Equal(scoring.One) {
		return fieldErr("tracks", sum.String(), "shares must sum to exactly 1")
	}
	return nil
}
