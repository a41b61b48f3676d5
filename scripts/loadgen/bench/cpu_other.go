//go:build !linux

package bench

import "time"

func machineCPU() (busy, total uint64) { return 0, 0 }

func nodeCPU(pids []int) []time.Duration { return nil }
