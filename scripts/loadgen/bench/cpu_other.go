//go:build !linux

package bench

import "time"

func ownCPU() time.Duration { return 0 }

func machineCPU() (busy, total uint64) { return 0, 0 }
