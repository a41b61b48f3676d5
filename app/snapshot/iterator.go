package snapshot

// Iterator yields the committed state's entries in strictly increasing key
// order (badger's order: bytewise). The app implements it over a badger
// read transaction (BadgerIterator); tests use SliceIterator. Entries of the
// meta prefix may be yielded: Create skips them.
type Iterator interface {
	// Next returns the next entry, ok false at the end. The slices are
	// read before the next call and may be reused by it.
	Next() (key, value []byte, ok bool, err error)
}

// Entry is one key and value of the state.
type Entry struct{ Key, Value []byte }

// SliceIterator yields entries of a slice sorted by key.
type SliceIterator struct {
	Entries []Entry
	i       int
}

// Next implements Iterator.
func (s *SliceIterator) Next() ([]byte, []byte, bool, error) {
	if s.i >= len(s.Entries) {
		return nil, nil, false, nil
	}
	e := s.Entries[s.i]
	s.i++
	return e.Key, e.Value, true, nil
}
