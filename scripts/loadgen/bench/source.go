package bench

import (
	"errors"
	"math/rand/v2"
)

// source makes the measured phase's transactions, one at a time, from the dispatcher's one
// goroutine: the bytes and the index of the node they must go to.
type source interface {
	next() (tx []byte, node int, refused func(code uint32, data []byte), err error)
}

// errExhausted: the source has nothing more to send (validatord: every miner committed to
// every task posted ahead).
var errExhausted = errors.New("source exhausted (post more tasks ahead: --tasks)")

// kvTxSize is the default size of a kvstore transaction (--kv-bytes): the size of a signed
// workflow commit.
const kvTxSize = 218

// kvSource makes random "key=value" transactions for CometBFT's kvstore, to the nodes in turn.
type kvSource struct {
	nodes int
	size  int
	i     int
	rng   *rand.Rand
}

func newKVSource(nodes, size int, seed uint64) *kvSource {
	return &kvSource{nodes: nodes, size: size, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

const hexDigits = "0123456789abcdef"

func (k *kvSource) next() ([]byte, int, func(uint32, []byte), error) {
	tx := make([]byte, k.size)
	const keyLen = 32
	for j := range tx {
		tx[j] = hexDigits[k.rng.IntN(16)]
	}
	tx[keyLen] = '='
	node := k.i % k.nodes
	k.i++
	return tx, node, nil, nil
}
