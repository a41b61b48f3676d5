//go:build amd64 && !purego

package store

import "golang.org/x/sys/cpu"

// laneAsm: entries are expanded by addKeyStream (lanes_amd64.s, AES-NI)
// instead of crypto/aes's CTR stream. Both give the same lanes
// (TestLaneStreamMatchesGeneric); the assembly allocates nothing and adds
// the stream into the lanes as it makes it. A variable so that the test can
// compare the two.
var laneAsm = cpu.X86.HasAES && cpu.X86.HasSSE2

// addKeyStream adds to acc (subtracts from it, with sub) the 1024 lanes of
// the AES-256-CTR stream (zero IV) under key.
//
//go:noescape
func addKeyStream(acc *Lanes, key *[32]byte, sub bool)
