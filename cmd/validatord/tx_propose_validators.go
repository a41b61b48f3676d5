package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/internal/keyfile"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// changeArg is one change flag as typed; the report key it may name is
// looked up in the home at build time (--home may come after it).
type changeArg func(home string) (*subnetv1.ValidatorChange, error)

// changeFlag is one of the repeatable change flags: every one appends to the
// same list, so the changes keep the order of the command line (the chain
// applies them in order, each against the set the earlier ones leave).
type changeFlag struct {
	list  *[]changeArg
	parse func(v string) (changeArg, error)
}

func (f changeFlag) String() string { return "" }

func (f changeFlag) Set(v string) error {
	c, err := f.parse(v)
	if err != nil {
		return err
	}
	*f.list = append(*f.list, c)
	return nil
}

// defineProposeValidators is `tx propose validators`.
func defineProposeValidators(fs *flag.FlagSet) proposal {
	var changes []changeArg
	change := func(name, usage string, parse func(string) (changeArg, error)) {
		fs.Var(changeFlag{list: &changes, parse: parse}, name, usage+" (repeatable; changes apply in command-line order)")
	}
	change("add", "add a validator: NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY, the consensus key in base64 or hex, the report key in hex or the name of a key in <home>/keys", parseAdd)
	change("set-power", "set a validator's power: NAME=POWER", parseSetPower)
	change("remove", "remove a validator: NAME", parseRemove)
	change("rotate-report-key", "give a validator a new report key: NAME=REPORT_KEY (hex or a key name in <home>/keys)", parseRotate)
	exp := defineExpiry(fs)
	return proposal{exp: exp, prepare: func() (func(int64) *subnetv1.Msg, error) {
		if len(changes) == 0 {
			return nil, errors.New("no change: want at least one --add, --set-power, --remove or --rotate-report-key")
		}
		home := fs.Lookup("home").Value.String()
		out := make([]*subnetv1.ValidatorChange, len(changes))
		for i, c := range changes {
			var err error
			if out[i], err = c(home); err != nil {
				return nil, err
			}
		}
		return func(expires int64) *subnetv1.Msg { return client.ProposeValidators(expires, out...) }, nil
	}}
}

// parseAdd parses NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY.
func parseAdd(v string) (changeArg, error) {
	name, rest, err := splitName(v, "NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY")
	if err != nil {
		return nil, err
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return nil, errors.New("want NAME=CONSENSUS_PUBKEY:POWER:REPORT_KEY")
	}
	pub, err := consensusKey(parts[0])
	if err != nil {
		return nil, err
	}
	power, err := parsePower(parts[1])
	if err != nil {
		return nil, err
	}
	report := parts[2]
	if report == "" {
		return nil, errors.New("empty report key")
	}
	return withReportKey("add", report, func(rk []byte) *subnetv1.ValidatorChange { return client.AddValidator(name, pub, power, rk) }), nil
}

// parseSetPower parses NAME=POWER.
func parseSetPower(v string) (changeArg, error) {
	name, rest, err := splitName(v, "NAME=POWER")
	if err != nil {
		return nil, err
	}
	power, err := parsePower(rest)
	if err != nil {
		return nil, err
	}
	return func(string) (*subnetv1.ValidatorChange, error) { return client.SetPower(name, power), nil }, nil
}

// parseRemove parses NAME.
func parseRemove(v string) (changeArg, error) {
	if v == "" || strings.Contains(v, "=") {
		return nil, errors.New("want the validator's NAME")
	}
	return func(string) (*subnetv1.ValidatorChange, error) { return client.RemoveValidator(v), nil }, nil
}

// parseRotate parses NAME=REPORT_KEY.
func parseRotate(v string) (changeArg, error) {
	name, report, err := splitName(v, "NAME=REPORT_KEY")
	if err != nil {
		return nil, err
	}
	if report == "" {
		return nil, errors.New("empty report key")
	}
	return withReportKey("rotate-report-key", report, func(rk []byte) *subnetv1.ValidatorChange { return client.RotateReportKey(name, rk) }), nil
}

// splitName splits NAME=REST; want is the form shown in errors.
func splitName(v, want string) (string, string, error) {
	name, rest, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return "", "", fmt.Errorf("want %s", want)
	}
	return name, rest, nil
}

func parsePower(s string) (int64, error) {
	p, err := strconv.ParseInt(s, 10, 64)
	if err != nil || p <= 0 {
		return 0, fmt.Errorf("power %q: want a positive integer", s)
	}
	return p, nil
}

// consensusKey decodes an ed25519 consensus public key given in hex (as
// CometBFT's priv_validator_key.json does not) or base64 (as it does).
func consensusKey(s string) ([]byte, error) {
	if len(s) == 2*ed25519.PublicKeySize {
		if bz, err := hex.DecodeString(s); err == nil {
			return bz, nil
		}
	}
	bz, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(bz) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("consensus key %q: want %d bytes of ed25519 public key in base64 or hex (`validatord keys show-consensus --home NODE_HOME`)", s, ed25519.PublicKeySize)
	}
	return bz, nil
}

// withReportKey is the change made by change once the report key given to
// flagName is resolved in the home.
func withReportKey(flagName, report string, change func(reportKey []byte) *subnetv1.ValidatorChange) changeArg {
	return func(home string) (*subnetv1.ValidatorChange, error) {
		rk, err := reportKey(home, flagName, report)
		if err != nil {
			return nil, err
		}
		return change(rk), nil
	}
}

// reportKey is a report public key given in hex, else the public part of
// the key of that name in <home>/keys; flag names the flag in errors.
func reportKey(home, flagName, s string) ([]byte, error) {
	if len(s) == 2*ed25519.PublicKeySize {
		if bz, err := hex.DecodeString(s); err == nil {
			return bz, nil
		}
	}
	key, err := keyfile.Load(home, s)
	if err != nil {
		return nil, fmt.Errorf("--%s: report key %q is neither %d bytes of hex nor a usable key in %s/keys: %w", flagName, s, ed25519.PublicKeySize, home, err)
	}
	return key.Public().(ed25519.PublicKey), nil
}
