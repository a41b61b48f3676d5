package store

import (
	"encoding/binary"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Message is what the state stores: a gogoproto message.
type Message interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// State is the typed view of an overlay used by validity, execution and queries.
type State struct{ O *Overlay }

// Load decodes the value at k into m; false when absent. A stored value that
// does not decode is a broken invariant (only this code writes it).
func (s State) Load(k []byte, m Message) bool {
	bz, ok := s.O.Get(k)
	if !ok {
		return false
	}
	if err := m.Unmarshal(bz); err != nil {
		panic(fmt.Sprintf("store: corrupt state at %x: %v", k, err))
	}
	return true
}

func (s State) Save(k []byte, m Message) { s.O.Set(k, encode(k, m)) }

// Create saves m at a key that has never held a value (Overlay.Create).
func (s State) Create(k []byte, m Message) { s.O.Create(k, encode(k, m)) }

// encode is m's stored bytes; a message that does not encode is a broken
// invariant (only this code builds them).
func encode(k []byte, m Message) []byte {
	bz, err := m.Marshal()
	if err != nil {
		panic(fmt.Sprintf("store: encode state at %x: %v", k, err))
	}
	return bz
}

func (s State) Has(k []byte) bool {
	_, ok := s.O.Get(k)
	return ok
}

func (s State) Account(pub []byte) *subnetv1.Account {
	a := &subnetv1.Account{}
	s.Load(KeyAccount(pub), a)
	return a
}

func (s State) Counters() *subnetv1.Counters {
	c := &subnetv1.Counters{}
	s.Load(KeyCounters, c)
	return c
}

func (s State) Registration() *subnetv1.Registration {
	r := &subnetv1.Registration{}
	s.Load(KeyRegistration, r)
	return r
}

// BlockHash is the recorded hash of the block at height; false when the
// height is not among the recent blocks kept.
func (s State) BlockHash(height int64) ([]byte, bool) {
	if height < 0 {
		return nil, false
	}
	b := &subnetv1.BlockHash{}
	ok := s.Load(KeyBlockHash(height), b)
	return b.Hash, ok
}

func (s State) Task(id uint64) (*subnetv1.Task, bool) {
	t := &subnetv1.Task{}
	return t, s.Load(KeyTask(id), t)
}

func (s State) Submission(id uint64) (*subnetv1.Submission, bool) {
	sub := &subnetv1.Submission{}
	return sub, s.Load(KeySubmission(id), sub)
}

func (s State) GasChain(chain uint64) *subnetv1.GasChain {
	g := &subnetv1.GasChain{EvmChainId: chain}
	s.Load(KeyGasChain(chain), g)
	return g
}

func (s State) Truth(chain, block uint64) (*subnetv1.TruthRound, bool) {
	r := &subnetv1.TruthRound{}
	return r, s.Load(KeyTruth(chain, block), r)
}

func (s State) Predictions(chain, block uint64) *subnetv1.PredictionSet {
	p := &subnetv1.PredictionSet{}
	s.Load(KeyPredictionSet(chain, block), p)
	return p
}

// TaskMiner returns the submission id of a miner's submission to a task.
func (s State) TaskMiner(task uint64, uid uint32) (uint64, bool) {
	bz, ok := s.O.Get(KeyTaskMiner(task, uid))
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint64(bz), true
}

// U64Bytes encodes v big-endian (the value of a task_miner entry).
func U64Bytes(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// SetTaskMiner records sid as uid's submission to task.
func (s State) SetTaskMiner(task uint64, uid uint32, sid uint64) {
	s.O.Set(KeyTaskMiner(task, uid), U64Bytes(sid))
}

// Delete removes the entry at k.
func (s State) Delete(k []byte) { s.O.Delete(k) }

// RegCount is the number of registrations at height still counted immune.
func (s State) RegCount(height int64) uint64 {
	bz, ok := s.O.Get(KeyRegCount(height))
	if !ok {
		return 0
	}
	return binary.BigEndian.Uint64(bz)
}

// SetRegCount sets RegCount(height); 0 deletes the entry.
func (s State) SetRegCount(height int64, n uint64) {
	if n == 0 {
		if s.Has(KeyRegCount(height)) {
			s.Delete(KeyRegCount(height))
		}
		return
	}
	s.O.Set(KeyRegCount(height), U64Bytes(n))
}
