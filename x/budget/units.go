package budget

// Units of work, 1 unit ≈ 1 µs of one core of the reference machine (2
// cores, docs/performance.md), rounded up from the benchmarks named beside
// each. They are consensus rules: every node charges the same, whatever its
// own speed or caches.
const (
	// UnitsTx: one transaction — decoding, state reads, its ed25519
	// verification (charged even when a node's cache already verified it,
	// so that every node counts alike), execution and its share of the app
	// hash (BenchmarkFinalizeBlockSubmissions/cold: ~155 µs).
	UnitsTx int64 = 160
	// UnitsSettle: one submission settled — a weighted median over its
	// votes, the workflow formula or an arena queue entry, its receipt
	// (BenchmarkAggregate100x7 8.5 µs, BenchmarkScoreWorkflow 2 µs, plus
	// decoding and encoding the record).
	UnitsSettle int64 = 60
	// UnitsArena: one arena submission scored against its task's baseline,
	// with its receipt, window and baseline update (BenchmarkScoreArena
	// 12 µs, BenchmarkBaselineAdd 24 µs, plus records).
	UnitsArena int64 = 120
	// UnitsAgent: one gas agent's window closed by an EVM block close
	// (BenchmarkGasClose 25 µs, plus the agent record).
	UnitsAgent int64 = 60
	// UnitsDuplicate: one submission marked duplicate by a reveal — its
	// record rewritten with a receipt and a 0 pushed into the miner's window
	// (BenchmarkWorstCaseBlock: a reveal that displaces the artifact's
	// keeper took ~280 µs against ~155 µs for a plain transaction).
	UnitsDuplicate int64 = 120
	// UnitsEpochMiner: one miner's aggregate on one track in an epoch.
	UnitsEpochMiner int64 = 30
	// UnitsLookup: one state read that finds nothing to do (an empty due
	// bucket, a uid without an agent).
	UnitsLookup int64 = 2
	// UnitsDueItem: taking one entry off a due schedule — reading it and
	// what it names (a task, a round), and marking it done.
	UnitsDueItem int64 = 10
	// UnitsSr25519: one sr25519 verification of a mirror-mode binding,
	// tried raw and then in polkadot.js' <Bytes> wrapping, so a bad
	// signature costs both (x/mirror BenchmarkVerifyBinding: 84 µs raw,
	// 114 µs wrapped).
	UnitsSr25519 int64 = 200
	// UnitsMirrorUID: one uid of a newly final metagraph snapshot — its
	// entry read, compared and rewritten, and, when it changed, its
	// binding deleted.
	UnitsMirrorUID int64 = 10
	// UnitsRetire: one record deleted by retention with its index entries
	// — a submission (read and decoded for its uid and artifact, then its
	// record, task_miner, task_sub and task_artifact entries deleted), a
	// task, a truth round or an epoch. A deletion costs the app hash what a
	// write does: its entry's lanes are subtracted at Commit, which reads
	// the old value first (BenchmarkRetireSubmission: 30 µs a submission
	// with its three index entries, FinalizeBlock + Commit on disk, on the
	// quietest of its runs).
	UnitsRetire int64 = 40
)
