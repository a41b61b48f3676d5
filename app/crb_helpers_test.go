package app

import (
	"crypto/ed25519"
	"testing"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Helpers of the commit-reveal migration of the bound, catalogue, gas and
// fuzz tests (prefix crb: they live beside the harness, which stays as is).

// crbCommitMsg is the MsgCommit of payload p for miner s (its key, its uid,
// its deterministic salt): the message signer.commit signs.
func crbCommitMsg(t testing.TB, s *signer, p *subnetv1.MsgSubmit) *subnetv1.Msg {
	t.Helper()
	if !s.hasUID {
		t.Fatalf("signer %x commits without a uid: build it with newMiner", s.pub())
	}
	msg, err := client.Commit(testChainID, s.pub(), s.uid, p, s.salt(p))
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// crbRevealMsg is the MsgReveal that opens crbCommitMsg(s, p).
func crbRevealMsg(s *signer, p *subnetv1.MsgSubmit) *subnetv1.Msg {
	return client.Reveal(p, s.salt(p))
}

// crbCommitNext is s's commit of p signed with its next nonce, which it
// does not consume (for a transaction run alone and thrown away).
func crbCommitNext(t testing.TB, s *signer, p *subnetv1.MsgSubmit) []byte {
	t.Helper()
	return s.next(crbCommitMsg(t, s, p))
}

// crbRevealNext is s's reveal of p signed with its next nonce, not consumed.
func crbRevealNext(s *signer, p *subnetv1.MsgSubmit) []byte {
	return s.next(crbRevealMsg(s, p))
}

// crbCommitRaw is a MsgCommit to a task with the commitment bytes as given.
func crbCommitRaw(task uint64, commitment []byte) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Commit{Commit: &subnetv1.MsgCommit{
		Target: &subnetv1.MsgCommit_TaskId{TaskId: task}, Commitment: commitment}}}
}

// crbRevealRaw is a MsgReveal with the salt bytes as given.
func crbRevealRaw(p *subnetv1.MsgSubmit, salt []byte) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Reveal{Reveal: &subnetv1.MsgReveal{Submit: p, Salt: salt}}}
}

// crbSignBody signs raw body bytes with key under the given sign domain
// (wire.SignDomain for a valid signature).
func crbSignBody(t testing.TB, key ed25519.PrivateKey, domain string, body []byte) []byte {
	t.Helper()
	sig := ed25519.Sign(key, append([]byte(domain), body...))
	out, err := (&subnetv1.Tx{Body: body, Signature: sig}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// crbBody is the canonical body bytes of msg from s at nonce.
func crbBody(t testing.TB, s *signer, nonce uint64, msg *subnetv1.Msg) []byte {
	t.Helper()
	bz, err := (&subnetv1.TxBody{ChainId: testChainID, Sender: s.pub(), Nonce: nonce, Msg: msg}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return bz
}

// crbField3Tx is msg from s at its next nonce, whose Msg bytes carry, by
// hand, the reserved field 3 (a plaintext MsgSubmit, as a pre-v3 client
// sent it) after msg's own fields; msg may be empty (the old Submit alone).
// The body is signed under the v3 domain, so the field is its only fault.
func crbField3Tx(t testing.TB, s *signer, msg *subnetv1.Msg, submit *subnetv1.MsgSubmit) []byte {
	t.Helper()
	m, err := msg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	sub, err := submit.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	m = crbAppendBytesField(m, 3, sub)
	var body []byte
	body = crbAppendBytesField(body, 1, []byte(testChainID))
	body = crbAppendBytesField(body, 2, s.pub())
	if s.nonce > 0 {
		body = crbAppendVarint(append(body, 3<<3|0), s.nonce)
	}
	body = crbAppendBytesField(body, 4, m)
	return crbSignBody(t, s.key, wire.SignDomain, body)
}

func crbAppendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func crbAppendBytesField(b []byte, field int, v []byte) []byte {
	b = crbAppendVarint(b, uint64(field)<<3|2)
	b = crbAppendVarint(b, uint64(len(v)))
	return append(b, v...)
}

// crbEvents is every event of a block: its transactions' and its end's.
func crbEvents(resp *abcitypes.ResponseFinalizeBlock) []abcitypes.Event {
	var evs []abcitypes.Event
	for _, r := range resp.TxResults {
		evs = append(evs, r.Events...)
	}
	return append(evs, resp.Events...)
}
