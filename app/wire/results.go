package wire

import (
	"sort"

	"github.com/scoringsubnet/validatord/x/receipt"
	"github.com/scoringsubnet/validatord/x/scoring"
)

// TaskResultsView answers "task/<id>/results" and is what `validatord score
// arena --task FILE` prints: the arena task's scored submissions evaluated
// as agentic-arena-metrics.md's pipeline does (scoring.TaskResults), rows by
// rank, ties by submission id.
type TaskResultsView struct {
	TaskID             uint64                 `json:"task_id"`
	Category           string                 `json:"category"`
	Difficulty         string                 `json:"difficulty"`
	Scored             int                    `json:"scored"`
	ConfidenceInterval ConfidenceIntervalView `json:"confidence_interval"`
	Results            []ArenaResultView      `json:"results"`
}

// ConfidenceIntervalView is calculate_confidence_interval of the overall
// scores: (0, 100) below 3 scores.
type ConfidenceIntervalView struct {
	Low  string `json:"low"`
	High string `json:"high"`
}

// ArenaResultView is one scored submission within its task.
type ArenaResultView struct {
	SubmissionID     uint64 `json:"submission_id"`
	UID              uint32 `json:"uid"`
	OverallScore     string `json:"overall_score"`
	EfficiencyScore  string `json:"efficiency_score"`
	SpeedScore       string `json:"speed_score"`
	CostScore        string `json:"cost_score"`
	CorrectnessScore string `json:"correctness_score"`
	// Rank shares ties (1, 2, 2, 4); Percentile is calculate_percentile.
	Rank          int            `json:"rank"`
	Percentile    string         `json:"percentile"`
	CategoryRanks MetricRankView `json:"category_ranks"`
	// OutlierFlags are detect_outliers' flags against the task's median
	// tokens now; ReceiptOutlierFlags those its receipt recorded against the
	// baseline it scored against. Two or more flags make an outlier.
	OutlierFlags        []string `json:"outlier_flags"`
	Outlier             bool     `json:"outlier"`
	ReceiptOutlierFlags []string `json:"receipt_outlier_flags"`
	ReceiptOutlier      bool     `json:"receipt_outlier"`
	Warnings            []string `json:"warnings"`
}

// MetricRankView is a submission's category rankings (ordinal, ties by
// submission id).
type MetricRankView struct {
	Efficiency  int `json:"efficiency"`
	Speed       int `json:"speed"`
	Cost        int `json:"cost"`
	Correctness int `json:"correctness"`
}

// ScoredArena is one scored arena submission as its receipt records it.
type ScoredArena struct {
	ID     uint64
	UID    uint32
	Record receipt.ArenaRecord
}

// TaskResultsViewOf evaluates a task's scored submissions, given in any
// order: the one builder of the query and the offline scorer.
func TaskResultsViewOf(task uint64, category, difficulty string, subs []ScoredArena) *TaskResultsView {
	subs = append([]ScoredArena(nil), subs...)
	sort.Slice(subs, func(i, j int) bool { return subs[i].ID < subs[j].ID })
	entries := make([]scoring.ArenaEntry, len(subs))
	for i, s := range subs {
		entries[i] = s.Record.Entry
	}
	res := scoring.TaskResults(entries)
	out := &TaskResultsView{TaskID: task, Category: category, Difficulty: difficulty, Scored: len(subs),
		ConfidenceInterval: ConfidenceIntervalView{Low: scoring.Format(res.CILow), High: scoring.Format(res.CIHigh)},
		Results:            make([]ArenaResultView, len(subs))}
	for i, s := range subs {
		r, row := s.Record.Entry.Result, res.Rows[i]
		c := row.Categories
		out.Results[i] = ArenaResultView{SubmissionID: s.ID, UID: s.UID,
			OverallScore: scoring.Format(r.Overall), EfficiencyScore: scoring.Format(r.Efficiency), SpeedScore: scoring.Format(r.Speed),
			CostScore: scoring.Format(r.Cost), CorrectnessScore: scoring.Format(r.Correctness),
			Rank: row.Rank, Percentile: scoring.Format(row.Percentile),
			CategoryRanks: MetricRankView{Efficiency: c.Efficiency, Speed: c.Speed, Cost: c.Cost, Correctness: c.Correctness},
			OutlierFlags:  List(row.OutlierFlags), Outlier: row.Outlier,
			ReceiptOutlierFlags: List(s.Record.OutlierFlags), ReceiptOutlier: s.Record.Outlier, Warnings: List(row.Warnings)}
	}
	sort.SliceStable(out.Results, func(i, j int) bool { return out.Results[i].Rank < out.Results[j].Rank })
	return out
}
