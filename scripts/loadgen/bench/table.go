package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// runTable is `loadgen bench table DIR...`: the per-run JSON files of every DIR (written with --out)
// as the table, one row per load level and pair of runs, validatord beside kvstore. Give
// several directories (passes of `make bench-localnet`) to see the spread of each level: a level
// with two or more pairs gets a row of medians under its pairs.
func runTable(w io.Writer, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: loadgen bench table DIR...")
	}
	var files []string
	for _, dir := range args {
		fs, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return err
		}
		if len(fs) == 0 {
			return fmt.Errorf("%s: no run's JSON in it", dir)
		}
		files = append(files, fs...)
	}
	var runs []Summary
	for _, f := range files {
		bz, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var s Summary
		if err := json.Unmarshal(bz, &s); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		runs = append(runs, s)
	}
	var plain, subnet []Summary
	for _, r := range runs {
		if strings.HasPrefix(r.Level, "subnet:") {
			subnet = append(subnet, r)
		} else {
			plain = append(plain, r)
		}
	}
	if len(plain) > 0 {
		fmt.Fprint(w, table(plain))
	}
	if len(subnet) > 0 {
		if len(plain) > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, subnetTable(subnet))
	}
	return nil
}

// level is a run's load level, the table's row key.
type level struct {
	mode string
	n    float64
}

func levelOf(s Summary) level {
	switch {
	case s.Mode == "rate":
		return level{"rate", s.Rate}
	case s.Until == "commit":
		return level{"in_flight_commit", float64(s.InFlight)}
	}
	return level{"in_flight", float64(s.InFlight)}
}

func (l level) String() string {
	switch l.mode {
	case "rate":
		return fmt.Sprintf("%g tx/s offered", l.n)
	case "in_flight_commit":
		return fmt.Sprintf("%g in flight until commit", l.n)
	}
	return fmt.Sprintf("%g in flight", l.n)
}

var modeOrder = []string{"rate", "in_flight", "in_flight_commit"}

// tableHead is the table's header and rule.
const tableHead = "| load | validatord tx/s | kvstore tx/s | ratio | p50 / p99 commit latency, validatord | kvstore | validatord CheckTx refused / never committed | machine busy, validatord / kvstore |\n" +
	"|---|---|---|---|---|---|---|---|\n"

// table formats runs as a markdown table: rate levels first, then in-flight ones, each
// ascending. A level with several runs of one app shows each, in the order they started, the
// i-th run of validatord beside the i-th of kvstore; with two or more such pairs a last row gives
// the medians of each app's tx/s and p50, and the median ratio of the pairs with its range.
func table(runs []Summary) string {
	byLevel := map[level]map[string][]Summary{}
	var levels []level
	for _, s := range runs {
		l := levelOf(s)
		if byLevel[l] == nil {
			byLevel[l] = map[string][]Summary{}
			levels = append(levels, l)
		}
		byLevel[l][s.App] = append(byLevel[l][s.App], s)
	}
	for _, apps := range byLevel {
		for _, rs := range apps {
			slices.SortStableFunc(rs, func(a, b Summary) int { return strings.Compare(a.StartUTC, b.StartUTC) })
		}
	}
	slices.SortFunc(levels, func(a, b level) int {
		if a.mode != b.mode {
			return slices.Index(modeOrder, a.mode) - slices.Index(modeOrder, b.mode)
		}
		switch {
		case a.n < b.n:
			return -1
		case a.n > b.n:
			return 1
		}
		return 0
	})
	var b strings.Builder
	b.WriteString(tableHead)
	for _, l := range levels {
		v, k := byLevel[l]["validatord"], byLevel[l]["kvstore"]
		for i := 0; i < max(len(v), len(k)); i++ {
			vt, kt, ratio, vl, kl, vf, vb, kb := "–", "–", "–", "–", "–", "–", "–", "–"
			if i < len(v) {
				vt = fmt.Sprintf("%.0f", v[i].CommittedTPS)
				vl = fmt.Sprintf("%.2f / %.2f s", v[i].P50S, v[i].P99S)
				failed := 0
				for _, n := range v[i].CheckTxFailed {
					failed += n
				}
				vf = fmt.Sprintf("%d / %d", failed, v[i].NeverCommitted)
				vb = busy(v[i])
			}
			if i < len(k) {
				kt = fmt.Sprintf("%.0f", k[i].CommittedTPS)
				kl = fmt.Sprintf("%.2f / %.2f s", k[i].P50S, k[i].P99S)
				kb = busy(k[i])
			}
			if i < len(v) && i < len(k) && k[i].CommittedTPS > 0 {
				ratio = fmt.Sprintf("%.2f", v[i].CommittedTPS/k[i].CommittedTPS)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s / %s |\n", l, vt, kt, ratio, vl, kl, vf, vb, kb)
		}
		if pairs := min(len(v), len(k)); pairs >= 2 {
			b.WriteString(medianRow(l, v[:pairs], k[:pairs]))
		}
	}
	return b.String()
}

// medianRow is the row under a level's pairs of runs: each app's median tx/s and p50, the
// median of the pairs' ratios and their range (v and k have the same length, ≥ 2).
func medianRow(l level, v, k []Summary) string {
	var vt, kt, ratios, vp, kp []float64
	for i := range v {
		vt, kt = append(vt, v[i].CommittedTPS), append(kt, k[i].CommittedTPS)
		vp, kp = append(vp, v[i].P50S), append(kp, k[i].P50S)
		if k[i].CommittedTPS > 0 {
			ratios = append(ratios, v[i].CommittedTPS/k[i].CommittedTPS)
		}
	}
	ratio := "–"
	if len(ratios) > 0 {
		ratio = fmt.Sprintf("%.2f (%.2f – %.2f)", median(ratios), slices.Min(ratios), slices.Max(ratios))
	}
	return fmt.Sprintf("| %s, median of %d | %.0f | %.0f | %s | p50 %.2f s | p50 %.2f s | | |\n",
		l, len(v), median(vt), median(kt), ratio, median(vp), median(kp))
}

// median of xs (not empty); xs is not changed.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// busy is a run's machine_busy as a percentage: near 100% the run measured how much CPU each
// transaction costs (every process on the machine, the load generator included) rather than
// how fast the network can go.
func busy(s Summary) string {
	if s.MachineBusy == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*s.MachineBusy)
}

// subnetHead is the subnet table's header and rule.
const subnetHead = "| load | scored/s | txs per scored (commit / reveal / report / post_task) | offered tx/s, KiB/s | " +
	"validatord CPU ms per scored submission, node0 / node1 / … | kvstore CPU ms per tx at the same tx/s and bytes/s | " +
	"kvstore txs per scored submission's CPU | machine busy, validatord / kvstore |\n" +
	"|---|---|---|---|---|---|---|---|\n"

// subnetTable formats the subnet levels' runs (Level subnet:M): per level, ascending in miners,
// the i-th validatord run beside the i-th kvstore run that matched it (in the order they
// started). Its headline is CPU per unit of work: each validatord node's CPU over the counted
// window per scored submission beside each kvstore node's per committed transaction, and
// their ratio (means over the nodes): how many kvstore transactions a scored submission costs.
func subnetTable(runs []Summary) string {
	by := map[int]map[string][]Summary{}
	var levels []int
	for _, r := range runs {
		var m int
		fmt.Sscanf(r.Level, "subnet:%d", &m)
		if by[m] == nil {
			by[m] = map[string][]Summary{}
			levels = append(levels, m)
		}
		by[m][r.App] = append(by[m][r.App], r)
	}
	slices.Sort(levels)
	var b strings.Builder
	b.WriteString(subnetHead)
	for _, m := range levels {
		v, k := by[m]["validatord"], by[m]["kvstore"]
		for _, rs := range [][]Summary{v, k} {
			slices.SortStableFunc(rs, func(a, b Summary) int { return strings.Compare(a.StartUTC, b.StartUTC) })
		}
		for i := 0; i < max(len(v), len(k)); i++ {
			scored, per, offered, vcpu, kcpu, ratio, vb, kb := "–", "–", "–", "–", "–", "–", "–", "–"
			var vr, kr *Summary
			if i < len(v) {
				vr = &v[i]
				scored = fmt.Sprintf("%.1f", vr.ScoredPerS)
				per = txsPerScored(*vr)
				offered = fmt.Sprintf("%.0f, %.1f", vr.OfferedTPS, vr.OfferedBytesPerS/1024)
				vcpu = millis(vr.NodeCPUPerScoredS)
				vb = busy(*vr)
			}
			if i < len(k) {
				kr = &k[i]
				kcpu = millis(kr.NodeCPUPerTxS)
				kb = busy(*kr)
				if vr == nil {
					offered = fmt.Sprintf("%.0f, %.1f", kr.OfferedTPS, kr.OfferedBytesPerS/1024)
				}
			}
			if vr != nil && kr != nil && len(vr.NodeCPUPerScoredS) > 0 && len(kr.NodeCPUPerTxS) > 0 {
				if kt := mean(kr.NodeCPUPerTxS); kt > 0 {
					ratio = fmt.Sprintf("%.1f", mean(vr.NodeCPUPerScoredS)/kt)
				}
			}
			fmt.Fprintf(&b, "| %d miners, tasks every %d blocks | %s | %s | %s | %s | %s | %s | %s / %s |\n",
				m, taskEvery(vr), scored, per, offered, vcpu, kcpu, ratio, vb, kb)
		}
	}
	return b.String()
}

// txsPerScored is a subnet run's committed transactions per scored submission, in all and by
// kind.
func txsPerScored(s Summary) string {
	if s.Scored == 0 {
		return "–"
	}
	parts := make([]string, 0, len(subnetKinds))
	for _, k := range subnetKinds {
		parts = append(parts, fmt.Sprintf("%.2f", float64(s.CommittedByKind[k])/float64(s.Scored)))
	}
	return fmt.Sprintf("%.2f (%s)", s.TxsPerScored, strings.Join(parts, " / "))
}

// subnetKinds are the kinds of the subnet table's breakdown (subnetload.Kinds).
var subnetKinds = []string{"commit", "reveal", "report", "post_task"}

func taskEvery(s *Summary) int64 {
	if s == nil {
		return 0
	}
	return s.TaskEvery
}

// millis formats CPU seconds a unit, one a node, as milliseconds.
func millis(xs []float64) string {
	if len(xs) == 0 {
		return "–"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.3f", 1000*x)
	}
	return strings.Join(parts, " / ")
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}
