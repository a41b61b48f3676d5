package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/internal/replay"
	"github.com/scoringsubnet/validatord/internal/statedump"
)

func init() {
	register(Command{Name: "replay", Summary: "re-execute a stopped node's chain into a fresh app and check every app hash", Run: runReplay})
}

const replayUsage = "replay [--home DIR] [--to HEIGHT] [--workdir DIR]   (the node must be stopped)"

// replaySummary is what replay prints on stdout when every height matched.
type replaySummary struct {
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
}

// replayMismatch is what replay prints on stdout at the first height that differs.
type replayMismatch struct {
	Height       int64         `json:"height"`
	Expected     string        `json:"expected_app_hash"`
	ExpectedFrom string        `json:"expected_from"`
	Computed     string        `json:"computed_app_hash"`
	Changes      []stateChange `json:"changes"`
	ChangesNote  string        `json:"changes_note,omitempty"`
	DiffError    string        `json:"diff_error,omitempty"`
}

// stateChange is one key the mismatching block changed; old/new are absent when the key
// was added/deleted.
type stateChange struct {
	Key    string          `json:"key"`
	KeyHex string          `json:"key_hex"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
}

func runReplay(ctx context.Context, env Env, args []string) error {
	fs := newFlags("replay")
	home := homeFlag(fs)
	to := fs.Int64("to", 0, "stop after this height (default: the node's last height)")
	workdir := fs.String("workdir", "", "parent of the temporary state directories (default: the system temp dir)")
	pos, ok, err := parseFlags(env, fs, replayUsage, args)
	if !ok || err != nil {
		return err
	}
	if err := wantArgs(pos, 0, replayUsage); err != nil {
		return err
	}
	if *to < 0 {
		return fmt.Errorf("--to: %d, want a height >= 1 (or 0 for the last)", *to)
	}
	src, err := openReplaySource(*home)
	if err != nil {
		return err
	}
	defer src.Close()
	res, err := replay.Run(ctx, src, appTarget(), replay.Options{To: *to, WorkDir: *workdir, Progress: env.Stderr})
	var mm *replay.MismatchError
	if errors.As(err, &mm) {
		if perr := printJSON(env.Stdout, mismatchReport(mm)); perr != nil {
			return errors.Join(err, perr)
		}
		return err
	}
	if err != nil {
		return oneLine(err)
	}
	defer res.Close()
	sum, err := summarize(ctx, src.Genesis.ChainID, res)
	if err != nil {
		return err
	}
	return printJSON(env.Stdout, sum)
}

// openReplaySource opens the stores of a stopped node's home, read-only.
func openReplaySource(home string) (*replay.Source, error) {
	conf, err := loadConfig(home)
	if err != nil {
		return nil, err
	}
	src, err := replay.OpenSource(conf)
	if err != nil {
		return nil, oneLine(err)
	}
	return src, nil
}

// appTarget replays into fresh instances of this application over badger.
func appTarget() replay.Target {
	return replay.Target{
		Open: func(dir string) (abcitypes.Application, func() error, error) {
			a, err := app.New(app.Config{DataDir: dir})
			if err != nil {
				return nil, nil, err
			}
			return a, a.Close, nil
		},
		Dump: replay.DumpBadger,
	}
}

// summarize queries the replayed app's latest epoch, closes it and digests its scores.
func summarize(ctx context.Context, chainID string, res *replay.Result) (replaySummary, error) {
	sum := replaySummary{
		ChainID: chainID, FromHeight: res.From, ToHeight: res.To, HeightsChecked: res.Heights,
		TxsReexecuted: res.Txs, AppHash: strings.ToUpper(hex.EncodeToString(res.AppHash)),
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

// mismatchReport renders a mismatch with decoded old and new values.
func mismatchReport(mm *replay.MismatchError) replayMismatch {
	out := replayMismatch{
		Height: mm.Height, ExpectedFrom: mm.ExpectedFrom,
		Expected: strings.ToUpper(hex.EncodeToString(mm.Expected)), Computed: strings.ToUpper(hex.EncodeToString(mm.Computed)),
		Changes: []stateChange{}, ChangesNote: mm.ChangesNote,
	}
	if mm.DiffErr != nil {
		out.DiffError = mm.DiffErr.Error()
	}
	for _, c := range mm.Changes {
		sc := stateChange{Key: statedump.KeyName(c.Key), KeyHex: hex.EncodeToString(c.Key)}
		if c.Old != nil {
			sc.Old = valueJSON(c.Key, c.Old)
		}
		if c.New != nil {
			sc.New = valueJSON(c.Key, c.New)
		}
		out.Changes = append(out.Changes, sc)
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
