package commit

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The vector: chain "subnet-test", sender 00 01 … 1f, uid 7, the payload
// MsgSubmit{gas: GasPredict{evm_chain_id: 1, evm_block: 100, price: "1"}},
// salt 32 × aa. The preimage is written out byte by byte (tag with its NUL;
// len 11; chain id; len 32; key; uid 7; len 9; payload; salt) and the digest
// was computed apart, with Python's hashlib over the same bytes.
const (
	vectorPayload  = "1a07" + "0801" + "1064" + "1a0131"            // MsgSubmit.gas (field 3) { 1: 1, 2: 100, 3: "1" }
	vectorPreimage = "76616c696461746f72642f636f6d6d69742f763100" + // "validatord/commit/v1\x00"
		"000000000000000b" + "7375626e65742d74657374" + // len 11, "subnet-test"
		"0000000000000020" + "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" +
		"00000007" + // uid 7
		"0000000000000009" + vectorPayload +
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	vectorDigest = "8077e6759f3c963af39d8ac3b37896a154f06e2d035ed0238a81cc93d16c1144"
)

func vectorInputs(t *testing.T) (sender, payload []byte, salt [SaltSize]byte) {
	t.Helper()
	sender = make([]byte, 32)
	for i := range sender {
		sender[i] = byte(i)
	}
	payload, _ = hex.DecodeString(vectorPayload)
	for i := range salt {
		salt[i] = 0xaa
	}
	return sender, payload, salt
}

func TestCommitmentVector(t *testing.T) {
	sender, payload, salt := vectorInputs(t)
	pre, _ := hex.DecodeString(vectorPreimage)
	if sum := sha256.Sum256(pre); hex.EncodeToString(sum[:]) != vectorDigest {
		t.Fatalf("preimage hashes to %x, want %s", sum, vectorDigest)
	}
	got := Commitment("subnet-test", sender, 7, payload, salt)
	if hex.EncodeToString(got[:]) != vectorDigest {
		t.Fatalf("Commitment = %x, want %s", got, vectorDigest)
	}
}

// TestPayloadIsGogoprotoEncoding pins that the payload bytes above are what
// gogoproto writes for that MsgSubmit: the canonical bytes a client hashes.
func TestPayloadIsGogoprotoEncoding(t *testing.T) {
	msg := &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{Gas: &subnetv1.GasPredict{EvmChainId: 1, EvmBlock: 100, Price: "1"}}}
	b, err := msg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(b) != vectorPayload {
		t.Fatalf("gogoproto encodes %x, want %s", b, vectorPayload)
	}
}

// TestCommitmentBindsEveryField changes one input at a time, including moves
// of bytes across a field boundary that the length prefixes must tell apart.
func TestCommitmentBindsEveryField(t *testing.T) {
	sender, payload, salt := vectorInputs(t)
	base := Commitment("subnet-test", sender, 7, payload, salt)
	salt2 := salt
	salt2[31] ^= 1
	cases := []struct {
		name string
		got  [Size]byte
	}{
		{"chain id", Commitment("subnet-tesT", sender, 7, payload, salt)},
		{"sender", Commitment("subnet-test", append([]byte{1}, sender[1:]...), 7, payload, salt)},
		{"uid", Commitment("subnet-test", sender, 8, payload, salt)},
		{"payload", Commitment("subnet-test", sender, 7, append(payload[:len(payload):len(payload)], 0), salt)},
		{"salt", Commitment("subnet-test", sender, 7, payload, salt2)},
		{"chain id byte moved into sender", Commitment("subnet-tes", append([]byte("t"), sender...), 7, payload, salt)},
		{"sender byte moved into chain id", Commitment("subnet-test\x00", sender[1:], 7, payload, salt)},
		{"empty payload", Commitment("subnet-test", sender, 7, nil, salt)},
	}
	for _, c := range cases {
		if c.got == base {
			t.Errorf("%s: same commitment as the base", c.name)
		}
	}
}

func TestVerify(t *testing.T) {
	sender, payload, salt := vectorInputs(t)
	c := Commitment("subnet-test", sender, 7, payload, salt)
	other := append([]byte(nil), sender...)
	other[0] = 0xff
	cases := []struct {
		name       string
		commitment []byte
		sender     []byte
		uid        uint32
		payload    []byte
		salt       []byte
		want       error
	}{
		{"match", c[:], sender, 7, payload, salt[:], nil},
		{"other sender", c[:], other, 7, payload, salt[:], ErrMismatch},
		{"other uid", c[:], sender, 6, payload, salt[:], ErrMismatch},
		{"other payload", c[:], sender, 7, payload[1:], salt[:], ErrMismatch},
		{"other salt", c[:], sender, 7, payload, make([]byte, 32), ErrMismatch},
		{"short commitment", c[:31], sender, 7, payload, salt[:], ErrInvalidInput},
		{"long commitment", append(c[:], 0), sender, 7, payload, salt[:], ErrInvalidInput},
		{"no commitment", nil, sender, 7, payload, salt[:], ErrInvalidInput},
		{"short salt", c[:], sender, 7, payload, salt[:31], ErrInvalidInput},
		{"long salt", c[:], sender, 7, payload, append(salt[:], 0), ErrInvalidInput},
	}
	for _, tc := range cases {
		err := Verify(tc.commitment, "subnet-test", tc.sender, tc.uid, tc.payload, tc.salt)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: Verify = %v, want %v", tc.name, err, tc.want)
		}
	}
	var ie *InputError
	if err := Verify(c[:31], "subnet-test", sender, 7, payload, salt[:]); !errors.As(err, &ie) || ie.Field != "commitment" || ie.Value != 31 {
		t.Errorf("short commitment: %v, want an *InputError naming commitment = 31", err)
	}
	if err := Verify(c[:], "subnet-test", sender, 7, payload, salt[:2]); !errors.As(err, &ie) || ie.Field != "salt" || ie.Value != 2 {
		t.Errorf("short salt: %v, want an *InputError naming salt = 2", err)
	}
}
