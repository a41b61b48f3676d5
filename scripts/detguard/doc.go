// Package detguard is the determinism guard: it type-checks the consensus packages (app/, x/,
// genesis/) and reports every construct that can make two validators compute different bytes from
// the same blocks:
//
//   - float32 / float64 types and the math/rand packages,
//   - time.Now (block time is an argument, never the clock),
//   - go statements (no goroutines in block execution), except in app/parallel under a line
//     "// det: pure parallel" (workers computing pure functions into disjoint result ranges) and
//     in app/snapshot under "// det: after commit" (the snapshot writer, after Commit); x/ and
//     genesis/ have no exception at all,
//   - ranging over a map, unless the line before says "// det: sorted" (keys collected and sorted
//     before anything reaches state or output),
//   - shopspring/decimal calls that round with package globals or floats (Div, Pow, PowInt32,
//     PowBigInt, Sqrt, Avg, NewFromFloat*, InexactFloat64, Float64, ExpTaylor, ExpHullAbrham) and
//     any use of decimal's package variables (DivisionPrecision and friends).
//
// It runs as a test: `make detguard` alone, and within `make test` and `make verify`. Generated *.pb.go files are skipped; the .proto files are checked for map and
// floating-point fields instead.
package detguard
