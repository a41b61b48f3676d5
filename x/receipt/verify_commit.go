package receipt

import (
	"strconv"

	"github.com/scoringsubnet/validatord/x/commit"
	"github.com/scoringsubnet/validatord/x/quorum"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// statusDuplicate is the status of a submission that revealed an artifact
// another miner's earlier commit keeps (the app's track.StatusDuplicate).
const statusDuplicate = "duplicate"

// commitOrder checks the commit section against the receipt: duplicate is
// true exactly on a duplicate's receipt, and a revealed submission (a
// receipt with inputs, a duplicate, any non-zero reveal_height) was revealed
// after its commit and no later than the receipt's height.
func (c *check) commitOrder(d doc, cm Commit) {
	c.same("commit."+Duplicate, strconv.FormatBool(cm.Duplicate), expBool(d.Status == statusDuplicate))
	if len(d.inputs) == 0 && d.Status != statusDuplicate && cm.RevealHeight == 0 {
		return
	}
	c.res.Checked++
	if cm.RevealHeight <= cm.CommitHeight || cm.RevealHeight > d.Height {
		c.mismatch("commit."+RevealHeight, strconv.FormatInt(cm.RevealHeight, 10),
			"in ["+strconv.FormatInt(cm.CommitHeight+1, 10)+", "+strconv.FormatInt(d.Height, 10)+"]")
	}
}

// duplicate checks a duplicate's receipt (docs/commit-reveal.md §7): a
// workflow or arena submission with nothing measured, score 0, and the
// keeper's commit preceding its own (commit.Precedes: a lower commit
// height, then a lower uid; the uid is the answer's, so a bare receipt
// whose keeper committed in the same block leaves it unchecked).
func (c *check) duplicate(d doc, cm Commit) error {
	if d.Track != scoring.TrackWorkflow && d.Track != scoring.TrackArena {
		return fieldErrf("track", "%q has no duplicate rule (workflow and arena only)", d.Track)
	}
	params, powers, err := takePowers(d.params)
	if err != nil {
		return err
	}
	if len(d.inputs)+len(params)+len(d.values) > 0 || (len(powers) > 0 && !cm.NearCopy) {
		return fieldErrf("", "a duplicate's receipt lists inputs, params or values (nothing of it is measured; a near-copy's lists only its votes' powers)")
	}
	c.same("score", d.Score, expDec(scoring.Zero))
	if cm.NearCopy {
		if err := c.nearCopy(d, powers); err != nil {
			return err
		}
	}
	if !cm.Duplicate {
		return nil // no keeper recorded: commitOrder names the flag
	}
	keeper := commit.Claim{CommitHeight: cm.DuplicateOfCommitHeight, UID: cm.DuplicateOfUID}
	self := commit.Claim{CommitHeight: cm.CommitHeight}
	if c.answer == nil && keeper.CommitHeight == self.CommitHeight {
		c.res.Unchecked = append(c.res.Unchecked, "commit."+DuplicateOfUID)
		return nil
	}
	if c.answer != nil {
		self.UID = c.answer.UID
	}
	c.res.Checked++
	switch {
	case commit.Precedes(keeper, self):
	case keeper.CommitHeight > self.CommitHeight:
		c.mismatch("commit."+DuplicateOfCommitHeight, strconv.FormatInt(keeper.CommitHeight, 10), "<= "+strconv.FormatInt(self.CommitHeight, 10))
	default:
		c.mismatch("commit."+DuplicateOfUID, strconv.FormatUint(uint64(keeper.UID), 10), "< "+strconv.FormatUint(uint64(self.UID), 10))
	}
	return nil
}

// nearCopy checks a near-copy's verdict: its votes' powers add up to the
// reported power (and, with a chain, are the chain's), and over the
// answer's votes, weighed by them, quorum.Verdict names a submission. The
// named submission's uid and commit height are the commit section's, which
// duplicate checks precede; that the name is the one they belong to needs
// the named submission's answer, so it is not checked here. A bare receipt
// lists the verdict as unchecked.
func (c *check) nearCopy(d doc, powers []votePower) error {
	if err := c.checkPowers(d, powers); err != nil {
		return err
	}
	if c.answer == nil {
		c.res.Unchecked = append(c.res.Unchecked, "commit."+NearCopy)
		return nil
	}
	ws, err := voteWeights(c.answer.Votes, powers)
	if err != nil {
		return err
	}
	cs := make([]quorum.Choice, len(ws))
	for i, v := range c.answer.Votes {
		cs[i] = quorum.Choice{Power: ws[i], Name: v.DuplicateOf}
	}
	_, named := quorum.Verdict(cs, d.TotalPower)
	c.same("commit."+NearCopy, "true", expBool(named))
	return nil
}

// answerCommit compares the answer's commit facts with the receipt's
// commit section (the keeper's only on a duplicate's receipt).
func (c *check) answerCommit(cm Commit) {
	a := c.answer
	c.same("submission.height", strconv.FormatInt(cm.CommitHeight, 10), expInt(a.CommitHeight))
	c.same("submission.reveal_height", strconv.FormatInt(cm.RevealHeight, 10), expInt(a.RevealHeight))
	c.same("submission.duplicate", strconv.FormatBool(cm.Duplicate), expBool(a.Duplicate))
	if cm.Duplicate {
		c.same("submission.duplicate_of_uid", strconv.FormatUint(uint64(cm.DuplicateOfUID), 10), expInt(int64(a.DuplicateOfUID)))
		c.same("submission.duplicate_of_height", strconv.FormatInt(cm.DuplicateOfCommitHeight, 10), expInt(a.DuplicateOfHeight))
	}
	if cm.NearCopy || a.NearCopy {
		c.same("submission.near_copy", strconv.FormatBool(cm.NearCopy), expBool(a.NearCopy))
	}
}
