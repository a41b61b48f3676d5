package simsubnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	"github.com/scoringsubnet/validatord/internal/appquery"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/scripts/loadgen/setup"
)

// taskRecord is a posted task as its event announced it.
type taskRecord struct {
	id                                             uint64
	track                                          string
	submitDeadline, revealDeadline, reportDeadline int64
}

// subRecord is a workflow or arena submission the chain took (a commit),
// and its outcome once an event stated one.
type subRecord struct {
	id     uint64
	track  string
	miner  int
	task   uint64
	status string
	// settled is the height of the outcome event, score the scored event's
	settled int64
	score   string
}

// sim is one run: the chain, the actors, what they learnt from the
// committed blocks' events, and the messages due at coming heights.
type sim struct {
	cfg        Config
	gen        genesis.AppState
	app        *app.App
	chain      *chain
	stats      *Stats
	validators []*validator
	miners     []*miner
	due        map[int64][]message
	// what the events told
	tasks      map[uint64]*taskRecord
	subs       map[uint64]*subRecord
	subOrder   []uint64
	gasCommits map[int64][]*pendingSub
	// gasRevealed counts the reveals in blocks per EVM block, until its close
	gasRevealed map[int64]int
	epochAt     int64 // the last height with an epoch
	lastClosed  int64 // the sim's EVM block index last closed, -1 before the anchor
	nextTruth   int64 // the next EVM block index whose truth the validators send
	out         Outcomes
}

// Outcomes are what the events of the run stated.
type Outcomes struct {
	// Tasks: per track, submissions by status (scored, expired,
	// unrevealed, contested, duplicate; "open" for those whose report
	// window had not closed at the end; any other status is the one the
	// submission's query gave, the event having said nothing).
	Tasks map[string]map[string]int
	// GasCommitted, GasRevealed and GasCounted count gas predictions:
	// commits and reveals in blocks, and predictions the closes counted.
	GasCommitted, GasRevealed, GasCounted int
	// GasClosed is EVM blocks closed; GasMismatch those whose close counted
	// another number of predictions than were revealed for it.
	GasClosed, GasMismatch int
	Epochs, Retirements    int
	// Submissions: every task submission in commit order.
	Submissions []Submission
	// ScoreDigest is the score digest of the state after the last block
	// (the "digest" query).
	ScoreDigest string
}

func newSim(ctx context.Context, cfg Config) (*sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// a node's default: the state of the last 14,400 heights stays readable
	a, err := app.New(app.Config{DataDir: cfg.Dir, KeepVersions: app.DefaultKeepVersions})
	if err != nil {
		return nil, err
	}
	s := &sim{cfg: cfg, gen: Genesis(cfg), app: a, stats: newStats(), due: map[int64][]message{},
		tasks: map[uint64]*taskRecord{}, subs: map[uint64]*subRecord{}, gasCommits: map[int64][]*pendingSub{}, gasRevealed: map[int64]int{}, lastClosed: -1,
		out: Outcomes{Tasks: map[string]map[string]int{}}}
	if s.chain, err = newChain(ctx, a, s.gen, s.stats); err != nil {
		_ = a.Close()
		return nil, err
	}
	powers := Powers(cfg.Validators)
	adv := Adversary(powers)
	for i := range powers {
		_, rep := validatorKeys(cfg.Seed, i)
		s.validators = append(s.validators, &validator{actor: newActor(fmt.Sprintf("val%02d", i), client.NewSigner(nil, ChainID, rep)),
			index: i, adversary: i == adv})
	}
	for i := range cfg.Miners {
		s.miners = append(s.miners, &miner{actor: newActor(fmt.Sprintf("miner%d", i), client.NewSigner(nil, ChainID, minerKey(cfg.Seed, i))), index: i})
	}
	return s, nil
}

// at schedules m at height h.
func (s *sim) at(h int64, m message) {
	m.order = orderKey(s.cfg.Seed, h, m.from.name, len(s.due[h]))
	s.due[h] = append(s.due[h], m)
}

// run drives every height, then states the outcomes.
func (s *sim) run(ctx context.Context) error {
	var again []message
	for h := int64(1); h <= s.cfg.Blocks; h++ {
		if err := s.plan(ctx, h); err != nil {
			return err
		}
		msgs := append(again, s.unsettled(s.due[h])...)
		delete(s.due, h)
		slices.SortStableFunc(msgs[len(again):], func(a, b message) int { return bytes.Compare(a.order[:], b.order[:]) })
		packed, err := pack(msgs[len(again):], s.cfg.Mode, s.gen.Chain.MaxTxBytes)
		if err != nil {
			return err
		}
		msgs = append(msgs[:len(again):len(again)], packed...)
		for _, m := range msgs {
			if err := s.chain.send(ctx, m); err != nil {
				return err
			}
		}
		d, next, err := s.chain.block(ctx)
		if err != nil {
			return err
		}
		again = next
		s.observe(&d)
		s.stats.Blocks = append(s.stats.Blocks, d.stat)
		if h%s.cfg.SampleEvery == 0 || h == s.cfg.Blocks {
			if err := s.sample(h); err != nil {
				return err
			}
		}
	}
	return s.settleOutcomes(ctx)
}

// unsettled drops the reports of submissions whose outcome a committed
// block already announced: a validator that watches the chain's events
// does not measure, sign and send what can only be refused. The reports
// still in flight (sent before the outcome) are refused as before.
func (s *sim) unsettled(msgs []message) []message {
	out := msgs[:0]
	for _, m := range msgs {
		if r := m.msg.GetReport(); r != nil && m.kind == KindReport {
			if sub, ok := s.subs[r.SubmissionId]; ok && sub.status != "" {
				s.stats.count(m.track, KindReport).NotSent++
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// plan adds the messages that height h's schedule makes: registrations at
// height 1, tasks every TaskEvery blocks, truths of the EVM blocks now
// confirmed, and every miner's prediction of the EVM block GasLead seconds
// ahead. Commits, reveals and reports are scheduled by observe.
func (s *sim) plan(ctx context.Context, h int64) error {
	if h == 1 {
		src := registrationSource{s.app}
		for _, m := range s.miners {
			msg, err := client.RegisterWork(ctx, src, ChainID, m.signer.PubKey(), nil)
			if err != nil {
				return fmt.Errorf("register miner %d: %w", m.index, err)
			}
			s.at(h, message{from: m.actor, msg: msg, kind: KindRegister})
		}
	}
	if h >= 2 && (h-2)%s.cfg.TaskEvery == 0 {
		v := s.validators[int((h-2)/s.cfg.TaskEvery)%len(s.validators)]
		w := setup.Windows{Submission: SubmissionBlocks, Report: ReportBlocks}
		s.at(h, message{from: v.actor, msg: setup.WorkflowTask(w), kind: KindPostTask, track: genesis.TrackWorkflow})
		ar := s.gen.Arena
		s.at(h, message{from: v.actor, msg: setup.ArenaTask(ar.Categories[0].Name, ar.Difficulties[0].Name, w), kind: KindPostTask, track: genesis.TrackArena})
	}
	now := blockTime(h).Unix()
	for ; s.evmTime(s.nextTruth)+GasConfirm <= now; s.nextTruth++ {
		b := s.nextTruth
		for _, v := range s.validators {
			msg := client.Truth(EVMChain, uint64(EVMBase+b), truthPrice(b), s.evmTime(b))
			s.at(h+draw(s.cfg.Seed, 2, "truth", v.index, b), message{from: v.actor, msg: msg, kind: KindTruth, track: genesis.TrackGas})
		}
	}
	s.planPredictions(h, now)
	return nil
}

// planPredictions: once the EVM chain is anchored, every registered miner
// commits its prediction of the EVM block whose timestamp is GasLead
// seconds after this block's, if there is one and it is within
// max_prediction_ahead of the last closed block. In ModeAll it commits
// only when that block starts a run of GasRun, to the run's blocks (those
// within max_prediction_ahead), at once.
func (s *sim) planPredictions(h, now int64) {
	step := s.cfg.EVMEvery * BlockSeconds
	if s.lastClosed < 0 || (now+GasLead-GenesisTime)%step != 0 {
		return
	}
	b := (now + GasLead - GenesisTime) / step
	run := int64(1)
	if s.cfg.Mode == ModeAll {
		if b%GasRun != 0 {
			return
		}
		run = GasRun
	}
	for _, m := range s.miners {
		if !m.registered {
			continue
		}
		for e := b; e < b+run; e++ {
			if e <= s.lastClosed || e-s.lastClosed > int64(s.gen.Chain.MaxPredictionAhead) {
				continue
			}
			p := &pendingSub{miner: m, payload: setup.GasBid(EVMChain, uint64(EVMBase+e), truthMilli(e), m.index%8),
				salt: salt(s.cfg.Seed, "gas", m.index, e), track: genesis.TrackGas, evmBlock: e}
			s.commit(h, p)
		}
	}
}

// commit schedules p's commit at height h.
func (s *sim) commit(h int64, p *pendingSub) {
	msg, err := client.Commit(ChainID, p.miner.signer.PubKey(), p.miner.uid, p.payload, p.salt)
	if err != nil {
		panic("simsubnet: a commit of a built payload: " + err.Error())
	}
	s.at(h, message{from: p.miner.actor, msg: msg, kind: KindCommit, track: p.track, pending: p})
}

// registrationSource answers client.RegisterWork's query in-process.
type registrationSource struct{ q appquery.Querier }

func (r registrationSource) Registration(ctx context.Context) (*wire.RegistrationView, error) {
	return appquery.Get[wire.RegistrationView](ctx, r.q, "registration")
}

// observe learns from a decided height what the actors act on next:
// uids, posted tasks, commits taken (whose reveals it schedules), reveals
// (whose reports it schedules), final truths (whose predictions' reveals it
// schedules) and every outcome.
func (s *sim) observe(d *decided) {
	for _, t := range d.txs {
		m := t.p.m
		for _, ev := range t.res.Events {
			// a batch entry's events follow its entry event
			if (ev.Type == wire.EventCommitEntry || ev.Type == wire.EventRevealEntry) && m.pendings != nil {
				m.pending = m.pendings[setup.AttrU64(ev, "index")]
			}
			s.txEvent(d.height, m, ev)
		}
	}
	for _, ev := range d.events {
		s.event(d.height, ev)
	}
	d.stat.Epoch = s.epochAt == d.height
}

// txEvent handles an event of an included transaction m.
func (s *sim) txEvent(h int64, m message, ev abcitypes.Event) {
	switch ev.Type {
	case wire.EventMinerRegistered:
		mn := s.minerOf(m.from)
		mn.uid, mn.registered = uint32(setup.AttrU64(ev, "uid")), true
	case wire.EventTaskPosted:
		t := &taskRecord{id: setup.AttrU64(ev, "task_id"), track: setup.Attr(ev, "track"), submitDeadline: setup.AttrI64(ev, "submit_deadline"),
			revealDeadline: setup.AttrI64(ev, "reveal_deadline"), reportDeadline: setup.AttrI64(ev, "report_deadline")}
		s.tasks[t.id] = t
		s.planCommits(h, t)
	case wire.EventSubmissionAdded:
		s.committed(h, m.pending, setup.AttrU64(ev, "submission_id"))
	case wire.EventSubmissionRevealed:
		s.revealed(m.pending, setup.AttrU64(ev, "submission_id"))
	case wire.EventGasTruthFinal:
		s.truthFinal(ev)
	default:
		s.event(h, ev)
	}
}

func (s *sim) minerOf(a *actor) *miner {
	for _, m := range s.miners {
		if m.actor == a {
			return m
		}
	}
	panic("simsubnet: a miner's event from " + a.name)
}

// planCommits: every registered miner commits to a posted task within the
// first half of its commit window.
func (s *sim) planCommits(h int64, t *taskRecord) {
	spread := max(1, int64(SubmissionBlocks/2))
	for _, m := range s.miners {
		if !m.registered {
			continue
		}
		var payload *subnetv1.MsgSubmit
		if t.track == genesis.TrackWorkflow {
			payload = setup.WorkflowPayload(m.index, t.id)
		} else {
			payload = setup.ArenaPayload(m.index, t.id)
		}
		s.commit(h+1+int64(m.index)%spread, &pendingSub{miner: m, payload: payload, salt: salt(s.cfg.Seed, t.id, m.index),
			track: t.track, task: t.id})
	}
}

// committed: the chain took p's commit as submission id; its reveal goes
// into the reveal window (task) or waits for the EVM block's truth (gas).
func (s *sim) committed(h int64, p *pendingSub, id uint64) {
	if p.track == genesis.TrackGas {
		s.out.GasCommitted++
		s.gasCommits[p.evmBlock] = append(s.gasCommits[p.evmBlock], p)
		return
	}
	t := s.tasks[p.task]
	s.subs[id] = &subRecord{id: id, track: p.track, miner: p.miner.index, task: p.task}
	s.subOrder = append(s.subOrder, id)
	at := max(h+1, t.submitDeadline+1) + int64(p.miner.index)%2
	s.at(min(at, t.revealDeadline), message{from: p.miner.actor, msg: client.Reveal(p.payload, p.salt), kind: KindReveal, track: p.track, pending: p})
}

// revealed: a task submission's reports are scheduled, each validator's
// within ReportSpread blocks of the reports' opening (the adversary's at
// once); a gas reveal is counted against its EVM block.
func (s *sim) revealed(p *pendingSub, id uint64) {
	if p.track == genesis.TrackGas {
		s.out.GasRevealed++
		s.gasRevealed[p.evmBlock]++
		return
	}
	sub := s.subs[id]
	open := s.tasks[sub.task].revealDeadline + 1
	for _, v := range s.validators {
		at := open
		if !v.adversary {
			at += draw(s.cfg.Seed, ReportSpread, "report", v.index, id)
		}
		s.at(at, message{from: v.actor, msg: s.report(v, sub), kind: KindReport, track: sub.track})
	}
}

// truthFinal: the EVM block is closed; its committed predictions are
// revealed in the window the event names (in ModeAll at its first
// multiple of GasRevealEvery, with the other predictions final by then).
func (s *sim) truthFinal(ev abcitypes.Event) {
	b := int64(setup.AttrU64(ev, "evm_block")) - EVMBase
	s.lastClosed = max(s.lastClosed, b)
	from, until := setup.AttrI64(ev, "reveal_from"), setup.AttrI64(ev, "reveal_until")
	if s.cfg.Mode == ModeAll {
		from = (from + GasRevealEvery - 1) / GasRevealEvery * GasRevealEvery
	}
	for _, p := range s.gasCommits[b] {
		at := min(from+int64(p.miner.index)%2, until)
		s.at(at, message{from: p.miner.actor, msg: client.Reveal(p.payload, p.salt), kind: KindReveal, track: genesis.TrackGas, pending: p})
	}
	delete(s.gasCommits, b)
}

// event handles an outcome event (of a transaction or of the end of block).
func (s *sim) event(h int64, ev abcitypes.Event) {
	switch ev.Type {
	case wire.EventSubmissionScored:
		s.outcome(h, ev, "scored")
	case wire.EventSubmissionExpired:
		st := setup.Attr(ev, "status")
		if st == "" {
			st = "expired"
		}
		s.outcome(h, ev, st)
	case wire.EventSubmissionContested:
		s.outcome(h, ev, "contested")
	case wire.EventSubmissionDuplicate:
		s.outcome(h, ev, "duplicate")
	case wire.EventGasWindowClosed:
		b := int64(setup.AttrU64(ev, "evm_block")) - EVMBase
		n := int(setup.AttrU64(ev, "counting_predictions"))
		s.out.GasClosed++
		s.out.GasCounted += n
		if n != s.gasRevealed[b] {
			s.out.GasMismatch++
		}
		delete(s.gasRevealed, b)
	case wire.EventEpochWeights:
		s.out.Epochs++
		s.epochAt = h
	case wire.EventStateRetired:
		s.out.Retirements++
	}
}

// outcome records the first outcome event of a submission at height h.
func (s *sim) outcome(h int64, ev abcitypes.Event, status string) {
	if sub, ok := s.subs[setup.AttrU64(ev, "submission_id")]; ok && sub.status == "" {
		sub.status, sub.settled, sub.score = status, h, setup.Attr(ev, "score")
	}
}

// Submission is one task submission's outcome: its status as counted in
// Outcomes.Tasks, the height of its outcome event (0: none) and its score
// (scored ones).
type Submission struct {
	ID      uint64
	Track   string
	Status  string
	Settled int64
	Score   string
}

// settleOutcomes counts every task submission's outcome: the event's, or
// "open" while its report window runs, or else the status its query gives.
func (s *sim) settleOutcomes(ctx context.Context) error {
	for _, id := range s.subOrder {
		sub := s.subs[id]
		st := sub.status
		if st == "" && s.tasks[sub.task].reportDeadline >= s.chain.height {
			st = "open"
		}
		if st == "" {
			v, err := appquery.Get[wire.SubmissionView](ctx, s.app, fmt.Sprintf("submission/%d", id))
			switch {
			case errors.Is(err, appquery.ErrNotFound):
				st = "retired without an outcome event"
			case err != nil:
				return err
			default:
				st = v.Status + " (no event)"
			}
		}
		s.out.Submissions = append(s.out.Submissions, Submission{ID: id, Track: sub.track, Status: st, Settled: sub.settled, Score: sub.score})
		m := s.out.Tasks[sub.track]
		if m == nil {
			m = map[string]int{}
			s.out.Tasks[sub.track] = m
		}
		m[st]++
	}
	d, err := appquery.Get[wire.DigestView](ctx, s.app, "digest")
	if err != nil {
		return err
	}
	s.out.ScoreDigest = d.ScoreDigest
	return nil
}
