package leaderboard

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/longtest"
	"github.com/scoringsubnet/validatord/internal/testnode"
)

// TestEpochRows: rows by weight, then u16, then uid; equal weights and u16
// share a rank (1, 2, 2, 4); a uid with a u16 entry and no weight (the burn
// uid) has weight 0; scores come from the epoch's tracks ("" when none).
func TestEpochRows(t *testing.T) {
	e := &wire.EpochResultView{
		UIDs:    []uint32{3, 1, 2, 4},
		Weights: []string{"0.25", "0.5", "0.25", "0"},
		U16:     []wire.U16WeightView{{UID: 0, Weight: 0}, {UID: 1, Weight: 32768}, {UID: 2, Weight: 16384}, {UID: 3, Weight: 16384}},
		Tracks:  []wire.TrackScoreView{{Track: "workflow", UIDs: []uint32{1, 3}, Scores: []string{"0.9", "0.4"}}},
	}
	rows := epochRows(e, []string{"workflow", "gas"})
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d:%d:%s:%d:%s/%s", r.Rank, r.UID, r.Weight, r.U16, r.Scores[0].Score, r.Scores[1].Score))
	}
	want := []string{"1:1:0.5:32768:0.9/", "2:2:0.25:16384:/", "2:3:0.25:16384:0.4/", "4:0:0:0:/", "4:4:0:0:/"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("rows\n got %v\nwant %v", got, want)
	}
}

// chromium finds headless Chromium, installing Debian's package with apt-get
// when it is missing and this process may; else the test skips, saying so.
func chromium(t *testing.T) string {
	t.Helper()
	look := func() string {
		for _, name := range []string{"chromium", "chromium-browser"} {
			if p, err := exec.LookPath(name); err == nil {
				return p
			}
		}
		return ""
	}
	if p := look(); p != "" {
		return p
	}
	apt, err := exec.LookPath("apt-get")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("headless Chromium is not installed (Debian package chromium) and apt-get cannot install it here (not root, or no apt-get): apt-get install chromium")
	}
	install := func() error {
		out, err := exec.Command("nice", "-n", "15", apt, "install", "-y", "-qq", "chromium").CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if err := install(); err != nil {
		_ = exec.Command("nice", "-n", "15", apt, "update", "-qq").Run()
		if err := install(); err != nil {
			t.Skipf("headless Chromium is not installed and apt-get install chromium failed: %v", err)
		}
	}
	if p := look(); p != "" {
		return p
	}
	t.Skip("apt-get installed chromium, but no chromium binary is on PATH")
	return ""
}

// browser runs headless Chromium against one page.
type browser struct {
	bin     string
	profile string
}

func (b browser) run(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + b.profile}, args...)
	out, err := exec.CommandContext(ctx, b.bin, all...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return out
}

// dom is the page's DOM after Chromium loaded it.
func (b browser) dom(t *testing.T, url string) string { return string(b.run(t, "--dump-dom", url)) }

// screenshot keeps a PNG of the page, in a window w×h pixels, in dir and
// returns its path. Chromium is told to run every compositor stage before
// it draws the shot: without that, a shot taken on a busy machine once
// showed a table painted only in its upper left tiles.
func (b browser) screenshot(t *testing.T, url, dir, name string, w, h int) string {
	path := filepath.Join(dir, name+".png")
	b.run(t, fmt.Sprintf("--window-size=%d,%d", w, h), "--force-device-scale-factor=1", "--run-all-compositor-stages-before-draw",
		"--screenshot="+path, url)
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	return path
}

var (
	rowRE  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<td data-col="([^"]+)"[^>]*>(.*?)</td>`)
	tagRE  = regexp.MustCompile(`<[^>]*>`)
)

// table reads the rows of the page's table#rows: per row, column → text.
func table(t *testing.T, dom string) []map[string]string {
	t.Helper()
	return tableOf(t, dom, "rows")
}

// tableOf reads the rows of the page's table with that id.
func tableOf(t *testing.T, dom, id string) []map[string]string {
	t.Helper()
	i := strings.Index(dom, `<table id="`+id+`">`)
	j := strings.Index(dom[max(i, 0):], "</table>")
	if i < 0 || j < 0 {
		t.Fatalf("no table#%s in the page:\n%s", id, dom)
	}
	var rows []map[string]string
	for _, r := range rowRE.FindAllStringSubmatch(dom[i:i+j], -1) {
		cells := cellRE.FindAllStringSubmatch(r[1], -1)
		if len(cells) == 0 {
			continue // the header, or the empty table's note
		}
		row := map[string]string{}
		for _, c := range cells {
			row[c[1]] = strings.TrimSpace(html.UnescapeString(tagRE.ReplaceAllString(c[2], "")))
		}
		rows = append(rows, row)
	}
	return rows
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestShort: trailing zeros go, integers and non-decimals stay.
func TestShort(t *testing.T) {
	for in, want := range map[string]string{"0.500000000000000000": "0.5", "100.000000000000000000": "100",
		"0.000000000000000000": "0", "": "", "7": "7", "1.25": "1.25", "10": "10"} {
		if got := short(in); got != want {
			t.Errorf("short(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPagesInChromium starts a real node, drives a miner through a scored
// workflow and arena task and an epoch (and a hostile MsgServe address),
// serves the pages from the app's in-process Query, loads each in headless
// Chromium and checks its table against the node's query answers read
// through the RPC; the JSON behind each page is checked too. Then it
// crawls: every page reachable from / is loaded in Chromium and checked
// for content and basic accessibility, and every link on it answers 200
// (crawl). Screenshots stay in $TMPDIR (the path is logged), each checked
// by its layout colours against what the test expects of it (checkShot).
func TestPagesInChromium(t *testing.T) {
	longtest.Skip(t)
	bin := chromium(t)
	n := testnode.Start(t, testnode.DriveOptions())
	d := n.Drive(t)
	miner := client.NewSigner(n.Client, n.ChainID, testnode.Key("miner"))
	if res, err := miner.SendWait(testnode.Ctx(t), client.Serve(hostileAddress), testnode.WaitFor); err != nil || res.Code != 0 {
		t.Fatalf("serve: %+v %v", res, err)
	}
	srv, err := Listen("127.0.0.1:0", n.App, Options{Block: rpcBlockTime(t, n)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close(context.Background()) })
	base := "http://" + srv.Addr()
	b := browser{bin: bin, profile: t.TempDir()}
	shots, err := os.MkdirTemp("", "validatord-leaderboard-")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testnode.Ctx(t)
	size := n.Gen.Window.WindowSize

	// the tracks: rank, uid, score as leaderboard/<track>; the window as window/<uid>
	for _, track := range []string{"workflow", "arena"} {
		rows := table(t, b.dom(t, base+"/track/"+track))
		lb, err := n.Client.Leaderboard(ctx, track)
		if err != nil || len(rows) != len(lb.Miners) || len(rows) != 1 {
			t.Fatalf("track %s: page rows %v, leaderboard %+v %v", track, rows, lb, err)
		}
		for i, m := range lb.Miners {
			w, err := n.Client.Window(ctx, m.UID)
			if err != nil {
				t.Fatal(err)
			}
			tw := w.Workflow
			if track == "arena" {
				tw = w.Arena
			}
			want := map[string]string{"rank": strconv.Itoa(m.Rank), "uid": strconv.Itoa(int(m.UID)), "score": short(m.Score),
				"fill": fmt.Sprintf("%d/%d", len(tw.Scores), size)}
			for k, v := range want {
				if rows[i][k] != v {
					t.Errorf("track %s row %d %s = %q, want %q", track, i, k, rows[i][k], v)
				}
			}
		}
		var page TrackPage
		getJSON(t, base+"/track/"+track+".json", &page)
		if page.Track != track || len(page.Rows) != len(lb.Miners) || page.Leaderboard == nil || page.Rows[0].Window == nil {
			t.Errorf("track %s json: %+v", track, page)
		}
	}

	// the epoch: weight and u16 as epoch/latest
	rows := table(t, b.dom(t, base+"/epoch"))
	ep, err := n.Client.LatestEpoch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	weights := map[string]string{}
	for i, uid := range ep.Epoch.UIDs {
		weights[strconv.Itoa(int(uid))] = short(ep.Epoch.Weights[i])
	}
	u16 := map[string]string{}
	for _, w := range ep.Epoch.U16 {
		u16[strconv.Itoa(int(w.UID))] = strconv.Itoa(int(w.Weight))
	}
	minerRow := -1
	for i, r := range rows {
		if w, ok := weights[r["uid"]]; ok && r["weight"] != w {
			t.Errorf("epoch uid %s weight %q, want %q", r["uid"], r["weight"], w)
		}
		if u, ok := u16[r["uid"]]; ok && r["u16"] != u {
			t.Errorf("epoch uid %s u16 %q, want %q", r["uid"], r["u16"], u)
		}
		if r["uid"] == strconv.Itoa(int(d.UID)) {
			minerRow = i
		}
	}
	if minerRow < 0 || rows[minerRow]["rank"] != "1" || rows[minerRow]["fill-workflow"] != fmt.Sprintf("1/%d", size) ||
		rows[minerRow]["score-workflow"] == "" || rows[minerRow]["warmup-workflow"] == "" {
		t.Errorf("epoch rows %v: the miner (uid %d) should rank 1 with one workflow score", rows, d.UID)
	}
	var epage EpochPage
	getJSON(t, base+"/epoch.json", &epage)
	if epage.Epoch == nil || len(epage.Rows) != len(rows) {
		t.Errorf("epoch json: %+v (page rows %d)", epage, len(rows))
	}

	// the arena task: its results as task/<id>/results
	taskURL := fmt.Sprintf("%s/task/%d", base, d.ArenaTask)
	rows = table(t, b.dom(t, taskURL))
	res, err := n.Client.TaskResults(ctx, d.ArenaTask)
	if err != nil || len(rows) != len(res.Results) || len(rows) != 1 {
		t.Fatalf("task page rows %v, results %+v %v", rows, res, err)
	}
	r := res.Results[0]
	for k, v := range map[string]string{"rank": strconv.Itoa(r.Rank), "uid": strconv.Itoa(int(r.UID)),
		"submission": strconv.FormatUint(r.SubmissionID, 10), "overall": short(r.OverallScore), "percentile": short(r.Percentile),
		"efficiency": fmt.Sprintf("%s #%d", short(r.EfficiencyScore), r.CategoryRanks.Efficiency)} {
		if rows[0][k] != v {
			t.Errorf("task row %s = %q, want %q", k, rows[0][k], v)
		}
	}

	// what is not there
	for path, want := range map[string]int{
		fmt.Sprintf("/task/%d", d.WorkflowTask): http.StatusNotFound, // not an arena task
		"/task/999999.json":                     http.StatusNotFound,
		"/task/x":                               http.StatusBadRequest,
		"/track/nope":                           http.StatusNotFound,
		"/":                                     http.StatusOK,
	} {
		if got := status(t, base+path); got != want {
			t.Errorf("GET %s: %d, want %d", path, got, want)
		}
	}

	crawl(t, b, base, d.UID)

	// screenshots, each checked against what its row expects (checkShot):
	// the window's size, that much of it not the page background, that many
	// tables' header bands in view, under each a row band for every row
	// of the DOM that fits, text contrast in the bands and on the line above
	// each table; the miner page also shows its weight chart's line.
	chartColour := mustHex(colours[0])
	for _, p := range []struct {
		name, url string
		want      shotWant
	}{
		{"epoch", base + "/epoch", shotWant{width: 1400, height: 600, minInk: 0.05, tables: 1}},
		// the line above the table is the muted note on what the score is
		{"track-workflow", base + "/track/workflow", shotWant{width: 1400, height: 600, minInk: 0.05, tables: 1}},
		{"task", taskURL, shotWant{width: 1400, height: 600, minInk: 0.05, tables: 1}},
		// taller: the gas oracles, the three tracks' boards and the tasks
		{"index", base + "/", shotWant{width: 1400, height: 1100, minInk: 0.15, tables: 5}},
		// taller, so the weight chart and the epochs' table are in view
		{"miner", fmt.Sprintf("%s/miner/%d", base, d.UID), shotWant{width: 1400, height: 1000, minInk: 0.15, tables: 2,
			chart: &chartColour, chartPixels: 200}},
		// the line above the table is the muted note on uid 0
		{"epochs", base + "/epochs", shotWant{width: 1400, height: 600, minInk: 0.05, tables: 1}},
	} {
		path := b.screenshot(t, p.url, shots, p.name, p.want.width, p.want.height)
		img, err := readPNG(path)
		if err != nil {
			t.Fatalf("screenshot %s: %v", path, err)
		}
		rep, errs := checkShot(img, p.want, domTableRows(b.dom(t, p.url)))
		t.Logf("screenshot %s: %v", path, rep)
		for _, err := range errs {
			t.Errorf("screenshot %s: %v", path, err)
		}
	}

	// the load time: Chromium end to end, and the server alone
	const loads = 5
	mean := func(url string) float64 {
		start := time.Now()
		for range loads {
			b.dom(t, url)
		}
		return float64(time.Since(start).Milliseconds()) / loads
	}
	blankMs := mean("about:blank")
	browserMs := mean(base + "/epoch")
	start := time.Now()
	const gets = 50
	for range gets {
		if status(t, base+"/epoch") != http.StatusOK {
			t.Fatal("epoch page failed")
		}
	}
	t.Logf("page load: /epoch in headless Chromium %.0f ms per run against %.0f ms for about:blank (browser start; mean of %d each), "+
		"so about %.0f ms for the page; served in %.2f ms (mean of %d GETs)",
		browserMs, blankMs, loads, browserMs-blankMs, float64(time.Since(start).Microseconds())/1000/gets, gets)
}

var (
	hrefRE  = regexp.MustCompile(`<a [^>]*href="([^"]*)"`)
	h1RE    = regexp.MustCompile(`<h1[ >]`)
	tableRE = regexp.MustCompile(`(?s)<table[ >].*?</table>`)
	digitRE = regexp.MustCompile(`[0-9]+`)
)

// crawl loads every page reachable from / in Chromium: one page of each
// shape (the digits of its path aside: /miner/1 stands for /miner/2), so
// the run stays short, while every link of every loaded page is fetched
// and must answer 200. Each page has the document's language, one h1, a
// header cell in every table, no script (the hostile serve address stays
// text) and its own content.
func crawl(t *testing.T, b browser, base string, uid uint32) {
	t.Helper()
	miner := fmt.Sprintf("/miner/%d", uid)
	content := map[string][]string{ // path → what its DOM must hold
		"/":       {`id="board-workflow"`, `id="tasks"`, `id="status"`, `id="lag"`, `href="` + miner + `"`, `id="counts"`, `id="oracles"`, "closing windows"},
		"/epochs": {burnLabel, `id="rows"`, `href="` + miner + `"`},
		"/epoch":  {burnLabel},
		miner:     {"&lt;script&gt;alert(1)&lt;", `id="submissions"`, `<svg class="chart"`, "Merkle proof", "scored"},
	}
	seen := map[string]bool{}   // links fetched
	shapes := map[string]bool{} // page shapes loaded in Chromium
	queue := []string{"/"}
	seen["/"] = true
	loaded := 0
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if strings.Contains(path, ".json") {
			continue // fetched when found; no page to load
		}
		shape := digitRE.ReplaceAllString(strings.SplitN(path, "?", 2)[0], "N")
		if _, must := content[path]; !must && shapes[shape] {
			continue
		}
		shapes[shape] = true
		loaded++
		dom := b.dom(t, base+path)
		if !strings.Contains(dom, `<html lang="en">`) {
			t.Errorf("%s: no lang attribute on html", path)
		}
		if got := len(h1RE.FindAllString(dom, -1)); got != 1 {
			t.Errorf("%s: %d h1, want one", path, got)
		}
		for _, tbl := range tableRE.FindAllString(dom, -1) {
			if !strings.Contains(tbl, "<th") {
				t.Errorf("%s: a table without header cells: %.200s", path, tbl)
			}
		}
		if strings.Contains(dom, "<script") {
			t.Errorf("%s: the page has a script element", path)
		}
		for _, want := range content[path] {
			if !strings.Contains(dom, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
		for _, m := range hrefRE.FindAllStringSubmatch(dom, -1) {
			link := html.UnescapeString(m[1])
			if !strings.HasPrefix(link, "/") {
				t.Errorf("%s links off the node: %q", path, link)
				continue
			}
			if seen[link] {
				continue
			}
			seen[link] = true
			if got := status(t, base+link); got != http.StatusOK {
				t.Errorf("%s links %s: %d", path, link, got)
			}
			queue = append(queue, link)
		}
	}
	for path := range content {
		if !shapes[digitRE.ReplaceAllString(path, "N")] {
			t.Errorf("the crawl never reached %s", path)
		}
	}
	t.Logf("crawl: %d pages loaded in Chromium, %d links fetched", loaded, len(seen))
}
