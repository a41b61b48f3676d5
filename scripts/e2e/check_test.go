//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cometbft/cometbft/types"
)

// record is one line of loadgen's --out file.
type record struct {
	Kind         string `json:"kind"`
	Sender       string `json:"sender"`
	Hash         string `json:"hash"`
	Height       int64  `json:"height"`
	SubmissionID uint64 `json:"submission_id"`
	TaskID       uint64 `json:"task_id"`
}

func loadRecords(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// compareAppHashes compares, for every height 1..h, the header (app hash included) and block
// hash of every node with node0's; it returns the number of heights compared.
func compareAppHashes(nw *network, h int64) (int64, error) {
	var ref map[int64]string
	for i := range nw.clients {
		got, err := headers(nw, i, h)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			ref = got
			continue
		}
		for height := int64(1); height <= h; height++ {
			if got[height] != ref[height] {
				return 0, fmt.Errorf("height %d: node%d has %s, node0 has %s", height, i, got[height], ref[height])
			}
		}
	}
	return h, nil
}

// headers returns "app_hash=<hex> block=<hex>" of node i's blocks 1..h, the app hash
// taken from the header of each block h+1 too (so the last one is covered by its header).
func headers(nw *network, i int, h int64) (map[int64]string, error) {
	return headersFrom(nw, i, 1, h)
}

// headersFrom is headers of heights from..h (a state-synced node has no block below its
// snapshot).
func headersFrom(nw *network, i int, from, h int64) (map[int64]string, error) {
	out := make(map[int64]string, h)
	err := eachBlockMetaFrom(nw, i, from, h, func(m *types.BlockMeta) {
		out[m.Header.Height] = fmt.Sprintf("app_hash=%X block=%X", m.Header.AppHash, m.BlockID.Hash)
	})
	if err != nil {
		return nil, err
	}
	for height := from; height <= h; height++ {
		if _, ok := out[height]; !ok {
			return nil, fmt.Errorf("node%d: no header for height %d", i, height)
		}
	}
	return out, nil
}

// eachBlockMeta calls f with node i's block metas of heights 1..h (/blockchain, 20 a call).
func eachBlockMeta(nw *network, i int, h int64, f func(m *types.BlockMeta)) error {
	return eachBlockMetaFrom(nw, i, 1, h, f)
}

func eachBlockMetaFrom(nw *network, i int, from, h int64, f func(m *types.BlockMeta)) error {
	for lo := from; lo <= h; lo += 20 {
		hi := min(lo+19, h)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := nw.clients[i].BlockchainInfo(ctx, lo, hi)
		cancel()
		if err != nil {
			return fmt.Errorf("node%d /blockchain %d-%d: %w", i, lo, hi, err)
		}
		for _, m := range res.BlockMetas {
			f(m)
		}
	}
	return nil
}

// checkTxs checks that every committed transaction is on every node, at the same height,
// with code 0 (the nodes are asked at once, each its records in order). It returns the
// number of (tx, node) pairs missing.
func checkTxs(nw *network, recs []record) (lost int, errs []string) {
	nodeLost := make([]int, len(nw.clients))
	nodeErrs := make([][]string, len(nw.clients))
	var wg sync.WaitGroup
	for i, c := range nw.clients {
		wg.Go(func() {
			for _, r := range recs {
				hash, err := hex.DecodeString(r.Hash)
				if err != nil {
					nodeErrs[i] = append(nodeErrs[i], fmt.Sprintf("record %+v: bad hash", r))
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				res, err := c.Tx(ctx, hash, false)
				cancel()
				switch {
				case err != nil:
					nodeLost[i]++
					nodeErrs[i] = append(nodeErrs[i], fmt.Sprintf("node%d: %s %s (height %d): %v", i, r.Kind, r.Hash, r.Height, err))
				case res.Height != r.Height || res.TxResult.Code != 0:
					nodeLost[i]++
					nodeErrs[i] = append(nodeErrs[i], fmt.Sprintf("node%d: %s %s: height %d code %d, loadgen saw height %d code 0", i, r.Kind, r.Hash, res.Height, res.TxResult.Code, r.Height))
				}
			}
		})
	}
	wg.Wait()
	for i := range nw.clients {
		lost += nodeLost[i]
		errs = append(errs, nodeErrs[i]...)
	}
	return lost, errs
}

// subView is the part of a submission query the checks read.
type subView struct {
	Track        string `json:"track"`
	Status       string `json:"status"`
	Duplicate    bool   `json:"duplicate"`
	RevealHeight int64  `json:"reveal_height"`
	Receipt      *struct {
		Score  string      `json:"score"`
		Commit []fieldView `json:"commit"`
	} `json:"receipt"`
}

type fieldView struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// submissionFigures are the outcome of checkSubmissions.
type submissionFigures struct {
	Checked    int            `json:"checked"`
	Scored     int            `json:"scored"`
	Revealed   int            `json:"revealed"`
	Unrevealed int            `json:"unrevealed"`
	Missing    int            `json:"missing"`
	Differing  int            `json:"differing"`
	ByStatus   map[string]int `json:"by_status"`
}

// querySub asks node i for submission/<id>: the raw answer (nil when it has none).
func querySub(nw *network, i int, id uint64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	path := fmt.Sprintf("submission/%d", id)
	res, err := nw.clients[i].ABCIQuery(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	if res.Response.Code != 0 {
		return nil, fmt.Errorf("%s: code %d: %s", path, res.Response.Code, res.Response.Log)
	}
	return res.Response.Value, nil
}

// checkSubmissions queries every submission whose commit the load generator saw committed on
// every node: present everywhere, the same answer everywhere, never a duplicate (every honest
// miner commits its own artifact, so no copy can take it), and scored (with a score) when all
// validators' reports were committed.
func checkSubmissions(nw *network, recs []record, validators int) (submissionFigures, []string) {
	f := submissionFigures{ByStatus: map[string]int{}}
	var errs []string
	reports := map[uint64]int{}
	for _, r := range recs {
		if strings.HasPrefix(r.Kind, "report/") {
			reports[r.SubmissionID]++
		}
	}
	for _, r := range recs {
		if !strings.HasPrefix(r.Kind, "commit/") {
			continue
		}
		f.Checked++
		path := fmt.Sprintf("submission/%d", r.SubmissionID)
		var first []byte
		for i := range nw.clients {
			bz, err := querySub(nw, i, r.SubmissionID)
			if err != nil {
				f.Missing++
				errs = append(errs, fmt.Sprintf("node%d: %s: %v", i, path, err))
				continue
			}
			if first == nil {
				first = bz
			} else if !bytes.Equal(first, bz) {
				f.Differing++
				errs = append(errs, fmt.Sprintf("node%d: %s differs from node0:\n%s\n%s", i, path, bz, first))
			}
		}
		var v subView
		if err := json.Unmarshal(first, &v); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		f.ByStatus[v.Track+"/"+v.Status]++
		switch {
		case v.RevealHeight > 0:
			f.Revealed++
		case v.Status == "unrevealed":
			f.Unrevealed++
		}
		if v.Status == "duplicate" || v.Duplicate {
			errs = append(errs, fmt.Sprintf("%s: an honest miner's own artifact is a duplicate: %s", path, first))
		}
		if v.Status == "scored" {
			f.Scored++
			if v.Receipt == nil || v.Receipt.Score == "" {
				errs = append(errs, fmt.Sprintf("%s: scored without a score in its receipt: %s", path, first))
			}
		}
		if v.Track != "gas" && reports[r.SubmissionID] == validators && v.Status != "scored" && v.Status != "failed" {
			errs = append(errs, fmt.Sprintf("%s: all %d reports committed but status %q", path, validators, v.Status))
		}
	}
	return f, errs
}

// checkCommitted runs checkTxs and checkSubmissions (a submission with reports from all
// reporters must be final) and fails t with their first errors, or when nothing was scored.
func checkCommitted(t *testing.T, nw *network, recs []record, reporters int) (lost int, subs submissionFigures) {
	t.Helper()
	lost, errs := checkTxs(nw, recs)
	for _, e := range firstN(errs, 20) {
		t.Error(e)
	}
	subs, errs = checkSubmissions(nw, recs, reporters)
	for _, e := range firstN(errs, 20) {
		t.Error(e)
	}
	if subs.Scored == 0 {
		t.Error("no submission was scored")
	}
	return lost, subs
}

// replaySummary is the part of `validatord replay`'s JSON the harness reads.
type replaySummary struct {
	ToHeight       int64  `json:"to_height"`
	HeightsChecked int64  `json:"heights_checked"`
	TxsReexecuted  int64  `json:"txs_reexecuted"`
	AppHash        string `json:"app_hash"`
	ScoreDigest    string `json:"score_digest_sha256"`
}

// replayHome runs `validatord replay` over a stopped node's home (to h, or the last height
// when h is 0).
func replayHome(t *testing.T, home string, h int64) (replaySummary, error) {
	args := []string{"replay", "--home", home}
	if h > 0 {
		args = append(args, "--to", fmt.Sprint(h))
	}
	var s replaySummary
	out, err := run(t, 5*time.Minute, nil, bin("validatord"), args...)
	if err != nil {
		return s, fmt.Errorf("%w\nstdout: %s", err, out)
	}
	if err := json.Unmarshal(out, &s); err != nil {
		return s, fmt.Errorf("replay output: %w: %s", err, out)
	}
	return s, nil
}

// replayAll replays every stopped node's block store to h: each must check h heights, and
// all must print the same score digest. It returns the heights checked and the digest.
func replayAll(t *testing.T, nw *network, h int64) ([]int64, string) {
	t.Helper()
	var heights []int64
	var digests []string
	for i := range nw.homes {
		s, err := replayHome(t, nw.homes[i], h)
		if err != nil {
			t.Fatalf("replay node%d: %v", i, err)
		}
		if s.HeightsChecked != h {
			t.Errorf("replay node%d checked %d heights, want %d", i, s.HeightsChecked, h)
		}
		heights = append(heights, s.HeightsChecked)
		digests = append(digests, s.ScoreDigest)
	}
	for i, d := range digests {
		if d != digests[0] {
			t.Errorf("replay score digest of node%d %s differs from node0's %s", i, d, digests[0])
		}
	}
	return heights, digests[0]
}

// exportHeader is the head of `validatord export`'s document.
type exportHeader struct {
	Height  int64  `json:"height"`
	AppHash string `json:"app_hash"`
}

// exportMeta runs `validatord export` over a stopped node's home and returns the height and
// app hash of its stored state.
func exportMeta(t *testing.T, home string) (exportHeader, error) {
	var h exportHeader
	out, err := run(t, 2*time.Minute, nil, bin("validatord"), "export", "--home", home)
	if err != nil {
		return h, err
	}
	if err := json.Unmarshal(out, &h); err != nil {
		return h, fmt.Errorf("export output: %w", err)
	}
	return h, nil
}
