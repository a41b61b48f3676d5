package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// runTable is `benchnet table DIR`: the per-run JSON files of DIR (written with --out) as the
// issue's table, one row per load level, validatord beside kvstore.
func runTable(w io.Writer, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: benchnet table DIR")
	}
	files, err := filepath.Glob(filepath.Join(args[0], "*.json"))
	if err != nil {
		return err
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

// table formats runs as a markdown table: rate levels first, then in-flight ones, each
// ascending; a level with several runs of one app shows each (the newest last).
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
	b.WriteString("| load | validatord tx/s | kvstore tx/s | ratio | p50 / p99 commit latency, validatord | kvstore | validatord CheckTx refused / never committed | machine busy, validatord / kvstore |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
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
	}
	return b.String()
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
