package client

import (
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// CommitBatch puts commits built by Commit into one MsgCommitBatch: many
// targets (the next k EVM blocks, several tasks, or both) under one
// signature. It refuses what the chain would refuse whole
// (wire.CheckBatchShape: 1 to wire.MaxBatch entries, no target twice) and
// a message that is not a commit with a target. Each entry then succeeds or
// fails on its own, as the single commit would (docs/commit-reveal.md §14).
func CommitBatch(commits ...*subnetv1.Msg) (*subnetv1.Msg, error) {
	entries := make([]*subnetv1.MsgCommit, len(commits))
	keys := make([]string, len(commits))
	for i, m := range commits {
		c := m.GetCommit()
		t, ok := commitTarget(c)
		if !ok {
			return nil, fmt.Errorf("commit batch: entry %d is not a commit to a task or an EVM block", i)
		}
		entries[i], keys[i] = c, t.String()
	}
	if terr := wire.CheckBatchShape("commit batch", "name", keys); terr != nil {
		return nil, terr
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_CommitBatch{CommitBatch: &subnetv1.MsgCommitBatch{Entries: entries}}}, nil
}

// RevealBatch puts reveals built by Reveal into one MsgRevealBatch, under
// CommitBatch's rule; an entry's target is its payload's task or EVM block.
func RevealBatch(reveals ...*subnetv1.Msg) (*subnetv1.Msg, error) {
	entries := make([]*subnetv1.MsgReveal, len(reveals))
	keys := make([]string, len(reveals))
	for i, m := range reveals {
		r := m.GetReveal()
		t, err := TargetOf(r.GetSubmit())
		if err != nil {
			return nil, fmt.Errorf("reveal batch: entry %d is not a reveal of a payload", i)
		}
		entries[i], keys[i] = r, t.String()
	}
	if terr := wire.CheckBatchShape("reveal batch", "name", keys); terr != nil {
		return nil, terr
	}
	return &subnetv1.Msg{Sum: &subnetv1.Msg_RevealBatch{RevealBatch: &subnetv1.MsgRevealBatch{Entries: entries}}}, nil
}

// commitTarget is the target a commit names in clear; false when c is nil
// or names none.
func commitTarget(c *subnetv1.MsgCommit) (Target, bool) {
	switch t := c.GetTarget().(type) {
	case *subnetv1.MsgCommit_TaskId:
		return Target{TaskID: t.TaskId}, true
	case *subnetv1.MsgCommit_Gas:
		if t.Gas != nil {
			return Target{Gas: true, EVMChainID: t.Gas.EvmChainId, EVMBlock: t.Gas.EvmBlock}, true
		}
	}
	return Target{}, false
}

// GasRun is the predictions of n consecutive blocks of an EVM chain from
// first, for one commit batch: prices holds one price for every block or
// one per block, in block order. n is at most wire.MaxBatch.
func GasRun(evmChainID, first uint64, n int, prices []string) ([]*subnetv1.MsgSubmit, error) {
	switch {
	case n < 1 || n > wire.MaxBatch:
		return nil, fmt.Errorf("gas run of %d blocks: must be in [1, %d]", n, wire.MaxBatch)
	case first+uint64(n)-1 < first:
		return nil, fmt.Errorf("gas run of %d blocks from %d: past the largest block number", n, first)
	case len(prices) != 1 && len(prices) != n:
		return nil, fmt.Errorf("gas run of %d blocks with %d prices: give one price for all or one per block", n, len(prices))
	}
	out := make([]*subnetv1.MsgSubmit, n)
	for i := range out {
		out[i] = GasPayload(evmChainID, first+uint64(i), prices[min(i, len(prices)-1)])
	}
	return out, nil
}

// BatchBytes bounds the encoded message of one batch that RevealBatches
// builds: the genesis default of chain.max_tx_bytes (16 KiB) less room for
// the signed envelope (sender key, signature, chain id, nonce). 256 gas
// reveals with 18-place prices take 18,301 bytes signed, so they do not
// fit one transaction (RevealBatches makes 211 and 45); 256 gas commits
// take 11,898, so they do.
const BatchBytes = 16*1024 - 512

// RevealBatches puts reveals built by Reveal into as few MsgRevealBatches
// as keep each within wire.MaxBatch entries and BatchBytes, in order.
func RevealBatches(reveals ...*subnetv1.Msg) ([]*subnetv1.Msg, error) {
	var out []*subnetv1.Msg
	for _, r := range batchRuns(reveals) {
		b, err := RevealBatch(r...)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// batchRuns splits msgs into runs of at most wire.MaxBatch whose entries'
// encoded sizes (each with its field tag and length) add up to at most
// BatchBytes; an entry larger than that alone is a run of its own (the
// chain refuses its transaction as too large).
func batchRuns(msgs []*subnetv1.Msg) [][]*subnetv1.Msg {
	var out [][]*subnetv1.Msg
	start, bytes := 0, 0
	for i, m := range msgs {
		n := m.Size() + 4
		if i > start && (i-start == wire.MaxBatch || bytes+n > BatchBytes) {
			out = append(out, msgs[start:i])
			start, bytes = i, 0
		}
		bytes += n
	}
	if start < len(msgs) {
		out = append(out, msgs[start:])
	}
	return out
}
