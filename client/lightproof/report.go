package lightproof

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// TOFUWarning is what a caller should show beside an answer proven from a
// trust root taken on first use.
const TOFUWarning = "trusted on first use: no --trust-hash was given, so the trust root is the header the primary and the witnesses agreed on; " +
	"if they all lie together this proves nothing: get a header's hash from someone you trust and pass --trust-height and --trust-hash"

// Report is a Proven in the shape the CLI prints (hex for bytes).
type Report struct {
	Store             string       `json:"store"`
	Key               string       `json:"key"`
	StateHeight       int64        `json:"state_height"`
	Header            ReportHeader `json:"header"`
	SignedPower       int64        `json:"signed_power"`
	TotalPower        int64        `json:"total_power"`
	TwoThirds         bool         `json:"two_thirds"`
	TrustedOnFirstUse bool         `json:"trusted_on_first_use"`
	Warning           string       `json:"warning,omitempty"`
}

// ReportHeader is the verified header of a Report.
type ReportHeader struct {
	Height  int64     `json:"height"`
	Hash    string    `json:"hash"`
	AppHash string    `json:"app_hash"`
	Time    time.Time `json:"time"`
}

// Report is p for printing.
func (p Proven) Report() Report {
	r := Report{Store: p.Store, Key: hex.EncodeToString(p.Key), StateHeight: p.Height,
		Header: ReportHeader{Height: p.Header.Height, Hash: strings.ToUpper(hex.EncodeToString(p.Header.Hash)),
			AppHash: strings.ToUpper(hex.EncodeToString(p.Header.AppHash)), Time: p.Header.Time.UTC()},
		SignedPower: p.SignedPower, TotalPower: p.TotalPower, TwoThirds: p.TwoThirds(), TrustedOnFirstUse: p.TrustedOnFirstUse}
	if p.TrustedOnFirstUse {
		r.Warning = TOFUWarning
	}
	return r
}

// Record is a proven record with its view: what the app's JSON query
// answers for it where wire has the conversion (epoch, gas agent), else
// the decoded message itself.
type Record struct {
	View   any    `json:"record"`
	Proven Report `json:"proven"`
}

// ProvablePaths are the query paths ProvePath proves, as the CLI's help
// names them.
const ProvablePaths = "epoch/<n|latest>, submission/<id>, window/<uid>/<workflow|arena>, gas/<uid>/<evm chain id>"

// ErrNotProvable is wrapped by ProvePath for a path that names no record of
// a provable store.
var ErrNotProvable = errors.New("not a provable query")

// ProvePath proves the record a JSON query path names (ProvablePaths): the
// CLI's `query <path> --prove`.
func (v *Verifier) ProvePath(ctx context.Context, path string) (Record, error) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	bad := func(why string) (Record, error) {
		return Record{}, fmt.Errorf("%w: %q: %s (provable: %s)", ErrNotProvable, path, why, ProvablePaths)
	}
	num := func(s string, bits int) (uint64, error) {
		n, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			return 0, fmt.Errorf("%w: %q: %q is not a number of %d bits", ErrNotProvable, path, s, bits)
		}
		return n, nil
	}
	switch {
	case parts[0] == "epoch" && len(parts) == 2:
		if parts[1] == "latest" {
			ep, p, err := v.LatestEpoch(ctx)
			return record(wire.EpochResultViewOf(ep), p, err)
		}
		n, err := num(parts[1], 64)
		if err != nil {
			return Record{}, err
		}
		ep, p, err := v.Epoch(ctx, n)
		return record(wire.EpochResultViewOf(ep), p, err)
	case parts[0] == "submission" && len(parts) == 2:
		id, err := num(parts[1], 64)
		if err != nil {
			return Record{}, err
		}
		s, p, err := v.Submission(ctx, id)
		return record(s, p, err)
	case parts[0] == "window" && len(parts) == 2:
		return bad("a proven window is one track's: add workflow or arena")
	case parts[0] == "window" && len(parts) == 3:
		uid, err := num(parts[1], 32)
		if err != nil {
			return Record{}, err
		}
		w, p, err := v.Window(ctx, parts[2], uint32(uid))
		return record(w, p, err)
	case parts[0] == "gas" && len(parts) == 3:
		uid, err := num(parts[1], 32)
		if err != nil {
			return Record{}, err
		}
		chain, err := num(parts[2], 64)
		if err != nil {
			return Record{}, err
		}
		a, p, err := v.GasAgent(ctx, chain, uint32(uid))
		return record(wire.GasAgentViewOf(a), p, err)
	}
	return bad("its answer is not one record of a provable store")
}

func record(view any, p Proven, err error) (Record, error) {
	if err != nil {
		return Record{}, err
	}
	return Record{View: view, Proven: p.Report()}, nil
}

// VerifiedWeights is an epoch's u16 vector for the parent chain read from
// a proven epoch record. Its ParentWeights' Height and AppHash are the
// proven state's; ScoreDigest is empty (the digest is no provable record:
// `validatord weights` without --verify prints it).
type VerifiedWeights struct {
	client.ParentWeights
	Proven Report `json:"proven"`
}

// ErrNotFinal is wrapped when the header proving an epoch is not signed by
// more than 2/3 of its validators' power.
var ErrNotFinal = errors.New("not signed by more than 2/3 of the voting power")

// Weights proves epoch n (0: the latest) and returns its u16 vector, only
// if the header proving it is signed by more than 2/3 of the power. netuid
// and versionKey are written as given (neither is part of the record).
func (v *Verifier) Weights(ctx context.Context, n uint64, netuid *uint16, versionKey uint64) (VerifiedWeights, error) {
	var (
		rec Record
		err error
	)
	if n == 0 {
		rec, err = v.ProvePath(ctx, "epoch/latest")
	} else {
		rec, err = v.ProvePath(ctx, "epoch/"+strconv.FormatUint(n, 10))
	}
	if err != nil {
		return VerifiedWeights{}, err
	}
	pr := rec.Proven
	if !pr.TwoThirds {
		return VerifiedWeights{}, fmt.Errorf("%w: header %d proving epoch record %s is signed by %d of %d power; wait for a later header or ask other nodes",
			ErrNotFinal, pr.Header.Height, pr.Key, pr.SignedPower, pr.TotalPower)
	}
	ep := rec.View.(*wire.EpochResultView)
	pw, err := client.ParentWeightsOf(ep, wire.DigestView{Height: pr.StateHeight, AppHash: pr.Header.AppHash}, netuid, versionKey)
	if err != nil {
		return VerifiedWeights{}, err
	}
	return VerifiedWeights{ParentWeights: pw, Proven: pr}, nil
}
