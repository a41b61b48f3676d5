package leaderboard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
)

// boardQuerier answers the queries the track and landing pages make with a
// workflow board of miners uids 1…miners (uid 1 ranked first), each with
// one window score; it counts the window queries, the reads a page makes
// per row.
type boardQuerier struct {
	miners  int
	windows int // window/<uid> queries answered
}

func (q *boardQuerier) Query(_ context.Context, req *abcitypes.RequestQuery) (*abcitypes.ResponseQuery, error) {
	var v any
	switch path := req.Path; {
	case path == "params":
		st, err := json.Marshal(genesis.DefaultGenesis())
		if err != nil {
			return nil, err
		}
		v = wire.ParamsView{AppState: st, ChainID: "boards"}
	case path == "status":
		v = wire.StatusView{Height: 7}
	case strings.HasPrefix(path, "tasks/"):
		v = wire.TasksView{Height: 7, Tasks: []wire.TaskListEntry{}}
	case path == "counts":
		v = wire.CountsView{Height: 7, UIDs: uint64(q.miners), Tracks: []wire.TrackCountView{}}
	case strings.HasPrefix(path, "gaschain/"):
		id, err := strconv.ParseUint(strings.TrimPrefix(path, "gaschain/"), 10, 64)
		if err != nil {
			return nil, err
		}
		v = wire.GasChainView{EvmChainID: id, WindowBlocks: 1}
	case path == "leaderboard/"+genesis.TrackWorkflow:
		lb := wire.LeaderboardView{Height: 7, Track: genesis.TrackWorkflow, Miners: []wire.LeaderboardEntry{}}
		for i := range q.miners {
			lb.Miners = append(lb.Miners, wire.LeaderboardEntry{Rank: i + 1, UID: uint32(i + 1), Score: fmt.Sprintf("0.%03d", 999-i)})
		}
		v = lb
	case strings.HasPrefix(path, "leaderboard/"):
		why := "no miner"
		v = wire.LeaderboardView{Height: 7, Track: strings.TrimPrefix(path, "leaderboard/"), Miners: []wire.LeaderboardEntry{}, Empty: &why}
	case strings.HasPrefix(path, "window/"):
		q.windows++
		uid, err := strconv.ParseUint(strings.TrimPrefix(path, "window/"), 10, 32)
		if err != nil {
			return nil, err
		}
		v = wire.WindowView{UID: uint32(uid), Workflow: &wire.TrackWindowView{Scores: []string{"0.5"}, TasksSeen: 1}}
	default:
		return &abcitypes.ResponseQuery{Code: wire.QueryNotFound, Log: "the test's node has no " + path}, nil
	}
	bz, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &abcitypes.ResponseQuery{Code: wire.QueryOK, Value: bz, Height: 7}, nil
}

// TestTrackPages: a board of 12 miners, 5 a page, is read as ranks 1–5,
// 6–10 and 11–12, each page linking its neighbours and carrying the total
// in its JSON (whose leaderboard answer holds the page's miners only); a
// page reads the windows of its own rows only, and the landing page those
// of its top 10. A rank past the end is an empty page linking back; an
// after that is no whole number is a 400 saying what it takes.
func TestTrackPages(t *testing.T) {
	q := &boardQuerier{miners: 12}
	srv := httptest.NewServer(HandlerWith(q, Options{trackRows: 5}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/track/" + genesis.TrackWorkflow

	for _, c := range []struct {
		after      string
		first, n   int
		prev, next string // the links' paths ("" none)
	}{
		{"", 1, 5, "", "/track/workflow?after=5"},
		{"5", 6, 5, "/track/workflow", "/track/workflow?after=10"},
		{"10", 11, 2, "/track/workflow?after=5", ""},
		{"7", 8, 5, "/track/workflow?after=2", ""},
	} {
		url := base
		if c.after != "" {
			url += "?after=" + c.after
		}
		q.windows = 0
		code, dom := get(t, url)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", url, code, dom)
		}
		rows := tableOf(t, dom, "rows")
		if len(rows) != c.n || rows[0]["rank"] != strconv.Itoa(c.first) || rows[len(rows)-1]["rank"] != strconv.Itoa(c.first+c.n-1) {
			t.Errorf("%s: rows %v, want ranks %d–%d", url, rows, c.first, c.first+c.n-1)
		}
		if rows[0]["uid"] != strconv.Itoa(c.first) || rows[0]["fill"] == "" {
			t.Errorf("%s: first row %v, want uid %d with its window", url, rows[0], c.first)
		}
		if q.windows != c.n {
			t.Errorf("%s: %d window queries for %d rows", url, q.windows, c.n)
		}
		if heading := fmt.Sprintf("ranks %d–%d of 12", c.first, c.first+c.n-1); !strings.Contains(dom, heading) {
			t.Errorf("%s: the heading lacks %q", url, heading)
		}
		for rel, href := range map[string]string{"prev": c.prev, "next": c.next} {
			link := `rel="` + rel + `" href="` + href + `"`
			if has := strings.Contains(dom, `rel="`+rel+`"`); has != (href != "") || (href != "" && !strings.Contains(dom, link)) {
				t.Errorf("%s: want %s link %q (none when empty)", url, rel, href)
			}
		}
	}

	var page TrackPage
	getJSON(t, base+".json?after=10", &page)
	if page.Total != 12 || page.After != 10 || len(page.Rows) != 2 || page.NextAfter != nil || page.PrevAfter == nil || *page.PrevAfter != 5 ||
		len(page.Leaderboard.Miners) != 2 || page.Leaderboard.Miners[0].Rank != 11 {
		t.Errorf("json after 10: %+v, want ranks 11–12 of 12, prev 5, no next, the answer cut to them", page)
	}
	getJSON(t, base+".json", &page)
	if page.Total != 12 || len(page.Rows) != 5 || page.NextAfter == nil || *page.NextAfter != 5 || page.PrevAfter != nil {
		t.Errorf("json first page: %+v", page)
	}

	code, dom := get(t, base+"?after=40")
	if code != http.StatusOK || !strings.Contains(dom, "no miner ranked after 40: the board has 12") ||
		!strings.Contains(dom, `rel="prev" href="/track/workflow?after=7"`) || strings.Contains(dom, `rel="next"`) {
		t.Errorf("past the end: %d, want an empty page linking to the last ranks:\n%s", code, dom)
	}
	for _, bad := range []string{"x", "-1", "1.5", "99999999999999999999"} {
		for _, suffix := range []string{"", ".json"} {
			code, body := get(t, base+suffix+"?after="+bad)
			if code != http.StatusBadRequest || !strings.Contains(body, "takes the rank the page starts after") {
				t.Errorf("?after=%s on %s: %d %s, want 400 saying what after takes", bad, suffix, code, body)
			}
		}
	}

	q.windows = 0
	var index IndexPage
	getJSON(t, srv.URL+"/index.json", &index)
	if len(index.Boards) == 0 || index.Boards[0].Total != 12 || len(index.Boards[0].Rows) != boardRows || q.windows != boardRows {
		t.Errorf("landing page boards %+v after %d window queries: want the top %d of 12, their windows only", index.Boards, q.windows, boardRows)
	}
}
