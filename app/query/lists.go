package query

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/store"
	"github.com/scoringsubnet/validatord/app/tasks"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
)

// page is a list's cursor and size: rows with an id below after (all when
// after is 0), at most limit of them.
type page struct {
	after uint64
	limit int
}

func parsePage(after, limit string) (page, *Error) {
	a, qerr := parseU64("after", after)
	if qerr != nil {
		return page{}, qerr
	}
	l, qerr := parseU64("limit", limit)
	if qerr != nil {
		return page{}, qerr
	}
	if l > wire.MaxListLimit {
		return page{}, BadRequest("limit %d: at most %d", l, wire.MaxListLimit)
	}
	if l == 0 {
		l = wire.DefaultListLimit
	}
	return page{after: a, limit: int(l)}, nil
}

// top is the highest id a page may list, given the next id to be handed out.
func (p page) top(next uint64) uint64 {
	if p.after > 0 && p.after < next {
		return p.after
	}
	return next
}

func taskViewOf(t *subnetv1.Task) wire.TaskView {
	return wire.TaskView{ID: t.Id, Track: tasks.Track(t), Poster: hex.EncodeToString(t.Poster),
		PostedHeight: t.PostedHeight, SubmitDeadline: t.SubmitDeadline, RevealDeadline: t.RevealDeadline, ReportDeadline: t.ReportDeadline,
		Submissions: t.Submissions, Workflow: wire.WorkflowTaskViewOf(t.GetWorkflow()), Arena: wire.ArenaTaskViewOf(t.GetArena())}
}

// tasks answers "tasks/<track|all>/<open|all>/<after>/<limit>", newest
// first, reading at most wire.MaxListScan task ids.
func (q *View) tasks(args []string) (*wire.TasksView, *Error) {
	trackName, state := args[0], args[1]
	if trackName != "all" && !slices.Contains(genesis.TrackNames, trackName) {
		return nil, BadRequest("track %q: want workflow, arena, gas or all", trackName)
	}
	if state != "open" && state != "all" {
		return nil, BadRequest("task state %q: want open or all", state)
	}
	pg, qerr := parsePage(args[2], args[3])
	if qerr != nil {
		return nil, qerr
	}
	out := &wire.TasksView{Height: q.Height, Tasks: []wire.TaskListEntry{}}
	next := q.Height + 1
	id := pg.top(q.St.Counters().NextTaskId)
	for scanned := 0; id > 0; scanned++ {
		if len(out.Tasks) == pg.limit || scanned == wire.MaxListScan {
			out.NextAfter = &id
			break
		}
		id--
		t, ok := q.St.Task(id)
		if !ok || (trackName != "all" && tasks.Track(t) != trackName) {
			continue
		}
		open := next <= t.SubmitDeadline
		if state == "open" && !open {
			continue
		}
		out.Tasks = append(out.Tasks, wire.TaskListEntry{TaskView: taskViewOf(t), Open: open})
	}
	return out, nil
}

// submissions answers "submissions/task/<id>/<after>/<limit>" (through the
// task's task_sub entries) and "submissions/miner/<uid>/<after>/<limit>"
// (through the miner index, prefix 0x30), newest first.
func (q *View) submissions(args []string) (*wire.SubmissionsView, *Error) {
	pg, qerr := parsePage(args[2], args[3])
	if qerr != nil {
		return nil, qerr
	}
	switch args[0] {
	case "task":
		id, qerr := parseU64("task id", args[1])
		if qerr != nil {
			return nil, qerr
		}
		return q.taskSubmissions(id, pg)
	case "miner":
		uid, qerr := parseUID(args[1])
		if qerr != nil {
			return nil, qerr
		}
		return q.minerSubmissions(uid, pg)
	}
	return nil, BadRequest("submissions by %q: want task or miner", args[0])
}

func (q *View) taskSubmissions(id uint64, pg page) (*wire.SubmissionsView, *Error) {
	t, ok := q.St.Task(id)
	if !ok {
		return nil, NotFound("no task %d%s", id, q.retired(id < q.St.Counters().NextTaskId, "task"))
	}
	out := &wire.SubmissionsView{By: "task", ID: id, Submissions: []wire.SubmissionSummaryView{}}
	for i := t.Submissions; i > 0; { // at most one submission per miner: chain.max_uids reads
		i--
		sid := q.St.U64(store.KeyTaskSub(id, i))
		if pg.after > 0 && sid >= pg.after {
			continue
		}
		if len(out.Submissions) == pg.limit {
			next := sid + 1
			out.NextAfter = &next
			break
		}
		if s, ok := q.St.Submission(sid); ok {
			out.Submissions = append(out.Submissions, submissionSummary(s))
		}
	}
	return out, nil
}

// minerSubmissions walks uid's miner index entries downwards from the page's
// cursor: keys only, then one submission read per row.
func (q *View) minerSubmissions(uid uint32, pg page) (*wire.SubmissionsView, *Error) {
	if !q.St.Has(store.KeyMiner(uid)) {
		if _, inMirror := q.mirrorMiner(uid); !inMirror {
			return nil, NotFound("no miner with uid %d", uid)
		}
	}
	out := &wire.SubmissionsView{By: "miner", ID: uint64(uid), Submissions: []wire.SubmissionSummaryView{}}
	if q.Snap == nil { // before the first block: no submission exists
		return out, nil
	}
	prefix := store.MinerSubPrefix(uid)
	opts := badger.DefaultIteratorOptions
	opts.Reverse, opts.PrefetchValues, opts.Prefix = true, false, prefix
	it := q.Snap.Txn.NewIterator(opts)
	defer it.Close()
	top := uint64(math.MaxUint64)
	if pg.after > 0 {
		top = pg.after - 1
	}
	for it.Seek(store.KeyMinerSub(uid, top)); it.ValidForPrefix(prefix); it.Next() {
		key := it.Item().Key()
		sid := binary.BigEndian.Uint64(key[len(key)-8:])
		if len(out.Submissions) == pg.limit {
			next := sid + 1
			out.NextAfter = &next
			break
		}
		if s, ok := q.St.Submission(sid); ok {
			out.Submissions = append(out.Submissions, submissionSummary(s))
		}
	}
	return out, nil
}

func submissionSummary(s *subnetv1.Submission) wire.SubmissionSummaryView {
	out := wire.SubmissionSummaryView{ID: s.Id, Track: s.Track, UID: s.Uid, Height: s.Height, RevealHeight: s.RevealHeight, Status: s.Status}
	if r := wire.ReceiptViewOf(s.Receipt); r != nil && s.Status == kernel.StatusScored {
		out.Score = &r.Score
	}
	if s.Gas != nil {
		out.EvmChainID, out.EvmBlock = &s.Gas.EvmChainId, &s.Gas.EvmBlock
	} else {
		out.TaskID = &s.TaskId
	}
	return out
}

// metagraph answers "metagraph": every registered uid (at most
// chain.max_uids), its key, registration, immunity, aggregate per track,
// the latest epoch's weight and u16 and the last height it was scored at.
func (q *View) metagraph(_ []string) (*wire.MetagraphView, *Error) {
	out := &wire.MetagraphView{Height: q.Height, Epoch: q.St.Counters().Epochs, UIDs: []wire.MetagraphUIDView{}}
	for _, t := range q.Chain.Gen.Tracks {
		out.Tracks = append(out.Tracks, t.Name)
	}
	ep := &subnetv1.Epoch{}
	if out.Epoch > 0 && !q.St.Load(store.KeyEpoch(out.Epoch), ep) {
		ep = &subnetv1.Epoch{}
	}
	miners := q.St.Counters().Miners
	for n := uint32(0); n < miners; n++ {
		uid := q.Chain.UIDAt(n)
		m := &subnetv1.Miner{}
		if !q.St.Load(store.KeyMiner(uid), m) {
			continue
		}
		out.UIDs = append(out.UIDs, q.metagraphRow(uid, m, out.Tracks, ep))
	}
	return out, nil
}

func (q *View) metagraphRow(uid uint32, m *subnetv1.Miner, trackNames []string, ep *subnetv1.Epoch) wire.MetagraphUIDView {
	through := membership.ImmuneThrough(m.RegisteredHeight, q.Chain.Gen.Membership)
	row := wire.MetagraphUIDView{UID: uid, Key: hex.EncodeToString(m.Pubkey), RegisteredHeight: m.RegisteredHeight, Address: m.Address,
		ImmuneThrough: through, Immune: q.Height+1 <= through, Scores: make([]*string, len(trackNames))}
	for i, name := range trackNames {
		if s, ok := q.aggregate(name, uid); ok {
			v := kernel.FmtDec(s)
			row.Scores[i] = &v
		}
	}
	for i, u := range ep.Uids {
		if u == uid && i < len(ep.Weights) {
			w := kernel.FmtDec(kernel.Dec(ep.Weights[i]))
			row.Weight = &w
		}
	}
	for _, u := range ep.U16 {
		if u.Uid == uid {
			v := u.Weight
			row.U16 = &v
		}
	}
	row.LastUpdate = q.lastUpdate(uid)
	return row
}

// lastUpdate is the last height a window or gas agent of uid took a score.
func (q *View) lastUpdate(uid uint32) int64 {
	var last int64
	for _, tb := range []byte{store.WindowWorkflow, store.WindowArena} {
		w := &subnetv1.Window{}
		if q.St.Load(store.KeyWindow(tb, uid), w) {
			last = max(last, w.LastHeight)
		}
	}
	if q.Chain.Gen.HasTrack(genesis.TrackGas) {
		for _, c := range q.Chain.Gen.Chain.GasChains {
			a := &subnetv1.GasAgent{}
			if q.St.Load(store.KeyGasAgent(c, uid), a) {
				last = max(last, a.LastFreshHeight)
			}
		}
	}
	return last
}
