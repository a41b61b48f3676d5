package store

// Layer is the committed state while a block's badger write is in flight
// (pipelined durability): the block's own writes (Tops, the last one
// first: InitChain's writes under the first block's) over Base, the store
// at the version before. Every key reads as it will once the write lands,
// and nothing reads a half-applied write: badger makes a version's entries
// visible one by one, so a reader at the new version could see part of it.
// The overlays must be sealed (Seal): a Layer reads only their own writes.
type Layer struct {
	Tops []*Overlay
	Base Reader
}

// Get reads k from the newest overlay that wrote it, else from Base.
func (l Layer) Get(k []byte) ([]byte, bool) {
	for i := len(l.Tops) - 1; i >= 0; i-- {
		if e, ok := l.Tops[i].writes[string(k)]; ok {
			return e.val, !e.del
		}
	}
	return l.Base.Get(k)
}

// Seal ends an overlay's life as a block under execution: it forgets its
// base and what it read there, keeping only its writes, which nothing
// changes any more. A committed block's overlay is sealed before a Layer
// serves it, so that a chain of blocks, each over a Layer over the one
// before, holds no more than the last block in memory.
func (o *Overlay) Seal() {
	o.base, o.reads = nil, nil
}
