package rounds

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/scoringsubnet/validatord/client"
)

// Record is one committed transaction, as written to --out (one JSON object a line).
type Record struct {
	Kind         string `json:"kind"` // e.g. "commit/workflow", "reveal/gas", "report/arena", "truth"
	Sender       string `json:"sender"`
	Hash         string `json:"hash"`
	Height       int64  `json:"height"`
	SubmissionID uint64 `json:"submission_id"`
	TaskID       uint64 `json:"task_id,omitempty"`
	UID          uint64 `json:"uid,omitempty"`
}

// stats counts what was sent, committed and refused, by kind, and what came of the commits.
type stats struct {
	Sent      map[string]int `json:"sent"`
	Committed map[string]int `json:"committed"`
	Rejected  map[string]int `json:"rejected"` // "kind code N"
	Uncertain int            `json:"uncertain"`
	// Recovered: what the signers' Recover did with transactions CheckTx took that no block
	// showed LostAfter blocks later (client.Recovery): sent again as signed, signed again at a
	// new nonce, refused when sent again, or found in a block after all.
	Recovered recoveredCounts `json:"recovered"`
	// Flood: the open-loop commits' figures (nil without --flood-rate).
	Flood *floodCounts `json:"flood,omitempty"`
	// CommitReveal: the commits of each side (sideHonest, sideAdversary) and what came of them.
	CommitReveal map[string]*crCounts `json:"commit_reveal"`
	// Copies: the adversary's attempts on commit-reveal (nil without --adversary).
	Copies *copyCounts `json:"copies,omitempty"`
}

// crCounts are the commits of one side and what came of them.
type crCounts struct {
	Commits    int `json:"commits"`    // commits seen committed
	Reveals    int `json:"reveals"`    // reveals committed
	Duplicates int `json:"duplicates"` // submissions a reveal made duplicates (score 0)
	Unrevealed int `json:"unrevealed"` // commits whose reveal window passed without a reveal
	Withheld   int `json:"withheld"`   // of those, held back on purpose (the adversary)
}

// copyCounts are the adversary's attempts to profit from other miners' commits, and what the
// chain made of them: each must be refused or score 0.
type copyCounts struct {
	// Early: copies of an honest artifact committed after their owner's commit (the copier
	// knew it before any reveal); EarlyDuplicate were found duplicate with score 0, EarlyKept
	// kept the artifact.
	Early          int `json:"early"`
	EarlyDuplicate int `json:"early_duplicate"`
	EarlyKept      int `json:"early_kept"`
	// AfterReveal: commits of an artifact or a price after seeing its reveal; refused by
	// "code name", or accepted.
	AfterReveal         int            `json:"after_reveal"`
	AfterRevealRefused  map[string]int `json:"after_reveal_refused"`
	AfterRevealAccepted int            `json:"after_reveal_accepted"`
	// WrongSalt: reveals with a wrong salt; WrongSaltRefused refused with 50.
	WrongSalt        int `json:"wrong_salt"`
	WrongSaltRefused int `json:"wrong_salt_refused"`
	// Late: gas commits sent after the EVM block's timestamp; LateFound were late at the close.
	Late      int `json:"late"`
	LateFound int `json:"late_found"`
	// Unchecked: copies and late commits whose verdict was not seen in time.
	Unchecked int `json:"unchecked"`
}

// recorder collects records and stats; safe for concurrent senders.
type recorder struct {
	mu    sync.Mutex
	f     *os.File
	w     *bufio.Writer
	stats stats
	// side of each submission committed, and the submissions made duplicates
	side map[uint64]string
	dup  map[uint64]bool
	// lostAfter is every signer's LostAfter (--lost-after; 0: the client's default).
	lostAfter int64
}

func newRecorder(path string) (*recorder, error) {
	r := &recorder{stats: stats{Sent: map[string]int{}, Committed: map[string]int{}, Rejected: map[string]int{},
		CommitReveal: map[string]*crCounts{sideHonest: {}, sideAdversary: {}}},
		side: map[uint64]string{}, dup: map[uint64]bool{}}
	if path == "" {
		return r, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	r.f, r.w = f, bufio.NewWriter(f)
	return r, nil
}

func (r *recorder) sent(kind string) {
	r.mu.Lock()
	r.stats.Sent[kind]++
	r.mu.Unlock()
}

func (r *recorder) rejected(kind string, code uint32) {
	r.mu.Lock()
	r.stats.Rejected[fmt.Sprintf("%s code %d", kind, code)]++
	r.mu.Unlock()
}

// recoveredCounts sum the signers' client.Recovery reports.
type recoveredCounts struct {
	Resent    int `json:"resent"`
	Resigned  int `json:"resigned"`
	Refused   int `json:"refused"`
	Committed int `json:"committed"`
}

// flood records the flood's figures.
func (r *recorder) flood(c floodCounts) {
	r.mu.Lock()
	r.stats.Flood = &c
	r.mu.Unlock()
}

// recovered counts one signer's Recover (client.Signer.OnRecover).
func (r *recorder) recovered(rc client.Recovery) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Recovered.Resent += len(rc.Resent)
	r.stats.Recovered.Resigned += len(rc.Resigned)
	r.stats.Recovered.Refused += len(rc.Refused)
	r.stats.Recovered.Committed += len(rc.Committed)
}

func (r *recorder) uncertain() {
	r.mu.Lock()
	r.stats.Uncertain++
	r.mu.Unlock()
}

// committedTo counts a commit of side, seen committed as submission sub.
func (r *recorder) committedTo(side string, sub uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.CommitReveal[side].Commits++
	r.side[sub] = side
}

func (r *recorder) revealed(side string) {
	r.mu.Lock()
	r.stats.CommitReveal[side].Reveals++
	r.mu.Unlock()
}

// duplicate counts submission sub made a duplicate (once, under its side if it is known).
func (r *recorder) duplicate(sub uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dup[sub] {
		return
	}
	r.dup[sub] = true
	if side, ok := r.side[sub]; ok {
		r.stats.CommitReveal[side].Duplicates++
	}
}

func (r *recorder) isDuplicate(sub uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dup[sub]
}

func (r *recorder) unrevealed(side string, withheld bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.stats.CommitReveal[side]
	c.Unrevealed++
	if withheld {
		c.Withheld++
	}
}

// copies runs f on the adversary's counts (made on first use).
func (r *recorder) copies(f func(c *copyCounts)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stats.Copies == nil {
		r.stats.Copies = &copyCounts{AfterRevealRefused: map[string]int{}}
	}
	f(r.stats.Copies)
}

func (r *recorder) wrongSalt(refused50 bool) {
	r.copies(func(c *copyCounts) {
		c.WrongSalt++
		if refused50 {
			c.WrongSaltRefused++
		}
	})
}

// committed records a committed transaction and writes its line.
func (r *recorder) committed(rec Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Committed[rec.Kind]++
	if r.w == nil {
		return nil
	}
	bz, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = r.w.Write(append(bz, '\n'))
	return err
}

func (r *recorder) close() error {
	if r.f == nil {
		return nil
	}
	if err := r.w.Flush(); err != nil {
		r.f.Close()
		return err
	}
	return r.f.Close()
}

// total sums a count map.
func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// print writes the summary: totals, the commits and what came of them, the adversary's
// copies, then each kind.
func (s stats) print(w io.Writer, elapsed time.Duration) {
	fmt.Fprintf(w, "loadgen: %s: sent %d, committed %d, rejected %d, unconfirmed %d\n",
		elapsed.Round(time.Second), total(s.Sent), total(s.Committed), total(s.Rejected), s.Uncertain)
	if rc := s.Recovered; rc != (recoveredCounts{}) {
		fmt.Fprintf(w, "  recovered (lost after CheckTx took them): %d resent, %d signed again, %d refused when sent again, %d found in a block after all\n",
			rc.Resent, rc.Resigned, rc.Refused, rc.Committed)
	}
	if f := s.Flood; f != nil {
		fmt.Fprintf(w, "  flood: offered %d (skipped %d), accepted %d, committed %d, lost %d, refused %d %s, no answer %d; resent %d, signed again %d, dropped %d; stuck senders %d\n",
			f.Offered, f.Skipped, f.Accepted, f.Committed, f.Lost, total(f.Refused), byName(f.Refused), f.Failed, f.Resent, f.Resigned, f.Dropped, f.StuckSenders)
	}
	for _, side := range []string{sideHonest, sideAdversary} {
		c := s.CommitReveal[side]
		if c == nil || *c == (crCounts{}) {
			continue
		}
		fmt.Fprintf(w, "  commit-reveal %-10s commits %d, reveals %d, duplicates %d, unrevealed %d", side+":", c.Commits, c.Reveals, c.Duplicates, c.Unrevealed)
		if c.Withheld > 0 {
			fmt.Fprintf(w, " (%d withheld)", c.Withheld)
		}
		fmt.Fprintln(w)
	}
	if c := s.Copies; c != nil {
		fmt.Fprintf(w, "  copies: %d of an artifact committed after its owner's commit: %d duplicate with score 0, %d kept it\n", c.Early, c.EarlyDuplicate, c.EarlyKept)
		fmt.Fprintf(w, "  copies: %d commits of an artifact or price after its reveal: %d refused %s, %d accepted\n",
			c.AfterReveal, total(c.AfterRevealRefused), byName(c.AfterRevealRefused), c.AfterRevealAccepted)
		fmt.Fprintf(w, "  copies: %d reveals with a wrong salt: %d refused with 50; %d gas commits after the EVM block's time: %d late", c.WrongSalt, c.WrongSaltRefused, c.Late, c.LateFound)
		if c.Unchecked > 0 {
			fmt.Fprintf(w, "; %d verdicts not seen in time", c.Unchecked)
		}
		fmt.Fprintln(w)
	}
	kinds := make([]string, 0, len(s.Sent))
	for k := range s.Sent {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		fmt.Fprintf(w, "  %-28s sent %5d  committed %5d\n", k, s.Sent[k], s.Committed[k])
	}
	rej := make([]string, 0, len(s.Rejected))
	for k := range s.Rejected {
		rej = append(rej, k)
	}
	sort.Strings(rej)
	for _, k := range rej {
		fmt.Fprintf(w, "  rejected %-40s %5d\n", k, s.Rejected[k])
	}
}

// byName lists a count map as "(k1 n1, k2 n2)", keys sorted; "" when empty.
func byName(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// save writes the counts as indented JSON to path (nothing when path is empty).
func (s stats) save(path string) error {
	if path == "" {
		return nil
	}
	bz, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(bz, '\n'), 0o644)
}
