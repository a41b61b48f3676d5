package scoring

// testRNG is a splitmix64 generator: deterministic test inputs without math/rand, which the
// determinism guard forbids under x/.
type testRNG struct{ state uint64 }

func newTestRNG(seed uint64) *testRNG { return &testRNG{state: seed} }

func (r *testRNG) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a value in [0, n) for n > 0.
func (r *testRNG) intn(n int) int { return int(r.next() % uint64(n)) }

// int63n returns a value in [0, n) for n > 0.
func (r *testRNG) int63n(n int64) int64 { return int64(r.next() % uint64(n)) }
