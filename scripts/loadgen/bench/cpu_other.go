//go:build !linux

package bench

import "time"

func machineCPU() (busy, total uint64) { return 0, 0 }

// ProcessCPU reads no CPU off Linux.
func ProcessCPU(pids []int) []time.Duration { return nil }
