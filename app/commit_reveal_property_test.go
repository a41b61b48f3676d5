package app

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/scoringsubnet/validatord/app/kernel"
	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
	"github.com/scoringsubnet/validatord/x/commit"
)

// The commit-reveal property: over random schedules of commits,
// reveals (in and out of their window, with wrong salts, another miner's
// payload, from keys that never committed) and copies of other miners'
// artifacts, shuffled inside each block, every transaction's verdict and
// every submission's final status equal a naive model that knows nothing
// of the order inside a block; duplicates match commit.Resolve; and no
// miner whose artifact an earlier commit already had ever scores above 0.

// crpMiner is one miner's plan in a schedule.
type crpMiner struct {
	s        *signer
	artifact int   // index into the artifact pool
	commitAt int64 // 0: never commits
	revealAt int64 // 0: never reveals
	how      string
}

// Reveal variants: the right payload and salt, a wrong salt, another
// artifact than the one committed.
const (
	crpRight     = "right"
	crpWrongSalt = "wrong-salt"
	crpOther     = "other-payload"
)

func TestPropertyCommitRevealInterleavings(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := 0; seed < seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { crpRun(t, uint64(seed)) })
	}
}

func crpRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
	g := testGenesis(3)
	reveal := int64(1 + rng.IntN(3))
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = reveal
	}
	n := newNode(t, "", g)
	reps := []*signer{reporter(0), reporter(1), reporter(2)}
	nMiners := 4 + rng.IntN(5)
	pool := make([][]byte, 1+rng.IntN(2)) // few artifacts: copies are frequent
	for i := range pool {
		pool[i] = artifact(fmt.Sprintf("seed %d artifact %d", seed, i))
	}
	sb := int64(1 + rng.IntN(4))
	// h1: registrations and the task: commits 1..1+sb, reveals up to d+R
	const posted = 1
	deadline := posted + sb
	revealEnd := deadline + reveal
	var miners []*crpMiner
	txs := [][]byte{reps[0].tx(t, msgWorkflowTask(4, sb, 2))}
	for i := 0; i < nMiners; i++ {
		m := &crpMiner{s: newMiner(fmt.Sprintf("seed %d miner %d", seed, i), uint32(i+1)), artifact: rng.IntN(len(pool))}
		txs = append(txs, m.s.tx(t, msgRegister()))
		if rng.IntN(8) > 0 {
			// commits from h2 to the deadline, and now and then one block
			// past it (refused, 27)
			m.commitAt = posted + 1 + rng.Int64N(sb)
			if rng.IntN(8) == 0 {
				m.commitAt = deadline + 1
			}
		}
		switch rng.IntN(8) {
		case 0: // never reveals
		case 1: // in the commit window's last block, or one block past the reveal window
			m.revealAt = []int64{deadline, revealEnd + 1}[rng.IntN(2)]
		default: // inside the reveal window
			m.revealAt = deadline + 1 + rng.Int64N(reveal)
		}
		m.how = []string{crpRight, crpRight, crpRight, crpRight, crpWrongSalt, crpOther}[rng.IntN(6)]
		miners = append(miners, m)
	}
	outsider := newMiner(fmt.Sprintf("seed %d outsider", seed), uint32(nMiners+1))
	txs = append(txs, outsider.tx(t, msgRegister()))
	mustOK(t, n.block(txs...))

	payload := func(idx int) *subnetv1.MsgSubmit { return client.WorkflowPayload(0, pool[idx]) }
	commitMsg := func(s *signer, p *subnetv1.MsgSubmit) *subnetv1.Msg {
		msg, err := client.Commit(testChainID, s.pub(), s.uid, p, s.salt(p))
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	// the model's verdicts: committed[i] is the commit height of miner i
	// (0 if none), revealed[i] whether its reveal is taken
	committed := make([]int64, nMiners)
	revealed := make([]bool, nMiners)
	nextSub := uint64(0)
	subOf := make([]uint64, nMiners)
	index := make(map[*signer]int, nMiners)
	for i, m := range miners {
		index[m.s] = i
	}
	for h := int64(2); h <= revealEnd+1; h++ {
		var block []crpTx
		for i, m := range miners {
			if m.commitAt == h {
				want := wire.CodeOK
				if h > deadline {
					want = wire.CodeSubmissionDeadline
				}
				block = append(block, crpTx{m.s, commitMsg(m.s, payload(m.artifact)), want, 0})
			}
			if m.revealAt == h {
				p := payload(m.artifact)
				var msg *subnetv1.Msg
				switch m.how {
				case crpWrongSalt:
					msg = client.Reveal(p, client.Salt{byte(i + 1)})
				case crpOther:
					other := client.WorkflowPayload(0, artifact("never committed"))
					if len(pool) > 1 {
						other = payload((m.artifact + 1) % len(pool))
					}
					msg = client.Reveal(other, m.s.salt(other))
				default:
					msg = client.Reveal(p, m.s.salt(p))
				}
				block = append(block, crpTx{m.s, msg, crpRevealCode(m, h, deadline, revealEnd), 1})
			}
		}
		// a key that never committed reveals a committed miner's payload
		// with the salt that miner used: it opens nothing (48)
		if h == revealEnd {
			victim := miners[rng.IntN(len(miners))]
			p := payload(victim.artifact)
			block = append(block, crpTx{outsider, client.Reveal(p, victim.s.salt(p)), wire.CodeNoCommit, 0})
		}
		rng.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
		crpKeepOwnOrder(block)
		crpDecide(t, n, seed, h, block)
		// submission ids go in block order, which the shuffle chose
		for _, x := range block {
			if i, ok := index[x.s]; ok && x.want == wire.CodeOK && x.msg.GetCommit() != nil {
				committed[i], subOf[i] = h, nextSub
				nextSub++
			}
		}
		for i, m := range miners {
			if m.revealAt == h && crpRevealCode(m, h, deadline, revealEnd) == wire.CodeOK {
				revealed[i] = true
			}
		}
	}
	// the model's duplicate verdicts
	var claims []commit.Claim
	var who []int
	for i := range miners {
		if revealed[i] {
			claims = append(claims, commit.Claim{Artifact: [32]byte(pool[miners[i].artifact]), CommitHeight: committed[i], UID: miners[i].s.uid})
			who = append(who, i)
		}
	}
	t.Logf("seed %d: %d miners, %d artifacts, %d reveals taken, reveal window %d", seed, nMiners, len(pool), len(claims), reveal)
	verdicts, err := commit.Resolve(claims)
	if err != nil {
		t.Fatal(err)
	}
	dup := make(map[int]commit.Verdict)
	for k, v := range verdicts {
		dup[who[k]] = v
	}
	// reports: every validator on each keeper; a report on a duplicate is
	// refused (30) and changes nothing
	var reports [][]byte
	for i := range miners {
		if revealed[i] && !dup[i].Duplicate {
			for _, r := range reps {
				reports = append(reports, r.tx(t, msgWorkflowReport(subOf[i], workflowM())))
			}
		}
	}
	mustOK(t, n.block(reports...))
	for i := range miners {
		if revealed[i] && dup[i].Duplicate {
			bz, err := wire.SignTx(testChainID, reps[0].key, reps[0].nonce, msgWorkflowReport(subOf[i], workflowM()))
			if err != nil {
				t.Fatal(err)
			}
			mustCodes(t, n.block(bz), wire.CodeSubmissionFinal)
		}
	}
	// run to the settlement
	for n.height <= revealEnd+2 {
		n.block()
	}
	wantNoneAwaiting(t, n, seed)
	for i, m := range miners {
		if committed[i] == 0 {
			continue
		}
		s, _ := n.query(fmt.Sprint("submission/", subOf[i]))
		want := kernel.StatusUnrevealed
		if revealed[i] {
			want = kernel.StatusScored
			if dup[i].Duplicate {
				want = kernel.StatusDuplicate
			}
		}
		if s["status"] != want {
			t.Fatalf("seed %d miner %d (uid %d, commit %d, reveal %d %s): status %v, model %s", seed, i, m.s.uid, m.commitAt, m.revealAt, m.how, s["status"], want)
		}
		if want == kernel.StatusDuplicate {
			// the receipt names the keeper known at the verdict: a revealed
			// commit of the same artifact that precedes this one (when a
			// still earlier commit is revealed later, it keeps the artifact
			// and the one named here is itself a duplicate)
			named := -1
			for j := range miners {
				if revealed[j] && float64(miners[j].s.uid) == s["duplicate_of_uid"] {
					named = j
				}
			}
			if named < 0 || miners[named].artifact != m.artifact || s["duplicate_of_height"] != float64(committed[named]) ||
				!commit.Precedes(commit.Claim{CommitHeight: committed[named], UID: miners[named].s.uid}, commit.Claim{CommitHeight: committed[i], UID: m.s.uid}) {
				t.Fatalf("seed %d miner %d: duplicate of uid %v at %v, which does not precede it with its artifact", seed, i, s["duplicate_of_uid"], s["duplicate_of_height"])
			}
			if sc := s["receipt"].(map[string]any)["score"]; sc != "0.000000000000000000" {
				t.Fatalf("seed %d miner %d: a copy scored %v", seed, i, sc)
			}
		}
	}
}

// crpRevealCode is the model's verdict on a reveal: the checks in the
// order the app runs them.
func crpRevealCode(m *crpMiner, h, deadline, revealEnd int64) uint32 {
	switch {
	case m.commitAt == 0 || m.commitAt > deadline || m.commitAt > h:
		return wire.CodeNoCommit
	case m.commitAt == h:
		// the commit is in the same block, before the reveal: the reveal
		// is inside the commit window
		return wire.CodeRevealWindow
	case h <= deadline || h > revealEnd:
		return wire.CodeRevealWindow
	case m.how != crpRight:
		return wire.CodeRevealMismatch
	}
	return wire.CodeOK
}

// crpTx is one planned transaction: its signer, message, the model's
// code, and its rank among the signer's transactions of the block.
type crpTx struct {
	s    *signer
	msg  *subnetv1.Msg
	want uint32
	rank int
}

// crpKeepOwnOrder puts each signer's transactions back in rank order inside
// the positions the shuffle gave them: a miner's commit stays before its
// reveal (it signs them in that order), everything else stays shuffled.
func crpKeepOwnOrder(xs []crpTx) {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[j].s == xs[i].s && xs[j].rank < xs[i].rank {
				xs[i], xs[j] = xs[j], xs[i]
			}
		}
	}
}

// TestPropertyGasCommitTiming: over random commit heights around an EVM
// block's timestamp, random margins and reveal heights around its reveal
// window, a revealed prediction counts exactly when its commit's block
// time is at least commit_margin_seconds before the EVM timestamp and it
// was revealed inside the window with its own salt; everything else is
// late, unrevealed or refused, as the model says. A copier that commits
// after reading the truth (its commit lands after the timestamp) never
// counts.
func TestPropertyGasCommitTiming(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 6
	}
	for seed := 0; seed < seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { crpGasRun(t, uint64(seed)) })
	}
}

func crpGasRun(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x9a5))
	g := testGenesis(3)
	reveal := int64(1 + rng.IntN(3))
	margin := int64(1 + rng.IntN(12))
	for i := range g.Tracks {
		g.Tracks[i].RevealBlocks = reveal
		if g.Tracks[i].Name == "gas" {
			g.Tracks[i].CommitMarginSeconds = margin
		}
	}
	n := newNode(t, "", g)
	reps := []*signer{reporter(0), reporter(1), reporter(2)}
	nMiners := 3 + rng.IntN(5)
	var miners []*crpMiner
	txs := anchorTxs(t, reps, 1, 99, 1_700_000_001)
	for i := 0; i < nMiners; i++ {
		m := &crpMiner{s: newMiner(fmt.Sprintf("gas seed %d miner %d", seed, i), uint32(i+1))}
		txs = append(txs, m.s.tx(t, msgRegister()))
		miners = append(miners, m)
	}
	mustOK(t, n.block(txs...)) // h1: anchored at EVM block 99
	// the truth of EVM block 100 comes at height truthAt; its timestamp
	// lies a random number of seconds before that block's time, so some
	// commits are before it by the margin, some not
	truthAt := int64(4 + rng.IntN(3))
	ts := blockTime(truthAt).Unix() - int64(rng.IntN(15))
	for _, m := range miners {
		m.commitAt = int64(2 + rng.IntN(int(truthAt-1))) // h2..truthAt
		switch rng.IntN(6) {
		case 0:
			m.revealAt = 0
		case 1:
			m.revealAt = truthAt // the block that makes the truth final: too early
		case 2:
			m.revealAt = truthAt + reveal + 1 // after the window
		default:
			m.revealAt = truthAt + 1 + rng.Int64N(reveal)
		}
		m.how = []string{crpRight, crpRight, crpRight, crpWrongSalt}[rng.IntN(4)]
	}
	price := func(i int) *subnetv1.MsgSubmit { return gasPayload(1, 100, fmt.Sprintf("%d.5", 8+i)) }
	committedOK := make(map[*signer]bool)
	for h := int64(2); h <= truthAt+reveal+1; h++ {
		var block []crpTx
		for i, m := range miners {
			if m.commitAt == h {
				msg, err := client.Commit(testChainID, m.s.pub(), m.s.uid, price(i), m.s.salt(price(i)))
				if err != nil {
					t.Fatal(err)
				}
				block = append(block, crpTx{m.s, msg, wire.CodeOK, 0})
			}
			if m.revealAt == h {
				salt := m.s.salt(price(i))
				if m.how == crpWrongSalt {
					salt = client.Salt{byte(i + 1)}
				}
				block = append(block, crpTx{m.s, client.Reveal(price(i), salt), crpGasRevealCode(m, h, truthAt, reveal), 1})
			}
		}
		if h == truthAt {
			for _, r := range reps {
				block = append(block, crpTx{r, msgTruth(1, 100, "8", ts), wire.CodeOK, 0})
			}
		}
		rng.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
		crpKeepOwnOrder(block)
		// in the truth's block, the third vote makes it final: a commit
		// after it is for a closed block (33); one before it is taken, by a
		// copier who read the first votes, and is late
		votes := 0
		for k := range block {
			if block[k].msg.GetTruth() != nil {
				votes++
			}
			if c := block[k].msg.GetCommit(); c != nil && votes == len(reps) {
				block[k].want = wire.CodeEVMBlockClosed
			}
			if c := block[k].msg.GetCommit(); c != nil && block[k].want == wire.CodeOK {
				committedOK[block[k].s] = true
			}
			if block[k].msg.GetReveal() != nil && !committedOK[block[k].s] && h <= truthAt+reveal {
				block[k].want = wire.CodeNoCommit
			}
		}
		crpDecide(t, n, seed, h, block)
	}
	wantNoneAwaiting(t, n, seed)
	for i, m := range miners {
		if !committedOK[m.s] {
			continue // its reveals were refused (48 or 49) above
		}
		id := crpFindGasSub(t, n, m.s.uid, nMiners)
		s, _ := n.query(fmt.Sprint("submission/", id))
		want := kernel.StatusUnrevealed
		if crpGasRevealCode(m, m.revealAt, truthAt, reveal) == wire.CodeOK && m.revealAt != 0 {
			want = kernel.StatusLate
			if commit.GasCounts(blockTime(m.commitAt).Unix(), ts, margin) {
				want = kernel.StatusCounted
			}
		}
		if s["status"] != want {
			t.Fatalf("seed %d miner %d (commit h%d t%d, ts %d, margin %d, reveal %d %s): %v, model %s",
				seed, i, m.commitAt, blockTime(m.commitAt).Unix(), ts, margin, m.revealAt, m.how, s["status"], want)
		}
	}
}

// crpGasRevealCode is the model's verdict on a gas reveal at h: the truth
// becomes final at truthAt, the window is truthAt+1..truthAt+reveal, and
// the close at its end sweeps the block's commits.
func crpGasRevealCode(m *crpMiner, h, truthAt, reveal int64) uint32 {
	switch {
	case h > truthAt+reveal:
		return wire.CodeRevealWindow // closed (and swept by the close)
	case h <= truthAt:
		return wire.CodeRevealWindow
	case m.how != crpRight:
		return wire.CodeRevealMismatch
	}
	return wire.CodeOK
}

// crpFindGasSub is the id of uid's submission (one per miner here).
func crpFindGasSub(t *testing.T, n *node, uid uint32, count int) uint64 {
	t.Helper()
	for id := 0; id < count; id++ {
		s, _ := n.query(fmt.Sprint("submission/", id))
		if s["uid"] == float64(uid) {
			return uint64(id)
		}
	}
	t.Fatalf("no submission of uid %d", uid)
	return 0
}

// crpDecide signs the planned block in its order (a signer's nonce moves
// only past the transactions the model accepts: a refused one leaves the
// account's nonce where it was), decides it, and fails on any code that
// is not the model's.
func crpDecide(t *testing.T, n *node, seed uint64, h int64, block []crpTx) {
	t.Helper()
	var raw [][]byte
	for _, x := range block {
		bz, err := wire.SignTx(testChainID, x.s.key, x.s.nonce, x.msg)
		if err != nil {
			t.Fatal(err)
		}
		if x.want == wire.CodeOK {
			x.s.nonce++
		}
		raw = append(raw, bz)
	}
	resp := n.block(raw...)
	for k, x := range block {
		if got := resp.TxResults[k].Code; got != x.want {
			t.Fatalf("seed %d height %d tx %d: code %d (%s), model %d", seed, h, k, got, resp.TxResults[k].Log, x.want)
		}
	}
}

// wantNoneAwaiting: once every window of the run has closed, no track counts
// a commit awaiting its reveal, and the state holds none.
func wantNoneAwaiting(t *testing.T, n *node, seed uint64) {
	t.Helper()
	c, _ := n.app.Counts()
	for _, tc := range c.Tracks {
		if tc.AwaitingReveal != 0 {
			t.Fatalf("seed %d: track %s still counts %d commits awaiting their reveal after every window closed", seed, tc.Track, tc.AwaitingReveal)
		}
	}
	if left := committedByTrack(t, n); len(left) != 0 {
		t.Fatalf("seed %d: committed submissions left after every window closed: %v", seed, left)
	}
}
