package receipt

import (
	"math"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Commit names (the receipt's commit section, every track).
const (
	CommitHeight            = "commit_height"
	RevealHeight            = "reveal_height"
	Duplicate               = "duplicate"
	DuplicateOfUID          = "duplicate_of_uid"
	DuplicateOfCommitHeight = "duplicate_of_commit_height"
	NearCopy                = "near_copy"
)

// Commit is a receipt's commit section: the heights of the submission's
// commit and reveal (0: never revealed), whether it is a duplicate and, for
// a duplicate, the uid and commit height of the submission that keeps the
// artifact (0 otherwise); NearCopy when the duplicate verdict came from
// the validators' reports rather than an equal artifact hash.
type Commit struct {
	CommitHeight            int64
	RevealHeight            int64
	Duplicate               bool
	DuplicateOfUID          uint32
	DuplicateOfCommitHeight int64
	NearCopy                bool
}

// commitRecord is the section as the schemas bind it (integers as int64).
type commitRecord struct {
	commit, reveal  int64
	duplicate       bool
	keeperUID, kept int64
	nearCopy        bool
}

func commitSchema(r *commitRecord) []binding {
	return []binding{bInt(CommitHeight, &r.commit), bInt(RevealHeight, &r.reveal), bBool(Duplicate, &r.duplicate)}
}

// keeperSchema is the part a duplicate adds.
func keeperSchema(r *commitRecord) []binding {
	return []binding{bInt(DuplicateOfUID, &r.keeperUID), bInt(DuplicateOfCommitHeight, &r.kept)}
}

// CommitFields is the commit section of a submission's receipt: the heights
// of its commit and reveal (0: never revealed), whether it is a duplicate
// and, for a duplicate, the uid and commit height of the submission that
// keeps the artifact, then near_copy (true) for a near-copy only, so that
// the section of every other submission is what it always was.
func CommitFields(sub *subnetv1.Submission) []*subnetv1.Field {
	r := commitRecord{commit: sub.Height, reveal: sub.RevealHeight, duplicate: sub.Duplicate,
		keeperUID: int64(sub.DuplicateOfUid), kept: sub.DuplicateOfHeight, nearCopy: sub.NearCopy}
	out := build(commitSchema(&r))
	if sub.Duplicate {
		out = append(out, build(keeperSchema(&r))...)
	}
	if sub.NearCopy {
		out = append(out, build(nearCopySchema(&r))...)
	}
	return out
}

// nearCopySchema is the part a near-copy adds.
func nearCopySchema(r *commitRecord) []binding { return []binding{bBool(NearCopy, &r.nearCopy)} }

// parseCommit reads a receipt's commit section: commit_height,
// reveal_height and duplicate always, the keeper's two fields exactly when
// duplicate is true, and near_copy when present (a near-copy's).
func parseCommit(fs []field) (Commit, error) {
	if len(fs) == 0 {
		return Commit{}, fieldErrf("commit", "missing: every receipt records its commit and reveal heights")
	}
	var r commitRecord
	schema := commitSchema(&r)
	given := fieldMap(fs)
	if given[Duplicate] == "true" {
		schema = append(schema, keeperSchema(&r)...)
	}
	if _, ok := given[NearCopy]; ok {
		schema = append(schema, nearCopySchema(&r)...)
	}
	if err := bind("commit", fs, schema); err != nil {
		return Commit{}, err
	}
	switch {
	case r.commit < 1:
		return Commit{}, fieldErrf("commit."+CommitHeight, "%d is not a block height", r.commit)
	case r.reveal < 0:
		return Commit{}, fieldErrf("commit."+RevealHeight, "%d is negative", r.reveal)
	case r.duplicate && (r.keeperUID < 0 || r.keeperUID > math.MaxUint32):
		return Commit{}, fieldErrf("commit."+DuplicateOfUID, "%d is not a uid", r.keeperUID)
	case r.duplicate && r.kept < 1:
		return Commit{}, fieldErrf("commit."+DuplicateOfCommitHeight, "%d is not a block height", r.kept)
	case r.nearCopy && !r.duplicate:
		return Commit{}, fieldErrf("commit."+NearCopy, "true without duplicate: a near-copy is a duplicate")
	}
	return Commit{CommitHeight: r.commit, RevealHeight: r.reveal, Duplicate: r.duplicate,
		DuplicateOfUID: uint32(r.keeperUID), DuplicateOfCommitHeight: r.kept, NearCopy: r.nearCopy}, nil
}
