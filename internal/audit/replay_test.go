package audit

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"

	"github.com/scoringsubnet/validatord/internal/replay"
)

func TestMismatchReport(t *testing.T) {
	miner := binary.BigEndian.AppendUint64([]byte{0x05}, 3)
	chainID := []byte{0x02}
	mm := &replay.MismatchError{
		Height: 7, Expected: []byte{0xab}, Computed: []byte{0xcd}, ExpectedFrom: "header of block 8",
		Changes: []replay.Change{
			{Key: chainID, Old: []byte("a"), New: []byte("b")},
			{Key: miner, New: []byte{0xff, 0xff}}, // added, not a valid Miner: shown as hex
			{Key: []byte{0x7f}, Old: []byte{1}},   // deleted, unknown prefix
		},
		DiffErr: errors.New("partial"),
	}
	bz, err := json.Marshal(mismatch(mm))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"height":7,"expected_app_hash":"AB","expected_from":"header of block 8","computed_app_hash":"CD","changes":[` +
		`{"key":"chain_id","key_hex":"02","old":"a","new":"b"},` +
		`{"key":"miner/3","key_hex":"050000000000000003","new":{"hex":"ffff"}},` +
		`{"key":"0x7f","key_hex":"7f","old":{"hex":"01"}}],"diff_error":"partial"}`
	if string(bz) != want {
		t.Fatalf("got  %s\nwant %s", bz, want)
	}
}
