package store

import "encoding/binary"

// Due kinds: each is its own schedule with its own cursor, so a backlog of
// one never delays another.
const (
	DueTasks  byte = 1 // a task at its report deadline: entry (task id)
	DueTruths byte = 2 // a truth round at its deadline: entry (EVM chain id, EVM block)
	DueArena  byte = 3 // an arena submission final in a block: entry (submission id)
	// DueGasClose: an EVM block whose truth is final, at the end of its
	// reveal window: entry (EVM chain id, EVM block)
	DueGasClose byte = 4
	// DueProposals: a proposal the block after its expiry: entry (proposal id)
	DueProposals byte = 5
	// DueRetire: an item that retention deletes retain_state_blocks after
	// this height (the height it was settled, closed or written); entry
	// (tag, ids…), app/retain.
	DueRetire byte = 6
	// DueGasPause: an EVM chain whose pause comes into force at the height:
	// entry (EVM chain id); its resume index counts the predictions ended
	// so far.
	DueGasPause byte = 7
)

// Due is a schedule of work that falls due at a height: keyed entries in
// per-height buckets, so adding is one entry write (never a rewritten list),
// and a cursor at the lowest height that still has undone entries, so work
// that one block could not finish is picked up, in order, by the next ones.
// Nothing is scanned but the heights from the cursor up to now.
type Due struct {
	St   State
	Kind byte
}

// DueItem is one entry of a bucket, with the resume index its work left.
type DueItem struct {
	Height int64
	Seq    uint64
	Resume uint64
	IDs    []uint64
}

func (d Due) bucketKey(h int64) []byte { return key(PrefixDueBucket, uint64(d.Kind), uint64(h)) }
func (d Due) entryKey(h int64, s uint64) []byte {
	return key(PrefixDueEntry, uint64(d.Kind), uint64(h), s)
}
func (d Due) cursorKey() []byte { return key(PrefixDueCursor, uint64(d.Kind)) }

// Add appends an entry to the bucket of height.
func (d Due) Add(height int64, ids ...uint64) {
	b, ok := d.loadU64s(d.bucketKey(height), 3)
	if !ok {
		b = []uint64{0, 0, 0}
		cur, has := d.loadU64s(d.cursorKey(), 2)
		switch {
		case !has:
			cur = []uint64{uint64(height), 0}
		case uint64(height) < cur[0]:
			cur[0] = uint64(height)
		}
		cur[1]++ // one more bucket pending
		d.saveU64s(d.cursorKey(), cur)
	}
	d.saveU64s(d.entryKey(height, b[1]), ids)
	b[1]++
	d.saveU64s(d.bucketKey(height), b)
}

// Next returns the first undone entry due at or before now. Every height
// it reads costs look() (the caller's meter), which stops the scan when it
// returns false; Next then returns false, as it does when nothing is due.
func (d Due) Next(now int64, look func() bool) (DueItem, bool) {
	cur, ok := d.loadU64s(d.cursorKey(), 2)
	if !ok {
		return DueItem{}, false
	}
	h := int64(cur[0])
	defer func() {
		if uint64(h) != cur[0] {
			cur[0] = uint64(h)
			d.saveU64s(d.cursorKey(), cur)
		}
	}()
	for ; h <= now; h++ {
		if !look() {
			return DueItem{}, false
		}
		if b, ok := d.loadU64s(d.bucketKey(h), 3); ok {
			ids, _ := d.loadU64s(d.entryKey(h, b[0]), 0)
			return DueItem{Height: h, Seq: b[0], Resume: b[2], IDs: ids}, true
		}
	}
	return DueItem{}, false
}

// Done removes it; a bucket whose last entry is done goes, and with the
// last pending bucket the cursor.
func (d Due) Done(it DueItem) {
	d.St.Delete(d.entryKey(it.Height, it.Seq))
	b, _ := d.loadU64s(d.bucketKey(it.Height), 3)
	b[0], b[2] = it.Seq+1, 0
	if b[0] < b[1] {
		d.saveU64s(d.bucketKey(it.Height), b)
		return
	}
	d.St.Delete(d.bucketKey(it.Height))
	cur, _ := d.loadU64s(d.cursorKey(), 2)
	if cur[1]--; cur[1] == 0 {
		d.St.Delete(d.cursorKey())
		return
	}
	d.saveU64s(d.cursorKey(), cur)
}

// Resume records that it's work stopped before index resume.
func (d Due) Resume(it DueItem, resume uint64) {
	b, _ := d.loadU64s(d.bucketKey(it.Height), 3)
	b[2] = resume
	d.saveU64s(d.bucketKey(it.Height), b)
}

// Pending reports whether any entry of the kind is not done.
func (d Due) Pending() bool { return d.St.Has(d.cursorKey()) }

func (d Due) loadU64s(k []byte, n int) ([]uint64, bool) {
	bz, ok := d.St.O.Get(k)
	if !ok {
		return nil, false
	}
	return DecodeU64s(bz, n), true
}

func (d Due) saveU64s(k []byte, vs []uint64) { d.St.O.Set(k, EncodeU64s(vs)) }

// EncodeU64s encodes big-endian uint64s.
func EncodeU64s(vs []uint64) []byte {
	out := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		out = binary.BigEndian.AppendUint64(out, v)
	}
	return out
}

// DecodeU64s decodes big-endian uint64s; n > 0 requires exactly n (a
// stored value of another length is a broken invariant).
func DecodeU64s(bz []byte, n int) []uint64 {
	if len(bz)%8 != 0 || (n > 0 && len(bz) != 8*n) {
		panic("store: corrupt u64s value")
	}
	out := make([]uint64, len(bz)/8)
	for i := range out {
		out[i] = binary.BigEndian.Uint64(bz[8*i:])
	}
	return out
}

// U64 reads one stored big-endian uint64 (0 when absent).
func (s State) U64(k []byte) uint64 {
	bz, ok := s.O.Get(k)
	if !ok {
		return 0
	}
	return DecodeU64s(bz, 1)[0]
}

// SetU64 stores v at k, deleting the entry at 0.
func (s State) SetU64(k []byte, v uint64) {
	if v == 0 {
		if s.Has(k) {
			s.Delete(k)
		}
		return
	}
	s.O.Set(k, U64Bytes(v))
}

// DecU64 takes one from the count at k, never below 0: a count that would
// go negative is a broken invariant, and wrapping around would lock its
// owner out for good (a validator's open tasks or rounds).
func (s State) DecU64(k []byte) {
	if v := s.U64(k); v > 0 {
		s.SetU64(k, v-1)
	}
}

// IncU64 adds one to the count at k.
func (s State) IncU64(k []byte) { s.SetU64(k, s.U64(k)+1) }
