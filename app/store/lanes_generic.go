//go:build !amd64 || purego

package store

// laneAsm is false where there is no assembly expansion: crypto/aes's CTR
// stream expands every entry.
var laneAsm = false

func addKeyStream(*Lanes, *[32]byte, bool) {
	panic("store: no assembly lane expansion on this platform")
}
