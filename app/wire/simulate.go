package wire

// SimulateView answers "simulate" (the query's data: a signed transaction):
// the code, its name and the log CheckTx would give the transaction now,
// and the events it would cause, at Height (the next block's), with
// nothing kept; Data as CheckTx's.
type SimulateView struct {
	Code   uint32           `json:"code"`
	Name   string           `json:"name"`
	Log    string           `json:"log,omitempty"`
	Height int64            `json:"height"`
	Events []SimulatedEvent `json:"events,omitempty"`
	// Data is CheckTx's data: a nonce refusal's next nonce (EncodeNextNonce).
	Data []byte `json:"data,omitempty"`
}

// SimulatedEvent is one event of a simulated transaction, its attributes in
// the order the app emits them.
type SimulatedEvent struct {
	Type       string               `json:"type"`
	Attributes []SimulatedAttribute `json:"attributes"`
}

// SimulatedAttribute is one key and value of a SimulatedEvent.
type SimulatedAttribute struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}
