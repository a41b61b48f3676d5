package statedump

import (
	"encoding/json"
	"reflect"

	"github.com/cosmos/gogoproto/proto"
)

// MessageJSON is m as the app's queries show a message: jsonpb with the
// proto field names, bytes as lower-case hex.
func MessageJSON(m proto.Message) (json.RawMessage, error) {
	s, err := marshaler.MarshalToString(m)
	if err != nil {
		return nil, err
	}
	return hexBytes(json.RawMessage(s), reflect.TypeOf(m))
}
