package main

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/scoringsubnet/validatord/client/lightproof"
)

// witnessList is --witness: repeatable, each a comma-separated list.
type witnessList []string

func (w *witnessList) String() string { return strings.Join(*w, ",") }

func (w *witnessList) Set(s string) error {
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			*w = append(*w, a)
		}
	}
	return nil
}

// trustFlags are the flags that set up client/lightproof's light client:
// the witnesses and the trust root.
type trustFlags struct {
	witnesses   witnessList
	trustHeight *int64
	trustHash   *string
	trustPeriod *time.Duration
}

// addTrustFlags registers --witness, --trust-height, --trust-hash and
// --trust-period.
func addTrustFlags(fs *flag.FlagSet) *trustFlags {
	t := &trustFlags{}
	fs.Var(&t.witnesses, "witness", "`address` of another node's RPC the light client cross-checks headers with (repeat or comma-separate; at least one)")
	t.trustHeight = fs.Int64("trust-height", 0, "height of the header to trust (default 1, or required with --trust-hash)")
	t.trustHash = fs.String("trust-hash", "", "hex hash of the header at --trust-height, from someone you trust (without it: trusted on first use, if the node and every witness agree)")
	t.trustPeriod = fs.Duration("trust-period", lightproof.DefaultTrustPeriod, "how long a verified header stays trusted")
	return t
}

// verifier starts the light client on node with the flags' trust root.
func (t *trustFlags) verifier(ctx context.Context, node string) (*lightproof.Verifier, error) {
	if len(t.witnesses) == 0 {
		return nil, fmt.Errorf("--witness: required with a proof: the light client checks every header with at least one other node (e.g. --witness tcp://other-node:26657)")
	}
	if _, err := dialNode(node); err != nil {
		return nil, err
	}
	hash, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(*t.trustHash), "0x"))
	if err != nil {
		return nil, fmt.Errorf("--trust-hash: %q is not hex: want the 64 hex digits of a block hash", *t.trustHash)
	}
	if len(hash) != 0 && len(hash) != 32 {
		return nil, fmt.Errorf("--trust-hash: %d bytes, want the 32 of a block hash", len(hash))
	}
	if len(hash) != 0 && *t.trustHeight <= 0 {
		return nil, fmt.Errorf("--trust-height: required with --trust-hash (the height of the header it is the hash of)")
	}
	if *t.trustHeight < 0 {
		return nil, fmt.Errorf("--trust-height: %d, want a height >= 1", *t.trustHeight)
	}
	if *t.trustPeriod <= 0 {
		return nil, fmt.Errorf("--trust-period: %s, want > 0 (e.g. 168h)", *t.trustPeriod)
	}
	v, err := lightproof.New(ctx, lightproof.Options{Primary: node, Witnesses: t.witnesses,
		TrustHeight: *t.trustHeight, TrustHash: hash, TrustPeriod: *t.trustPeriod})
	return v, oneLine(err)
}

// warnTOFU tells the user, on stderr, when nothing they gave anchors the
// proof.
func warnTOFU(w io.Writer, r lightproof.Report) {
	if r.TrustedOnFirstUse {
		fmt.Fprintf(w, "warning: %s\n", r.Warning)
	}
}

// refuseTrustFlags is an error when a trust flag was given without the
// flag that uses it (need: --prove or --verify).
func refuseTrustFlags(fs *flag.FlagSet, need string) error {
	var given []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "witness", "trust-height", "trust-hash", "trust-period":
			given = append(given, "--"+f.Name)
		}
	})
	if len(given) > 0 {
		return fmt.Errorf("%s: only with %s (they set up the light client that checks the proof)", strings.Join(given, ", "), need)
	}
	return nil
}
