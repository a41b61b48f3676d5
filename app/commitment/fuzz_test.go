package commitment_test

import (
	"bytes"
	"testing"

	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"

	"github.com/scoringsubnet/validatord/app/wire"
)

// FuzzVerifyProof: whatever bytes stand in for the two proof ops' data and
// the value, a proof verifies against the committed app hash only for the
// value actually stored under the key, and the check never panics. The
// seeds are the record's own proof and value.
func FuzzVerifyProof(f *testing.F) {
	p := provenRecord(f, 21, 5)
	app, name, key, value, ops := p.app, p.name, p.key, p.value, p.ops
	f.Add(ops.Ops[0].Data, ops.Ops[1].Data, value)
	f.Add(ops.Ops[0].Data, ops.Ops[1].Data, append(bytes.Clone(value), 0))
	f.Add(ops.Ops[1].Data, ops.Ops[0].Data, value)
	f.Fuzz(func(t *testing.T, d0, d1, v []byte) {
		forged := &cmtcrypto.ProofOps{Ops: []cmtcrypto.ProofOp{
			{Type: ops.Ops[0].Type, Key: ops.Ops[0].Key, Data: d0},
			{Type: ops.Ops[1].Type, Key: ops.Ops[1].Key, Data: d1},
		}}
		if wire.VerifyProof(app, name, key, v, forged) == nil && !bytes.Equal(v, value) {
			t.Fatalf("a proof verifies value %x under %x, which holds %x", v, key, value)
		}
	})
}
