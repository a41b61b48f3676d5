//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cometbft/cometbft/types"
	"github.com/shopspring/decimal"

	"github.com/scoringsubnet/validatord/app/wire"
)

// The adversary scenario's settings: validator 3 of 4 equal powers (1/4, below 1/3) attacks;
// chain.max_open_tasks is lowered so that its task floods reach the cap within the run.
const (
	adversaryIndex        = 3
	adversaryMaxOpenTasks = 1000
	adversaryLead         = 40 // blocks from a flood to the report deadline it stacks on
)

// adversaryFigures are the figures of the adversary scenario.
type adversaryFigures struct {
	AttackSeconds      int               `json:"attack_seconds"`
	MaxOpenTasks       int               `json:"max_open_tasks"`
	LoadSummary        string            `json:"loadgen_summary"`
	MaxStall           string            `json:"max_stall"`
	FinalHeight        int64             `json:"final_height"`
	HeightsCompared    int64             `json:"heights_compared"`
	BusiestBlock       string            `json:"busiest_block"`
	LargestStack       string            `json:"largest_deadline_stack"`
	HonestCommitted    int               `json:"honest_txs_committed"`
	AdversaryCommitted map[string]int    `json:"adversary_txs_committed"`
	AdversaryRefused   map[string]int    `json:"adversary_refusals_by_code"`
	HonestRefused      map[string]int    `json:"honest_refusals_by_code"`
	Unconfirmed        int               `json:"unconfirmed"`
	CommitReveal       map[string]any    `json:"commit_reveal"`
	Copies             map[string]any    `json:"copies"`
	CopiesChecked      int               `json:"copies_checked_duplicate_score_0"`
	LateChecked        int               `json:"late_commits_checked_late"`
	TxsLost            int               `json:"honest_txs_lost"`
	Submissions        submissionFigures `json:"submissions"`
	ReplayedHeights    []int64           `json:"replayed_heights"`
	ReplayScoreDigest  string            `json:"replay_score_digest"`
}

// TestAdversaryMinority: 4 validators under the honest load while validator 3 (1/4 of the
// power) floods tasks on one deadline up to max_open_tasks, floods truths past the gas
// window and into the future, and releases its held-back reports in bursts, and its two
// miners attack commit-reveal (copies committed after their owner's commit, commits after a
// reveal, wrong-salt reveals, withheld commits, late gas commits), for E2E_ADVERSARY_SECONDS
// (default 60); then calm until every deadline it stacked has passed. Pass: no stall over
// 10 s, no node exits, the floods reached every bound (refusals 43, 44, 45, 46), every copy
// attempt was refused (27, 33, 50) or scored 0 (a duplicate) and every late commit is late,
// no honest commit is a duplicate or unrevealed and every honest workflow and arena one is
// final (reported by the honest validators once revealed), identical headers (app hashes) at every
// height on every node, every honest transaction and submission on every node, and replay
// matching everywhere.
func TestAdversaryMinority(t *testing.T) {
	const validators = 4
	attackFor := time.Duration(envInt("E2E_ADVERSARY_SECONDS", 60)) * time.Second
	nw := newNetwork(t, validators, basePort+200, "500ms")
	nw.setChainParam("max_open_tasks", adversaryMaxOpenTasks)
	nw.startAll()
	mon := watch(nw, 250*time.Millisecond)
	out, statsPath := filepath.Join(nw.dir, "load.jsonl"), filepath.Join(nw.dir, "stats.json")
	load := nw.ps.start(t, "loadgen", filepath.Join(nw.dir, "loadgen.log"), nil, bin("loadgen"), "adversary",
		"--testnet", nw.dir, "--duration", attackFor.String(), "--rate", "25", "--miners", "4", "--out", out, "--stats", statsPath,
		"--adversary", fmt.Sprint(adversaryIndex), "--adversary-rate", "100", "--adversary-tasks", "250",
		"--adversary-lead", fmt.Sprint(adversaryLead))
	if err := load.wait(attackFor + 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if code := load.exitCode(); code != 0 {
		t.Fatalf("loadgen exited %d (see %s)", code, filepath.Join(nw.dir, "loadgen.log"))
	}
	fig := adversaryFigures{AttackSeconds: int(attackFor / time.Second), MaxOpenTasks: adversaryMaxOpenTasks,
		LoadSummary: loadSummary(filepath.Join(nw.dir, "loadgen.log"))}
	recs, err := loadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	honest, adv := splitAdversary(recs)
	fig.HonestCommitted, fig.AdversaryCommitted = len(honest), countKinds(adv)
	if len(honest) == 0 || fig.AdversaryCommitted["adversary/post-task"] == 0 || fig.AdversaryCommitted["adversary/truth"] == 0 {
		t.Fatalf("committed: %d honest, adversary %v", len(honest), fig.AdversaryCommitted)
	}

	// Calm: every deadline the floods stacked (and the honest tasks') passes and settles
	// under the stall monitor.
	settle := maxRecordHeight(recs) + max(45, adversaryLead+10)
	if err := nw.waitAll(settle, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	stall, stallAt, _ := mon.finish()
	fig.MaxStall = stall.Round(100 * time.Millisecond).String()
	if stall > 10*time.Second {
		t.Errorf("the chain stopped for %s after height %d (limit 10s)", stall, stallAt)
	}
	for i, p := range nw.nodes {
		if !p.running() {
			t.Errorf("node%d exited with code %d (see %s)", i, p.exitCode(), filepath.Join(nw.homes[i], "node.log"))
		}
	}
	fig.FinalHeight = settle
	if fig.HeightsCompared, err = compareAppHashes(nw, settle); err != nil {
		t.Fatal(err)
	}
	if fig.BusiestBlock, err = busiestBlock(nw, settle); err != nil {
		t.Fatal(err)
	}
	stack, at, err := largestStack(nw)
	if err != nil {
		t.Fatal(err)
	}
	fig.LargestStack = fmt.Sprintf("%d tasks with report deadline %d", stack, at)
	if stack < adversaryMaxOpenTasks/4 {
		t.Errorf("at most %d tasks share a report deadline: the task flood did not stack", stack)
	}

	checkRefusals(t, statsPath, &fig)
	fig.CopiesChecked, fig.LateChecked = checkCopies(t, nw, adv)
	fig.TxsLost, fig.Submissions = checkCommitted(t, nw, honest, validators-1)
	if fig.Submissions.Unrevealed > 0 {
		t.Errorf("%d honest commits were never revealed (no validator was killed)", fig.Submissions.Unrevealed)
	}
	lost := lostReports(honest, validators-1)
	for k, n := range fig.Submissions.ByStatus {
		if strings.HasPrefix(k, "gas/") || strings.HasSuffix(k, "/scored") || strings.HasSuffix(k, "/failed") {
			continue
		}
		if strings.HasSuffix(k, "/expired") && fig.Unconfirmed > 0 {
			// An expiry the chain could not avoid: a report the load generator sent was
			// accepted but never seen committed (accepted, never included), so
			// the honest reports on chain fell to the deadline quorum. Each such
			// submission must lack a committed honest report in the generator's records.
			if unexplained := expiredWithAllReports(t, nw, honest, lost); unexplained > 0 {
				t.Errorf("%d honest submissions expired although every honest validator's report was committed", unexplained)
			} else {
				t.Logf("%d honest submissions are %s: each lacks a committed honest report (%d txs unconfirmed by the load generator)", n, k, fig.Unconfirmed)
			}
			continue
		}
		t.Errorf("%d honest submissions are %s: with no validator killed, every revealed one is reported and final", n, k)
	}

	nw.stopAll()
	fig.ReplayedHeights, fig.ReplayScoreDigest = replayAll(t, nw, settle)
	report(t, "adversary", fig)
}

// splitAdversary separates the honest generator's records from the adversary's.
func splitAdversary(recs []record) (honest, adv []record) {
	for _, r := range recs {
		if strings.HasPrefix(r.Kind, "adversary/") {
			adv = append(adv, r)
		} else {
			honest = append(honest, r)
		}
	}
	return honest, adv
}

func countKinds(recs []record) map[string]int {
	out := map[string]int{}
	for _, r := range recs {
		out[r.Kind]++
	}
	return out
}

// loadStats is the part of loadgen's --stats file the harness reads.
type loadStats struct {
	Rejected     map[string]int `json:"rejected"` // "kind code N"
	Uncertain    int            `json:"uncertain"`
	CommitReveal map[string]any `json:"commit_reveal"`
	Copies       *copyStats     `json:"copies"`
}

// copyStats are loadgen's counts of the adversary's copy attempts and the verdicts it read.
type copyStats struct {
	Early               int `json:"early"`
	EarlyDuplicate      int `json:"early_duplicate"`
	EarlyKept           int `json:"early_kept"`
	AfterReveal         int `json:"after_reveal"`
	AfterRevealAccepted int `json:"after_reveal_accepted"`
	WrongSalt           int `json:"wrong_salt"`
	WrongSaltRefused    int `json:"wrong_salt_refused"`
	Late                int `json:"late"`
	LateFound           int `json:"late_found"`
	Unchecked           int `json:"unchecked"`
}

// checkRefusals reads loadgen's counts, sums the refusals by code (adversary and honest
// apart) and requires the adversary's floods to have reached every bound (43, 44, 45, 46)
// and its copy attempts to have been refused: commits after a reveal (27 for a task, 33 for an
// EVM block), reveals with a wrong salt (50); none of them taken, no copy keeping an artifact.
func checkRefusals(t *testing.T, path string, fig *adversaryFigures) {
	t.Helper()
	bz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s loadStats
	if err := json.Unmarshal(bz, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	fig.AdversaryRefused, fig.HonestRefused, fig.Unconfirmed = map[string]int{}, map[string]int{}, s.Uncertain
	for k, n := range s.Rejected {
		kind, codeStr, ok := strings.Cut(k, " code ")
		code, err := strconv.ParseUint(codeStr, 10, 32)
		if !ok || err != nil {
			t.Fatalf("%s: rejection key %q", path, k)
		}
		name := fmt.Sprintf("%d %s", code, wire.CodeName(uint32(code)))
		if strings.HasPrefix(kind, "adversary/") {
			fig.AdversaryRefused[name] += n
		} else {
			fig.HonestRefused[name] += n
		}
	}
	for _, c := range []uint32{wire.CodeTooManyOpenTasks, wire.CodeTruthTooFar, wire.CodeTruthTimeFuture, wire.CodeTooManyOpenRounds,
		wire.CodeSubmissionDeadline, wire.CodeEVMBlockClosed, wire.CodeRevealMismatch} {
		if fig.AdversaryRefused[fmt.Sprintf("%d %s", c, wire.CodeName(c))] == 0 {
			t.Errorf("the adversary got no refusal with code %d (%s): its floods or copies did not reach that rule; refusals %v", c, wire.CodeName(c), fig.AdversaryRefused)
		}
	}
	fig.CommitReveal = s.CommitReveal
	c := s.Copies
	if c == nil {
		t.Fatalf("%s: no copy counts", path)
	}
	fig.Copies = map[string]any{"early": c.Early, "early_duplicate": c.EarlyDuplicate, "early_kept": c.EarlyKept,
		"after_reveal": c.AfterReveal, "after_reveal_accepted": c.AfterRevealAccepted, "wrong_salt": c.WrongSalt,
		"wrong_salt_refused": c.WrongSaltRefused, "late": c.Late, "late_found": c.LateFound, "unchecked": c.Unchecked}
	switch {
	case c.Early == 0 || c.AfterReveal == 0 || c.WrongSalt == 0 || c.Late == 0:
		t.Errorf("some copy attempt was never made: %+v", *c)
	case c.EarlyKept > 0:
		t.Errorf("%d copies committed after their owner's commit kept the artifact: %+v", c.EarlyKept, *c)
	case c.AfterRevealAccepted > 0:
		t.Errorf("%d commits of an artifact or price after its reveal were taken: %+v", c.AfterRevealAccepted, *c)
	case c.WrongSaltRefused != c.WrongSalt:
		t.Errorf("%d of %d wrong-salt reveals were not refused with 50", c.WrongSalt-c.WrongSaltRefused, c.WrongSalt)
	}
}

// checkCopies reads back, on every node, each copy the adversary committed after its owner's
// commit (it must be a duplicate with score 0, its receipt's commit section saying so) and
// each of its late gas commits (it must be late, or unscored when a later EVM block closed its
// block first: never counted). It returns how many copies and late verdicts were checked.
func checkCopies(t *testing.T, nw *network, adv []record) (copies, late int) {
	t.Helper()
	var errs []string
	for _, r := range adv {
		if r.Kind != "adversary/copy" && r.Kind != "adversary/late-commit" {
			continue
		}
		for i := range nw.clients {
			bz, err := querySub(nw, i, r.SubmissionID)
			if err != nil {
				errs = append(errs, fmt.Sprintf("node%d: %s submission %d: %v", i, r.Kind, r.SubmissionID, err))
				continue
			}
			var v subView
			if err := json.Unmarshal(bz, &v); err != nil {
				errs = append(errs, fmt.Sprintf("submission %d: %v", r.SubmissionID, err))
				continue
			}
			switch {
			case r.Kind == "adversary/late-commit" && v.Status != "late" && v.Status != "unscored":
				// late when its block was closed and judged it; unscored when a
				// truth for a later block closed the chain first (its own truth
				// never became final, so no reveal could open): either way it
				// never counts
				errs = append(errs, fmt.Sprintf("node%d: late gas commit %d: status %q, want late (or unscored, its block skipped): %s", i, r.SubmissionID, v.Status, bz))
			case r.Kind == "adversary/late-commit" && v.Status == "unscored":
			case r.Kind == "adversary/copy" && (v.Status != "duplicate" || !v.Duplicate || v.Receipt == nil || !zero(v.Receipt.Score) || field(v.Receipt.Commit, "duplicate") != "true"):
				errs = append(errs, fmt.Sprintf("node%d: copy %d is not a duplicate with score 0: %s", i, r.SubmissionID, bz))
			case i > 0:
			case r.Kind == "adversary/copy":
				copies++
			default:
				late++
			}
		}
	}
	for _, e := range firstN(errs, 20) {
		t.Error(e)
	}
	if copies == 0 || late == 0 {
		t.Errorf("checked %d copies and %d late commits: want some of each", copies, late)
	}
	return copies, late
}

// zero: a decimal string equal to 0 ("0", "0.000…").
func zero(s string) bool {
	d, err := decimal.NewFromString(s)
	return err == nil && d.IsZero()
}

func field(fs []fieldView, name string) string {
	for _, f := range fs {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// largestStack asks node0 for every task (ids from 0 until one is not found) and returns
// the most that share one report deadline, and that deadline (at most 100,000 tasks read).
func largestStack(nw *network) (n int, at int64, err error) {
	perDeadline := map[int64]int{}
	for id := 0; id < 100_000; id++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := nw.clients[0].ABCIQuery(ctx, fmt.Sprintf("task/%d", id), nil)
		cancel()
		if err != nil {
			return 0, 0, err
		}
		if res.Response.Code == wire.QueryNotFound {
			break
		}
		var task struct {
			ReportDeadline int64 `json:"report_deadline"`
		}
		if err := json.Unmarshal(res.Response.Value, &task); err != nil {
			return 0, 0, fmt.Errorf("task/%d: %w", id, err)
		}
		perDeadline[task.ReportDeadline]++
	}
	for h, c := range perDeadline {
		if c > n || c == n && h < at {
			n, at = c, h
		}
	}
	return n, at, nil
}

// busiestBlock is node0's block with the most transactions among 1..h.
func busiestBlock(nw *network, h int64) (string, error) {
	var best types.BlockMeta
	err := eachBlockMeta(nw, 0, h, func(m *types.BlockMeta) {
		if m.NumTxs > best.NumTxs {
			best = *m
		}
	})
	return fmt.Sprintf("%d txs at height %d", best.NumTxs, best.Header.Height), err
}

// lostReports are the honest submissions for which the load generator recorded fewer
// committed reports than there are honest validators.
func lostReports(honest []record, reporters int) map[uint64]bool {
	reports := map[uint64]int{}
	for _, r := range honest {
		if strings.HasPrefix(r.Kind, "report/") {
			reports[r.SubmissionID]++
		}
	}
	out := map[uint64]bool{}
	for id, n := range reports {
		if n < reporters {
			out[id] = true
		}
	}
	for _, r := range honest {
		if (r.Kind == "commit/workflow" || r.Kind == "commit/arena") && reports[r.SubmissionID] == 0 {
			out[r.SubmissionID] = true
		}
	}
	return out
}

// expiredWithAllReports counts the honest workflow and arena submissions that expired on
// node0 although none of their honest reports was lost.
func expiredWithAllReports(t *testing.T, nw *network, honest []record, lost map[uint64]bool) int {
	t.Helper()
	n := 0
	for _, r := range honest {
		if r.Kind != "commit/workflow" && r.Kind != "commit/arena" {
			continue
		}
		bz, err := querySub(nw, 0, r.SubmissionID)
		if err != nil {
			t.Fatal(err)
		}
		var sub struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(bz, &sub); err != nil {
			t.Fatal(err)
		}
		if sub.Status == "expired" && !lost[r.SubmissionID] {
			n++
		}
	}
	return n
}
