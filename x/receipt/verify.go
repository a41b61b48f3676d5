package receipt

import (
	"strings"

	"github.com/shopspring/decimal"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// Input is what Verify checks: a receipt, optionally the submission it
// belongs to, optionally the chain's params.
type Input struct {
	Receipt *subnetv1.Receipt
	// Commit is the receipt's commit section (CommitFields): the
	// submission's own commit facts, which the submission query lists as
	// receipt.commit and the state does not store twice.
	Commit []*subnetv1.Field
	// Answer is the submission's own facts; nil verifies a bare receipt,
	// whose median inputs are then listed as unchecked.
	Answer *Answer
	// Chain, when set, is the chain every recorded param, power and
	// total_power must equal ("params.<name>" mismatches). Nil checks the
	// receipt against itself only.
	Chain *Chain
}

// Answer is what a submission states beside its receipt.
type Answer struct {
	Submission uint64
	Track      string
	Status     string
	GasPrice   decimal.Decimal // gas: the predicted price
	Votes      []Vote          // workflow and arena: the measurement votes
	// UID is the miner's: a duplicate's keeper must precede (commit height, uid).
	UID uint32
	// CommitHeight is the submission's height (its commit's); RevealHeight
	// its reveal's, 0 if never revealed.
	CommitHeight, RevealHeight int64
	// Duplicate, and for a duplicate the keeper's uid and commit height.
	Duplicate         bool
	DuplicateOfUID    uint32
	DuplicateOfHeight int64
	// NearCopy: the duplicate verdict came from the validators' reports.
	NearCopy bool
}

// Vote is one validator's measurement: its Values are the median fields of
// the track, in the order of Medians(track).
type Vote struct {
	Validator string
	Values    []decimal.Decimal
	// DuplicateOf is the submission the validator named the reported one a
	// near-copy of (0: none).
	DuplicateOf uint64
}

// Mismatch is one value the receipt records differently from the recomputation.
type Mismatch struct {
	Name       string `json:"name"`
	Receipt    string `json:"receipt"`
	Recomputed string `json:"recomputed"`
}

// Result is the outcome of one verified (or refuted) receipt.
type Result struct {
	// Submission is the answer's id, or a bare gas receipt's
	// prediction_submission_id; nil for a bare workflow or arena receipt.
	Submission *uint64
	Track      string
	Verified   bool
	Checked    int        // values compared
	Mismatches []Mismatch // never nil
	Unchecked  []string   // recorded values nothing here can recompute
	// Commit is the receipt's commit section: commit and reveal heights
	// and the duplicate verdict.
	Commit Commit
}

// Verify rebuilds the formula's inputs and params from the receipt by name,
// runs the x/scoring function of its track, and compares every recorded
// value and the score with the recomputation as decimals. With an Answer the
// median inputs are re-derived from its votes and the recorded powers, and
// the answer must agree with the receipt (track, status, commit facts, and
// for gas the predicted price; a workflow's retry budget is a median input
// of the votes). A receipt whose note is "score: <error>" verifies when the
// recomputation fails with the same error.
//
// Every receipt has a commit section (CommitFields): duplicate must be true
// exactly when the status is "duplicate", and a revealed submission's
// reveal_height lies after its commit_height and no later than the
// receipt. A duplicate's receipt has no inputs: it verifies when its score
// is 0 and its keeper's commit precedes its own (commit.Precedes on the
// keeper's (commit height, uid) and the receipt's commit height with the
// answer's uid).
//
// The error is ErrNoReceipt, a *NameError or a *FieldError (both match
// ErrMalformed) when the receipt cannot be recomputed at all.
func Verify(in Input) (Result, error) {
	res := Result{Mismatches: []Mismatch{}}
	r := in.Receipt
	if r == nil {
		return res, ErrNoReceipt
	}
	c := &check{res: &res, answer: in.Answer, chain: in.Chain}
	if c.chain == nil {
		def := DefaultChain()
		c.chain, c.defaults = &def, true
	}
	if in.Answer != nil {
		id := in.Answer.Submission
		res.Submission = &id
	}
	res.Track = r.Track
	d := doc{Receipt: r, inputs: fieldsOf(r.Inputs), params: fieldsOf(r.Params), values: fieldsOf(r.Values)}
	cm, err := parseCommit(fieldsOf(in.Commit))
	if err != nil {
		return res, err
	}
	res.Commit = cm
	if r.Status == statusDuplicate {
		err = c.duplicate(d, cm)
	} else {
		err = c.formula(d)
	}
	if err != nil {
		return res, err
	}
	c.commitOrder(d, cm)
	if in.Answer != nil {
		c.answerFacts(d)
		c.answerCommit(cm)
	}
	res.Verified = len(res.Mismatches) == 0
	return res, nil
}

// formula recomputes a receipt of its track's formula.
func (c *check) formula(d doc) error {
	if len(d.inputs) == 0 {
		return fieldErrf("", "receipt has no inputs to recompute (status %q, note %q)", d.Status, d.Note)
	}
	switch d.Track {
	case scoring.TrackWorkflow:
		return c.workflow(d)
	case scoring.TrackArena:
		return c.arena(d)
	case scoring.TrackGas:
		return c.gas(d)
	}
	return fieldErrf("track", "%q is not workflow, arena or gas", d.Track)
}

// doc is a receipt with its sections as plain fields.
type doc struct {
	*subnetv1.Receipt
	inputs, params, values []field
}

// check accumulates the comparisons of one receipt.
type check struct {
	res      *Result
	answer   *Answer
	chain    *Chain
	defaults bool // chain is the default genesis, not the caller's: compare nothing with it
}

func (c *check) strict() bool { return !c.defaults }

func (c *check) mismatch(name, receipt, recomputed string) {
	c.res.Mismatches = append(c.res.Mismatches, Mismatch{Name: name, Receipt: receipt, Recomputed: recomputed})
}

// same compares a recorded value with a recomputed one: decimals as decimals
// (a recorded value that does not parse is a mismatch), the rest as text.
func (c *check) same(name, receipt string, want expected) {
	c.res.Checked++
	ok := receipt == want.text
	if want.dec {
		d, err := parseValue(receipt)
		ok = err == nil && d.Equal(want.value)
	}
	if !ok {
		c.mismatch(name, receipt, want.text)
	}
}

// answerFacts compares the answer with its receipt: the track, the status
// and what the submission itself carries into the inputs. A mismatch shows
// the receipt's value and the answer's (as "recomputed").
func (c *check) answerFacts(d doc) {
	a := c.answer
	c.same("submission.track", d.Track, expText(a.Track))
	c.same("submission.status", d.Status, expText(a.Status))
	in := fieldMap(d.inputs)
	if d.Track == scoring.TrackGas {
		c.same("submission.gas.price", in["prediction"], expDec(a.GasPrice))
	}
}

// compareParams checks each recorded param against the chain's value (strict only).
func (c *check) compareParams(recorded, chain []binding) {
	if !c.strict() {
		return
	}
	for i, b := range recorded {
		c.same("params."+b.name, b.text(), expText(chain[i].text()))
	}
}

// compareValues compares the receipt's values with the recomputed ones.
// Every recorded name must be recomputed and every recomputed name recorded.
func (c *check) compareValues(fs []field, want []binding) error {
	byName := make(map[string]expected, len(want))
	for _, w := range want {
		byName[w.name] = w.want()
	}
	seen := make(map[string]bool, len(fs))
	var dups, unknown, missing []string
	for _, f := range fs {
		if seen[f.Name] {
			dups = append(dups, f.Name)
		}
		seen[f.Name] = true
		if _, ok := byName[f.Name]; !ok {
			unknown = append(unknown, f.Name)
		}
	}
	for _, w := range want {
		if !seen[w.name] {
			missing = append(missing, w.name)
		}
	}
	if err := nameError("values", dups, unknown, missing); err != nil {
		return err
	}
	for _, f := range fs {
		c.same(f.Name, f.Value, byName[f.Name])
	}
	return nil
}

// compareScore checks the score: present when scored, absent otherwise.
func (c *check) compareScore(d doc, want expected) error {
	if d.Score == "" {
		if d.Status == "scored" {
			return fieldErrf("score", "missing from a scored receipt")
		}
		return nil
	}
	c.same("score", d.Score, want)
	return nil
}

// formulaFailed handles a recomputation that failed: the receipt must be the
// app's record of that same failure (no values, note "score: <error>").
func (c *check) formulaFailed(d doc, err error) error {
	if len(d.values) > 0 || d.Score != "" {
		return fieldErrf("", "recomputation failed (%v) but the receipt lists values", err)
	}
	c.same("note", d.Note, expText("score: "+err.Error()))
	return nil
}

// noValues is a receipt with inputs but no values: only a formula failure,
// which the recomputation must reproduce.
func (c *check) noValues(d doc) error {
	if strings.HasPrefix(d.Note, "score: ") {
		c.same("note", d.Note, expText(""))
		return nil
	}
	return fieldErrf("values", "none listed (status %q, note %q)", d.Status, d.Note)
}
