package metrics

import (
	"reflect"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
)

// Message types for transactions that name none.
const (
	MsgUndecodable = "undecodable" // wire.DecodeTx refused the bytes
	MsgEmpty       = "empty"       // the body carries no message
)

// MsgType names a transaction's message as the proto does (the Msg oneof
// field: register_miner, commit, reveal, report, truth, …), so the label
// set is the proto's and never grows with input.
func MsgType(raw []byte) string {
	d, terr := wire.DecodeTx(raw)
	if terr != nil {
		return MsgUndecodable
	}
	if d.Body.Msg == nil || d.Body.Msg.Sum == nil {
		return MsgEmpty
	}
	return sumName(d.Body.Msg.Sum)
}

// sumName names a Msg oneof wrapper by its field's json name.
func sumName(sum any) string {
	t := reflect.TypeOf(sum)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return MsgEmpty
	}
	name, _, _ := strings.Cut(t.Field(0).Tag.Get("json"), ",")
	if name == "" {
		return strings.ToLower(t.Field(0).Name)
	}
	return name
}
