package receipt

import (
	"strconv"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Commit names (the receipt's commit section, every track).
const (
	CommitHeight            = "commit_height"
	RevealHeight            = "reveal_height"
	Duplicate               = "duplicate"
	DuplicateOfUID          = "duplicate_of_uid"
	DuplicateOfCommitHeight = "duplicate_of_commit_height"
)

// CommitFields is the commit section of a submission's receipt: the heights
// of its commit and reveal (0: never revealed), whether it is a duplicate
// and, for a duplicate, the uid and commit height of the submission that
// keeps the artifact.
func CommitFields(sub *subnetv1.Submission) []*subnetv1.Field {
	out := []*subnetv1.Field{
		{Name: CommitHeight, Value: strconv.FormatInt(sub.Height, 10)},
		{Name: RevealHeight, Value: strconv.FormatInt(sub.RevealHeight, 10)},
		{Name: Duplicate, Value: strconv.FormatBool(sub.Duplicate)},
	}
	if sub.Duplicate {
		out = append(out,
			&subnetv1.Field{Name: DuplicateOfUID, Value: strconv.FormatUint(uint64(sub.DuplicateOfUid), 10)},
			&subnetv1.Field{Name: DuplicateOfCommitHeight, Value: strconv.FormatInt(sub.DuplicateOfHeight, 10)})
	}
	return out
}
