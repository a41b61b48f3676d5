package mirror

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkVerifyBinding: the cost the wiring meters for MsgBindHotkey. A
// wrapped signature costs two verifications (raw is tried first), which is
// the worst case a sender can make the chain pay.
func BenchmarkVerifyBinding(b *testing.B) {
	h := newHotkey(b)
	msg := BindingMessage("subnet-bench", 7, [32]byte{1}, 3600)
	for _, c := range []struct {
		name string
		sig  [64]byte
	}{{"raw", h.sign(b, msg)}, {"wrapped", h.sign(b, Wrap(msg))}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := VerifyBinding(h.pub, msg, c.sig); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkApplySnapshot: the end-of-block step's pure part for a full
// default snapshot (256 uids): Decode the stored body, Diff it against the
// current snapshot.
func BenchmarkApplySnapshot(b *testing.B) {
	p := DefaultParams()
	r := rand.New(rand.NewPCG(1, 2))
	cur := Snapshot{ParentBlock: 3600}
	for uid := uint32(0); uid < p.MaxEntries; uid++ {
		cur.Entries = append(cur.Entries, Entry{UID: uid, Hotkey: hk(byte(r.IntN(256))), RegisteredBlock: r.Uint64N(3600)})
	}
	next := mutate(r, cur, p)
	body := next.Encode()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		s, err := Decode(body, p)
		if err != nil {
			b.Fatal(err)
		}
		_ = Diff(cur, s)
		_ = s.Digest()
	}
}
