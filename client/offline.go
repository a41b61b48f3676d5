package client

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// UnsignedTx is a transaction prepared where its key is not (`validatord tx
// … --generate-only`), to be signed elsewhere (SignUnsigned, `validatord tx
// sign`). Msg is the message's protobuf bytes, what is signed; Message is a
// readable view of it that signing ignores. Sender is the public key in
// lower-case hex; empty, the signing key is the sender.
type UnsignedTx struct {
	ChainID string          `json:"chain_id"`
	Sender  string          `json:"sender"`
	Nonce   uint64          `json:"nonce"`
	Msg     string          `json:"msg"`
	Message json.RawMessage `json:"message,omitempty"`
}

// SignedTx is a signed transaction's bytes (base64, as CometBFT's RPC takes
// them) and what identifies it: what `validatord tx sign` prints and `tx
// broadcast` reads.
type SignedTx struct {
	Tx      string `json:"tx"`
	Hash    string `json:"hash"`
	ChainID string `json:"chain_id"`
	Sender  string `json:"sender"`
	Nonce   uint64 `json:"nonce"`
}

// ErrOffline is matched by the errors of the offline transaction files.
var ErrOffline = errors.New("offline transaction")

// OfflineError names the field of an offline transaction file that is wrong.
type OfflineError struct {
	Field  string
	Reason string
}

func (e *OfflineError) Error() string { return e.Field + ": " + e.Reason }

// Is makes an OfflineError match ErrOffline.
func (e *OfflineError) Is(target error) bool { return target == ErrOffline }

// NewUnsigned prepares msg for sender at nonce on chainID.
func NewUnsigned(chainID string, sender ed25519.PublicKey, nonce uint64, msg *subnetv1.Msg, view json.RawMessage) (UnsignedTx, error) {
	bz, err := msg.Marshal()
	if err != nil {
		return UnsignedTx{}, fmt.Errorf("encode message: %w", err)
	}
	return UnsignedTx{ChainID: chainID, Sender: hex.EncodeToString(sender), Nonce: nonce,
		Msg: base64.StdEncoding.EncodeToString(bz), Message: view}, nil
}

// DecodeUnsigned reads an UnsignedTx from JSON; unknown fields are refused.
func DecodeUnsigned(src []byte) (UnsignedTx, error) {
	var u UnsignedTx
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return UnsignedTx{}, &OfflineError{Field: "unsigned tx", Reason: err.Error()}
	}
	return u, nil
}

// DecodeMsg decodes u.Msg, the message that is signed.
func (u UnsignedTx) DecodeMsg() (*subnetv1.Msg, error) {
	bz, err := base64.StdEncoding.DecodeString(u.Msg)
	if err != nil {
		return nil, &OfflineError{Field: "msg", Reason: "not base64"}
	}
	msg := &subnetv1.Msg{}
	if err := msg.Unmarshal(bz); err != nil || msg.Sum == nil {
		return nil, &OfflineError{Field: "msg", Reason: "not a message"}
	}
	return msg, nil
}

// SignUnsigned signs u with key: the sender, when u names one, must be the
// key's public key (either hex case); chain id and nonce are u's.
func SignUnsigned(u UnsignedTx, key ed25519.PrivateKey) (SignedTx, error) {
	pub := key.Public().(ed25519.PublicKey)
	if u.Sender != "" && !strings.EqualFold(u.Sender, hex.EncodeToString(pub)) {
		return SignedTx{}, &OfflineError{Field: "sender", Reason: fmt.Sprintf("%s is not the signing key (%x)", strings.ToLower(u.Sender), pub)}
	}
	if u.ChainID == "" {
		return SignedTx{}, &OfflineError{Field: "chain_id", Reason: "empty (give --chain-id)"}
	}
	msg, err := u.DecodeMsg()
	if err != nil {
		return SignedTx{}, err
	}
	tx, err := wire.SignTx(u.ChainID, key, u.Nonce, msg)
	if err != nil {
		return SignedTx{}, err
	}
	return SignedTx{Tx: base64.StdEncoding.EncodeToString(tx), Hash: TxHash(tx), ChainID: u.ChainID,
		Sender: hex.EncodeToString(pub), Nonce: u.Nonce}, nil
}

// DecodeSigned reads the bytes of a signed transaction from src: a SignedTx
// as JSON, or the transaction alone in base64. The bytes are checked to be
// a transaction envelope (not its signature: that is the node's check).
func DecodeSigned(src []byte) ([]byte, error) {
	text := bytes.TrimSpace(src)
	b64 := string(text)
	if len(text) > 0 && text[0] == '{' {
		var s SignedTx
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, &OfflineError{Field: "signed tx", Reason: err.Error()}
		}
		b64 = s.Tx
	}
	tx, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(tx) == 0 {
		return nil, &OfflineError{Field: "tx", Reason: "not base64 transaction bytes"}
	}
	if _, terr := wire.DecodeTx(tx); terr != nil {
		return nil, &OfflineError{Field: "tx", Reason: terr.Error()}
	}
	return tx, nil
}
