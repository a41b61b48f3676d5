package wire

import "encoding/binary"

// A CheckTx refusal for CodeNonceUsed or CodeNonceFuture carries the
// sender's next nonce in ResponseCheckTx.Data (broadcast_tx_sync's data),
// so that a client sends again from it without reading the log text:
// 8 bytes, the nonce big-endian. CheckTx counts the sender's transactions
// already in the node's mempool, so it is the next nonce the mempool takes.
// Only CheckTx sets it: FinalizeBlock's results, which the chain hashes,
// never carry it (docs/codes.md).

// nextNonceSize is the length of an encoded next nonce.
const nextNonceSize = 8

// EncodeNextNonce is the Data of a nonce refusal whose sender's next nonce is n.
func EncodeNextNonce(n uint64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, nextNonceSize), n)
}

// DecodeNextNonce reads the next nonce from a nonce refusal's Data; false
// when data is not an encoded next nonce (a refusal of another code, or of a
// node that does not set it).
func DecodeNextNonce(data []byte) (uint64, bool) {
	if len(data) != nextNonceSize {
		return 0, false
	}
	return binary.BigEndian.Uint64(data), true
}

// IsNonceCode reports whether code is a nonce refusal (CodeNonceUsed or
// CodeNonceFuture), the codes whose CheckTx refusal carries the next nonce.
func IsNonceCode(code uint32) bool { return code == CodeNonceUsed || code == CodeNonceFuture }
