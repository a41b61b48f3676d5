package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineProposeParams is `tx propose params`: a JSON merge patch over the
// params in force, from --activation-height on. Only the shape is checked
// here (a JSON object); the chain checks the params it would make.
func defineProposeParams(fs *flag.FlagSet) proposal {
	patch := fs.String("patch", "", `JSON merge patch (RFC 7396) over the params: inline JSON, e.g. '{"window":{"cap":"0.2"}}', or a file holding it`)
	activation := fs.Int64("activation-height", 0, "height the new params hold from (at least min_upgrade_delay_blocks after the expiry)")
	exp := defineExpiry(fs)
	return proposal{exp: exp, prepare: func() (func(int64) *subnetv1.Msg, error) {
		if err := requireSet(fs, "patch", "activation-height"); err != nil {
			return nil, err
		}
		if *activation <= 0 {
			return nil, fmt.Errorf("--activation-height: %d, want a positive height", *activation)
		}
		bz, err := readPatch(*patch)
		if err != nil {
			return nil, err
		}
		return func(expires int64) *subnetv1.Msg { return client.ProposeParams(bz, *activation, expires) }, nil
	}}
}

// readPatch is the patch given inline (valid JSON, or anything starting
// with "{") or in a file, compacted; it must be one JSON object.
func readPatch(v string) ([]byte, error) {
	src := []byte(strings.TrimSpace(v))
	from := "inline"
	if !json.Valid(src) && !bytes.HasPrefix(src, []byte("{")) {
		bz, err := os.ReadFile(v)
		if err != nil {
			return nil, fmt.Errorf("--patch: %q is neither JSON nor a readable file: %v", v, err)
		}
		src, from = bytes.TrimSpace(bz), v
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(src, &obj); err != nil || obj == nil {
		reason := "not JSON"
		if json.Valid(src) {
			reason = "a JSON " + jsonKind(src)
		} else if err != nil {
			reason = "invalid JSON: " + err.Error()
		}
		return nil, fmt.Errorf(`--patch (%s): want a JSON object (a merge patch, e.g. {"window":{"cap":"0.2"}}), got %s`, from, reason)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, src); err != nil {
		return nil, fmt.Errorf("--patch (%s): %v", from, err)
	}
	return out.Bytes(), nil
}

// jsonKind names the kind of the valid JSON value src.
func jsonKind(src []byte) string {
	switch src[0] {
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}
