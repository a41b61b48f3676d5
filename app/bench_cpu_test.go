//go:build unix

package app

import (
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/internal/cpuclock"
)

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration { return cpuclock.Process() }

// reportCPU adds to a benchmark the CPU its timed part used (every
// goroutine of the process: block execution, signature workers, badger's
// writer and compactions, the GC): per op, and as cores busy on average —
// how much of the machine the timed part kept working.
func reportCPU(b *testing.B, cpu time.Duration) {
	if cpu <= 0 || b.Elapsed() <= 0 {
		return
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
}
