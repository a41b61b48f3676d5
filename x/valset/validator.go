package valset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sizes and bounds of a validator's fields.
const (
	// KeySize is the size of an ed25519 public key, consensus or report.
	KeySize = 32
	// AddressSize is the size of a CometBFT consensus address.
	AddressSize = 20
	// MaxNameBytes bounds a validator's name (it appears in events and queries).
	MaxNameBytes = 64
)

// Validator is one member of a Set: its name, its CometBFT consensus key
// (ed25519) and power, and the report key (ed25519) that signs its
// PostTask, Report, Truth and proposal transactions.
type Validator struct {
	Name      string
	PubKey    []byte
	Power     int64
	ReportKey []byte
}

// Address is the CometBFT consensus address of an ed25519 public key: the
// first 20 bytes of its SHA-256 (what Misbehavior and VoteInfo carry).
func Address(pubKey []byte) []byte {
	h := sha256.Sum256(pubKey)
	return h[:AddressSize]
}

// clone copies v's byte slices, so that a Set never shares memory with its
// caller.
func (v Validator) clone() Validator {
	v.PubKey = bytes.Clone(v.PubKey)
	v.ReportKey = bytes.Clone(v.ReportKey)
	return v
}

// check checks each field on its own; field prefixes the names in errors.
func (v Validator) check(field string) error {
	if err := checkName(field+".name", v.Name); err != nil {
		return err
	}
	if err := checkKey(field+".pub_key", v.PubKey); err != nil {
		return err
	}
	if err := checkPower(field+".power", v.Power); err != nil {
		return err
	}
	return checkKey(field+".report_key", v.ReportKey)
}

// checkName: not blank (genesis' rule), at most MaxNameBytes, valid UTF-8.
func checkName(field, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return inputErr(ErrInvalidInput, field, fmt.Sprintf("%q", name), "must not be empty")
	case len(name) > MaxNameBytes:
		return inputErr(ErrInvalidInput, field, fmt.Sprintf("%q", name), fmt.Sprintf("longer than %d bytes", MaxNameBytes))
	case !utf8.ValidString(name):
		return inputErr(ErrInvalidInput, field, fmt.Sprintf("%q", name), "not valid UTF-8")
	}
	return nil
}

func checkKey(field string, k []byte) error {
	if len(k) != KeySize {
		return inputErr(ErrInvalidInput, field, hexOf(k), fmt.Sprintf("must be a %d-byte ed25519 key", KeySize))
	}
	return nil
}

func checkPower(field string, p int64) error {
	if p < 1 || p > MaxTotalVotingPower {
		return inputErr(ErrInvalidInput, field, p, fmt.Sprintf("must be in [1, %d] (remove a validator to zero it)", MaxTotalVotingPower))
	}
	return nil
}

// hexOf prints a key in errors; "" for an empty one.
func hexOf(b []byte) string {
	if len(b) == 0 {
		return `""`
	}
	return hex.EncodeToString(b)
}

// Ref names a validator of the set by exactly one of its name or its
// consensus key.
type Ref struct {
	Name   string
	PubKey []byte
}

// ByName refers to the validator named name.
func ByName(name string) Ref { return Ref{Name: name} }

// ByKey refers to the validator whose consensus key is pubKey.
func ByKey(pubKey []byte) Ref { return Ref{PubKey: bytes.Clone(pubKey)} }

func (r Ref) String() string {
	if r.PubKey != nil {
		return "key " + hexOf(r.PubKey)
	}
	return fmt.Sprintf("name %q", r.Name)
}

func (r Ref) check(field string) error {
	switch {
	case r.Name != "" && r.PubKey != nil:
		return inputErr(ErrInvalidInput, field, r, "give the name or the consensus key, not both")
	case r.PubKey != nil:
		return checkKey(field+".pub_key", r.PubKey)
	case r.Name == "":
		return inputErr(ErrInvalidInput, field, r, "give the name or the consensus key")
	}
	return nil
}
