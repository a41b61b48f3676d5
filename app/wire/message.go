package wire

import (
	"encoding/json"
	"reflect"

	"github.com/cosmos/gogoproto/jsonpb"
	"github.com/cosmos/gogoproto/proto"
)

// jsonMarshaler writes a message with its proto field names, as the queries do.
var jsonMarshaler = jsonpb.Marshaler{OrigName: true}

// MessageJSON is m as the dump shows a stored message: JSON with the proto
// field names and every bytes field in lower-case hex (`validatord tx
// --generate-only` prints a message this way).
func MessageJSON(m proto.Message) (json.RawMessage, error) {
	s, err := jsonMarshaler.MarshalToString(m)
	if err != nil {
		return nil, err
	}
	return hexBytes(json.RawMessage(s), reflect.TypeOf(m))
}
