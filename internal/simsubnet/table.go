package simsubnet

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/cpuclock"
)

// WriteTable prints the runs side by side, one column per mode (the runs
// must share their shape): the shape, then the rows of Rows as a Markdown
// table.
func WriteTable(w io.Writer, runs []*Result) error {
	if len(runs) == 0 {
		return nil
	}
	c := runs[0].Config
	fmt.Fprintf(w, "subnet: V = %d validators (Zipf stake: validator i holds %d/(i+1); adversary val%02d with %.1f%% of the power reports skewed measurements), N = %d miners\n",
		c.Validators, PowerScale, runs[0].Adversary, float64(runs[0].AdversaryPPM)/1e4, c.Miners)
	fmt.Fprintf(w, "load: a workflow and an arena task every %d blocks of %d s, every miner commits to both; an EVM block every %d blocks, every miner predicts it, every validator sends its truth\n",
		c.TaskEvery, BlockSeconds, c.EVMEvery)
	fmt.Fprintf(w, "chain: %d blocks, epoch every %d blocks, retain_state_blocks %d, windows: commit %d, reveal %d, reports %d blocks\n\n",
		c.Blocks, c.EpochBlocks, c.RetainStateBlocks, SubmissionBlocks, RevealBlocks, ReportBlocks)
	header, rule := "| metric |", "|---|"
	for _, r := range runs {
		header += " " + r.Config.Mode.column() + " |"
		rule += "---|"
	}
	fmt.Fprintln(w, header)
	fmt.Fprintln(w, rule)
	for _, row := range Rows(runs[0]) {
		line := "| " + row.Name + " |"
		for _, r := range runs {
			line += " " + rowOf(r, row.Name) + " |"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// Row is one line of the table: a name and one run's value.
type Row struct{ Name, Value string }

func rowOf(r *Result, name string) string {
	for _, row := range Rows(r) {
		if row.Name == name {
			return row.Value
		}
	}
	return "-"
}

// Rows are a run's figures, in the table's order.
func Rows(r *Result) []Row {
	st, o := r.Stats, r.Outcomes
	var rows []Row
	add := func(name, format string, a ...any) { rows = append(rows, Row{name, fmt.Sprintf(format, a...)}) }
	// Workflow and arena together: a batch may carry entries of both (its
	// track is tasksLabel), so transactions, bytes and signature checks are
	// counted over the two tracks' scored submissions.
	var scored, txs, sigs, crTxs int
	var bytes int64
	var rep, refusedTx, entriesIn, refusedEntries, finalEntries, notSent int
	for _, track := range []string{genesis.TrackWorkflow, genesis.TrackArena, tasksLabel} {
		scored += o.Tasks[track]["scored"]
		for _, k := range []Kind{KindCommit, KindReveal, KindReport} {
			c := st.Count(track, k)
			txs += c.Included
			bytes += c.Bytes
			sigs += c.Checked
			if k != KindReport {
				crTxs += c.Included
			}
		}
		r := st.Count(track, KindReport)
		rep += r.Included
		entriesIn += r.Entries.Included
		refusedEntries += r.Entries.Sent - r.Entries.Checked
		refusedTx += r.Sent - r.Checked
		finalEntries += r.Entries.RefusedInBlock[finalCode]
		notSent += r.NotSent
	}
	for _, track := range []string{genesis.TrackWorkflow, genesis.TrackArena} {
		add(track+": submissions scored", "%d", o.Tasks[track]["scored"])
		add(track+": outcomes", "%s", statuses(o.Tasks[track]))
	}
	add("workflow + arena: txs in blocks / scored (commit + reveal + reports)", "%s", per(txs, scored))
	add("workflow + arena: commit and reveal txs in blocks / scored", "%s", per(crTxs, scored))
	add("workflow + arena: report txs in blocks / scored", "%s", per(rep, scored))
	add("workflow + arena: reports in blocks / scored", "%s", per(entriesIn, scored))
	add("workflow + arena: bytes in blocks / scored", "%s", per(int(bytes), scored))
	add("workflow + arena: signature checks / scored", "%s", per(sigs, scored))
	add("workflow + arena: reports not sent, their submission settled / scored", "%s", per(notSent, scored))
	add("workflow + arena: reports refused by CheckTx / scored", "%s", per(refusedEntries, scored))
	add("workflow + arena: report txs refused by CheckTx / scored", "%s", per(refusedTx, scored))
	add("workflow + arena: report entries in blocks refused after their quorum / scored", "%s", per(finalEntries, scored))
	gc, gr, tr := st.Count(genesis.TrackGas, KindCommit), st.Count(genesis.TrackGas, KindReveal), st.Count(genesis.TrackGas, KindTruth)
	add("gas: predictions counted", "%d (of %d committed, %d revealed)", o.GasCounted, o.GasCommitted, o.GasRevealed)
	add("gas: txs in blocks / counted (commit + reveal)", "%s", per(gc.Included+gr.Included, o.GasCounted))
	add("gas: bytes in blocks / counted", "%s", per(int(gc.Bytes+gr.Bytes), o.GasCounted))
	add("gas: signature checks / counted", "%s", per(gc.Checked+gr.Checked, o.GasCounted))
	add("gas: EVM blocks closed", "%d (%d with a count other than the reveals)", o.GasClosed, o.GasMismatch)
	add("gas: truth txs in blocks / closed EVM block", "%s", per(tr.Included, o.GasClosed))
	add("gas: truths in blocks / closed EVM block", "%s", per(tr.Entries.Included, o.GasClosed))
	add("gas: truths refused by CheckTx / closed EVM block", "%s", per(tr.Sent-tr.Checked, o.GasClosed))
	add("refused or evicted otherwise", "%s", otherRefusals(st))
	var blockTxs, blockBytes []int
	var wall, cpu, prep, epochWall, epochCPU []time.Duration
	for _, b := range st.Blocks {
		blockTxs, blockBytes = append(blockTxs, b.Txs), append(blockBytes, b.Bytes)
		wall, cpu, prep = append(wall, b.Wall), append(cpu, b.CPU), append(prep, b.Prepare)
		if b.Epoch {
			epochWall, epochCPU = append(epochWall, b.Wall), append(epochCPU, b.CPU)
		}
	}
	add("blocks", "%d", len(st.Blocks))
	add("txs per block p50 / p99 / max", "%s", intPercentiles(blockTxs))
	add("bytes per block p50 / p99 / max", "%s", intPercentiles(blockBytes))
	add("ProcessProposal+FinalizeBlock+Commit wall ms p50 / p99 / max", "%s", msPercentiles(wall))
	cpuRow := "n/a"
	if cpuclock.Measured {
		cpuRow = msPercentiles(cpu)
	}
	add("ProcessProposal+FinalizeBlock+Commit CPU ms p50 / p99 / max", "%s", cpuRow)
	add("PrepareProposal wall ms p50 / p99 / max (proposer)", "%s", msPercentiles(prep))
	if cpuclock.Measured {
		add("a validator's app CPU per block: CheckTx + rechecks + blocks + 1/V of the proposals (ms, mean)", "%s", validatorLoad(st, r.Config.Validators))
	}
	add("epoch blocks", "%d (%d epochs)", len(epochWall), o.Epochs)
	add("epoch block wall ms p50 / max", "%s", msPair(epochWall))
	if cpuclock.Measured {
		add("epoch block CPU ms p50 / max", "%s", msPair(epochCPU))
	}
	add("blocks with state retired", "%d", o.Retirements)
	add("state written per block: mean bytes (per day at 1 block a second)", "%s", writtenPerDay(st))
	add("record commitment per block: records changed / tree nodes written / node bytes, mean (max)", "%s", treeRow(st))
	add("score digest after the last block", "%s", short(o.ScoreDigest))
	for _, s := range st.Samples {
		add(fmt.Sprintf("state after block %d: keys / app bytes / badger on disk", s.Height), "%d / %s / %s", s.Keys, mib(s.Bytes), mib(s.DiskBytes))
	}
	return rows
}

func per(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(n)/float64(d))
}

func mib(b int64) string { return fmt.Sprintf("%.2f MiB", float64(b)/(1<<20)) }

// statuses lists a count map as "k1 n1, k2 n2", keys sorted; "none" when
// empty.
func statuses(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// finalCode is the code name of a report on a submission whose quorum
// already settled it.
const finalCode = "submission_final"

// short is the first 16 hex digits of a digest.
func short(d string) string { return d[:min(16, len(d))] }

// otherRefusals lists every refusal by CheckTx, and every batch entry
// refused in a block, that is not a report or a truth coming after its
// quorum, and every eviction at a recheck.
func otherRefusals(st *Stats) string {
	m := map[string]int{}
	for _, track := range []string{"", genesis.TrackWorkflow, genesis.TrackArena, tasksLabel, genesis.TrackGas} {
		for k := range kindCount {
			c := st.Count(track, k)
			for code, n := range c.Refused {
				if (k == KindReport && code == finalCode) || (k == KindTruth && code == "evm_block_closed") {
					continue
				}
				m[fmt.Sprintf("%s %s %s refused", track, k, code)] += n
			}
			for code, n := range c.Entries.RefusedInBlock {
				if !(k == KindReport && code == finalCode) && !(k == KindTruth && code == "evm_block_closed") {
					m[fmt.Sprintf("%s %s entry %s refused in a block", track, k, code)] += n
				}
			}
			for code, n := range c.Evicted {
				m[fmt.Sprintf("%s %s %s evicted", track, k, code)] += n
			}
		}
	}
	return statuses(m)
}

func intPercentiles(v []int) string {
	ds := make([]time.Duration, len(v))
	for i, x := range v {
		ds[i] = time.Duration(x)
	}
	a, b, c := percentiles(ds)
	return fmt.Sprintf("%d / %d / %d", a, b, c)
}

func msPercentiles(ds []time.Duration) string {
	a, b, c := percentiles(ds)
	return fmt.Sprintf("%s / %s / %s", ms(a), ms(b), ms(c))
}

func msPair(ds []time.Duration) string {
	a, _, c := percentiles(ds)
	return fmt.Sprintf("%s / %s", ms(a), ms(c))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

// validatorLoad is the app's CPU a validator spends per block, on average:
// CheckTx and the mempool's recheck of every transaction, every block's
// ProcessProposal, FinalizeBlock and Commit, and the PrepareProposal of
// one block in V (it proposes in turn); and that as a share of one core at
// BlockSeconds a block.
func validatorLoad(st *Stats, validators int) string {
	if len(st.Blocks) == 0 || validators == 0 {
		return "n/a"
	}
	var blocks, prep time.Duration
	for _, b := range st.Blocks {
		blocks += b.CPU
		prep += b.PrepareCPU
	}
	per := (st.CheckCPU + blocks + prep/time.Duration(validators)) / time.Duration(len(st.Blocks))
	core := float64(per) / float64(BlockSeconds*time.Second) * 100
	return fmt.Sprintf("%s (%.1f%% of one core; CheckTx and rechecks %s, blocks %s)", ms(per), core,
		ms(st.CheckCPU/time.Duration(len(st.Blocks))), ms(blocks/time.Duration(len(st.Blocks))))
}

// writtenPerDay is the mean of the bytes the blocks wrote, and that over
// a day of blocks BlockSeconds apart: what badger takes in a day, of which
// it keeps the versions of keep_versions heights.
func writtenPerDay(st *Stats) string {
	if len(st.Blocks) == 0 {
		return "n/a"
	}
	var sum int64
	for _, b := range st.Blocks {
		sum += int64(b.Written)
	}
	mean := sum / int64(len(st.Blocks))
	return fmt.Sprintf("%d (%s a day)", mean, mib(mean*86_400/BlockSeconds))
}

// treeRow is the record trees' work per block: the provable records a
// block changed, the nodes written for them and their bytes, mean and max.
func treeRow(st *Stats) string {
	if len(st.Blocks) == 0 {
		return "n/a"
	}
	var sum, most [3]int
	for _, b := range st.Blocks {
		for i, v := range [3]int{b.Records, b.TreeNodes, b.TreeBytes} {
			sum[i] += v
			most[i] = max(most[i], v)
		}
	}
	n := len(st.Blocks)
	return fmt.Sprintf("%d (%d) / %d (%d) / %d (%d)", sum[0]/n, most[0], sum[1]/n, most[1], sum[2]/n, most[2])
}
