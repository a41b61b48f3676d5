package bench

import (
	"math"
	"slices"
	"sort"
	"time"
)

// schedule is the open-loop send time of the i-th transaction at rate per second.
func schedule(start time.Time, rate float64, i int) time.Time {
	return start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
}

// percentile is the nearest-rank p-th percentile (0 < p <= 100) of sorted values; 0 for none.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Summary is the bench mode's one JSON line.
type Summary struct {
	App       string  `json:"app"`
	Mode      string  `json:"mode"` // "rate" or "in_flight"
	Rate      float64 `json:"rate,omitempty"`
	InFlight  int     `json:"in_flight,omitempty"`
	Until     string  `json:"until,omitempty"` // in-flight mode: checktx or commit
	DurationS float64 `json:"duration_s"`
	WarmupS   float64 `json:"warmup_s"` // the window's start not counted in committed_tps
	Nodes     int     `json:"nodes"`

	Sent          int            `json:"sent"`
	CheckTxOK     int            `json:"checktx_ok"`
	CheckTxFailed map[string]int `json:"checktx_failed"` // by code
	RPCErrors     int            `json:"rpc_errors"`
	Committed     int            `json:"committed"` // of the sent ones, by the end of the drain
	// CommittedInWindow: transactions of the run in blocks seen within the measured window.
	CommittedInWindow int     `json:"committed_in_window"`
	CommittedTPS      float64 `json:"committed_tps"`
	NeverCommitted    int     `json:"never_committed"` // accepted by CheckTx, not seen in a block
	TimedOut          int     `json:"timed_out"`       // given up after --tx-timeout (in-flight slot freed)
	// NonceRewinds: validatord, how often a miner went back to the node's next nonce (--resync).
	NonceRewinds int64 `json:"nonce_rewinds"`

	P50S  float64 `json:"p50_s"`
	P99S  float64 `json:"p99_s"`
	MeanS float64 `json:"mean_s"`
	MaxS  float64 `json:"max_s"`

	Blocks         int     `json:"blocks"` // seen in the window
	BlockIntervalS float64 `json:"block_interval_s"`
	TxsPerBlock    float64 `json:"txs_per_block"`
	// MaxLagS: how far the open-loop sends fell behind their schedule at most.
	MaxLagS float64 `json:"max_lag_s"`
	// LoadgenCPUPerTxUS: the CPU a second the load tool itself used over the measured window (its
	// warm-up included) over committed_tps, in µs a tx; MachineBusy: the share of the machine's CPU busy over the window (1 =
	// every core). Both are 0 where they cannot be read (not Linux).
	LoadgenCPUPerTxUS float64 `json:"loadgen_cpu_per_tx_us"`
	MachineBusy       float64 `json:"machine_busy"`
	Note              string  `json:"note,omitempty"`

	// Level is the script's load level when it is not the mode's own (subnet:M, on the
	// validatord run and on kvstore's run at the same offered bytes a second).
	Level string `json:"level,omitempty"`
	// Miners and TaskEvery: the subnet load's miners and task cadence in blocks.
	Miners    int   `json:"miners,omitempty"`
	TaskEvery int64 `json:"task_every,omitempty"`
	// OfferedTPS and OfferedBytesPerS: what was sent over the measured window (subnet: the
	// counted one), a second; TxBytes: kvstore, the size of each transaction.
	OfferedTPS       float64 `json:"offered_tps"`
	OfferedBytesPerS float64 `json:"offered_bytes_per_s"`
	TxBytes          int     `json:"tx_bytes,omitempty"`
	// Subnet: the submissions scored in the counted window's blocks (submission_scored events of
	// the task tracks), a second, and the run's transactions committed in those blocks per scored
	// submission, also by kind (commit, reveal, report, post_task).
	Scored          int            `json:"scored,omitempty"`
	ScoredPerS      float64        `json:"scored_per_s,omitempty"`
	TxsPerScored    float64        `json:"txs_per_scored,omitempty"`
	CommittedByKind map[string]int `json:"committed_by_kind,omitempty"`
	// RefusedByKind: subnet, the whole run's CheckTx refusals and failed broadcasts (code 0) by
	// "kind code".
	RefusedByKind map[string]int `json:"refused_by_kind,omitempty"`
	// NodeCPUS: each node's CPU (user + system, /proc/<pid>/stat of --pids) over the counted
	// window, in seconds; NodeCPUPerTxS the same over the run's transactions committed in it,
	// NodeCPUPerScoredS over the scored submissions (subnet). Empty without --pids.
	NodeCPUS          []float64 `json:"node_cpu_s,omitempty"`
	NodeCPUPerTxS     []float64 `json:"node_cpu_per_tx_s,omitempty"`
	NodeCPUPerScoredS []float64 `json:"node_cpu_per_scored_s,omitempty"`
	FirstH            int64     `json:"first_height"`
	LastH             int64     `json:"last_height"`
	StartUTC          string    `json:"start_utc"`
}

// blockSeen is a block the watcher fetched: when, its height and how many of the run's
// transactions it held.
type blockSeen struct {
	height int64
	at     time.Time
	ours   int
}

// summarize fills the latency, throughput and block fields from the latencies of the committed
// transactions (all of them) and the blocks seen within the window [start, end) (the measured
// window less its warm-up).
func summarize(s *Summary, latencies []time.Duration, blocks []blockSeen, start, end time.Time) {
	vals := make([]float64, len(latencies))
	sum := 0.0
	for i, l := range latencies {
		vals[i] = l.Seconds()
		sum += vals[i]
	}
	sort.Float64s(vals)
	s.Committed = len(vals)
	if len(vals) > 0 {
		s.P50S = round3(percentile(vals, 50))
		s.P99S = round3(percentile(vals, 99))
		s.MeanS = round3(sum / float64(len(vals)))
		s.MaxS = round3(vals[len(vals)-1])
	}
	var in []blockSeen
	for _, b := range blocks {
		if !b.at.Before(start) && b.at.Before(end) {
			in = append(in, b)
		}
	}
	slices.SortFunc(in, func(a, b blockSeen) int { return int(a.height - b.height) })
	s.Blocks = len(in)
	s.CommittedInWindow = 0
	for _, b := range in {
		s.CommittedInWindow += b.ours
	}
	if w := end.Sub(start).Seconds(); w > 0 {
		s.CommittedTPS = round1(float64(s.CommittedInWindow) / w)
	}
	if len(in) > 0 {
		s.FirstH, s.LastH = in[0].height, in[len(in)-1].height
		s.TxsPerBlock = round1(float64(s.CommittedInWindow) / float64(len(in)))
	}
	if len(in) > 1 {
		s.BlockIntervalS = round3(in[len(in)-1].at.Sub(in[0].at).Seconds() / float64(len(in)-1))
	}
}

// nodeFigures fills the nodes' CPU figures from their CPU at the counted window's start and
// end (nil or of another length: not read), per committed transaction and per scored
// submission (none when scored is 0).
func nodeFigures(s *Summary, before, after []time.Duration, committed, scored int) {
	if len(before) == 0 || len(before) != len(after) {
		return
	}
	for i := range before {
		cpu := (after[i] - before[i]).Seconds()
		s.NodeCPUS = append(s.NodeCPUS, round7(cpu))
		if committed > 0 {
			s.NodeCPUPerTxS = append(s.NodeCPUPerTxS, round7(cpu/float64(committed)))
		}
		if scored > 0 {
			s.NodeCPUPerScoredS = append(s.NodeCPUPerScoredS, round7(cpu/float64(scored)))
		}
	}
}

func round7(x float64) float64 { return math.Round(x*1e7) / 1e7 }
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
func round1(x float64) float64 { return math.Round(x*10) / 10 }
