package simsubnet

import (
	"slices"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Kind is the kind of a message.
type Kind int

// The kinds of messages the sim sends.
const (
	KindRegister Kind = iota
	KindPostTask
	KindCommit
	KindReveal
	KindReport
	KindTruth
	kindCount
)

var kindNames = [kindCount]string{"register", "post_task", "commit", "reveal", "report", "truth"}

func (k Kind) String() string { return kindNames[k] }

// TxCount counts one kind of message of one track: Sent (signed and given
// to CheckTx), Checked (CheckTx took it: one signature verified on the
// node, which block execution then finds in its cache), Included in a block
// with its Bytes, and refused by CheckTx or evicted at a recheck, by code
// name. Entries counts the same for what the transactions carry.
type TxCount struct {
	Sent, Checked, Included int
	// NotSent: reports an actor dropped because a committed block had
	// already settled their submission.
	NotSent          int
	Bytes            int64
	Refused, Evicted map[string]int
	Entries          EntryCount
}

// EntryCount counts the messages transactions carry: a batch's entries,
// one for any other transaction. Sent, Checked and Included as
// for the transactions; RefusedInBlock are entries of batches in blocks
// that execution refused while the rest applied (their report_entry
// event's code name), which a refusal of the whole transaction does not
// count.
type EntryCount struct {
	Sent, Checked, Included int
	RefusedInBlock          map[string]int
}

// entries is how many messages m's transaction carries.
func entries(m message) int { return batchEntries(m.msg) }

// batchEntries is wire.Entries.
func batchEntries(msg *subnetv1.Msg) int { return wire.Entries(msg) }

// BlockStat is one height: its transactions and bytes, the proposer's
// PrepareProposal, and ProcessProposal + FinalizeBlock + Commit (what every
// validator runs) in wall time and in the process' CPU time.
type BlockStat struct {
	Height     int64
	Txs, Bytes int
	Prepare    time.Duration
	PrepareCPU time.Duration
	Wall, CPU  time.Duration
	Epoch      bool
	// Written is the bytes the block wrote to the state (keys and values,
	// deletions included: App.PendingWork).
	Written int
	// Records is the provable records the block changed, TreeNodes and
	// TreeBytes the record trees' nodes written for them (App.PendingWork).
	Records, TreeNodes, TreeBytes int
}

// Sample is the state's size after a height: the app's entries and their
// bytes (App.StateSize) and badger's directory on disk.
type Sample struct {
	Height      int64
	Keys, Bytes int64
	DiskBytes   int64
}

// Stats is what one run counted.
type Stats struct {
	counts map[string]*[kindCount]TxCount
	Blocks []BlockStat
	// CheckCPU is the process' CPU in CheckTx and the mempool's rechecks
	// (every validator's node runs both for every transaction).
	CheckCPU time.Duration
	// Samples of the state's size.
	Samples []Sample
}

func newStats() *Stats { return &Stats{counts: map[string]*[kindCount]TxCount{}} }

// Count is the count of one track's (or "" for none: registrations) kind.
func (s *Stats) Count(track string, k Kind) TxCount {
	if c, ok := s.counts[track]; ok {
		return c[k]
	}
	return TxCount{}
}

func (s *Stats) count(track string, k Kind) *TxCount {
	c, ok := s.counts[track]
	if !ok {
		c = new([kindCount]TxCount)
		s.counts[track] = c
	}
	return &c[k]
}

func (s *Stats) refuse(track string, k Kind, code uint32) {
	c := s.count(track, k)
	if c.Refused == nil {
		c.Refused = map[string]int{}
	}
	c.Refused[wire.CodeName(code)]++
}

func (s *Stats) evict(track string, k Kind, code uint32) {
	c := s.count(track, k)
	if c.Evicted == nil {
		c.Evicted = map[string]int{}
	}
	c.Evicted[wire.CodeName(code)]++
}

func (s *Stats) include(track string, k Kind, bytes, entries int) {
	c := s.count(track, k)
	c.Included++
	c.Bytes += int64(bytes)
	c.Entries.Included += entries
}

func (s *Stats) refuseEntry(track string, k Kind, name string) {
	c := s.count(track, k)
	if c.Entries.RefusedInBlock == nil {
		c.Entries.RefusedInBlock = map[string]int{}
	}
	c.Entries.RefusedInBlock[name]++
}

// percentiles are p50, p99 and the max of ds (nearest rank).
func percentiles(ds []time.Duration) (p50, p99, max time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := func(p int) time.Duration { return s[(len(s)*p+99)/100-1] }
	return rank(50), rank(99), s[len(s)-1]
}
