//go:build !unix

package simsubnet

import "io/fs"

// allocated is the file's length (its blocks are not known here).
func allocated(info fs.FileInfo) int64 { return info.Size() }
