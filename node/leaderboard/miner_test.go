package leaderboard

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// hostileAddress is a MsgServe address the chain accepts (printable ASCII,
// http://, a host Go's URL parser takes) that would run a script if a page
// wrote it unescaped.
const hostileAddress = "http://<script>alert(1)<"

// TestMinerPage drives a miner through a scored workflow and arena task and
// an epoch, has it announce a hostile serve address by a real MsgServe,
// and reads /miner/<uid>: its submissions with their status, score and
// receipt link (which answers), its windows, its weight per epoch with the
// proof link, the server-drawn charts, paging by ?after=, and the address
// escaped. /epochs is read from the same chain (checkEpochsPage).
func TestMinerPage(t *testing.T) {
	n := testnode.Start(t, testnode.DriveOptions())
	d := n.Drive(t)
	ctx := testnode.Ctx(t)
	miner := client.NewSigner(n.Client, n.ChainID, testnode.Key("miner"))
	if res, err := miner.SendWait(ctx, client.Serve(hostileAddress), testnode.WaitFor); err != nil || res.Code != 0 {
		t.Fatalf("serve %q: %+v %v", hostileAddress, res, err)
	}
	srv, err := Listen("127.0.0.1:0", n.App)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	base := "http://" + srv.Addr()
	url := fmt.Sprintf("%s/miner/%d", base, d.UID)

	var page MinerPage
	getJSON(t, url+".json", &page)
	if page.Miner == nil || page.Miner.Address != hostileAddress || page.UID != d.UID {
		t.Fatalf("miner %+v", page.Miner)
	}
	if len(page.Submissions) != 2 {
		t.Fatalf("submissions %+v, want the workflow and the arena one", page.Submissions)
	}
	for _, s := range page.Submissions {
		if s.Status != "scored" || s.Label != "scored" || s.Score == nil || s.Query != fmt.Sprintf("submission/%d", s.ID) {
			t.Errorf("submission %+v: want scored with its score and query path", s)
		}
		var sv wire.SubmissionView
		getJSON(t, base+s.Receipt, &sv)
		if sv.ID != s.ID || sv.Receipt == nil || sv.Receipt.Score != *s.Score {
			t.Errorf("receipt %s: %+v, want the submission's receipt with score %s", s.Receipt, sv, *s.Score)
		}
	}
	if page.Submissions[1].TaskLink != "" || page.Submissions[0].TaskLink != fmt.Sprintf("/task/%d", d.ArenaTask) {
		t.Errorf("task links %q %q: the arena submission links its results", page.Submissions[0].TaskLink, page.Submissions[1].TaskLink)
	}
	if len(page.Windows) != 2 || page.Windows[0].Window == nil || len(page.Windows[0].Scores) != 1 {
		t.Errorf("windows %+v: one workflow score", page.Windows)
	}
	if len(page.Epochs) == 0 || page.Epochs[0].Weight == "0" || page.Inactive != "" {
		t.Fatalf("epochs %+v inactive %q: the latest epoch weighs the miner", page.Epochs, page.Inactive)
	}
	for _, e := range page.Epochs {
		if e.Proof != "" {
			var ep EpochPage
			getJSON(t, base+e.Proof, &ep)
			if ep.Number != e.Number || ep.Proof == nil {
				t.Errorf("proof link %s: epoch %d proof %v", e.Proof, ep.Number, ep.Proof)
			}
		}
	}

	checkEpochsPage(t, base, d.UID)

	dom := fetch(t, url)
	if strings.Contains(dom, "<script>alert") || !strings.Contains(dom, "http://&lt;script&gt;alert(1)&lt;") {
		t.Errorf("the serve address is not escaped:\n%s", dom)
	}
	if strings.Count(dom, `<svg class="chart"`) != 2 || !strings.Contains(dom, "<polyline") {
		t.Errorf("want the weight and the score chart drawn inline:\n%s", dom)
	}
	rows := tableOf(t, dom, "submissions")
	if len(rows) != 2 || rows[0]["status"] != "scored" || rows[0]["receipt"] != "submission/"+rows[0]["id"] {
		t.Errorf("submission rows %v", rows)
	}

	// one submission a page
	paged, err := Listen("127.0.0.1:0", n.App, Options{subRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = paged.Close(context.Background()) })
	url = fmt.Sprintf("http://%s/miner/%d", paged.Addr(), d.UID)
	getJSON(t, url+".json", &page)
	if len(page.Submissions) != 1 || page.NextAfter == nil {
		t.Fatalf("one a page: %+v next %v", page.Submissions, page.NextAfter)
	}
	getJSON(t, fmt.Sprintf("%s.json?after=%d", url, *page.NextAfter), &page)
	if len(page.Submissions) != 1 || page.Submissions[0].ID != d.Submissions[0] {
		t.Errorf("second page %+v, want the workflow submission %d", page.Submissions, d.Submissions[0])
	}

	for path, want := range map[string]int{
		"/miner/4000":        http.StatusNotFound,
		"/miner/x":           http.StatusBadRequest,
		"/miner?uid=1":       http.StatusOK, // redirected
		"/submission/1":      http.StatusNotFound,
		"/submission/x.json": http.StatusBadRequest,
		"/epoch/x":           http.StatusBadRequest,
	} {
		if got := status(t, base+path); got != want {
			t.Errorf("GET %s: %d, want %d", path, got, want)
		}
	}
}

// checkEpochsPage: /epochs lists the burn uid labelled, the miner active
// with its weight in the latest epoch (as its page says) and a column per
// epoch.
func checkEpochsPage(t *testing.T, base string, uid uint32) {
	t.Helper()
	var page EpochsPage
	getJSON(t, base+"/epochs.json", &page)
	var mp MinerPage
	getJSON(t, fmt.Sprintf("%s/miner/%d.json", base, uid), &mp)
	if len(page.Epochs) == 0 || len(page.Epochs) != len(mp.Epochs) {
		t.Fatalf("epochs %+v, the miner page has %d", page.Epochs, len(mp.Epochs))
	}
	found := map[uint32]EpochsRow{}
	for _, r := range page.Rows {
		found[r.UID] = r
		if len(r.Weights) != len(page.Epochs) {
			t.Errorf("row %+v: a weight per epoch", r)
		}
	}
	if b, ok := found[0]; !ok || b.Label != burnLabel || b.Link != "" || b.Weights[0] == "" {
		t.Errorf("burn row %+v", b)
	}
	if m, ok := found[uid]; !ok || m.Label != "active" || m.Weights[0] != mp.Epochs[0].Weight || m.Link == "" {
		t.Errorf("miner row %+v, its page says weight %s", m, mp.Epochs[0].Weight)
	}
	rows := table(t, fetch(t, base+"/epochs"))
	if len(rows) != len(page.Rows) || rows[0]["uid"] != "0" || rows[0]["who"] != burnLabel {
		t.Errorf("page rows %v", rows)
	}
}

// TestUIDLabel: a registered uid is active with an aggregate, inactive
// since the height it lost its last one without, or not scored yet.
func TestUIDLabel(t *testing.T) {
	s := "0.5"
	for _, c := range []struct {
		u    wire.MetagraphUIDView
		from int64
		want string
	}{
		{wire.MetagraphUIDView{Scores: []*string{nil, &s}, LastUpdate: 9}, 0, "active"},
		{wire.MetagraphUIDView{Scores: []*string{nil, nil}, LastUpdate: 9}, 20, "inactive since height 20"},
		{wire.MetagraphUIDView{Scores: []*string{nil, nil}, LastUpdate: 9}, 0, "inactive (last scored at height 9)"},
		{wire.MetagraphUIDView{Scores: []*string{nil, nil}}, 0, "not scored yet"},
	} {
		if got := uidLabel(c.u, c.from); got != c.want {
			t.Errorf("uidLabel(%+v, %d) = %q, want %q", c.u, c.from, got, c.want)
		}
	}
}
