package app

import (
	"encoding/binary"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

type protoMsg interface {
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// state is the typed view of an overlay used by validity and execution.
type state struct{ o *overlay }

// load decodes the value at k into m; false when absent. A stored value that
// does not decode is a broken invariant (only this code writes it).
func (s state) load(k []byte, m protoMsg) bool {
	bz, ok := s.o.get(k)
	if !ok {
		return false
	}
	if err := m.Unmarshal(bz); err != nil {
		panic(fmt.Sprintf("app: corrupt state at %x: %v", k, err))
	}
	return true
}

func (s state) save(k []byte, m protoMsg) {
	bz, err := m.Marshal()
	if err != nil {
		panic(fmt.Sprintf("app: encode state at %x: %v", k, err))
	}
	s.o.set(k, bz)
}

func (s state) has(k []byte) bool {
	_, ok := s.o.get(k)
	return ok
}

func (s state) account(pub []byte) *subnetv1.Account {
	a := &subnetv1.Account{}
	s.load(keyAccount(pub), a)
	return a
}

func (s state) counters() *subnetv1.Counters {
	c := &subnetv1.Counters{}
	s.load(keyCounters, c)
	return c
}

func (s state) task(id uint64) (*subnetv1.Task, bool) {
	t := &subnetv1.Task{}
	return t, s.load(keyTask(id), t)
}

func (s state) submission(id uint64) (*subnetv1.Submission, bool) {
	sub := &subnetv1.Submission{}
	return sub, s.load(keySubmission(id), sub)
}

func (s state) gasChain(chain uint64) *subnetv1.GasChain {
	g := &subnetv1.GasChain{EvmChainId: chain}
	s.load(keyGasChain(chain), g)
	return g
}

func (s state) truth(chain, block uint64) (*subnetv1.TruthRound, bool) {
	r := &subnetv1.TruthRound{}
	return r, s.load(keyTruth(chain, block), r)
}

func (s state) predictions(chain, block uint64) *subnetv1.PredictionSet {
	p := &subnetv1.PredictionSet{}
	s.load(keyPredictionSet(chain, block), p)
	return p
}

func (s state) due(height int64) *subnetv1.DueList {
	d := &subnetv1.DueList{}
	s.load(keyDue(height), d)
	return d
}

// taskMiner returns the submission id of a miner's submission to a task.
func (s state) taskMiner(task uint64, uid uint32) (uint64, bool) {
	bz, ok := s.o.get(keyTaskMiner(task, uid))
	if !ok {
		return 0, false
	}
	return binary.BigEndian.Uint64(bz), true
}

func u64Bytes(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// uidAt returns the uid of the n-th registered miner (0-based): uids are
// handed out in order, skipping the burn uid.
func uidAt(n uint32, burn uint16) uint32 {
	if n >= uint32(burn) {
		return n + 1
	}
	return n
}
