package kernel

import (
	"errors"

	"github.com/scoringsubnet/validatord/app/store"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// ErrPreviousOwner: the submission was made by a previous owner of its uid
// (the uid was replaced after the commit); it is never scored for the
// owner that holds the uid now (docs/membership.md §8).
var ErrPreviousOwner = errors.New("the uid changed owner after this commit; the submission is not scored for the new owner")

// PreviousOwner reports whether sub was made by an earlier owner of its
// uid: the current owner's first_submission is above sub's id (ids only
// grow). One read.
func PreviousOwner(st store.State, sub *subnetv1.Submission) bool {
	m := &subnetv1.Miner{}
	return st.Load(store.KeyMiner(sub.Uid), m) && sub.Id < m.FirstSubmission
}
