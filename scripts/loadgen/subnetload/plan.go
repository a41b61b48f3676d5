package subnetload

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// Kind is what a message does.
type Kind string

const (
	KindPost   Kind = "post_task"
	KindCommit Kind = "commit"
	KindReveal Kind = "reveal"
	KindReport Kind = "report"
)

// Kinds in the order the tables list them.
var Kinds = []Kind{KindCommit, KindReveal, KindReport, KindPost}

// Lag is the blocks a reveal or a report waits past the first height at which the chain takes
// it: the node a transaction goes to can be a block behind the watched one, and its CheckTx
// judges the transaction at the height after its own (a reveal sent as soon as the watched node
// committed the submit deadline was refused as early, code reveal_window). The reveal window
// (reveal_blocks, 10 on the localnet) and the report window leave room for it.
const Lag = 1

// Actor is who sends a message: validator Index (its report key) or miner Index.
type Actor struct {
	Validator bool
	Index     int
}

// role names the actor's kind in messages.
func (a Actor) role() string {
	if a.Validator {
		return "validator"
	}
	return "miner"
}

// Intent is one message an actor sends now.
type Intent struct {
	From  Actor
	Kind  Kind
	Track string
	Msg   *subnetv1.Msg
}

// Config is the load's shape.
type Config struct {
	ChainID string
	Seed    string
	// UIDs are the registered miners' uids: miner i has UIDs[i] and the public key MinerPubs[i].
	UIDs       []uint32
	MinerPubs  [][]byte
	Validators int
	// TaskEvery: a validator posts a workflow and an arena task every TaskEvery blocks.
	TaskEvery int64
	Windows   setup.Windows
	// Arena category and difficulty of the arena tasks ("": no arena tasks).
	ArenaCategory, ArenaDifficulty string
	MaxTxBytes                     int64
}

// ErrConfig is a Config New cannot plan with.
var ErrConfig = errors.New("subnetload: config")

func (c Config) validate() error {
	switch {
	case len(c.UIDs) == 0 || len(c.UIDs) != len(c.MinerPubs):
		return fmt.Errorf("%w: %d uids for %d miner keys, want at least one of each and as many", ErrConfig, len(c.UIDs), len(c.MinerPubs))
	case c.Validators < 1:
		return fmt.Errorf("%w: %d validators, want at least 1", ErrConfig, c.Validators)
	case c.TaskEvery < 1 || c.Windows.Submission < 1 || c.Windows.Report < 1:
		return fmt.Errorf("%w: task every %d, windows %+v: want each at least 1", ErrConfig, c.TaskEvery, c.Windows)
	case c.MaxTxBytes < 1:
		return fmt.Errorf("%w: max_tx_bytes %d", ErrConfig, c.MaxTxBytes)
	}
	return nil
}

// task is a posted task as its event announced it.
type task struct {
	track                  string
	submit, reveal, report int64 // deadlines
}

// Plan is the load's state: the tasks posted, and the messages due at coming heights.
type Plan struct {
	cfg     Config
	byUID   map[uint32]int
	tasks   map[uint64]task
	due     map[int64][]Intent
	posting bool
	// firstPost is the height of the load's first posts (0: none yet), posts how many rounds of
	// posts it made.
	firstPost int64
	posts     int
	// firstReport is the report deadline of the first task seen posted (0: none yet).
	firstReport int64
}

// New is a plan that posts from the first height Due is called with.
func New(cfg Config) (*Plan, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	p := &Plan{cfg: cfg, byUID: map[uint32]int{}, tasks: map[uint64]task{}, due: map[int64][]Intent{}, posting: true}
	for i, uid := range cfg.UIDs {
		p.byUID[uid] = i
	}
	return p, nil
}

// StopPosting: no more tasks; what is under way goes on.
func (p *Plan) StopPosting() { p.posting = false }

// FirstPost is the height of the first posts (0: none yet).
func (p *Plan) FirstPost() int64 { return p.firstPost }

// SteadyFrom is the first height at which every phase of the load runs: the one after the
// report deadline of the first task it saw posted (0: none seen yet).
func (p *Plan) SteadyFrom() int64 {
	if p.firstReport == 0 {
		return 0
	}
	return p.firstReport + 1
}

// Observe learns from committed height h's events (its transactions' and its end of block's)
// and returns how many submissions they scored. Tasks and submissions not of this load (their
// task was not seen posted) are left alone.
func (p *Plan) Observe(h int64, events []abcitypes.Event) (scored int) {
	for _, ev := range events {
		switch ev.Type {
		case wire.EventTaskPosted:
			id := setup.AttrU64(ev, "task_id")
			t := task{track: setup.Attr(ev, "track"), submit: setup.AttrI64(ev, "submit_deadline"), reveal: setup.AttrI64(ev, "reveal_deadline"),
				report: setup.AttrI64(ev, "report_deadline")}
			if t.track != genesis.TrackWorkflow && t.track != genesis.TrackArena {
				continue
			}
			p.tasks[id] = t
			if p.firstReport == 0 {
				p.firstReport = t.report
			}
			p.commits(h, id, t)
		case wire.EventSubmissionAdded:
			t, ok := p.tasks[setup.AttrU64(ev, "task_id")]
			m, mine := p.byUID[uint32(setup.AttrU64(ev, "uid"))]
			if !ok || !mine {
				continue
			}
			id := setup.AttrU64(ev, "task_id")
			// sent once reveal_from is committed (Lag): it lands in the window's second block or later
			at := max(h, setup.AttrI64(ev, "reveal_from")-1+Lag)
			p.at(at, Intent{From: Actor{Index: m}, Kind: KindReveal, Track: t.track, Msg: client.Reveal(p.payload(t.track, m, id), p.salt(id, m))})
		case wire.EventSubmissionRevealed:
			taskID := setup.AttrU64(ev, "task_id")
			t, ok := p.tasks[taskID]
			m, mine := p.byUID[uint32(setup.AttrU64(ev, "uid"))]
			if !ok || !mine {
				continue
			}
			sub := setup.AttrU64(ev, "submission_id")
			// reports open the block after the reveal deadline; sent once that block is committed (Lag)
			at := max(h, t.reveal+Lag)
			for v := range p.cfg.Validators {
				p.at(at, Intent{From: Actor{Validator: true, Index: v}, Kind: KindReport, Track: t.track,
					Msg: setup.Report(p.cfg.Seed, v, false, t.track, sub, m, taskID)})
			}
		case wire.EventSubmissionScored:
			if t := setup.Attr(ev, "track"); t == genesis.TrackWorkflow || t == genesis.TrackArena {
				scored++
			}
		}
	}
	return scored
}

// commits: every miner commits to task id, posted at h, at once.
func (p *Plan) commits(h int64, id uint64, t task) {
	for m, uid := range p.cfg.UIDs {
		msg, err := client.Commit(p.cfg.ChainID, p.cfg.MinerPubs[m], uid, p.payload(t.track, m, id), p.salt(id, m))
		if err != nil {
			panic("subnetload: a commit of a built payload: " + err.Error())
		}
		p.at(h, Intent{From: Actor{Index: m}, Kind: KindCommit, Track: t.track, Msg: msg})
	}
}

func (p *Plan) payload(track string, m int, id uint64) *subnetv1.MsgSubmit {
	if track == genesis.TrackWorkflow {
		return setup.WorkflowPayload(m, id)
	}
	return setup.ArenaPayload(m, id)
}

// salt is miner m's salt for task id: derived, not drawn, so that runs repeat.
func (p *Plan) salt(id uint64, m int) client.Salt {
	return sha256.Sum256([]byte(fmt.Sprint(p.cfg.Seed, "salt", id, m)))
}

func (p *Plan) at(h int64, in Intent) { p.due[h] = append(p.due[h], in) }

// Due is what is sent once height h is committed (after Observe(h)): the posts of h when
// posting (every TaskEvery blocks from the first height Due saw, validators in turn), then
// every message due at h or before, in the order they were planned (heights ascending).
func (p *Plan) Due(h int64) []Intent {
	var out []Intent
	if p.posting {
		if p.firstPost == 0 {
			p.firstPost = h
		}
		if (h-p.firstPost)%p.cfg.TaskEvery == 0 {
			v := Actor{Validator: true, Index: p.posts % p.cfg.Validators}
			p.posts++
			out = append(out, Intent{From: v, Kind: KindPost, Track: genesis.TrackWorkflow, Msg: setup.WorkflowTask(p.cfg.Windows)})
			if p.cfg.ArenaCategory != "" {
				out = append(out, Intent{From: v, Kind: KindPost, Track: genesis.TrackArena,
					Msg: setup.ArenaTask(p.cfg.ArenaCategory, p.cfg.ArenaDifficulty, p.cfg.Windows)})
			}
		}
	}
	var hs []int64
	for at := range p.due {
		if at <= h {
			hs = append(hs, at)
		}
	}
	slices.Sort(hs)
	for _, at := range hs {
		out = append(out, p.due[at]...)
		delete(p.due, at)
	}
	return out
}

// Pending counts the messages planned for later heights.
func (p *Plan) Pending() int {
	n := 0
	for _, ins := range p.due {
		n += len(ins)
	}
	return n
}
