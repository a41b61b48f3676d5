//go:build unix

package simsubnet

import (
	"io/fs"
	"syscall"
)

// allocated is the disk space a file takes (du's count: 512-byte blocks),
// not its length: badger preallocates its memtable and value-log files.
func allocated(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
