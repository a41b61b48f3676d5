package client

import (
	"fmt"
	"strconv"

	abcitypes "github.com/cometbft/cometbft/abci/types"

	"github.com/scoringsubnet/validatord/app/wire"
)

// TxResult is the outcome of a transaction: of CheckTx after a broadcast, or
// of its block (Height and Events set) once it was included. Its JSON is what
// `validatord tx` prints.
//
// Name is the code's short name (wire.CodeName: "ok", "nonce_used", …);
// Scores are the submission scores the transaction caused, filled by
// Client.AddScores once its block is known.
type TxResult struct {
	Code      uint32  `json:"code"`
	Name      string  `json:"name"`
	Codespace string  `json:"codespace,omitempty"`
	Log       string  `json:"log"`
	Hash      string  `json:"hash"`
	Height    int64   `json:"height,omitempty"`
	Events    []Event `json:"events,omitempty"`
	Scores    []Score `json:"scores,omitempty"`
	// Data is CheckTx's data: a nonce refusal's next nonce
	// (wire.EncodeNextNonce; TxError.NextNonce reads it).
	Data []byte `json:"-"`
}

// Event is an ABCI event with its attributes in emitted order.
type Event struct {
	Type       string      `json:"type"`
	Attributes []Attribute `json:"attributes"`
}

// Attribute is one key and value of an event.
type Attribute struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Attr returns the value of the first attribute key of the first event typ.
func (r TxResult) Attr(typ, key string) (string, bool) {
	for _, e := range r.Events {
		if e.Type != typ {
			continue
		}
		for _, a := range e.Attributes {
			if a.Key == key {
				return a.Value, true
			}
		}
	}
	return "", false
}

// AttrU64 is Attr parsed as an unsigned integer; a missing attribute is an error.
func (r TxResult) AttrU64(typ, key string) (uint64, error) {
	v, ok := r.Attr(typ, key)
	if !ok {
		return 0, fmt.Errorf("no %s.%s in the result's events", typ, key)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s.%s = %q: %w", typ, key, v, err)
	}
	return n, nil
}

// named sets res.Name from its code.
func named(res TxResult) TxResult {
	res.Name = wire.CodeName(res.Code)
	return res
}

func convertEvents(evs []abcitypes.Event) []Event {
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		te := Event{Type: e.Type, Attributes: make([]Attribute, 0, len(e.Attributes))}
		for _, a := range e.Attributes {
			te.Attributes = append(te.Attributes, Attribute{Key: a.Key, Value: a.Value})
		}
		out = append(out, te)
	}
	return out
}
