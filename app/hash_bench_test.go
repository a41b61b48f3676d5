package app

import (
	"crypto/ed25519"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
)

// BenchmarkEntryLanes: the cost of adding one (key, value) entry to the app
// hash (one SHAKE expansion into 1024 lanes plus the lane additions).
func BenchmarkEntryLanes(b *testing.B) {
	var l lanes
	k, v := keySubmission(42), make([]byte, 120)
	for i := 0; i < b.N; i++ {
		l.add(k, v)
	}
}

// BenchmarkVerify: the cost of the signature check every tx pays.
func BenchmarkVerify(b *testing.B) {
	s := newSigner("bench")
	body := make([]byte, 150)
	sig := ed25519.Sign(s.key, wire.SignBytes(body))
	for i := 0; i < b.N; i++ {
		if !ed25519.Verify(s.pub(), wire.SignBytes(body), sig) {
			b.Fatal("verify")
		}
	}
}
