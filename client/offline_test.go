package client_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cosmos/gogoproto/proto"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// An unsigned transaction made where the key is not, signed where it is,
// gives the bytes that wire.SignTx gives; its JSON round-trips; a signed
// file decodes as JSON or as the base64 bytes alone.
func TestOfflineSignRoundTrip(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, 32))
	pub := key.Public().(ed25519.PublicKey)
	msg := client.Approve(3)
	u, err := client.NewUnsigned("off-1", pub, 9, msg, nil)
	if err != nil {
		t.Fatal(err)
	}
	bz, _ := json.Marshal(u)
	back, err := client.DecodeUnsigned(bz)
	if err != nil || back.ChainID != "off-1" || back.Nonce != 9 || back.Sender != u.Sender || u.Sender != strings.ToLower(u.Sender) {
		t.Fatalf("decoded %+v, %v", back, err)
	}
	if got, err := back.DecodeMsg(); err != nil || !proto.Equal(got, msg) {
		t.Fatalf("message %v, %v", got, err)
	}
	back.Sender = strings.ToUpper(back.Sender) // either case
	signed, err := client.SignUnsigned(back, key)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := wire.SignTx("off-1", key, 9, msg)
	raw, _ := base64.StdEncoding.DecodeString(signed.Tx)
	if !bytes.Equal(raw, want) || signed.Hash != client.TxHash(want) {
		t.Fatalf("signed %+v, want the bytes of wire.SignTx", signed)
	}
	sbz, _ := json.Marshal(signed)
	for _, src := range [][]byte{sbz, []byte(signed.Tx + "\n")} {
		if tx, err := client.DecodeSigned(src); err != nil || !bytes.Equal(tx, want) {
			t.Fatalf("DecodeSigned(%q): %v", src, err)
		}
	}
}

// Each bad field is an *OfflineError naming it (errors.Is ErrOffline).
func TestOfflineErrors(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, 32))
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{6}, 32))
	u, _ := client.NewUnsigned("off-1", other.Public().(ed25519.PublicKey), 0, client.Approve(1), nil)
	noChain := u
	noChain.ChainID, noChain.Sender = "", ""
	badMsg := u
	badMsg.Sender, badMsg.Msg = "", "%%"
	cases := []struct {
		name  string
		err   error
		field string
	}{
		{"another sender", func() error { _, err := client.SignUnsigned(u, key); return err }(), "sender"},
		{"no chain id", func() error { _, err := client.SignUnsigned(noChain, key); return err }(), "chain_id"},
		{"bad msg", func() error { _, err := client.SignUnsigned(badMsg, key); return err }(), "msg"},
		{"unknown field", func() error { _, err := client.DecodeUnsigned([]byte(`{"chain":"x"}`)); return err }(), "unsigned tx"},
		{"not base64", func() error { _, err := client.DecodeSigned([]byte("not base64!")); return err }(), "tx"},
		{"not a tx", func() error {
			_, err := client.DecodeSigned([]byte(base64.StdEncoding.EncodeToString([]byte{0xff, 1})))
			return err
		}(), "tx"},
	}
	for _, c := range cases {
		var oe *client.OfflineError
		if !errors.As(c.err, &oe) || oe.Field != c.field || !errors.Is(c.err, client.ErrOffline) {
			t.Errorf("%s: %v, want an *OfflineError on %s", c.name, c.err, c.field)
		}
	}
}

// ScoresOf keeps the submission_scored events, of the submissions named
// when a set is given.
func TestScoresOf(t *testing.T) {
	ev := testEvent
	evs := []client.Event{
		ev(wire.EventSubmissionScored, "submission_id", "4", "uid", "2", "track", "arena", "score", "84.5"),
		ev(wire.EventWindowUpdated, "uid", "2", "track", "arena"),
		ev(wire.EventSubmissionScored, "submission_id", "7", "uid", "1", "track", "workflow", "score", "0.9"),
	}
	all := client.ScoresOf(evs, nil)
	if len(all) != 2 || all[0] != (client.Score{SubmissionID: 4, UID: 2, Track: "arena", Score: "84.5"}) || all[1].SubmissionID != 7 {
		t.Fatalf("ScoresOf(all) = %+v", all)
	}
	if some := client.ScoresOf(evs, map[string]bool{"7": true}); len(some) != 1 || some[0].Track != "workflow" {
		t.Fatalf("ScoresOf(7) = %+v", some)
	}
}
