package app

import "github.com/dgraph-io/badger/v4"

func badgerIterOpts() badger.IteratorOptions {
	o := badger.DefaultIteratorOptions
	o.PrefetchValues = false
	return o
}
