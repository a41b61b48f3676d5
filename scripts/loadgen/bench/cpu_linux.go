package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// machineCPU is the busy and total CPU time of the whole machine so far, in clock ticks, from
// /proc/stat's first line (busy: every field but idle and iowait).
func machineCPU() (busy, total uint64) {
	bz, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(bz), "\n")
	fields := strings.Fields(line)
	if len(fields) < 5 || fields[0] != "cpu" {
		return 0, 0
	}
	for i, f := range fields[1:] {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, 0
		}
		total += v
		if i != 3 && i != 4 { // idle, iowait
			busy += v
		}
	}
	return busy, total
}

// ProcessCPU is the CPU (user + system) each process of pids used so far; nil when one cannot be read (gone).
func ProcessCPU(pids []int) []time.Duration {
	if len(pids) == 0 {
		return nil
	}
	out := make([]time.Duration, len(pids))
	for i, pid := range pids {
		bz, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return nil
		}
		d, ok := procStatCPU(string(bz))
		if !ok {
			return nil
		}
		out[i] = d
	}
	return out
}
