package app

// Result codes of CheckTx and FinalizeBlock. They are part of the chain's
// interface: never renumber or reuse one; add new codes at the end.
// docs/codes.md lists them with their meaning.
const (
	CodeOK                  uint32 = 0
	CodeMalformedTx         uint32 = 1  // the bytes are not a Tx or its body not a TxBody
	CodeTxTooLarge          uint32 = 2  // larger than chain.max_tx_bytes
	CodeNonCanonical        uint32 = 3  // decodes, but re-encodes to different bytes
	CodeBadSender           uint32 = 4  // sender is not a 32-byte ed25519 key
	CodeBadSignature        uint32 = 5  // signature missing, wrong length or not valid
	CodeWrongChainID        uint32 = 6  // body.chain_id differs from the chain's id
	CodeNonceUsed           uint32 = 7  // nonce below the account's next nonce (replay)
	CodeNonceFuture         uint32 = 8  // nonce above the account's next nonce (gap)
	CodeEmptyMsg            uint32 = 9  // no message, or a message without its content
	CodeNotValidator        uint32 = 10 // PostTask/Report/Truth not signed by a validator's report key
	CodeNotMiner            uint32 = 11 // Submit from a key that is not a registered miner
	CodeAlreadyMiner        uint32 = 12 // RegisterMiner from a key that already has a uid
	CodeUIDsFull            uint32 = 13 // every uid of chain.max_uids is taken
	CodeNotNumber           uint32 = 14 // a decimal field is not a decimal number
	CodeTooManyPlaces       uint32 = 15 // a decimal field has more than 18 places
	CodeDecimalRange        uint32 = 16 // a decimal field is outside its range
	CodeNegativeCount       uint32 = 17 // a count is negative
	CodeCountRange          uint32 = 18 // a count is zero where it must be positive, or too large
	CodeStepsExceedTotal    uint32 = 19 // steps_completed > the task's total_steps
	CodeCriteriaExceedTotal uint32 = 20 // criteria_passed > the task's criteria_total
	CodeBlocksRange         uint32 = 21 // submission_blocks/report_blocks outside [1, max]
	CodeUnknownCategory     uint32 = 22 // arena category or difficulty not in the arena params
	CodeBadArtifactHash     uint32 = 23 // artifact_hash is not 32 bytes
	CodeTrackDisabled       uint32 = 24 // the message's track does not run on this chain
	CodeUnknownTask         uint32 = 25 // no task with that id
	CodeWrongKind           uint32 = 26 // submission/report kind differs from the task/submission kind
	CodeSubmissionDeadline  uint32 = 27 // the task's submission deadline has passed
	CodeDuplicateSubmission uint32 = 28 // the miner already submitted for this task / EVM block
	CodeUnknownSubmission   uint32 = 29 // no submission with that id
	CodeSubmissionFinal     uint32 = 30 // the submission is no longer pending (scored or expired)
	CodeDuplicateReport     uint32 = 31 // this validator already reported on this submission
	CodeUnknownEVMChain     uint32 = 32 // the EVM chain id is not in chain.gas_chains
	CodeEVMBlockClosed      uint32 = 33 // the EVM block's window is closed (or its truth expired)
	CodePredictionTooFar    uint32 = 34 // the EVM block is beyond last closed + max_prediction_ahead
	CodeDuplicateTruth      uint32 = 35 // this validator already reported this EVM block's truth
	CodeTruthTimeBackwards  uint32 = 36 // the timestamp is before the last closed block's timestamp
	CodeBadBaseline         uint32 = 37 // an arena task's default baseline is inconsistent
	CodeReportDeadline      uint32 = 38 // the submission's report deadline has passed
	CodeInternal            uint32 = 39 // execution failed on a broken invariant (never expected)
)

// codeNames are the short names used in logs and docs/codes.md.
var codeNames = []string{
	"ok", "malformed_tx", "tx_too_large", "non_canonical", "bad_sender", "bad_signature",
	"wrong_chain_id", "nonce_used", "nonce_future", "empty_msg", "not_validator", "not_miner",
	"already_miner", "uids_full", "not_number", "too_many_places", "decimal_range",
	"negative_count", "count_range", "steps_exceed_total", "criteria_exceed_total",
	"blocks_range", "unknown_category", "bad_artifact_hash", "track_disabled", "unknown_task",
	"wrong_kind", "submission_deadline", "duplicate_submission", "unknown_submission",
	"submission_final", "duplicate_report", "unknown_evm_chain", "evm_block_closed",
	"prediction_too_far", "duplicate_truth", "truth_time_backwards", "bad_baseline",
	"report_deadline", "internal", "block_full", "evm_chain_unanchored", "validator_key",
}

// CodeName returns the short name of a code ("unknown" for codes not defined).
func CodeName(code uint32) string {
	if int(code) < len(codeNames) {
		return codeNames[code]
	}
	return "unknown"
}

// TxError is a rejection: a stable code and a message naming what was wrong.
type TxError struct {
	Code uint32
	Msg  string
}

func (e *TxError) Error() string { return CodeName(e.Code) + ": " + e.Msg }

func reject(code uint32, msg string) *TxError { return &TxError{Code: code, Msg: msg} }

// CodeBlockFull: the transaction's writes would take the block past the
// write budget that keeps a block inside one badger transaction
// (docs/codes.md, "block bound"). Added after CodeInternal; same rules apply.
const CodeBlockFull uint32 = 40

// CodeEVMChainUnanchored: a prediction on an EVM chain that has no closed
// block yet. Validators anchor a chain by posting a truth; until then no
// max_prediction_ahead window exists, and unbounded predictions could make
// the first close exceed a block's writes (docs/codes.md, "block bound").
const CodeEVMChainUnanchored uint32 = 41

// CodeValidatorKey: RegisterMiner from a validator's report key, which
// would let a validator report on its own submissions.
const CodeValidatorKey uint32 = 42
