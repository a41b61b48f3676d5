package statedump

import (
	"bytes"
	"testing"

	"github.com/cosmos/gogoproto/proto"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Bytes fields are exported as lower-case hex, as the queries show them, never base64; the
// other fields and the key order are jsonpb's.
func TestDecodeValueBytesAsHex(t *testing.T) {
	hash := bytes.Repeat([]byte{0xab}, 32)
	for _, tc := range []struct {
		name string
		key  []byte
		msg  proto.Message
		want string
	}{
		{"meta app hash and lanes", []byte{0x00},
			&subnetv1.Meta{Height: 5, AppHash: []byte{0x01, 0xfe}, Lanes: []byte{0x00, 0x10}},
			`{"height":"5","app_hash":"01fe","lanes":"0010"}`},
		{"miner pubkey", u64s(0x05, 3), &subnetv1.Miner{Uid: 3, Pubkey: []byte{0xde, 0xad}},
			`{"uid":3,"pubkey":"dead"}`},
		{"task poster", u64s(0x06, 1), &subnetv1.Task{Id: 1, Poster: []byte{0xbe, 0xef}},
			`{"id":"1","poster":"beef"}`},
		{"submission artifact hash", u64s(0x09, 7), &subnetv1.Submission{Id: 7, ArtifactHash: hash},
			`{"id":"7","artifact_hash":"` + "abababababababababababababababababababababababababababababababab" + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := DecodeValue(tc.key, mustMarshal(t, tc.msg))
			if string(v.JSON) != tc.want {
				t.Fatalf("json %s, want %s", v.JSON, tc.want)
			}
		})
	}
}
