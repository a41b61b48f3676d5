package wire

import "fmt"

// Result codes of CheckTx and FinalizeBlock. They are part of the chain's
// interface: never renumber or reuse one; add new codes at the end of the
// table. docs/codes.md lists them (TestCodesMatchDoc compares the two).
const (
	CodeOK                      uint32 = 0
	CodeMalformedTx             uint32 = 1
	CodeTxTooLarge              uint32 = 2
	CodeNonCanonical            uint32 = 3
	CodeBadSender               uint32 = 4
	CodeBadSignature            uint32 = 5
	CodeWrongChainID            uint32 = 6
	CodeNonceUsed               uint32 = 7
	CodeNonceFuture             uint32 = 8
	CodeEmptyMsg                uint32 = 9
	CodeNotValidator            uint32 = 10
	CodeNotMiner                uint32 = 11
	CodeAlreadyMiner            uint32 = 12
	CodeUIDsFull                uint32 = 13
	CodeNotNumber               uint32 = 14
	CodeTooManyPlaces           uint32 = 15
	CodeDecimalRange            uint32 = 16
	CodeNegativeCount           uint32 = 17
	CodeCountRange              uint32 = 18
	CodeStepsExceedTotal        uint32 = 19
	CodeCriteriaExceedTotal     uint32 = 20
	CodeBlocksRange             uint32 = 21
	CodeUnknownCategory         uint32 = 22
	CodeBadArtifactHash         uint32 = 23
	CodeTrackDisabled           uint32 = 24
	CodeUnknownTask             uint32 = 25
	CodeWrongKind               uint32 = 26
	CodeSubmissionDeadline      uint32 = 27
	CodeDuplicateSubmission     uint32 = 28
	CodeUnknownSubmission       uint32 = 29
	CodeSubmissionFinal         uint32 = 30
	CodeDuplicateReport         uint32 = 31
	CodeUnknownEVMChain         uint32 = 32
	CodeEVMBlockClosed          uint32 = 33
	CodePredictionTooFar        uint32 = 34
	CodeDuplicateTruth          uint32 = 35
	CodeTruthTimeBackwards      uint32 = 36
	CodeBadBaseline             uint32 = 37
	CodeReportDeadline          uint32 = 38
	CodeInternal                uint32 = 39
	CodeBlockFull               uint32 = 40
	CodeEVMChainUnanchored      uint32 = 41
	CodeValidatorKey            uint32 = 42
	CodeTooManyOpenTasks        uint32 = 43
	CodeTruthTooFar             uint32 = 44
	CodeTruthTimeFuture         uint32 = 45
	CodeTooManyOpenRounds       uint32 = 46
	CodeBadCommitment           uint32 = 47
	CodeNoCommit                uint32 = 48
	CodeRevealWindow            uint32 = 49
	CodeRevealMismatch          uint32 = 50
	CodeStaleWork               uint32 = 51
	CodeInsufficientWork        uint32 = 52
	CodeRegistrationsFull       uint32 = 53
	CodeBadProposal             uint32 = 54
	CodeDuplicateKey            uint32 = 55
	CodeEmptySet                uint32 = 56
	CodePowerChange             uint32 = 57
	CodeActivationHeight        uint32 = 58
	CodeUnknownProposal         uint32 = 59
	CodeProposalClosed          uint32 = 60
	CodeDuplicateApproval       uint32 = 61
	CodeTooManyProposals        uint32 = 62
	CodeWrongRegistrationMode   uint32 = 63
	CodeAttestationStale        uint32 = 64
	CodeAttestationCadence      uint32 = 65
	CodeDuplicateAttestation    uint32 = 66
	CodeTooManyOpenAttestations uint32 = 67
	CodeBadSnapshot             uint32 = 68
	CodeSnapshotMissing         uint32 = 69
	CodeBindUnknownUID          uint32 = 70
	CodeBindStale               uint32 = 71
	CodeBindBeforeRegistration  uint32 = 72
	CodeBindNotNewer            uint32 = 73
	CodeBindBadSignature        uint32 = 74
	CodeTxKeyBound              uint32 = 75
	CodeEVMWindowMisaligned     uint32 = 76
	CodeContested               uint32 = 77
	CodeEmptyTruthPriced        uint32 = 78
	CodeBadDuplicateOf          uint32 = 79
	CodeEVMChainPaused          uint32 = 80
	CodeBatchSize               uint32 = 81
	CodeDuplicateBatchEntry     uint32 = 82
	CodeServeAddress            uint32 = 83
	CodeServeTooSoon            uint32 = 84
)

// CodeInfo is one row of the code table: the number, the short name used in
// logs, and what it means (the row of docs/codes.md).
type CodeInfo struct {
	Code uint32
	Name string
	Doc  string
}

// Codes is the code table, in code order: Codes[i].Code == i.
var Codes = []CodeInfo{
	{CodeOK, "ok", "accepted"},
	{CodeMalformedTx, "malformed_tx", "the bytes are not a `Tx`, or its body is not a `TxBody`"},
	{CodeTxTooLarge, "tx_too_large", "larger than `chain.max_tx_bytes` (default 16 KiB)"},
	{CodeNonCanonical, "non_canonical", "decodes, but re-encodes to different bytes (unknown fields, non-minimal varints, …; a `Msg` that still carries a plaintext `submit`, field 3: commit and reveal instead)"},
	{CodeBadSender, "bad_sender", "sender is not a 32-byte ed25519 public key"},
	{CodeBadSignature, "bad_signature", "signature missing, not 64 bytes, or not valid over `\"validatord/tx/v3\\0\" ‖ body` under ZIP-215 (docs/scoring.md, \"Envelope\") (an older client's signature, such as v2's: upgrade the client)"},
	{CodeWrongChainID, "wrong_chain_id", "`body.chain_id` is not this chain's id"},
	{CodeNonceUsed, "nonce_used", "nonce below the account's next nonce (replay)"},
	{CodeNonceFuture, "nonce_future", "nonce above the account's next nonce (gap)"},
	{CodeEmptyMsg, "empty_msg", "no message, or a message without its content (empty oneof)"},
	{CodeNotValidator, "not_validator", "PostTask, Report or Truth not signed by a validator's report key"},
	{CodeNotMiner, "not_miner", "Commit or Reveal from a key that is not a registered miner (or no longer owns the uid it committed under)"},
	{CodeAlreadyMiner, "already_miner", "RegisterMiner from a key that already has a uid (checked after code 42)"},
	{CodeUIDsFull, "uids_full", "all `chain.max_uids` uids are taken and none can be replaced now: more than `membership.min_non_immune` uids must be out of their immunity (docs/membership.md §4)"},
	{CodeNotNumber, "not_number", "a decimal field is not a decimal number"},
	{CodeTooManyPlaces, "too_many_places", "a decimal field has more than 18 places"},
	{CodeDecimalRange, "decimal_range", "a decimal field is outside its range (e.g. quality > 1, a price ≤ 0, above 10^15)"},
	{CodeNegativeCount, "negative_count", "a count is negative"},
	{CodeCountRange, "count_range", "a count is 0 where it must be positive, above 10^12, or a timestamp ≤ 0"},
	{CodeStepsExceedTotal, "steps_exceed_total", "`steps_completed` > the task's `total_steps`"},
	{CodeCriteriaExceedTotal, "criteria_exceed_total", "`criteria_passed` > the task's `criteria_total`"},
	{CodeBlocksRange, "blocks_range", "`submission_blocks` / `report_blocks` outside [1, chain max]"},
	{CodeUnknownCategory, "unknown_category", "arena category or difficulty not in the arena params (\"\" = default)"},
	{CodeBadArtifactHash, "bad_artifact_hash", "`artifact_hash` is not 32 bytes"},
	{CodeTrackDisabled, "track_disabled", "the message's track does not run on this chain"},
	{CodeUnknownTask, "unknown_task", "no task with that id (or one retired by state retention, docs/retention.md)"},
	{CodeWrongKind, "wrong_kind", "submission kind ≠ task kind, report kind ≠ submission kind, or a Report on a gas prediction"},
	{CodeSubmissionDeadline, "submission_deadline", "a commit at height > the task's submission deadline (commits close there; reveals open the next block)"},
	{CodeDuplicateSubmission, "duplicate_submission", "the miner already committed for this task or EVM block, or already revealed that commit"},
	{CodeUnknownSubmission, "unknown_submission", "no submission with that id (or one retired by state retention)"},
	{CodeSubmissionFinal, "submission_final", "the submission is not pending: not revealed yet (`committed`), a `duplicate`, or already final (scored, expired, failed, unrevealed, awaiting end-of-block scoring)"},
	{CodeDuplicateReport, "duplicate_report", "this validator already reported on this submission"},
	{CodeUnknownEVMChain, "unknown_evm_chain", "the EVM chain id is not in `chain.gas_chains`"},
	{CodeEVMBlockClosed, "evm_block_closed", "the EVM block is closed (≤ the last closed block) or its truth round expired"},
	{CodePredictionTooFar, "prediction_too_far", "the EVM block is more than `chain.max_prediction_ahead` past the last closed block (checked after code 41)"},
	{CodeDuplicateTruth, "duplicate_truth", "this validator already reported this EVM block's truth"},
	{CodeTruthTimeBackwards, "truth_time_backwards", "the EVM timestamp is before the last closed block's timestamp"},
	{CodeBadBaseline, "bad_baseline", "an arena task's default baseline is inconsistent (scoring.ArenaBaseline.Validate)"},
	{CodeReportDeadline, "report_deadline", "height > the submission's report deadline (a settlement carried to a later block, see \"Block bound\")"},
	{CodeInternal, "internal", "CheckTx before InitChain, or a CheckTx request still queued when the node stopped (never checked); execution never returns it otherwise"},
	{CodeBlockFull, "block_full", "the tx would take the block's writes past the 8 MiB budget; send it again. CheckTx gives it to a tx that alone writes more than 8 MiB (no block could include it)"},
	{CodeEVMChainUnanchored, "evm_chain_unanchored", "a prediction on an EVM chain with no closed block yet: validators anchor a chain by posting the truth of a block, and predictions open once that truth is final"},
	{CodeValidatorKey, "validator_key", "RegisterMiner from a validator's report key (a validator would report on its own submissions)"},
	{CodeTooManyOpenTasks, "too_many_open_tasks", "PostTask from a validator that already has `chain.max_open_tasks` tasks whose settlement is not done"},
	{CodeTruthTooFar, "truth_too_far", "a truth for an EVM block more than `chain.max_prediction_ahead` past the chain's last closed block"},
	{CodeTruthTimeFuture, "truth_time_future", "a truth whose EVM timestamp is later than the block time + `chain.max_truth_drift_seconds`"},
	{CodeTooManyOpenRounds, "too_many_open_rounds", "a truth from a validator that already votes in `chain.max_prediction_ahead` pending rounds of that EVM chain"},
	{CodeBadCommitment, "bad_commitment", "a commit's `commitment` or a reveal's `salt` is not 32 bytes"},
	{CodeNoCommit, "no_commit", "a reveal for a task or EVM block for which the sender's uid has no commit (or whose commits a later EVM block's close swept, or whose truth round state retention retired)"},
	{CodeRevealWindow, "reveal_window", "a reveal before its window opens or after it closes (a task's: the `reveal_blocks` blocks after its submission deadline; an EVM block's: the `reveal_blocks` blocks after its truth became final), or a report on a task whose reveal window has not closed"},
	{CodeRevealMismatch, "reveal_mismatch", "the revealed payload and salt do not open the commit's `commitment` under this chain id, sender and uid"},
	{CodeStaleWork, "stale_work", "RegisterMiner whose `work_height` is not one of the `membership.max_pow_age_blocks` blocks before the including block (docs/membership.md §4): solve again against a recent block"},
	{CodeInsufficientWork, "insufficient_work", "RegisterMiner whose seal over (chain id, sender, the hash of block `work_height`, `nonce`) does not meet the difficulty in force (query `registration`)"},
	{CodeRegistrationsFull, "registrations_full", "RegisterMiner in a block that already accepted `membership.max_registrations_per_block` registrations; send it again in a later block"},
	{CodeBadProposal, "bad_proposal", "a validator or params proposal that is malformed or invalid against the set it would meet: a missing or repeated field, a bad key or name, an unknown validator, a report key that is a miner's, too many changes (`governance.max_changes`) or validators (`governance.max_validators`), params that do not decode, fail genesis validation or change an immutable field (docs/governance.md §4); the log names the field"},
	{CodeDuplicateKey, "duplicate_key", "a proposal that would give two validators the same consensus key, name or report key"},
	{CodeEmptySet, "empty_set", "a proposal that would leave no validator"},
	{CodePowerChange, "power_change", "a proposal whose changes move more than a third of the power in force (split it into several), or leave a total outside [3, 2^60 − 1]"},
	{CodeActivationHeight, "activation_height", "a params proposal whose `activation_height` is not at least `governance.min_upgrade_delay_blocks` after its `expires_height`, or not after an upgrade already scheduled"},
	{CodeUnknownProposal, "unknown_proposal", "an approval of a proposal id that does not exist"},
	{CodeProposalClosed, "proposal_closed", "an approval of a proposal that is already approved or expired, or a proposal whose `expires_height` is past or beyond `governance.max_proposal_blocks`"},
	{CodeDuplicateApproval, "duplicate_approval", "a validator's second approval of one proposal (its own proposal counts as its approval)"},
	{CodeTooManyProposals, "too_many_proposals", "a proposal from a validator that already has `governance.max_open_proposals` open proposals"},
	{CodeWrongRegistrationMode, "wrong_registration_mode", "RegisterMiner or DeregisterMiner in mirror mode, or AttestMetagraph or BindHotkey in pow mode (`chain.registration`)"},
	{CodeAttestationStale, "attestation_stale", "AttestMetagraph at a parent block not after the last final one"},
	{CodeAttestationCadence, "attestation_cadence", "AttestMetagraph at a parent block that is not a multiple of `mirror.attestation_blocks`"},
	{CodeDuplicateAttestation, "duplicate_attestation", "a validator's second AttestMetagraph at one parent block"},
	{CodeTooManyOpenAttestations, "too_many_open_attestations", "AttestMetagraph from a validator that already votes in 4 open rounds (`genesis.MirrorMaxOpenAttestations`: parent blocks above the last final one)"},
	{CodeBadSnapshot, "bad_snapshot", "AttestMetagraph whose snapshot does not decode (`mirror.Decode`: malformed, unsorted, a uid ≥ `mirror.max_entries`, …) or is of another parent block, or whose digest is not the snapshot's or not 32 bytes"},
	{CodeSnapshotMissing, "snapshot_missing", "AttestMetagraph without a snapshot for a digest the chain has not stored for that parent block: send the snapshot with the vote"},
	{CodeBindUnknownUID, "bind_unknown_uid", "BindHotkey for a uid that is not in the final metagraph, or for the burn uid (`window.burn_uid`, the subnet owner's, never bound)"},
	{CodeBindStale, "bind_stale", "BindHotkey whose parent block is more than `mirror.max_blocks_behind` from the final metagraph's"},
	{CodeBindBeforeRegistration, "bind_before_registration", "BindHotkey signed at a parent block before the uid's registration block"},
	{CodeBindNotNewer, "bind_not_newer", "BindHotkey whose parent block is not after the uid's current binding's"},
	{CodeBindBadSignature, "bind_bad_signature", "BindHotkey whose sr25519 signature is not 64 bytes or does not verify under the uid's hotkey (over the binding message, raw or `<Bytes>`-wrapped), or whose hotkey is no sr25519 key; verified last, after the block's work budget paid for it"},
	{CodeTxKeyBound, "tx_key_bound", "BindHotkey from a tx key that is bound to another uid"},
	{CodeEVMWindowMisaligned, "evm_window_misaligned", "a gas commit, reveal or truth whose `evm_block` is not the first block of one of its EVM chain's windows (a multiple of the chain's `window_blocks`, `chain.gas_windows`)"},
	{CodeContested, "contested", "a report on a submission, or a truth for an EVM block, whose votes were contested at their deadline: enough power reported, but some median had less than 1/3 of the total power at or below it, or at or above it, so a minority could have chosen it; the item ended unscored (status `contested`, docs/scoring.md §6.5)"},
	{CodeEmptyTruthPriced, "empty_truth_priced", "a truth with `empty` set (the EVM block had no priced transaction) that also carries a `min_price`: an empty truth has no price"},
	{CodeBadDuplicateOf, "bad_duplicate_of", "a report whose `duplicate_of` names no submission, a submission of another task, one not revealed, the reported submission itself, or one whose commit does not precede the reported one's (commit.Precedes: lower commit height, then lower uid); name an earlier revealed submission of the same task, or 0 for none"},
	{CodeEVMChainPaused, "evm_chain_paused", "a gas commit, reveal or truth for an EVM chain that governance paused (`chain.gas_paused`, resume_block 0): nothing is taken or owed for it until a params proposal resumes it (docs/scoring.md, \"Paused chains\")"},
	{CodeBatchSize, "batch_size", "a batch (report, commit, reveal or truth) with no entries, or with more than 256 (`wire.MaxBatch`): split it into batches of at most 256"},
	{CodeDuplicateBatchEntry, "duplicate_batch_entry", "a batch that names the same target in two entries (a report batch one submission, a commit or reveal batch one task or EVM block, a truth batch one EVM block): keep one of them; the whole batch is refused"},
	{CodeServeAddress, "serve_address", "a serve whose `address` is not a base URL a daemon can be fetched at (`wire.CheckServeAddress`): empty, more than 128 bytes, not printable ASCII, a scheme other than http or https, userinfo, no host, a port outside 1–65535, a query, a fragment, or a path other than \"/\"; the log names the rule broken. Example: `http://203.0.113.7:8091`"},
	{CodeServeTooSoon, "serve_too_soon", "a serve less than `wire.ServeInterval` = 10 blocks after the uid's last accepted one (`served_height`); the log names the first height at which it may serve again. A uid's first serve is always accepted"},
}

// CodeName returns the short name of a code ("unknown" for codes not defined).
func CodeName(code uint32) string {
	if int(code) < len(Codes) {
		return Codes[code].Name
	}
	return "unknown"
}

// Codespace tags this application's result codes.
const Codespace = "subnet"

// TxError is a rejection: a stable code and a message naming what was wrong.
type TxError struct {
	Code uint32
	Msg  string
}

func (e *TxError) Error() string { return CodeName(e.Code) + ": " + e.Msg }

// Reject returns a rejection with a code and a message naming what was wrong.
func Reject(code uint32, msg string) *TxError { return &TxError{Code: code, Msg: msg} }

// Rejectf is Reject with a formatted message.
func Rejectf(code uint32, format string, args ...any) *TxError {
	return &TxError{Code: code, Msg: fmt.Sprintf(format, args...)}
}
