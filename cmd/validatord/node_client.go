package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/scoringsubnet/validatord/client"
)

// dialNode is client.Dial for the --node flag: an address it cannot use is
// an error naming the flag.
func dialNode(addr string) (*client.Client, error) {
	c, err := client.Dial(addr)
	var ae *client.AddrError
	if errors.As(err, &ae) {
		return nil, fmt.Errorf("--node: %w", err)
	}
	return c, oneLine(err)
}

// prettyJSON re-indents a JSON answer; a non-JSON answer is an error.
func prettyJSON(bz []byte) ([]byte, error) {
	var v json.RawMessage
	if err := json.Unmarshal(bz, &v); err != nil {
		return nil, fmt.Errorf("answer is not JSON (%d bytes, %s...)", len(bz), hex.EncodeToString(bz[:min(len(bz), 16)]))
	}
	return json.MarshalIndent(v, "", "  ")
}
