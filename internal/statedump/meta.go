package statedump

import (
	"encoding/hex"
	"strings"

	"github.com/cosmos/gogoproto/proto"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// Meta returns the committed height and app hash (upper-case hex) stored under the meta key;
// ok is false when there is no meta entry or it does not decode.
func Meta(kvs []KV) (height int64, appHash string, ok bool) {
	for _, kv := range kvs {
		if len(kv.Key) != 1 || kv.Key[0] != 0x00 {
			continue
		}
		var m subnetv1.Meta
		if err := proto.Unmarshal(kv.Value, &m); err != nil {
			return 0, "", false
		}
		return m.Height, strings.ToUpper(hex.EncodeToString(m.AppHash)), true
	}
	return 0, "", false
}
