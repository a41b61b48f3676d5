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
	fmt.Fprint(w, table(runs))
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
