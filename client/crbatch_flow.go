package client

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// EntryOutcome is one entry of a commit or reveal batch as its block saw
// it: the code of its commit_entry or reveal_entry event, and the
// submission its commit created or its reveal opened.
type EntryOutcome struct {
	Target       Target  `json:"target"`
	Code         uint32  `json:"code"`
	Name         string  `json:"name"`
	Log          string  `json:"log,omitempty"`
	SubmissionID *uint64 `json:"submission_id,omitempty"`
}

// BatchResult is what a batch flow did: the commit batch's block result
// and its entries, the reveal batches' (one per block they went in), and
// the files of the pending reveals still stored. Its JSON is what
// `validatord tx submit gas --blocks N` and `tx reveal --all` print.
type BatchResult struct {
	Commit        *TxResult      `json:"commit,omitempty"`
	CommitEntries []EntryOutcome `json:"commit_entries,omitempty"`
	Reveals       []TxResult     `json:"reveals,omitempty"`
	RevealEntries []EntryOutcome `json:"reveal_entries,omitempty"`
	// Waiting names the targets not revealed, each with why (a window not
	// open yet, or closed).
	Waiting []string `json:"waiting,omitempty"`
	Pending []string `json:"pending,omitempty"`
}

// BatchEntries reads the entries of a batch's block result, in order: the
// entry events of type event (wire.EventCommitEntry or EventRevealEntry)
// and the submission id of the submission_received or submission_revealed
// event that follows an applied entry's.
func BatchEntries(res TxResult, event string) []EntryOutcome {
	var out []EntryOutcome
	for _, e := range res.Events {
		switch e.Type {
		case event:
			out = append(out, entryOutcome(e))
		case wire.EventSubmissionAdded, wire.EventSubmissionRevealed:
			if n := len(out); n > 0 && out[n-1].SubmissionID == nil && out[n-1].Code == wire.CodeOK {
				if id, err := strconv.ParseUint(attr(e, "submission_id"), 10, 64); err == nil {
					out[n-1].SubmissionID = &id
				}
			}
		}
	}
	return out
}

func entryOutcome(e Event) EntryOutcome {
	o := EntryOutcome{Name: attr(e, "name"), Log: attr(e, "log")}
	if code, err := strconv.ParseUint(attr(e, "code"), 10, 32); err == nil {
		o.Code = uint32(code)
	}
	if task := attr(e, "task_id"); task != "" {
		o.Target.TaskID, _ = strconv.ParseUint(task, 10, 64)
	} else {
		o.Target.Gas = true
		o.Target.EVMChainID, _ = strconv.ParseUint(attr(e, "evm_chain_id"), 10, 64)
		o.Target.EVMBlock, _ = strconv.ParseUint(attr(e, "evm_block"), 10, 64)
	}
	return o
}

// attr is the value of key in e ("" when absent).
func attr(e Event, key string) string {
	for _, a := range e.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return ""
}

// CommitPayloads commits the Signer's key, as miner uid, to every payload
// in one MsgCommitBatch (CommitBatch): a fresh salt per target, every
// entry written to store before the batch is broadcast (as CommitPayload
// writes one), then the batch's block awaited. Each entry the block applied
// gets its commit height and submission id; each it refused is removed (its
// commit never happened), as are all it created when the batch is refused
// whole. Stored entries of the same key and payloads whose commit no block
// holds — a run cut short by a crash, run again with the same flags — are
// resumed with their salts, as CommitPayload resumes one: the commitments
// are the same, so whichever batch lands, the entries open it. Any other
// stored entry for a target is ErrRevealExists and nothing is sent. When
// the outcome is unknown the entries stay.
func (s *Signer) CommitPayloads(ctx context.Context, store *SaltStore, uid uint32, payloads []*subnetv1.MsgSubmit) (BatchResult, error) {
	if store.ChainID() != s.chainID {
		return BatchResult{}, fmt.Errorf("client: a store of chain %q for a signer of %q", store.ChainID(), s.chainID)
	}
	entries := make([]PendingReveal, len(payloads))
	commits := make([]*subnetv1.Msg, len(payloads))
	// stored[i]: entry i is in store (a resumed one from the start);
	// created[i]: this call created it; resumed[i]: it was stored before
	stored, created := make([]bool, len(payloads)), make([]bool, len(payloads))
	resumed := make([]bool, len(payloads))
	for i, p := range payloads {
		t, err := TargetOf(p)
		if err != nil {
			return BatchResult{}, err
		}
		e, again, err := s.entryFor(store, t, uid, p)
		if err != nil {
			return BatchResult{}, err
		}
		if again {
			if res, ok := s.findCommit(ctx, e); ok {
				return BatchResult{}, fmt.Errorf("%w for %s: its commit %s is in block %d; reveal it (tx reveal --all)", ErrRevealExists, t, res.Hash, res.Height)
			}
			stored[i], resumed[i] = true, true
		}
		entries[i] = e
		if commits[i], err = Commit(s.chainID, s.PubKey(), uid, p, e.Salt); err != nil {
			return BatchResult{}, err
		}
	}
	msg, err := CommitBatch(commits...)
	if err != nil {
		return BatchResult{}, err
	}
	res, err := s.send(ctx, msg, func(hash string) error {
		for i := range entries {
			entries[i].CommitTx = hash
			write := store.Create
			if stored[i] {
				write = store.Update
			}
			if err := write(entries[i]); err != nil {
				return err
			}
			created[i] = created[i] || !stored[i]
			stored[i] = true
		}
		return nil
	})
	if err == nil {
		res, err = s.waitTx(ctx, res.Hash, s.txTimeout())
	}
	out := BatchResult{Commit: &res}
	var te *TxError
	switch {
	case err == nil:
		out.CommitEntries = BatchEntries(res, wire.EventCommitEntry)
		err = recordBatch(store, entries, out.CommitEntries, res.Height, resumed)
	case errors.As(err, &te):
		for i, p := range entries {
			if !created[i] {
				continue
			}
			if rerr := store.Remove(p.Target); rerr != nil {
				err = fmt.Errorf("%w (removing its pending reveal of %s: %v)", err, p.Target, rerr)
			}
		}
	case slices.Contains(stored, true):
		err = fmt.Errorf("commit batch: %w (outcome unknown: the salts stay in %s)", err, store.Dir())
	}
	out.Pending = pendingFiles(store, entries)
	return out, err
}

// recordBatch stores each applied entry's commit height and submission id,
// and removes each refused entry's file. A resumed entry refused as a
// second commit (28) is kept: the earlier copy of its commit, sent before
// a crash or dropped by a node and then taken after all, is on chain with
// the same commitment, and the stored salt is what opens it.
func recordBatch(store *SaltStore, entries []PendingReveal, outcomes []EntryOutcome, height int64, resumed []bool) error {
	if len(outcomes) != len(entries) {
		return fmt.Errorf("client: the commit batch's block lists %d entries, want %d: the salts stay in %s", len(outcomes), len(entries), store.Dir())
	}
	var errs []error
	for i, p := range entries {
		if outcomes[i].Code == wire.CodeDuplicateSubmission && resumed[i] {
			p.CommitHeight = height // at or before: the earlier copy's block
			errs = append(errs, store.Update(p))
			continue
		}
		if outcomes[i].Code != wire.CodeOK {
			errs = append(errs, store.Remove(p.Target))
			continue
		}
		p.CommitHeight, p.SubmissionID = height, outcomes[i].SubmissionID
		errs = append(errs, store.Update(p))
	}
	return errors.Join(errs...)
}

// pendingFiles are the files of the entries still stored.
func pendingFiles(store *SaltStore, entries []PendingReveal) []string {
	var out []string
	for _, p := range entries {
		if f := store.Pending(p.Target); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// RevealOpen reveals, in MsgRevealBatches of at most wire.MaxBatch
// entries and BatchBytes (RevealBatches), the stored entries of targets whose reveal window is open for
// the next block (CheckRevealWindow), waiting for each batch's block; an
// entry the block applied, or refused as a second reveal (28: the first is
// on chain), is removed. The targets left out are in Waiting with why;
// closed ones (ErrRevealClosed) stay in store. Nothing is sent when no
// window is open.
func (s *Signer) RevealOpen(ctx context.Context, store *SaltStore, targets []Target) (BatchResult, []Target, error) {
	c, err := s.chain()
	if err != nil {
		return BatchResult{}, nil, err
	}
	var out BatchResult
	var ready []PendingReveal
	var left []Target
	for _, t := range targets {
		p, err := store.Load(t)
		if err != nil {
			return out, nil, err
		}
		if res, ok := s.findCommit(ctx, p); ok {
			p, _, err = recordCommit(store, p, res)
			if errors.Is(err, ErrCommitRefused) {
				out.Waiting = append(out.Waiting, err.Error())
				continue
			}
			if err != nil {
				return out, nil, err
			}
		}
		werr := CheckRevealWindow(ctx, c, p)
		switch {
		case werr == nil:
			ready = append(ready, p)
		case errors.Is(werr, ErrRevealTooEarly):
			left = append(left, t)
			out.Waiting = append(out.Waiting, werr.Error())
		case errors.Is(werr, ErrRevealClosed):
			out.Waiting = append(out.Waiting, werr.Error())
		default:
			return out, nil, werr
		}
	}
	reveals := make([]*subnetv1.Msg, len(ready))
	for i, p := range ready {
		reveals[i] = Reveal(p.Payload, p.Salt)
	}
	for _, run := range batchRuns(reveals) {
		if err := s.revealRun(ctx, store, ready[:len(run)], run, &out); err != nil {
			return out, left, err
		}
		ready = ready[len(run):]
	}
	return out, left, nil
}

// revealRun sends the reveals of the entries in one reveal batch and
// records its outcome.
func (s *Signer) revealRun(ctx context.Context, store *SaltStore, entries []PendingReveal, reveals []*subnetv1.Msg, out *BatchResult) error {
	msg, err := RevealBatch(reveals...)
	if err != nil {
		return err
	}
	res, err := s.SendWait(ctx, msg, s.txTimeout())
	if res.Hash != "" {
		out.Reveals = append(out.Reveals, res)
	}
	if err != nil {
		return err
	}
	got := BatchEntries(res, wire.EventRevealEntry)
	out.RevealEntries = append(out.RevealEntries, got...)
	var errs []error
	for i, o := range got {
		if i < len(entries) && (o.Code == wire.CodeOK || o.Code == wire.CodeDuplicateSubmission) {
			errs = append(errs, store.Remove(entries[i].Target))
		}
	}
	return errors.Join(errs...)
}

// RevealAll reveals the stored entries of targets as their windows open:
// RevealOpen every poll until no target waits for its window, so that a
// run of EVM blocks is revealed in batches as each truth becomes final,
// at the first block it may. Targets whose window closed are in the
// result's Waiting and end it with ErrRevealClosed; the end of ctx ends
// the wait.
func (s *Signer) RevealAll(ctx context.Context, store *SaltStore, targets []Target, poll time.Duration) (BatchResult, error) {
	var all BatchResult
	for {
		out, left, err := s.RevealOpen(ctx, store, targets)
		all.Reveals = append(all.Reveals, out.Reveals...)
		all.RevealEntries = append(all.RevealEntries, out.RevealEntries...)
		all.Waiting = out.Waiting
		if err != nil {
			return all, err
		}
		if len(left) == 0 {
			if len(all.Waiting) > 0 {
				return all, fmt.Errorf("%w: %d of the targets were not revealed (waiting lists them)", ErrRevealClosed, len(all.Waiting))
			}
			return all, nil
		}
		targets = left
		select {
		case <-ctx.Done():
			return all, fmt.Errorf("%w (%d targets still wait for their reveal window)", ctx.Err(), len(left))
		case <-time.After(poll):
		}
	}
}

// SubmitAllAndReveal is CommitPayloads, then RevealAll of the entries the
// commit batch applied.
func (s *Signer) SubmitAllAndReveal(ctx context.Context, store *SaltStore, uid uint32, payloads []*subnetv1.MsgSubmit) (BatchResult, error) {
	out, err := s.CommitPayloads(ctx, store, uid, payloads)
	if err != nil {
		return out, err
	}
	var targets []Target
	for _, o := range out.CommitEntries {
		if o.Code == wire.CodeOK {
			targets = append(targets, o.Target)
		}
	}
	rev, err := s.RevealAll(ctx, store, targets, s.poll())
	out.Reveals, out.RevealEntries, out.Waiting = rev.Reveals, rev.RevealEntries, rev.Waiting
	out.Pending = nil
	for _, t := range targets {
		if f := store.Pending(t); f != "" {
			out.Pending = append(out.Pending, f)
		}
	}
	return out, err
}
