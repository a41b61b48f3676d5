package receipt

import (
	"strconv"
	"strings"

	"github.com/scoringsubnet/validatord/x/scoring"
)

// Row names of the gas memory and history, from their schemas.
var (
	memorySubs  = names(slotSchema(&scoring.GasSlot{}))
	historySubs = names(historySchema(&scoring.GasHistoryPoint{}))
)

// takeRows takes the fields named <prefix>.<i>.<sub> out of fs: rows[i][j]
// is the value of subs[j] in row i. The rows must be 0..n−1 (canonical
// decimal indices), each with every sub exactly once.
func takeRows(section, prefix string, fs []field, subs []string) ([]field, [][]string, error) {
	var rest []field
	var rows [][]string
	for _, f := range fs {
		tail, ok := strings.CutPrefix(f.Name, prefix+".")
		if !ok {
			rest = append(rest, f)
			continue
		}
		idx, sub, ok := strings.Cut(tail, ".")
		i, err := strconv.Atoi(idx)
		if !ok || err != nil || i < 0 || strconv.Itoa(i) != idx || i >= len(fs) {
			return nil, nil, fieldErrf(section, "%q is not %s.<index>.<field>", f.Name, prefix)
		}
		j := -1
		for k, s := range subs {
			if s == sub {
				j = k
			}
		}
		if j < 0 {
			return nil, nil, fieldErrf(section, "unknown %q (want %s.<index>.%s)", f.Name, prefix, strings.Join(subs, "|"))
		}
		for len(rows) <= i {
			rows = append(rows, make([]string, len(subs)))
		}
		if rows[i][j] != "" {
			return nil, nil, fieldErrf(section, "duplicate %s", f.Name)
		}
		if f.Value == "" {
			return nil, nil, fieldErrf(section+"."+f.Name, "empty")
		}
		rows[i][j] = f.Value
	}
	var missing []string
	for i, r := range rows {
		for j, v := range r {
			if v == "" {
				missing = append(missing, prefix+"."+strconv.Itoa(i)+"."+subs[j])
			}
		}
	}
	return rest, rows, nameError(section, nil, nil, missing)
}

// parseMemory reads memory rows (in memorySubs order: included, overpayment, fresh).
func parseMemory(rows [][]string) ([]scoring.GasSlot, error) {
	mem := make([]scoring.GasSlot, len(rows))
	for i, r := range rows {
		at := "inputs." + rowPrefix(memoryPrefix, i)
		if !isBool(r[0]) || !isBool(r[2]) {
			return nil, fieldErrf(at+memorySubs[0]+"/"+memorySubs[2], "%q/%q are not true or false", r[0], r[2])
		}
		over, err := parseValue(r[1])
		if err != nil {
			return nil, fieldErr(at+memorySubs[1], err)
		}
		mem[i] = scoring.GasSlot{Included: r[0] == "true", Overpayment: over, Fresh: r[2] == "true"}
	}
	return mem, nil
}

func isBool(s string) bool { return s == "true" || s == "false" }

// parseHistory reads history rows (in historySubs order: time, inclusion_rate, avg_overpayment).
func parseHistory(rows [][]string) ([]scoring.GasHistoryPoint, error) {
	h := make([]scoring.GasHistoryPoint, len(rows))
	for i, r := range rows {
		at := "inputs." + rowPrefix(historyPrefix, i)
		for j, b := range historySchema(&h[i]) {
			if err := b.parse(strings.TrimSuffix(at, "."), r[j]); err != nil {
				return nil, err
			}
		}
	}
	return h, nil
}
