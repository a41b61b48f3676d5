package wire

import (
	"bytes"
	"crypto/ed25519"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// SignDomain prefixes the body bytes in every signature, so that a signature
// made for this chain's transactions is never valid for anything else. Its
// version is the chain format's: v3 is the format in which a miner's payload
// travels only as a commit (MsgCommit) and a later reveal (MsgReveal); v2
// had validators, not miners, report the workflow retry budget. An older
// client's transactions, whose messages mean something else here, fail the
// signature (code 5) instead of being half understood.
const SignDomain = "validatord/tx/" + TxVersion + "\x00"

// TxVersion is the chain format's version in SignDomain.
const TxVersion = "v3"

// BadSignatureLog is the log of code 5: it names the domain, because a
// client built for an older chain format signs with an older one.
const BadSignatureLog = `signature does not verify for the sender over "validatord/tx/` + TxVersion +
	`\0" ‖ body (a client built for an older chain format, such as validatord/tx/v2, signs with its domain: upgrade the client)`

// SignBytes returns the bytes a sender signs for the given body bytes.
func SignBytes(body []byte) []byte {
	out := make([]byte, 0, len(SignDomain)+len(body))
	out = append(out, SignDomain...)
	return append(out, body...)
}

// SignTx builds the signed envelope of msg from the key's account at nonce
// (the first transaction of an account has nonce 0) for chainID.
func SignTx(chainID string, key ed25519.PrivateKey, nonce uint64, msg *subnetv1.Msg) ([]byte, error) {
	if len(key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("sign tx: private key has %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	if msg == nil || msg.Sum == nil {
		return nil, fmt.Errorf("sign tx: empty message")
	}
	pub, _ := key.Public().(ed25519.PublicKey)
	body := &subnetv1.TxBody{ChainId: chainID, Sender: pub, Nonce: nonce, Msg: msg}
	bodyBz, err := body.Marshal()
	if err != nil {
		return nil, fmt.Errorf("sign tx: encode body: %w", err)
	}
	tx := &subnetv1.Tx{Body: bodyBz, Signature: ed25519.Sign(key, SignBytes(bodyBz))}
	return tx.Marshal()
}

// DecodedTx is a transaction whose envelope decoded canonically. The
// signature is not yet checked: that is the validity function's job.
type DecodedTx struct {
	Tx   subnetv1.Tx
	Body subnetv1.TxBody
}

// DecodeTx decodes the envelope and its body and checks that both are in
// canonical encoding (re-encoding gives back the same bytes), so that one
// signed body has exactly one transaction encoding.
func DecodeTx(raw []byte) (*DecodedTx, *TxError) {
	d := &DecodedTx{}
	if err := d.Tx.Unmarshal(raw); err != nil {
		return nil, Reject(CodeMalformedTx, "tx: "+err.Error())
	}
	if err := d.Body.Unmarshal(d.Tx.Body); err != nil {
		return nil, Reject(CodeMalformedTx, "tx body: "+err.Error())
	}
	if err := canonical(&d.Tx, raw, "tx"); err != nil {
		return nil, err
	}
	if err := canonical(&d.Body, d.Tx.Body, "tx body"); err != nil {
		return nil, err
	}
	return d, nil
}

type marshaler interface{ Marshal() ([]byte, error) }

func canonical(m marshaler, raw []byte, what string) *TxError {
	again, err := m.Marshal()
	if err != nil || !bytes.Equal(again, raw) {
		return Reject(CodeNonCanonical, what+": not in canonical protobuf encoding (an unknown field, such as an older client's "+
			"plaintext submit, Msg field 3: commit and reveal instead, or its workflow declared_retry_budget; or a non-minimal encoding; upgrade the client)")
	}
	return nil
}
