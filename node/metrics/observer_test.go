package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
)

// fakeApp answers queries from a table (path → JSON; absent: not found).
type fakeApp struct {
	abcitypes.BaseApplication
	answers map[string]any
}

func (f *fakeApp) Query(_ context.Context, req *abcitypes.RequestQuery) (*abcitypes.ResponseQuery, error) {
	v, ok := f.answers[strings.Trim(req.Path, "/")]
	if !ok {
		return &abcitypes.ResponseQuery{Code: wire.QueryNotFound, Log: "not found"}, nil
	}
	bz, err := json.Marshal(v)
	return &abcitypes.ResponseQuery{Value: bz}, err
}

func newTestObserver(t *testing.T, a *fakeApp) (*observer, *Metrics) {
	t.Helper()
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	return newObserver(a, m), m
}

func ev(typ string, kv ...string) abcitypes.Event { return wire.Event(typ, kv...) }

// TestSubmissionEvents: commits count as received and pending; a score, an
// expiry and a duplicate settle them; a gas close settles every prediction
// of its chain up to its block (the later one stays); a settlement of a
// submission received before the process started finds its track through
// the submission query after Commit.
func TestSubmissionEvents(t *testing.T) {
	a := &fakeApp{answers: map[string]any{
		"status":        wire.StatusView{Height: 9},
		"submission/40": map[string]any{"track": "arena"},
		"params":        map[string]any{"app_state": map[string]any{"tracks": []any{}}},
	}}
	o, m := newTestObserver(t, a)
	o.events([]abcitypes.Event{
		ev(wire.EventSubmissionAdded, "submission_id", "1", "track", "workflow"),
		ev(wire.EventSubmissionAdded, "submission_id", "2", "track", "workflow"),
		ev(wire.EventSubmissionAdded, "submission_id", "3", "track", "workflow"),
		ev(wire.EventSubmissionAdded, "submission_id", "4", "track", "gas", "evm_chain_id", "1", "evm_block", "5"),
		ev(wire.EventSubmissionAdded, "submission_id", "5", "track", "gas", "evm_chain_id", "1", "evm_block", "6"),
		ev(wire.EventSubmissionAdded, "submission_id", "6", "track", "gas", "evm_chain_id", "2", "evm_block", "5"),
	}, 0)
	if got := testutil.ToFloat64(m.Pending.WithLabelValues("workflow")); got != 3 {
		t.Fatalf("workflow pending %v", got)
	}
	o.events([]abcitypes.Event{
		ev(wire.EventSubmissionScored, "submission_id", "1", "track", "workflow"),
		ev(wire.EventSubmissionExpired, "submission_id", "2"),
		ev(wire.EventSubmissionDuplicate, "submission_id", "3"),
		ev(wire.EventGasWindowClosed, "evm_chain_id", "1", "evm_block", "5"),
		ev(wire.EventSubmissionScored, "submission_id", "4", "track", "gas"),
		ev(wire.EventSubmissionExpired, "submission_id", "40"), // received before the process started
	}, 0)
	o.committed(context.Background())
	for labels, want := range map[[2]string]float64{
		{"workflow", SubReceived}: 3, {"workflow", SubScored}: 1, {"workflow", SubExpired}: 1, {"workflow", SubDuplicate}: 1,
		{"gas", SubReceived}: 3, {"gas", SubClosed}: 1, {"gas", SubScored}: 1, {"arena", SubExpired}: 1,
	} {
		if got := testutil.ToFloat64(m.Submissions.WithLabelValues(labels[0], labels[1])); got != want {
			t.Errorf("submissions %v = %v, want %v", labels, got, want)
		}
	}
	for track, want := range map[string]float64{"workflow": 0, "gas": 2} {
		if got := testutil.ToFloat64(m.Pending.WithLabelValues(track)); got != want {
			t.Errorf("pending %s = %v, want %v", track, got, want)
		}
	}
	if got := testutil.ToFloat64(m.Height); got != 9 {
		t.Errorf("height %v", got)
	}
}

// TestScoresDropUIDsThatLeft: the per-uid series are rebuilt from the
// answers, so a uid that is no longer on a leaderboard or in the epoch has
// no series (they stay bounded by max_uids).
func TestScoresDropUIDsThatLeft(t *testing.T) {
	tracks := map[string]any{"app_state": map[string]any{"tracks": []any{map[string]any{"name": "workflow"}}}}
	a := &fakeApp{answers: map[string]any{
		"params": tracks,
		"leaderboard/workflow": wire.LeaderboardView{Track: "workflow", Miners: []wire.LeaderboardEntry{
			{Rank: 1, UID: 1, Score: "0.9"}, {Rank: 2, UID: 2, Score: "0.5"}}},
		"epoch/latest": wire.EpochView{Epoch: &wire.EpochResultView{Number: 3, Height: 15, UIDs: []uint32{1, 2},
			Weights: []string{"0.6", "0.4"}, Unallocated: "0", U16: []wire.U16WeightView{{UID: 1, Weight: 39321}, {UID: 2, Weight: 26214}}}},
	}}
	o, m := newTestObserver(t, a)
	q := querier{ctx: context.Background(), app: a}
	if !o.refreshScores(q) {
		t.Fatal("refresh failed")
	}
	if n := testutil.CollectAndCount(m.MinerScore); n != 2 {
		t.Fatalf("%d score series, want 2", n)
	}
	if got := testutil.ToFloat64(m.MinerWeightU16.WithLabelValues("2")); got != 26214 {
		t.Fatalf("u16 of uid 2: %v", got)
	}
	// uid 2 left
	a.answers["leaderboard/workflow"] = wire.LeaderboardView{Track: "workflow", Miners: []wire.LeaderboardEntry{{Rank: 1, UID: 1, Score: "0.9"}}}
	a.answers["epoch/latest"] = wire.EpochView{Epoch: &wire.EpochResultView{Number: 4, Height: 20, UIDs: []uint32{1},
		Weights: []string{"1"}, Unallocated: "0", U16: []wire.U16WeightView{{UID: 1, Weight: 65535}}}}
	if !o.refreshScores(q) {
		t.Fatal("refresh failed")
	}
	for name, c := range map[string]prometheus.Collector{"score": m.MinerScore, "weight": m.MinerWeight, "u16": m.MinerWeightU16} {
		if n := testutil.CollectAndCount(c); n != 1 {
			t.Errorf("%s: %d series after uid 2 left, want 1", name, n)
		}
	}
	if got := testutil.ToFloat64(m.EpochNumber); got != 4 {
		t.Errorf("epoch number %v", got)
	}
}

// TestCountersStartAtZero: after Wrap, before any block, every labelled
// counter has a series at 0 for each known label value (message types ×
// result codes, end-of-block steps, batch results, and the chain's tracks
// × submission events); tracks the app cannot answer yet come with the
// first Commit that can.
func TestCountersStartAtZero(t *testing.T) {
	a := &fakeApp{answers: map[string]any{"status": wire.StatusView{Height: 1}}}
	reg := prometheus.NewRegistry()
	m, err := New(reg)
	if err != nil {
		t.Fatal(err)
	}
	w := Wrap(a, m).(*observed)
	// the figure docs/metrics.md gives: what a fresh registry exposes
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	series, text := 0, &bytes.Buffer{}
	for _, mf := range mfs {
		series += len(mf.Metric)
		if _, err := expfmt.MetricFamilyToText(text, mf); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("a fresh registry: %d series, %d bytes of text exposition", series, text.Len())
	if n, want := testutil.CollectAndCount(m.Txs), len(MsgTypes())*len(wire.Codes); n != want {
		t.Errorf("%d txs series, want %d", n, want)
	}
	if got := testutil.ToFloat64(m.Txs.WithLabelValues("commit_batch", "nonce_future")); got != 0 {
		t.Errorf("commit_batch/nonce_future = %v", got)
	}
	if n, want := testutil.CollectAndCount(m.Carried), len(app.EndBlockSteps()); n != want || want == 0 {
		t.Errorf("%d carried series, want %d", n, want)
	}
	if n := testutil.CollectAndCount(m.CheckTxBatches); n != 2 {
		t.Errorf("%d batch series, want 2", n)
	}
	if n := testutil.CollectAndCount(m.Submissions); n != 0 {
		t.Fatalf("%d submission series before the app answered its tracks", n)
	}
	a.answers["params"] = map[string]any{"app_state": map[string]any{"tracks": []any{
		map[string]any{"name": "workflow"}, map[string]any{"name": "gas"}}}}
	if _, err := w.Commit(context.Background(), &abcitypes.RequestCommit{}); err != nil {
		t.Fatal(err)
	}
	if n, want := testutil.CollectAndCount(m.Submissions), 2*len(SubEvents); n != want {
		t.Errorf("%d submission series, want %d", n, want)
	}
	if n := testutil.CollectAndCount(m.Pending); n != 2 {
		t.Errorf("%d pending series, want 2", n)
	}
}
