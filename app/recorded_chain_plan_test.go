package app_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/genesis"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/membership"
)

// The plan of the recorded chain that recorded_chain_test.go runs: who
// sends what at which height. Keys and salts come from sha256 of fixed
// labels and every variety from one seeded splitmix64, so every run builds
// the same bytes. Every submission is a commit and, unless the plan leaves
// it unrevealed, a reveal in its window (reveal_blocks 2 on every track);
// reports come after the reveal window. The shape:
//
//	height 1        18 miners register; the long arena task is posted
//	height 2        a commit before any anchor is refused; truths anchor both EVM chains
//	heights 5–294   29 rounds of 10 heights (round 8 also registers the last 2 miners):
//	                a workflow and an arena task with random miners and report
//	                patterns, some with a copied artifact (a duplicate), a commit
//	                never revealed or a reveal with a wrong salt first, and one
//	                gas scenario per EVM chain (with late and unrevealed commits);
//	                round 12 is scripted rejections instead (see rejections)
//	heights 8–283   the long arena task: one commit per miner, reveals at 242–243,
//	                reports from 244, settled at 283
//	heights 295–300 the last settlements; epochs every 10 heights throughout
const (
	chainHeight = 300
	numMiners   = 20 // = chain.max_uids, so a 21st registration is refused
	lateMiners  = 2  // register in round lateRound, the others at height 1
	firstRound  = 5  // the height of round 0
	roundBlocks = 10
	numRounds   = 29
	lateRound   = 8
	rejectRound = 12
	genesisUnix = 1_700_000_000 // block time of height h: genesisUnix + h seconds
	planSeed    = 0x5eed_2024_c4a1_0001
)

// valPowers are the validators' voting powers (total 100): unequal, so that
// weighted medians depend on who reported, and so that who reports decides
// the outcome: quorum needs more than 2/3 (70 of 100 here), a deadline
// settles with more than the deadline quorum 1/2 (51 of 100) and expires
// with at most 1/2.
var valPowers = []int64{40, 30, 20, 10}

const totalPower = 100

// Report (and truth) patterns: the validators who report, in order.
var (
	// quorumPatterns reach quorum with their last report, so none is refused.
	quorumPatterns = [][]int{{0, 1}, {1, 0}, {3, 2, 0}, {1, 2, 3, 0}, {2, 0, 3}, {0, 2, 3}}
	// deadlinePatterns stay at or below 2/3 but above 1/3. Those above 1/2
	// ({0, 2}, {1, 2, 3}, {2, 3, 1}: 60) settle at the deadline when their
	// medians are bracketed, else end contested (settlesAtDeadline); {0} and
	// {1, 3} (40) and {0, 3} (exactly 50) expire there. They settled under
	// the old rule (more than 1/3 at a deadline) and are kept, with the
	// plan's draws, so that the record shows what the deadline quorum changed.
	deadlinePatterns = [][]int{{0}, {1, 3}, {0, 2}, {1, 2, 3}, {2, 3, 1}, {0, 3}}
	// expirePatterns have at most 1/3 of the power: expired at the deadline.
	expirePatterns = [][]int{{1}, {2, 3}, {3}, {2}}
	// reportPatterns are what a submission draws from (some get no report at all).
	reportPatterns = concat(quorumPatterns, deadlinePatterns, expirePatterns, [][]int{{}})
)

// Result codes the plan provokes (docs/codes.md; stable, never renumbered).
const (
	codeMalformedTx         = 1
	codeTxTooLarge          = 2
	codeNonCanonical        = 3
	codeBadSender           = 4
	codeBadSignature        = 5
	codeWrongChainID        = 6
	codeNonceUsed           = 7
	codeNonceFuture         = 8
	codeEmptyMsg            = 9
	codeNotValidator        = 10
	codeNotMiner            = 11
	codeAlreadyMiner        = 12
	codeUIDsFull            = 13
	codeNotNumber           = 14
	codeTooManyPlaces       = 15
	codeDecimalRange        = 16
	codeNegativeCount       = 17
	codeCountRange          = 18
	codeStepsExceedTotal    = 19
	codeCriteriaExceedTotal = 20
	codeBlocksRange         = 21
	codeUnknownCategory     = 22
	codeBadArtifactHash     = 23
	codeUnknownTask         = 25
	codeWrongKind           = 26
	codeSubmissionDeadline  = 27
	codeDuplicateSubmission = 28
	codeUnknownSubmission   = 29
	codeSubmissionFinal     = 30
	codeDuplicateReport     = 31
	codeUnknownEVMChain     = 32
	codeEVMBlockClosed      = 33
	codePredictionTooFar    = 34
	codeDuplicateTruth      = 35
	codeTruthTimeBackwards  = 36
	codeBadBaseline         = 37
	codeEVMChainUnanchored  = 41
	codeValidatorKey        = 42
	codeTruthTooFar         = 44
	codeTruthTimeFuture     = 45
	codeBadCommitment       = 47
	codeNoCommit            = 48
	codeRevealWindow        = 49
	codeRevealMismatch      = 50
)

func concat(lists ...[][]int) [][]int {
	var out [][]int
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func blockUnix(h int64) int64 { return genesisUnix + h }

// keyFor derives a key from a label.
func keyFor(label string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte("recorded-chain/" + label))
	return ed25519.NewKeyFromSeed(seed[:])
}

// recordedGenesis is the default genesis (all three tracks, EVM chains 1
// and 8453) with four validators and small windows: epochs every 10
// heights, a 3-task warm-up in 8-score windows, arena baselines of the last
// 12 submissions, a gas memory of 3 closes, truth rounds of 5 heights and
// reveal windows of 2 heights (the default 10 would not fit a round of 10
// heights); the gas commit margin keeps its default, 2 s = 2 heights.
func recordedGenesis() genesis.AppState {
	g := genesis.DefaultGenesis()
	for i, power := range valPowers {
		cons := keyFor(fmt.Sprintf("consensus/%d", i)).Public().(ed25519.PublicKey)
		rep := keyFor(fmt.Sprintf("report/%d", i)).Public().(ed25519.PublicKey)
		g.Validators = append(g.Validators, genesis.Validator{Name: fmt.Sprintf("val%d", i),
			Address: hex.EncodeToString(genesis.ConsensusAddress(cons)), PubKey: base64.StdEncoding.EncodeToString(cons),
			Power: power, ReportKey: hex.EncodeToString(rep)})
	}
	g.Chain.MaxUIDs = numMiners
	// Registration as in the harness' test genesis: difficulty 1, every
	// miner in one block, the genesis hash fresh for 256 blocks.
	g.Membership.InitialDifficulty, g.Membership.MinDifficulty, g.Membership.MaxDifficulty = 1, 1, 1
	g.Membership.MaxRegistrationsPerBlock, g.Membership.MinNonImmune = numMiners, 0
	g.Membership.MaxPowAgeBlocks = membership.MaxPowAgeLimit
	g.Chain.TruthReportBlocks = truthReportBlocks
	g.Window.EpochBlocks = 10
	g.Window.WindowSize = 8
	g.Window.WarmupTasks = 3
	g.Window.ArenaWarmupTasks = 3
	g.Window.BaselineK = 12
	g.Gas.MemorySize = 3
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = revealBlocks
	}
	return g
}

// revealBlocks is every track's reveal window in the recorded genesis;
// truthReportBlocks its truth rounds' length.
const (
	revealBlocks      = 2
	truthReportBlocks = 5
)

// splitmix is splitmix64, the plan's only source of variety.
type splitmix struct{ s uint64 }

func (r *splitmix) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// between returns a number in [lo, hi] (the modulo bias does not matter here).
func (r *splitmix) between(lo, hi int64) int64 { return lo + int64(r.next()%uint64(hi-lo+1)) }

func (r *splitmix) intn(n int) int { return int(r.between(0, int64(n)-1)) }

// account is a key and its next nonce, which only accepted transactions
// advance; a miner's account also knows its uid, which its commitments bind.
type account struct {
	key   ed25519.PrivateKey
	nonce uint64
	last  []byte // the last accepted transaction, for a replay
	uid   uint32
}

func newAccount(label string) *account { return &account{key: keyFor(label)} }

func (a *account) pub() ed25519.PublicKey { return a.key.Public().(ed25519.PublicKey) }

// ref is the id of a task or submission: the chain's counters assign it
// when the step that creates it is built (the runner checks it against the
// transaction's event).
type ref struct {
	id  uint64
	set bool
}

func fixedRef(id uint64) *ref { return &ref{id: id, set: true} }

func (r *ref) get() uint64 {
	if !r.set {
		panic("recorded chain plan: an id is used before the step that creates it")
	}
	return r.id
}

// lazyMsg builds a message when its block is built, so that it can name ids
// assigned by earlier steps.
type lazyMsg func() *subnetv1.Msg

// register binds the genesis entry (height 0) with nonce 0: valid work at
// the plan's difficulty 1 in its first 256 blocks.
func register() lazyMsg { return func() *subnetv1.Msg { return client.RegisterMiner(0, 0) } }

func postWorkflow(w subnetv1.WorkflowTask) lazyMsg {
	return func() *subnetv1.Msg { return client.PostWorkflowTask(&w) }
}

func postArena(a subnetv1.ArenaTask) lazyMsg {
	return func() *subnetv1.Msg { return client.PostArenaTask(&a) }
}

// payload builds what a miner commits to and reveals when its block is
// built, so that it can name a task id assigned by an earlier step.
type payload func() *subnetv1.MsgSubmit

func workflowPayload(task *ref, artifact []byte) payload {
	return func() *subnetv1.MsgSubmit { return client.WorkflowPayload(task.get(), artifact) }
}

func arenaPayload(task *ref, artifact []byte) payload {
	return func() *subnetv1.MsgSubmit { return client.ArenaPayload(task.get(), artifact) }
}

func gasPayload(chain, block uint64, price string) payload {
	return func() *subnetv1.MsgSubmit { return client.GasPayload(chain, block, price) }
}

// saltOf is from's salt for payload p: derived from its key and p's bytes,
// so the plan keeps no salts and every run signs the same bytes.
func saltOf(from *account, p *subnetv1.MsgSubmit) client.Salt {
	bz, err := p.Marshal()
	if err != nil {
		panic("recorded chain plan: payload: " + err.Error())
	}
	return sha256.Sum256(append(append([]byte("recorded-chain/salt\x00"), from.key.Seed()...), bz...))
}

// commitTo is from's MsgCommit of p under its uid.
func commitTo(from *account, p payload) lazyMsg {
	return func() *subnetv1.Msg {
		pl := p()
		m, err := client.Commit(recordedChainID, from.pub(), from.uid, pl, saltOf(from, pl))
		if err != nil {
			panic("recorded chain plan: commit: " + err.Error())
		}
		return m
	}
}

// revealOf is from's MsgReveal of p, with the salt its commit used.
func revealOf(from *account, p payload) lazyMsg {
	return func() *subnetv1.Msg {
		pl := p()
		return client.Reveal(pl, saltOf(from, pl))
	}
}

// revealWrongSalt is revealOf with one bit of the salt flipped: it opens
// nothing (code 50).
func revealWrongSalt(from *account, p payload) lazyMsg {
	return func() *subnetv1.Msg {
		pl := p()
		salt := saltOf(from, pl)
		salt[0] ^= 1
		return client.Reveal(pl, salt)
	}
}

// shortCommitment is a commit to task whose commitment has 31 bytes (code 47).
func shortCommitment(task *ref) lazyMsg {
	return func() *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{
			Target: &subnetv1.MsgCommit_TaskId{TaskId: task.get()}, Commitment: make([]byte, 31)}}}
	}
}

// shortSalt is a reveal of p whose salt has 31 bytes (code 47).
func shortSalt(p payload) lazyMsg {
	return func() *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: p(), Salt: make([]byte, 31)}}}
	}
}

// emptyReveal is a reveal without a payload's content.
func emptyReveal() lazyMsg {
	return func() *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: &subnetv1.MsgSubmit{}}}}
	}
}

// emptyCommit is a commit without a target.
func emptyCommit() lazyMsg {
	return func() *subnetv1.Msg {
		return &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{Commitment: make([]byte, 32)}}}
	}
}

func reportWorkflow(sub *ref, m subnetv1.WorkflowMeasurement) lazyMsg {
	return func() *subnetv1.Msg { return client.ReportWorkflow(sub.get(), &m) }
}

func reportArena(sub *ref, m subnetv1.ArenaMeasurement) lazyMsg {
	return func() *subnetv1.Msg { return client.ReportArena(sub.get(), &m) }
}

func truth(chain, block uint64, price string, ts int64) lazyMsg {
	return func() *subnetv1.Msg { return client.Truth(chain, block, price, ts) }
}

// forge builds a transaction's bytes instead of the plain signature.
type forge func(p *planner, from *account, msg *subnetv1.Msg) []byte

// step is one transaction: who signs which message, and the code the app
// must answer (0: accepted).
type step struct {
	from  *account
	msg   lazyMsg
	want  uint32
	ref   *ref  // the id the step creates, when accepted
	forge forge // nil: signed with the sender's next nonce
}

func ok(from *account, m lazyMsg) step                   { return step{from: from, msg: m} }
func creates(r *ref, from *account, m lazyMsg) step      { return step{from: from, msg: m, ref: r} }
func refused(code uint32, from *account, m lazyMsg) step { return step{from: from, msg: m, want: code} }

func forged(code uint32, from *account, m lazyMsg, f forge) step {
	return step{from: from, msg: m, want: code, forge: f}
}

// recBlock is one height's transactions with what the app must answer.
type recBlock struct {
	txs  [][]byte
	want []uint32 // per tx: the code the plan expects
	ids  []int64  // per tx: the task or submission id it creates, or -1
}

// faulty reports whether the block holds a transaction the app must refuse:
// only a faulty proposer builds such a block.
func (b recBlock) faulty() bool {
	for _, w := range b.want {
		if w != 0 {
			return true
		}
	}
	return false
}

// accepted lists the transactions the plan expects to be accepted, in order.
func (b recBlock) accepted() [][]byte {
	var out [][]byte
	for i, tx := range b.txs {
		if b.want[i] == 0 {
			out = append(out, tx)
		}
	}
	return out
}

// evmChain is the plan's view of one EVM chain of the gas track.
type evmChain struct {
	id     uint64
	closed uint64 // the last closed EVM block
	next   uint64 // the next block to predict; blocks in (closed, next) were left open
	ts     int64  // the last closed block's timestamp
	price  int64  // the current minimum price, in thousandths
}

// take reserves the next n EVM blocks and returns the first.
func (c *evmChain) take(n uint64) uint64 {
	b := c.next
	c.next += n
	return b
}

func (c *evmChain) close(b uint64, ts int64) { c.closed, c.ts = b, ts }

// planner schedules steps by height, then builds the blocks.
type planner struct {
	t         testing.TB
	rng       splitmix
	vals      []*account // report keys, by validator index
	miners    []*account // by uid order
	active    int        // miners registered by the heights being planned
	outsider  *account   // a key that never becomes a miner
	evm       []*evmChain
	steps     [][]step // by height
	artifacts int
	subs      uint64 // submissions the chain accepts (set by build)
}

// recordedChain is the plan: the genesis, the blocks (index = height) and
// every account the plan uses.
type recordedChain struct {
	genesis  genesis.AppState
	blocks   []recBlock
	accounts []*account
	subs     uint64
}

func planChain(t testing.TB) recordedChain {
	p := &planner{t: t, rng: splitmix{planSeed}, outsider: newAccount("outsider"), steps: make([][]step, chainHeight+1)}
	for i := range valPowers {
		p.vals = append(p.vals, newAccount(fmt.Sprintf("report/%d", i)))
	}
	for i := 0; i < numMiners; i++ {
		m := newAccount(fmt.Sprintf("miner/%d", i))
		m.uid = uint32(i + 1) // registration order; uid 0 is the burn uid
		p.miners = append(p.miners, m)
	}
	p.evm = []*evmChain{{id: 1, next: 1000, price: 30_000}, {id: 8453, next: 30_000_000, price: 50}}
	p.setup()
	for i := 0; i < numRounds; i++ {
		h0 := int64(firstRound + roundBlocks*i)
		if i == lateRound {
			p.registerLate(h0)
		}
		if i == rejectRound {
			p.rejections(h0)
			continue
		}
		p.round(i, h0)
	}
	blocks := p.build()
	accounts := append(append(append([]*account(nil), p.vals...), p.miners...), p.outsider)
	return recordedChain{genesis: recordedGenesis(), blocks: blocks, accounts: accounts, subs: p.subs}
}

func (p *planner) at(h int64, s ...step) { p.steps[h] = append(p.steps[h], s...) }

func (p *planner) sign(chainID string, from *account, nonce uint64, m *subnetv1.Msg) []byte {
	p.t.Helper()
	tx, err := signTx(chainID, from.key, nonce, m)
	if err != nil {
		p.t.Fatal(err)
	}
	return tx
}

// build signs every step in height order and assigns the ids the chain's
// counters will: one task id per accepted PostTask, one submission id per
// accepted Commit.
func (p *planner) build() []recBlock {
	var nextTask, nextSub uint64
	blocks := make([]recBlock, len(p.steps))
	for h, steps := range p.steps {
		b := &blocks[h]
		for _, s := range steps {
			var m *subnetv1.Msg
			if s.msg != nil {
				m = s.msg()
			}
			var tx []byte
			if s.forge != nil {
				tx = s.forge(p, s.from, m)
			} else {
				tx = p.sign(recordedChainID, s.from, s.from.nonce, m)
			}
			id := int64(-1)
			if s.want == 0 {
				s.from.nonce++
				s.from.last = tx
				switch m.Sum.(type) {
				case *subnetv1.Msg_PostTask:
					id, nextTask = int64(nextTask), nextTask+1
				case *subnetv1.Msg_Commit:
					id, nextSub = int64(nextSub), nextSub+1
				}
			}
			if s.ref != nil {
				if id < 0 {
					p.t.Fatalf("height %d: a step that creates no id has a ref", h)
				}
				s.ref.id, s.ref.set = uint64(id), true
			}
			b.txs, b.want, b.ids = append(b.txs, tx), append(b.want, s.want), append(b.ids, id)
		}
	}
	p.subs = nextSub
	return blocks
}

// artifact returns a fresh artifact hash.
func (p *planner) artifact() []byte {
	p.artifacts++
	h := sha256.Sum256([]byte("artifact/" + strconv.Itoa(p.artifacts)))
	return h[:]
}

// pick returns n distinct registered miners in random order.
func (p *planner) pick(n int) []*account {
	idx := make([]int, p.active)
	for i := range idx {
		idx[i] = i
	}
	out := make([]*account, n)
	for i := range out {
		j := i + p.rng.intn(len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
		out[i] = p.miners[idx[i]]
	}
	return out
}

func (p *planner) pattern(list [][]int) []int { return list[p.rng.intn(len(list))] }

// settlesAtDeadline: the validators of pattern hold more than the deadline
// quorum (the default 1/2) of the power, and the weighted median of their
// values (thousandths, in pattern order) is bracketed: the reports at or
// below it and those at or above it each hold at least 1/3 of the power.
func settlesAtDeadline(pattern []int, values []int64) bool {
	var power int64
	for _, v := range pattern {
		power += valPowers[v]
	}
	if 2*power <= totalPower {
		return false
	}
	m, cum := int64(-1), int64(0) // the lower weighted median: the least value whose power at or below reaches half
	for m < 0 || 2*cum < power {
		next := int64(-1)
		for _, x := range values {
			if x > m && (next < 0 || x < next) {
				next = x
			}
		}
		m, cum = next, 0
		for i, x := range values {
			if x <= m {
				cum += valPowers[pattern[i]]
			}
		}
	}
	var above int64
	for i, x := range values {
		if x >= m {
			above += valPowers[pattern[i]]
		}
	}
	return 3*cum >= totalPower && 3*above >= totalPower
}

// milli formats thousandths as a decimal ("1.250").
func milli(x int64) string { return fmt.Sprintf("%d.%03d", x/1000, x%1000) }

// setup: height 1 registers the first miners and posts the long arena
// task; height 2 anchors both EVM chains, after a commit that comes before
// any anchor and is refused.
func (p *planner) setup() {
	for _, m := range p.miners[:numMiners-lateMiners] {
		p.at(1, ok(m, register()))
	}
	p.active = numMiners - lateMiners
	p.longArenaTask()
	c := p.evm[0]
	p.at(2, refused(codeEVMChainUnanchored, p.miners[0], commitTo(p.miners[0], gasPayload(c.id, c.next, "30"))))
	for _, c := range p.evm {
		b, ts := c.take(1), blockUnix(2)-1
		p.truths(c, b, ts, 2, quorumPatterns[0])
		c.close(b, ts)
	}
}

func (p *planner) registerLate(h int64) {
	for _, m := range p.miners[numMiners-lateMiners:] {
		p.at(h, ok(m, register()))
	}
	p.active = numMiners
}

// round plans one workload round from h0: a workflow and an arena task with
// random miners, measurements and report patterns, and one gas scenario per
// EVM chain (the scenarios rotate, each chain one step behind the other).
func (p *planner) round(i int, h0 int64) {
	p.workflowTask(i, h0)
	p.arenaTask(i, h0)
	for j, c := range p.evm {
		p.gasRound(c, (i+j)%4, i, h0)
	}
}

// The task windows of a round: commits at h0+1..h0+3 (submission_blocks
// 3), reveals at h0+4..h0+5, reports from h0+6 until the report deadline
// h0+10 (report_blocks 5), where the task settles.
const (
	taskSubmitBlocks = 3
	taskReportBlocks = 5
)

// Commit-reveal twists of a round's task (a round's flags say which apply).
const (
	// copyLater: miners 0 and 1 commit one artifact, miner 1 one height
	// later, and miner 1 reveals first: miner 0 keeps the artifact, miner 1
	// is the duplicate (score 0, never measured).
	copyLater = 1 << iota
	// copySame: miners 0 and 3 commit one artifact at the same height; the
	// higher uid reveals first and is the duplicate.
	copySame
	// unrevealed: the last miner commits and never reveals.
	unrevealed
	// wrongSalt: miner 2 first reveals with a wrong salt (refused, 50),
	// then with the right one in the window's last height.
	wrongSalt
	// refuseDuplicateReport: a validator reports on the copyLater duplicate
	// once reports open (refused, 30).
	refuseDuplicateReport
)

// workflowTwists and arenaTwists: the twists of round i's tasks.
func workflowTwists(i int) int {
	return pick(i%6 == 1, copyLater|refuseDuplicateReport) | pick(i%6 == 4, copySame) | pick(i%5 == 2, unrevealed) | pick(i%10 == 3, wrongSalt)
}

func arenaTwists(i int) int {
	return pick(i%6 == 2, copyLater) | pick(i%6 == 5, copySame) | pick(i%5 == 4, unrevealed) | pick(i%10 == 6, wrongSalt)
}

func pick(cond bool, flag int) int {
	if cond {
		return flag
	}
	return 0
}

// workflowTask posts a task open for commits at h0+1..h0+3 and reports
// until h0+10 (its deadline settlement); 6 to 9 miners commit.
func (p *planner) workflowTask(i int, h0 int64) {
	spec := subnetv1.WorkflowTask{TotalSteps: int64(2 + i%4), MaxBudget: []string{"2", "1.5", "3"}[i%3],
		MaxLatencySeconds: []string{"100", "120.5"}[i%2], SubmissionBlocks: taskSubmitBlocks, ReportBlocks: taskReportBlocks}
	task := &ref{}
	p.at(h0, creates(task, p.vals[i%4], postWorkflow(spec)))
	p.taskSubmissions(h0, p.pick(6+p.rng.intn(4)), workflowTwists(i),
		func(art []byte) payload { return workflowPayload(task, art) },
		func(sub *ref) func() lazyMsg {
			// The workflow's retry budget (the sum of its retry_count values):
			// every validator reads the same one from the workflow and reports it.
			budget := p.rng.between(0, 2)
			return func() lazyMsg { return reportWorkflow(sub, p.workflowMeasurement(spec.TotalSteps, budget)) }
		})
}

var (
	arenaCategories   = []string{"", "frontend_development", "backend_development", "data_analysis", "debugging", "refactoring"}
	arenaDifficulties = []string{"", "beginner", "intermediate", "advanced"}
)

// arenaTask is workflowTask's arena twin; every fourth task brings its own
// default baseline.
func (p *planner) arenaTask(i int, h0 int64) {
	spec := subnetv1.ArenaTask{Category: arenaCategories[i%len(arenaCategories)], Difficulty: arenaDifficulties[i%len(arenaDifficulties)],
		CriteriaTotal: int64(3 + i%4), SubmissionBlocks: taskSubmitBlocks, ReportBlocks: taskReportBlocks}
	if i%4 == 2 {
		spec.DefaultBaseline = customBaseline()
	}
	task := &ref{}
	p.at(h0, creates(task, p.vals[(i+1)%4], postArena(spec)))
	p.taskSubmissions(h0, p.pick(6+p.rng.intn(4)), arenaTwists(i),
		func(art []byte) payload { return arenaPayload(task, art) },
		func(sub *ref) func() lazyMsg {
			return func() lazyMsg { return reportArena(sub, p.arenaMeasurement(spec.CriteriaTotal)) }
		})
}

// taskSubmissions schedules the commits, reveals and reports of a task
// posted at h0: miner j commits at h0+1+j%3 and reveals at h0+4+j%2, and
// its reports start at h0+6+j%2, as twists change. A duplicate gets no
// report but, in a workflow copyLater round, one that is refused (30); an
// unrevealed commit gets none.
func (p *planner) taskSubmissions(h0 int64, miners []*account, twists int, pay func([]byte) payload, report func(*ref) func() lazyMsg) {
	reveal := h0 + taskSubmitBlocks + 1 // the reveal window's first height
	arts := make([][]byte, len(miners))
	revealAt := make([]int64, len(miners))
	for j := range miners {
		arts[j], revealAt[j] = p.artifact(), reveal+int64(j%2)
	}
	dup := -1
	if twists&copyLater != 0 {
		arts[1], revealAt[1], revealAt[0], dup = arts[0], reveal, reveal+1, 1
	}
	if twists&copySame != 0 {
		first, second := 0, 3 // commits at the same height; the higher uid reveals first
		if miners[first].uid < miners[second].uid {
			first, second = second, first
		}
		arts[3], revealAt[first], revealAt[second], dup = arts[0], reveal, reveal+1, first
	}
	if twists&unrevealed != 0 {
		revealAt[len(miners)-1] = 0
	}
	for j, m := range miners {
		hc := h0 + 1 + int64(j%3)
		sub := &ref{}
		pl := pay(arts[j])
		p.at(hc, creates(sub, m, commitTo(m, pl)))
		if revealAt[j] == 0 {
			continue
		}
		if twists&wrongSalt != 0 && j == 2 {
			p.at(reveal, refused(codeRevealMismatch, m, revealWrongSalt(m, pl)))
			revealAt[j] = reveal + 1
		}
		p.at(revealAt[j], ok(m, revealOf(m, pl)))
		msg := report(sub)
		if j == dup {
			if twists&copyLater != 0 && twists&refuseDuplicateReport != 0 {
				p.at(reveal+2, refused(codeSubmissionFinal, p.vals[3], msg()))
			}
			continue
		}
		p.reports(reveal+1+int64(j%2), p.pattern(reportPatterns), msg)
	}
}

// longArenaTask takes commits from height 1 to 241, reveals at 242–243 and
// reports until 283: every miner commits once (at 8 + 11k), its reports
// spread over 244–266, so its baseline fills past baseline_k and rolls, and
// the submissions still pending at 283 settle in one end-of-block batch.
func (p *planner) longArenaTask() {
	spec := subnetv1.ArenaTask{Category: "refactoring", Difficulty: "intermediate", CriteriaTotal: 6, SubmissionBlocks: 240, ReportBlocks: 40}
	task := &ref{}
	p.at(1, creates(task, p.vals[0], postArena(spec)))
	reveal := 1 + spec.SubmissionBlocks + 1
	for k, m := range p.miners {
		sub, pl := &ref{}, arenaPayload(task, p.artifact())
		p.at(int64(8+11*k), creates(sub, m, commitTo(m, pl)))
		p.at(reveal+int64(k%revealBlocks), ok(m, revealOf(m, pl)))
		p.reports(reveal+revealBlocks-1+int64(k), p.pattern(reportPatterns), func() lazyMsg { return reportArena(sub, p.arenaMeasurement(spec.CriteriaTotal)) })
	}
}

// reports schedules a submission's reports, one validator per height from
// hs+1, up to the one that completes the quorum (a later one is refused).
func (p *planner) reports(hs int64, pattern []int, msg func() lazyMsg) {
	var power int64
	for k, v := range pattern {
		p.at(hs+1+int64(k), ok(p.vals[v], msg()))
		power += valPowers[v]
		if 3*power > 2*totalPower {
			return
		}
	}
}

// workflowMeasurement is one validator's measurement of a workflow that
// declares budget retries (the same for every validator: it is read from the
// workflow, not measured by running it).
func (p *planner) workflowMeasurement(totalSteps, budget int64) subnetv1.WorkflowMeasurement {
	return subnetv1.WorkflowMeasurement{
		OutputQuality:       fmt.Sprintf("0.%02d", p.rng.between(40, 99)),
		StepsCompleted:      max(0, totalSteps-p.rng.between(0, 2)),
		Cost:                milli(p.rng.between(100, 2500)),
		LatencySeconds:      strconv.FormatInt(p.rng.between(10, 140), 10),
		Retries:             p.rng.between(0, 3),
		DeclaredRetryBudget: budget,
		Timeouts:            p.rng.between(0, 4) / 4,
		HardFailures:        p.rng.between(0, 9) / 9,
	}
}

func (p *planner) arenaMeasurement(criteria int64) subnetv1.ArenaMeasurement {
	m := subnetv1.ArenaMeasurement{TotalTokens: p.rng.between(1500, 55_000), ToolCalls: p.rng.between(1, 45),
		Iterations: p.rng.between(1, 7), ExecutionTime: milli(p.rng.between(20_000, 400_000)),
		EstimatedCost: milli(p.rng.between(5, 300)), CriteriaPassed: p.rng.between(0, criteria)}
	if p.rng.intn(12) == 0 {
		m.ExecutionTime, m.EstimatedCost = "0", "0" // not measured: the formula's missing score
	}
	return m
}

func customBaseline() *subnetv1.ArenaBaseline {
	return &subnetv1.ArenaBaseline{MinTokens: "2000", Q25Tokens: "6000", MedianTokens: "12000", Q75Tokens: "25000.5",
		MaxTokens: "60000", MinToolCalls: "2", MedianToolCalls: "12", MaxToolCalls: "45", MedianIterations: "3",
		MinExecutionTime: "30", MedianExecutionTime: "120", MaxExecutionTime: "400",
		MinCost: "0.01", MedianCost: "0.05", MaxCost: "0.2"}
}

// Gas scenarios. The EVM block of a round is produced at height h0+3: its
// timestamp is that height's block time. Heights are 1 s apart and the
// commit margin is 2 s, so a commit counts iff it comes at h0+1 or before:
// commits at h0 and h0+1 count (h0+1 exactly at the margin), one at h0+2 is
// late by 1 s of margin, one at h0+3 or after is late. A block whose truth
// is final at height k is revealed at k+1..k+2 and closed at the end of k+2;
// commits never revealed are unrevealed then.
const (
	// gasQuorum: truths with quorum make the block final at h0+4; reveals
	// at h0+5..h0+6, the close at the end of h0+6. In every other quorum
	// round of a chain one counting commit is never revealed; in rounds 0,
	// 9, 18 and 27 one miner first reveals with a wrong salt (refused, 50).
	gasQuorum = iota
	// gasSkip: truths make the block after this one final first, so this
	// block's commits are never revealed (in every third skip round of a
	// chain one tries: refused, 49, its truth is not final) and the close
	// sweeps them as unscored;
	// its lone truth round expires at its deadline.
	gasSkip
	// gasDeadline: truths from deadlinePatterns: with more than 1/2 and a
	// bracketed median price they make the block final when their round's
	// deadline comes (the end of h0+9), and its commits are revealed at
	// h0+10..h0+11; otherwise the round is dropped (at most 1/2) or
	// contested then, the block stays open, and nobody reveals.
	gasDeadline
	// gasExpire: truths with at most 1/3 are dropped at h0+9: the block stays
	// open (a later close sweeps its commits as unscored), and a minority's
	// round refuses nobody: a commit for it is taken at h0+10.
	gasExpire
)

func (p *planner) gasRound(c *evmChain, scenario, i int, h0 int64) {
	c.price = max(10, c.price*p.rng.between(950, 1060)/1000)
	ts := blockUnix(h0 + 3)
	switch scenario {
	case gasQuorum:
		b := c.take(1)
		ms := p.pick(10)
		pls := p.predictions(c, b, ms[:8], h0, 2)
		pls = append(pls, p.predictions(c, b, ms[8:9], h0+2, 1)...) // 1 s short of the margin: late
		pls = append(pls, p.predictions(c, b, ms[9:], h0+3, 1)...)  // at the timestamp: late
		p.truths(c, b, ts, h0+4, p.pattern(quorumPatterns))
		if (i/4)%2 == 0 { // ms[7] never reveals: unrevealed at the close
			ms, pls = append(ms[:7:7], ms[8:]...), append(pls[:7:7], pls[8:]...)
		}
		if i%9 == 0 { // ms[1] reveals at h0+6, after a wrong salt at h0+5
			p.at(h0+5, refused(codeRevealMismatch, ms[1], revealWrongSalt(ms[1], pls[1])))
		}
		p.reveals(ms, pls, h0+5)
		c.close(b, ts)
	case gasSkip:
		b := c.take(2)
		skipped := p.pick(7)
		spl := p.predictions(c, b, skipped, h0, 2)
		ms := p.pick(8)
		pls := p.predictions(c, b+1, ms, h0, 2)
		p.at(h0+3, ok(p.vals[3], truth(c.id, b, p.truthPrice(c), ts-1)))
		p.truths(c, b+1, ts, h0+4, p.pattern(quorumPatterns))
		if (i/4)%3 == 0 {
			p.at(h0+5, refused(codeRevealWindow, skipped[0], revealOf(skipped[0], spl[0])))
		}
		p.reveals(ms, pls, h0+5)
		c.close(b+1, ts)
	case gasDeadline:
		b := c.take(1)
		ms := p.pick(9)
		pls := p.predictions(c, b, ms[:7], h0, 2)
		pattern := p.pattern(deadlinePatterns)
		prices := p.truths(c, b, ts, h0+4, pattern)
		pls = append(pls, p.predictions(c, b, ms[7:], h0+5, 1)...) // after the timestamp, its round still open: late
		if settlesAtDeadline(pattern, prices) {
			p.reveals(ms, pls, h0+4+truthReportBlocks+1)
			c.close(b, ts)
		}
	case gasExpire:
		b := c.take(1)
		ms := p.pick(9)
		p.predictions(c, b, ms[:8], h0, 2)
		p.truths(c, b, ts, h0+4, p.pattern(expirePatterns))
		p.at(h0+roundBlocks, ok(ms[8], commitTo(ms[8], gasPayload(c.id, b, milli(c.price)))))
	}
}

// predictions: one commit per miner for block b, spread over `heights`
// heights from h; it returns their payloads, in the miners' order.
func (p *planner) predictions(c *evmChain, b uint64, miners []*account, h int64, heights int) []payload {
	pls := make([]payload, len(miners))
	for j, m := range miners {
		pls[j] = gasPayload(c.id, b, milli(max(1, c.price*p.rng.between(850, 1250)/1000)))
		p.at(h+int64(j%heights), ok(m, commitTo(m, pls[j])))
	}
	return pls
}

// reveals: miner j reveals pls[j] at h + j%2, inside the reveal window that
// opens at h.
func (p *planner) reveals(miners []*account, pls []payload, h int64) {
	for j, m := range miners {
		p.at(h+int64(j%revealBlocks), ok(m, revealOf(m, pls[j])))
	}
}

// truths: the validators of pattern report block b's truth at height h
// (same timestamp, prices around the chain's); it returns the prices in
// thousandths, in pattern order.
func (p *planner) truths(c *evmChain, b uint64, ts, h int64, pattern []int) []int64 {
	prices := make([]int64, len(pattern))
	for i, v := range pattern {
		prices[i] = p.truthMilli(c)
		p.at(h, ok(p.vals[v], truth(c.id, b, milli(prices[i]), ts)))
	}
	return prices
}

func (p *planner) truthPrice(c *evmChain) string { return milli(p.truthMilli(c)) }

func (p *planner) truthMilli(c *evmChain) int64 { return max(1, c.price*p.rng.between(920, 1080)/1000) }

// rejections is round rejectRound, scripted: transactions refused for
// every reason a transaction can be refused for in this genesis
// (docs/codes.md; not 24, 38, 39, 40, 43 and 46, which need another
// genesis, a carried-over settlement, no InitChain, a full block or more
// open tasks or rounds than the plan holds), each beside the valid steps
// that set up the state it is refused in. Workflow task x and arena task y
// take commits at h0..h0+2, reveals at h0+3..h0+4 and reports from h0+5
// until h0+8; block b of EVM chain 1 (timestamp h0+2) is committed to at h0,
// exactly the margin before, is final at h0+3, revealed at h0+4 and closed
// at the end of h0+5.
func (p *planner) rejections(h0 int64) {
	v0, v1, v2, v3 := p.vals[0], p.vals[1], p.vals[2], p.vals[3]
	m, out, c := p.miners, p.outsider, p.evm[0]
	wspec := subnetv1.WorkflowTask{TotalSteps: 3, MaxBudget: "2", MaxLatencySeconds: "60", SubmissionBlocks: 2, ReportBlocks: 4}
	aspec := subnetv1.ArenaTask{Category: "debugging", Difficulty: "advanced", CriteriaTotal: 4, SubmissionBlocks: 2, ReportBlocks: 4}
	x, y := &ref{}, &ref{}
	zeroBlocks, noSteps, badBudget, hugeBudget := wspec, wspec, wspec, wspec
	zeroBlocks.SubmissionBlocks, noSteps.TotalSteps, badBudget.MaxBudget = 0, 0, "two"
	hugeBudget.MaxBudget = strings.Repeat("9", 17_000) // past chain.max_tx_bytes
	cooking, badBaseline := aspec, aspec
	cooking.Category = "cooking"
	badBaseline.DefaultBaseline = customBaseline()
	badBaseline.DefaultBaseline.MinTokens = "70000" // above its median
	x0, x1, x2, y0, y1, g0 := &ref{}, &ref{}, &ref{}, &ref{}, &ref{}, &ref{}
	px0, px1, px2 := workflowPayload(x, p.artifact()), workflowPayload(x, p.artifact()), workflowPayload(x, p.artifact())
	py0, py1 := arenaPayload(y, p.artifact()), arenaPayload(y, p.artifact())
	b := c.take(1)
	ts := blockUnix(h0 + 2)
	pg0 := gasPayload(c.id, b, milli(c.price))
	p.at(h0,
		creates(x, v0, postWorkflow(wspec)),
		creates(y, v1, postArena(aspec)),
		refused(codeNotValidator, m[0], postWorkflow(wspec)),
		refused(codeBlocksRange, v2, postWorkflow(zeroBlocks)),
		refused(codeCountRange, v3, postWorkflow(noSteps)),
		refused(codeNotNumber, v3, postWorkflow(badBudget)),
		refused(codeTxTooLarge, v3, postWorkflow(hugeBudget)),
		refused(codeUnknownCategory, v2, postArena(cooking)),
		refused(codeBadBaseline, v3, postArena(badBaseline)),
		refused(codeValidatorKey, v2, register()),
		refused(codeAlreadyMiner, m[1], register()),
		refused(codeUIDsFull, out, register()),
		forged(codeMalformedTx, m[2], nil, malformed),
		forged(codeBadSender, m[2], register(), shortSender),
		creates(g0, m[3], commitTo(m[3], pg0)),
	)

	p.at(h0+1,
		creates(x0, m[0], commitTo(m[0], px0)),
		creates(x1, m[1], commitTo(m[1], px1)),
		creates(x2, m[2], commitTo(m[2], px2)),
		creates(y0, m[0], commitTo(m[0], py0)),
		creates(y1, m[1], commitTo(m[1], py1)),
		refused(codeDuplicateSubmission, m[0], commitTo(m[0], workflowPayload(x, p.artifact()))),
		refused(codeUnknownTask, m[4], commitTo(m[4], workflowPayload(fixedRef(999_999), p.artifact()))),
		refused(codeBadCommitment, m[4], shortCommitment(x)),
		refused(codeNotMiner, out, commitTo(out, workflowPayload(x, p.artifact()))),
		refused(codeNotMiner, v0, commitTo(v0, arenaPayload(y, p.artifact()))),
		refused(codeEmptyMsg, m[4], emptyReveal()),
		refused(codeEmptyMsg, m[4], emptyCommit()),
		refused(codeRevealWindow, m[0], revealOf(m[0], px0)), // the commit window is still open
		forged(codeNonceUsed, m[0], nil, replay),
		forged(codeNonceFuture, m[4], commitTo(m[4], workflowPayload(x, p.artifact())), futureNonce),
		forged(codeBadSignature, m[4], commitTo(m[4], workflowPayload(x, p.artifact())), badSignature),
		forged(codeWrongChainID, m[4], commitTo(m[4], workflowPayload(x, p.artifact())), otherChain),
		forged(codeNonCanonical, m[4], commitTo(m[4], workflowPayload(x, p.artifact())), paddedLength),
	)

	p.at(h0+2,
		refused(codeNotValidator, m[5], truth(c.id, b, "30", ts)),
		refused(codeRevealWindow, m[3], revealOf(m[3], pg0)), // block b's truth is not final
	)

	// h0+3: the reveals of x and y, and the truths that make block b final
	// with the last one.
	p.at(h0+3,
		refused(codeRevealMismatch, m[1], revealWrongSalt(m[1], px1)),
		refused(codeWrongKind, m[4], revealOf(m[4], arenaPayload(x, p.artifact()))),
		refused(codeBadArtifactHash, m[4], revealOf(m[4], workflowPayload(x, p.artifact()[:5]))),
		refused(codeNoCommit, m[4], revealOf(m[4], workflowPayload(x, p.artifact()))),
		refused(codeBadCommitment, m[2], shortSalt(px2)),
		ok(m[0], revealOf(m[0], px0)),
		ok(m[1], revealOf(m[1], px1)),
		ok(m[2], revealOf(m[2], px2)),
		ok(m[0], revealOf(m[0], py0)),
		ok(m[1], revealOf(m[1], py1)),
		refused(codeSubmissionDeadline, m[5], commitTo(m[5], workflowPayload(x, p.artifact()))),
		ok(v0, truth(c.id, b, p.truthPrice(c), ts)),
		refused(codeDuplicateTruth, v0, truth(c.id, b, "30", ts)),
		refused(codeEVMBlockClosed, v1, truth(c.id, c.closed, "30", ts)),
		refused(codeTruthTimeBackwards, v1, truth(c.id, b, "30", c.ts-1)),
		refused(codeTruthTooFar, v1, truth(c.id, c.closed+9, "30", ts)),
		refused(codeTruthTimeFuture, v1, truth(c.id, b, "30", blockUnix(h0+3)+301)),
		refused(codeCountRange, v1, truth(c.id, b, "30", 0)),
		refused(codeUnknownEVMChain, v1, truth(7, b, "30", ts)),
		refused(codeDuplicateSubmission, m[3], commitTo(m[3], gasPayload(c.id, b, "30"))),
		refused(codePredictionTooFar, m[4], commitTo(m[4], gasPayload(c.id, c.closed+9, "30"))),
		refused(codeEVMBlockClosed, m[4], commitTo(m[4], gasPayload(c.id, c.closed, "30"))),
		refused(codeUnknownEVMChain, m[4], commitTo(m[4], gasPayload(7, b, "30"))),
		ok(v1, truth(c.id, b, p.truthPrice(c), ts)),
	)
	c.close(b, ts)

	wm, am := p.workflowMeasurement(3, 1), p.arenaMeasurement(4)
	p.at(h0+4,
		refused(codeEVMBlockClosed, v2, truth(c.id, b, "30", ts)),
		ok(m[3], revealOf(m[3], pg0)),
		refused(codeDecimalRange, m[4], revealOf(m[4], gasPayload(c.id, b, "0"))),
		refused(codeRevealWindow, v2, reportWorkflow(x0, wm)), // reports open at h0+5
	)

	tooManySteps, overOne, tooPrecise, negativeBudget := wm, wm, wm, wm
	tooManySteps.StepsCompleted, overOne.OutputQuality, tooPrecise.OutputQuality = 4, "1.5", "0.1234567890123456789"
	negativeBudget.DeclaredRetryBudget = -1
	tooManyCriteria := am
	tooManyCriteria.CriteriaPassed = 5
	p.at(h0+5,
		ok(v0, reportWorkflow(x0, wm)),
		ok(v3, reportWorkflow(x1, wm)),
		ok(v0, reportArena(y0, am)),
		refused(codeDuplicateReport, v0, reportWorkflow(x0, wm)),
		refused(codeNotValidator, m[1], reportWorkflow(x1, wm)),
		refused(codeStepsExceedTotal, v2, reportWorkflow(x1, tooManySteps)),
		refused(codeDecimalRange, v2, reportWorkflow(x1, overOne)),
		refused(codeTooManyPlaces, v2, reportWorkflow(x1, tooPrecise)),
		refused(codeNegativeCount, v2, reportWorkflow(x1, negativeBudget)),
		refused(codeWrongKind, v2, reportArena(x1, am)),
		refused(codeWrongKind, v2, reportWorkflow(g0, wm)),
		refused(codeUnknownSubmission, v2, reportWorkflow(fixedRef(999_999), wm)),
		refused(codeCriteriaExceedTotal, v2, reportArena(y0, tooManyCriteria)),
	)

	// h0+6: x0 and y0 reach quorum (x0 scores now, y0 in the block's arena
	// batch). x1 (10 of the power), x2 and y1 (no report) expire at h0+8.
	p.at(h0+6,
		ok(v1, reportWorkflow(x0, wm)),
		ok(v1, reportArena(y0, am)),
		refused(codeSubmissionFinal, v2, reportWorkflow(x0, wm)),
		refused(codeSubmissionFinal, v2, reportArena(y0, am)),
	)
}

// Forges: transactions that are not a plain signature at the next nonce.

func malformed(*planner, *account, *subnetv1.Msg) []byte { return []byte{0xff, 0xff, 0xff} }

// replay is the sender's last accepted transaction, byte for byte.
func replay(_ *planner, from *account, _ *subnetv1.Msg) []byte {
	return append([]byte(nil), from.last...)
}

func futureNonce(p *planner, from *account, m *subnetv1.Msg) []byte {
	return p.sign(recordedChainID, from, from.nonce+2, m)
}

func otherChain(p *planner, from *account, m *subnetv1.Msg) []byte {
	return p.sign("another-chain", from, from.nonce, m)
}

// badSignature flips a bit of the signature (the envelope's last field).
func badSignature(p *planner, from *account, m *subnetv1.Msg) []byte {
	tx := p.sign(recordedChainID, from, from.nonce, m)
	tx[len(tx)-1] ^= 1
	return tx
}

// paddedLength is the same envelope with the body's length written as a
// varint one byte longer than needed: it decodes, but is not canonical.
func paddedLength(p *planner, from *account, m *subnetv1.Msg) []byte {
	var tx subnetv1.Tx
	if err := tx.Unmarshal(p.sign(recordedChainID, from, from.nonce, m)); err != nil {
		p.t.Fatal(err)
	}
	n := binary.AppendUvarint(nil, uint64(len(tx.Body)))
	n[len(n)-1] |= 0x80
	out := append(append([]byte{0x0a}, n...), 0x00)
	out = append(out, tx.Body...)
	out = append(out, 0x12, byte(len(tx.Signature)))
	return append(out, tx.Signature...)
}

// shortSender is a well-formed envelope whose sender has 31 bytes.
func shortSender(p *planner, from *account, m *subnetv1.Msg) []byte {
	body := subnetv1.TxBody{ChainId: recordedChainID, Sender: from.pub()[:31], Nonce: from.nonce, Msg: m}
	bz, err := body.Marshal()
	if err != nil {
		p.t.Fatal(err)
	}
	tx := subnetv1.Tx{Body: bz, Signature: ed25519.Sign(from.key, bz)}
	out, err := tx.Marshal()
	if err != nil {
		p.t.Fatal(err)
	}
	return out
}
