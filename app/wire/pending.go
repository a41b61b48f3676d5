package wire

// PendingAccountView answers "account/<pubkey hex>/pending": a key's nonces
// as the node's CheckTx sees them. NextNonce is the committed one (as in
// AccountView), PendingNonce the one to sign with next once the key's
// transactions that this node's mempool took since (Pending of them) are
// counted, Height the committed height they build on. A client that sends
// several transactions without waiting for their blocks signs at
// PendingNonce.
type PendingAccountView struct {
	Height       int64  `json:"height"`
	NextNonce    uint64 `json:"next_nonce"`
	Pending      uint64 `json:"pending"`
	PendingNonce uint64 `json:"pending_nonce"`
	Pubkey       string `json:"pubkey"`
}
