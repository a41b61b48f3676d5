package audit

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

// Summary is the outcome of a replay in which every height matched.
type Summary struct {
	ChainID        string          `json:"chain_id"`
	FromHeight     int64           `json:"from_height"`
	ToHeight       int64           `json:"to_height"`
	HeightsChecked int64           `json:"heights_checked"`
	TxsReexecuted  int64           `json:"txs_reexecuted"`
	AppHash        string          `json:"app_hash"`
	LastCheckedBy  string          `json:"last_height_checked_against"`
	ScoreEntries   int             `json:"score_entries"`
	ScoreDigest    string          `json:"score_digest_sha256"`
	LatestEpoch    json.RawMessage `json:"latest_epoch"`
	// CreatesChecked: every created key was checked to be new (replay
	// --check-creates).
	CreatesChecked bool `json:"creates_checked"`
	// Seconds is the wall time of the re-execution (the block store read,
	// every block executed and checked), and TxsPerSecond the
	// re-executed transactions over it: measured, not part of what two
	// replays must agree on.
	Seconds      float64 `json:"seconds"`
	TxsPerSecond float64 `json:"txs_per_second"`
}

// Mismatch is the first height whose app hash differs, with the keys that
// block changed. It is an error; its JSON is what `replay` prints.
type Mismatch struct {
	Height       int64    `json:"height"`
	Expected     string   `json:"expected_app_hash"`
	ExpectedFrom string   `json:"expected_from"`
	Computed     string   `json:"computed_app_hash"`
	Changes      []Change `json:"changes"`
	ChangesNote  string   `json:"changes_note,omitempty"`
	DiffError    string   `json:"diff_error,omitempty"`
	err          *replay.MismatchError
}

func (m *Mismatch) Error() string { return m.err.Error() }

// Unwrap gives the replay engine's error.
func (m *Mismatch) Unwrap() error { return m.err }

// Change is one key the mismatching block changed; Old/New are absent when
// the key was added/deleted.
type Change struct {
	Key    string          `json:"key"`
	KeyHex string          `json:"key_hex"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

// Target replays into fresh instances of this application over badger.
func Target() replay.Target {
	return replay.Target{
		Open: func(dir string) (abcitypes.Application, func() error, error) {
			// The replay's directory is scratch, removed at the end or on a
			// crash: no fsync per block (the hashes do not depend on it), and
			// each block's write lands while the next executes (pipelined;
			// Close waits for the last one before the directory is read).
			a, err := app.New(app.Config{DataDir: dir, NoSync: true, Durability: app.DurablePipelined})
			if err != nil {
				return nil, nil, err
			}
			return a, a.Close, nil
		},
		Dump: replay.DumpBadger,
	}
}

// Replay re-executes src into a fresh app and summarises it; at the first
// height that differs it returns a *Mismatch.
func Replay(ctx context.Context, src *replay.Source, opts replay.Options) (Summary, error) {
	return replayChain(ctx, src, opts, false)
}

// ReplayCheckingCreates is Replay that also checks every key a block
// created (store.Overlay.Create: a key named by an id handed out once) was
// absent from the state under it, which the node itself takes on trust to
// spare the look-up. A false claim stops the replay with an error naming
// the height and the key. It costs one badger look-up per created key.
func ReplayCheckingCreates(ctx context.Context, src *replay.Source, opts replay.Options) (Summary, error) {
	return replayChain(ctx, src, opts, true)
}

func replayChain(ctx context.Context, src *replay.Source, opts replay.Options, checkCreates bool) (Summary, error) {
	if checkCreates {
		defer store.VerifyCreates(store.VerifyCreates(true))
	}
	start := time.Now()
	res, err := replay.Run(ctx, src, Target(), opts)
	elapsed := time.Since(start)
	var mm *replay.MismatchError
	if errors.As(err, &mm) {
		return Summary{}, mismatch(mm)
	}
	if err != nil {
		return Summary{}, err
	}
	defer res.Close()
	sum, err := summarize(ctx, src.Genesis.ChainID, res)
	sum.CreatesChecked = checkCreates
	sum.Seconds = math.Round(elapsed.Seconds()*1000) / 1000
	if s := elapsed.Seconds(); s > 0 {
		sum.TxsPerSecond = math.Round(float64(res.Txs) / s)
	}
	return sum, err
}

// summarize queries the replayed app's latest epoch, closes it and digests its scores.
func summarize(ctx context.Context, chainID string, res *replay.Result) (Summary, error) {
	sum := Summary{
		ChainID: chainID, FromHeight: res.From, ToHeight: res.To, HeightsChecked: res.Heights,
		TxsReexecuted: res.Txs, AppHash: upperHex(res.AppHash),
		LastCheckedBy: fmt.Sprintf("header of block %d", res.To+1), LatestEpoch: json.RawMessage("null"),
	}
	if res.LastFromState {
		sum.LastCheckedBy = "state store (no later block)"
	}
	q, err := res.App.Query(ctx, &abcitypes.RequestQuery{Path: "epoch/latest"})
	if err != nil {
		return sum, err
	}
	if q.Code == 0 && json.Valid(q.Value) {
		sum.LatestEpoch = q.Value
	}
	if err := res.CloseApp(); err != nil {
		return sum, err
	}
	entries, err := replay.DumpBadger(res.Dir)
	if err != nil {
		return sum, err
	}
	kvs := toKVs(entries)
	sum.ScoreDigest = statedump.ScoreDigest(kvs)
	for _, kv := range kvs {
		if p, ok := statedump.PrefixOf(kv.Key); ok && p.Score {
			sum.ScoreEntries++
		}
	}
	return sum, nil
}

// mismatch renders a replay mismatch with decoded old and new values.
func mismatch(mm *replay.MismatchError) *Mismatch {
	out := &Mismatch{
		Height: mm.Height, ExpectedFrom: mm.ExpectedFrom, Expected: upperHex(mm.Expected), Computed: upperHex(mm.Computed),
		Changes: []Change{}, ChangesNote: mm.ChangesNote, err: mm,
	}
	if mm.DiffErr != nil {
		out.DiffError = mm.DiffErr.Error()
	}
	for _, c := range mm.Changes {
		ch := Change{Key: statedump.KeyName(c.Key), KeyHex: hex.EncodeToString(c.Key)}
		if c.Old != nil {
			ch.Old = valueJSON(c.Key, c.Old)
		}
		if c.New != nil {
			ch.New = valueJSON(c.Key, c.New)
		}
		out.Changes = append(out.Changes, ch)
	}
	return out
}

// valueJSON is a decoded value, or {"hex": "..."} when it does not decode.
func valueJSON(key, val []byte) json.RawMessage {
	v := statedump.DecodeValue(key, val)
	if v.JSON != nil {
		return v.JSON
	}
	bz, _ := json.Marshal(map[string]string{"hex": v.Hex})
	return bz
}

// toKVs converts replay entries to statedump's.
func toKVs(es []replay.Entry) []statedump.KV {
	out := make([]statedump.KV, len(es))
	for i, e := range es {
		out[i] = statedump.KV{Key: e.Key, Value: e.Value}
	}
	return out
}

// upperHex renders a hash as CometBFT headers do.
func upperHex(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }
