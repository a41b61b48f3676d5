package genesis

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	cmted25519 "github.com/cometbft/cometbft/crypto/ed25519"
)

// MaxTotalPower bounds the validators' total voting power: CometBFT's
// types.MaxTotalVotingPower, math.MaxInt64 / 8 = 2^60 − 1 (a total of
// exactly 2^60, which this bound once allowed, CometBFT refuses).
const MaxTotalPower = int64(math.MaxInt64) / 8

// Validator is one genesis validator: its CometBFT consensus key and power,
// and the report key that signs its PostTask, Report and Truth transactions.
type Validator struct {
	Name      string `json:"name"`
	Address   string `json:"address"`    // hex of the CometBFT consensus address
	PubKey    string `json:"pub_key"`    // base64 ed25519 consensus public key
	Power     int64  `json:"power"`      // voting power, > 0
	ReportKey string `json:"report_key"` // hex ed25519 public key
}

// ConsensusPubKey decodes PubKey.
func (v Validator) ConsensusPubKey() ([]byte, error) {
	pk, err := base64.StdEncoding.DecodeString(v.PubKey)
	if err != nil || len(pk) != cmted25519.PubKeySize {
		return nil, fmt.Errorf("pub_key %q is not a base64 32-byte ed25519 key", v.PubKey)
	}
	return pk, nil
}

// ReportKeyBytes decodes ReportKey.
func (v Validator) ReportKeyBytes() ([]byte, error) {
	k, err := hex.DecodeString(v.ReportKey)
	if err != nil || len(k) != cmted25519.PubKeySize {
		return nil, fmt.Errorf("report_key %q is not a hex 32-byte ed25519 key", v.ReportKey)
	}
	return k, nil
}

// ConsensusAddress returns the address CometBFT derives from the pubkey.
func ConsensusAddress(pubKey []byte) []byte {
	return cmted25519.PubKey(pubKey).Address()
}

func (v Validator) validate(i int) error {
	field := fmt.Sprintf("validators[%d]", i)
	if strings.TrimSpace(v.Name) == "" {
		return fieldErr(field+".name", fmt.Sprintf("%q", v.Name), "must not be empty")
	}
	pk, err := v.ConsensusPubKey()
	if err != nil {
		return fieldErr(field+".pub_key", v.PubKey, "must be a base64 32-byte ed25519 key")
	}
	addr, err := hex.DecodeString(v.Address)
	if err != nil || !bytes.Equal(addr, ConsensusAddress(pk)) {
		return fieldErr(field+".address", v.Address, "must be the hex address of pub_key ("+strings.ToUpper(hex.EncodeToString(ConsensusAddress(pk)))+")")
	}
	if v.Power <= 0 {
		return fieldErr(field+".power", v.Power, "must be positive")
	}
	if _, err := v.ReportKeyBytes(); err != nil {
		return fieldErr(field+".report_key", v.ReportKey, "must be a hex 32-byte ed25519 key")
	}
	return nil
}

// validateValidators checks each validator, then uniqueness and the total power.
func validateValidators(vals []Validator) error {
	if len(vals) == 0 {
		return fieldErr("validators", "[]", "at least one validator is required")
	}
	var total int64
	for i, v := range vals {
		if err := v.validate(i); err != nil {
			return err
		}
		if err := checkUnique(vals, i); err != nil {
			return err
		}
		if v.Power > MaxTotalPower-total {
			return fieldErr(fmt.Sprintf("validators[%d].power", i), v.Power, fmt.Sprintf("total power exceeds %d", MaxTotalPower))
		}
		total += v.Power
	}
	return nil
}

// checkUnique compares validator i with the ones before it.
func checkUnique(vals []Validator, i int) error {
	v := vals[i]
	field := fmt.Sprintf("validators[%d]", i)
	for j := 0; j < i; j++ {
		w := vals[j]
		switch {
		case w.Name == v.Name:
			return fieldErr(field+".name", v.Name, "duplicate name")
		case strings.EqualFold(w.Address, v.Address):
			return fieldErr(field+".address", v.Address, "duplicate address")
		case strings.EqualFold(w.ReportKey, v.ReportKey):
			return fieldErr(field+".report_key", v.ReportKey, "duplicate report key")
		}
	}
	return nil
}

// ConsensusValidator is a validator as CometBFT's genesis lists it: an
// ed25519 consensus public key and a voting power.
type ConsensusValidator struct {
	PubKey []byte
	Power  int64
}

// MatchValidators is the one rule for CometBFT's genesis validators against
// app_state.validators: the same consensus keys with the same powers, in any
// order (CometBFT orders its set by power and address itself, so the order
// of genesis.json carries no meaning). InitChain and `validatord start` both
// apply it; the error names the validator and the field that differs.
func (s AppState) MatchValidators(cons []ConsensusValidator) error {
	if len(cons) != len(s.Validators) {
		return fmt.Errorf("validators: genesis.json has %d, app_state.validators has %d", len(cons), len(s.Validators))
	}
	for i, gv := range s.Validators {
		pk, err := gv.ConsensusPubKey()
		if err != nil {
			return fmt.Errorf("app_state.validators[%d].pub_key (%q): %w", i, gv.Name, err)
		}
		j := indexOfKey(cons, pk)
		if j < 0 {
			return fmt.Errorf("app_state.validators[%d].pub_key = %s (%q): not a validator of genesis.json", i, gv.PubKey, gv.Name)
		}
		if cons[j].Power != gv.Power {
			return fmt.Errorf("app_state.validators[%d].power = %d (%q): genesis.json gives its key power %d", i, gv.Power, gv.Name, cons[j].Power)
		}
	}
	return nil
}

func indexOfKey(cons []ConsensusValidator, pk []byte) int {
	for j, c := range cons {
		if bytes.Equal(c.PubKey, pk) {
			return j
		}
	}
	return -1
}
