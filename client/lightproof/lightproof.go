package lightproof

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	dbm "github.com/cometbft/cometbft-db"
	"github.com/cometbft/cometbft/libs/log"
	"github.com/cometbft/cometbft/light"
	"github.com/cometbft/cometbft/light/provider"
	lighthttp "github.com/cometbft/cometbft/light/provider/http"
	lightdb "github.com/cometbft/cometbft/light/store/db"
	cmtcrypto "github.com/cometbft/cometbft/proto/tendermint/crypto"
	"github.com/cometbft/cometbft/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// DefaultTrustPeriod is how long a trusted header stays trusted when
// Options.TrustPeriod is zero: a week, CometBFT's light command's default.
// It must stay below the time a misbehaving validator can still be punished.
const DefaultTrustPeriod = 168 * time.Hour

// DefaultPoll is how often Query asks the primary whether the header that
// proves an answer (the one after the state's height) is committed yet.
const DefaultPoll = 100 * time.Millisecond

// Options say which nodes to ask and which header to trust.
type Options struct {
	// ChainID the headers must carry; empty: the primary's (from /status).
	ChainID string
	// Primary is the RPC address (tcp://host:port) answering the queries
	// and serving the headers.
	Primary string
	// Witnesses are other nodes' RPC addresses the light client cross-checks
	// every header with; at least one.
	Witnesses []string
	// TrustHeight and TrustHash are the header to trust. Without a hash,
	// the header at TrustHeight (default 1) is fetched from the primary and
	// every witness, must be the same at all of them, and is trusted on
	// first use.
	TrustHeight int64
	TrustHash   []byte
	// TrustPeriod is how long a verified header may serve as the base of
	// the next verification (DefaultTrustPeriod when zero).
	TrustPeriod time.Duration
	// Poll is how often Query checks for the proving header (DefaultPoll).
	Poll time.Duration
}

// Header is the verified header an answer was checked against.
type Header struct {
	ChainID string
	Height  int64
	Hash    []byte
	AppHash []byte
	Time    time.Time
}

// Proven is a record checked against a verified header.
type Proven struct {
	Store string
	Key   []byte
	Value []byte // the record's gogoproto bytes
	// Height is the height of the state the record was read from; Header
	// is the header at Height+1, whose app hash commits to that state.
	Height   int64
	Header   Header
	ProofOps *cmtcrypto.ProofOps
	// SignedPower is the voting power whose signatures on Header's commit
	// verify; TotalPower that of the header's validator set.
	SignedPower, TotalPower int64
	// TrustedOnFirstUse: the trust root was no hash the user gave but the
	// header the primary and the witnesses agreed on.
	TrustedOnFirstUse bool
}

// TwoThirds reports whether more than 2/3 of the header's voting power
// signed it: what CometBFT needs to commit a block.
func (p Proven) TwoThirds() bool { return 3*p.SignedPower > 2*p.TotalPower }

// Verifier answers proven queries. It is safe for concurrent use; queries
// run one at a time through its light client.
type Verifier struct {
	chainID string
	primary *client.Client
	lc      *light.Client
	tofu    bool
	poll    time.Duration
	mu      sync.Mutex
}

// New checks the options, settles the trust root and starts a light client
// (kept in memory) on it.
func New(ctx context.Context, o Options) (*Verifier, error) {
	if o.Primary == "" {
		return nil, errors.New("lightproof: no primary node: give the RPC address of the node to query")
	}
	if len(o.Witnesses) == 0 {
		return nil, errors.New("lightproof: no witness: CometBFT's light client cross-checks every header with at least one other node; give a witness's RPC address (best one run by someone else than the primary)")
	}
	primary, err := client.Dial(o.Primary)
	if err != nil {
		return nil, fmt.Errorf("lightproof: primary: %w", err)
	}
	for _, w := range o.Witnesses {
		if _, err := client.Dial(w); err != nil {
			return nil, fmt.Errorf("lightproof: witness: %w", err)
		}
	}
	if o.ChainID == "" {
		st, err := primary.NodeStatus(ctx)
		if err != nil {
			return nil, fmt.Errorf("lightproof: reading the chain id of the primary: %w", err)
		}
		o.ChainID = st.ChainID
	}
	if o.TrustPeriod == 0 {
		o.TrustPeriod = DefaultTrustPeriod
	}
	if o.TrustPeriod < 0 {
		return nil, fmt.Errorf("lightproof: trust period %s, want > 0", o.TrustPeriod)
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	tofu := len(o.TrustHash) == 0
	if !tofu && o.TrustHeight <= 0 {
		return nil, errors.New("lightproof: a trust hash needs the height of its header (trust height)")
	}
	if o.TrustHeight == 0 {
		o.TrustHeight = 1
	}
	if o.TrustHeight < 0 {
		return nil, fmt.Errorf("lightproof: trust height %d, want > 0", o.TrustHeight)
	}
	pp, err := lighthttp.New(o.ChainID, o.Primary)
	if err != nil {
		return nil, fmt.Errorf("lightproof: primary: %w", err)
	}
	var ws []provider.Provider
	for _, w := range o.Witnesses {
		p, err := lighthttp.New(o.ChainID, w)
		if err != nil {
			return nil, fmt.Errorf("lightproof: witness %s: %w", w, err)
		}
		ws = append(ws, p)
	}
	if tofu {
		if o.TrustHash, err = agreedHash(ctx, o.TrustHeight, o.Primary, pp, o.Witnesses, ws); err != nil {
			return nil, err
		}
	}
	lc, err := light.NewClient(ctx, o.ChainID,
		light.TrustOptions{Period: o.TrustPeriod, Height: o.TrustHeight, Hash: o.TrustHash},
		pp, ws, lightdb.New(dbm.NewMemDB(), o.ChainID),
		light.SkippingVerification(light.DefaultTrustLevel), light.Logger(log.NewNopLogger()))
	if err != nil {
		return nil, trustError(o, err)
	}
	return &Verifier{chainID: o.ChainID, primary: primary, lc: lc, tofu: tofu, poll: o.Poll}, nil
}

// agreedHash is the hash of the header at height that the primary and
// every witness serve; they must all serve the same.
func agreedHash(ctx context.Context, height int64, primaryAddr string, primary provider.Provider, addrs []string, ws []provider.Provider) ([]byte, error) {
	lb, err := primary.LightBlock(ctx, height)
	if err != nil {
		return nil, &TrustError{Height: height, Reason: fmt.Errorf("the primary %s serves no header at %d: %w", primaryAddr, height, err),
			Hint: "give a --trust-height the primary has (it may have pruned older blocks)"}
	}
	want := lb.Hash()
	for i, w := range ws {
		wb, err := w.LightBlock(ctx, height)
		if err != nil {
			return nil, &TrustError{Height: height, Reason: fmt.Errorf("witness %s serves no header at %d: %w", addrs[i], height, err),
				Hint: "check the witness is up and on the same chain, or give a --trust-height it has"}
		}
		if got := wb.Hash(); !bytes.Equal(got, want) {
			return nil, &TrustError{Height: height, Reason: fmt.Errorf("%w: witness %s has header %X at %d, the primary %s has %X",
				ErrDiverged, addrs[i], got, height, primaryAddr, want),
				Hint: "one of them is on a fork or lying: get the header's hash from someone you trust and pass it as --trust-hash"}
		}
	}
	return want, nil
}

// trustError explains why the light client refused the trust root.
func trustError(o Options, err error) error {
	te := &TrustError{Height: o.TrustHeight, Reason: err}
	var exp light.ErrOldHeaderExpired
	switch {
	// The light client says a wrong trust hash in words only (no type).
	case strings.Contains(err.Error(), "expected header's hash"):
		te.Hint = "the trust hash is not the hash of the header at the trust height: check both (e.g. `curl <node>/commit?height=N` on a node you trust)"
	case errors.As(err, &exp):
		te.Hint = "the trusted header is older than the trust period: trust a more recent header or pass a longer trust period"
	case isDivergence(err):
		te.Hint = "a witness disagrees with the primary: one of them is on a fork or lying; check both with their operators"
	case errors.Is(err, light.ErrNoWitnesses):
		te.Hint = "no witness answered with a valid header: check the witnesses' addresses and that they are on chain " + o.ChainID
	default:
		te.Hint = "check the primary's address and that it serves the trust height"
	}
	return te
}

func isDivergence(err error) bool {
	var ch light.ErrConflictingHeaders
	var pd light.ErrProposerPrioritiesDiverge
	return errors.Is(err, light.ErrLightClientAttack) || errors.As(err, &ch) || errors.As(err, &pd) || errors.Is(err, ErrDiverged)
}

// ChainID is the chain the verifier checks headers of.
func (v *Verifier) ChainID() string { return v.chainID }

// TrustedOnFirstUse reports whether the trust root is a header the
// primary and the witnesses agreed on rather than a hash the user gave.
func (v *Verifier) TrustedOnFirstUse() bool { return v.tofu }

// Client is the primary node's client, for the unproven queries a caller
// needs around the proven ones.
func (v *Verifier) Client() *client.Client { return v.primary }

// Query reads key from the provable store name as of height (0: the latest
// provable) from the primary, verifies the header at the answer's height+1
// with the light client (waiting for it while ctx lasts if it is not yet
// committed) and checks the answer's proof against that header's app hash.
// A record the app does not have is a *client.QueryError (code
// wire.QueryNotFound); a proof that fails is an error matching ErrNotProven;
// a header the light client refuses a *HeaderError.
func (v *Verifier) Query(ctx context.Context, name string, key []byte, height int64) (Proven, error) {
	if _, ok := wire.StorePrefix(name); !ok {
		return Proven{}, fmt.Errorf("lightproof: %q is not a provable store (want one of %s)", name, storeNames())
	}
	res, err := v.primary.QueryProof(ctx, wire.StoreQueryPath(name), key, height)
	if err != nil {
		return Proven{}, err
	}
	return v.Check(ctx, name, key, res.Value, res.Height, res.ProofOps, res.Key)
}

// Check verifies an answer already in hand: value stored under key in
// store name as of state height, by ops. answeredKey is the key the node
// said it answered (nil: not given). Query calls it; tests and callers
// holding a proof from elsewhere (the leaderboard's JSON) may too.
func (v *Verifier) Check(ctx context.Context, name string, key, value []byte, height int64, ops *cmtcrypto.ProofOps, answeredKey []byte) (Proven, error) {
	p := Proven{Store: name, Key: key, Value: value, Height: height, ProofOps: ops, TrustedOnFirstUse: v.tofu}
	if answeredKey != nil && !bytes.Equal(answeredKey, key) {
		return p, &NotProvenError{Store: name, Key: key, Height: height,
			Reason: fmt.Errorf("the node answered key %x, not the key asked", answeredKey)}
	}
	if height <= 0 {
		return p, &NotProvenError{Store: name, Key: key, Height: height,
			Reason: fmt.Errorf("the answer names no state height (%d)", height)}
	}
	lb, err := v.header(ctx, height+1)
	if err != nil {
		return p, err
	}
	p.Header = Header{ChainID: lb.ChainID, Height: lb.Height, Hash: lb.Hash(), AppHash: lb.AppHash, Time: lb.Time}
	p.SignedPower, p.TotalPower = signedPower(v.chainID, lb)
	if err := wire.VerifyProof(lb.AppHash, name, key, value, ops); err != nil {
		return p, &NotProvenError{Store: name, Key: key, Height: height, Reason: err}
	}
	return p, nil
}

// header waits until the primary committed height h, then has the light
// client verify its header.
func (v *Verifier) header(ctx context.Context, h int64) (*types.LightBlock, error) {
	if _, err := v.primary.WaitHeight(ctx, h, v.poll); err != nil {
		return nil, &HeaderError{Height: h, Reason: fmt.Errorf("the primary has not committed it: %w", err)}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	lb, err := v.lc.VerifyLightBlockAtHeight(ctx, h, time.Now())
	if err != nil {
		return nil, &HeaderError{Height: h, Reason: err}
	}
	return lb, nil
}

// signedPower sums the power of the validators whose signature on lb's
// commit verifies: the light client stops counting once it has enough, so
// the full count is made here.
func signedPower(chainID string, lb *types.LightBlock) (signed, total int64) {
	vals := lb.ValidatorSet
	total = vals.TotalVotingPower()
	for i, cs := range lb.Commit.Signatures {
		if cs.BlockIDFlag != types.BlockIDFlagCommit || i >= len(vals.Validators) {
			continue
		}
		val := vals.Validators[i]
		if !bytes.Equal(val.Address, cs.ValidatorAddress) {
			continue
		}
		if val.PubKey.VerifySignature(lb.Commit.VoteSignBytes(chainID, int32(i)), cs.Signature) {
			signed += val.VotingPower
		}
	}
	return signed, total
}

func storeNames() string {
	names := make([]string, 0, len(wire.ProvableStores))
	for _, s := range wire.ProvableStores {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}
