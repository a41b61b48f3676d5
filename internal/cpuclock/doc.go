// Package cpuclock reads the CPU time the process has used, user and system,
// every goroutine included (block execution, signature workers, badger's
// writer and compactions, the GC). The app's benchmarks, the load tool and
// the subnet simulation read it around what they measure; it is never read
// by anything that decides a result.
//
//	cpu0 := cpuclock.Process()
//	work()
//	used := cpuclock.Process() - cpu0 // 0 where Measured is false
package cpuclock
