package client

import (
	"crypto/sha256"
	"fmt"

	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// The builders of every message of proto/subnet/v1, wrapped in the Msg that
// a transaction carries. They check nothing: the app's validity function
// is the one judge (docs/codes.md).

// RegisterMiner gives the sender's key a uid, paying the work of
// docs/membership.md: nonce meets the difficulty for the hash of the block
// at workHeight (RegisterWork finds both).
func RegisterMiner(workHeight int64, nonce uint64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{WorkHeight: workHeight, Nonce: nonce}}}
}

// DeregisterMiner frees the sender's uid (registered miners only).
func DeregisterMiner() *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_DeregisterMiner{DeregisterMiner: &subnetv1.MsgDeregisterMiner{}}}
}

// Serve announces the base URL where the sender's daemon serves revealed
// artifacts (registered miners only): validators fetch
// GET <address>/artifact/<hex sha256> from it. The chain takes an http or
// https URL without path, query or userinfo (wire.CheckServeAddress), once
// every wire.ServeInterval blocks per uid.
func Serve(address string) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Serve{Serve: &subnetv1.MsgServe{Address: address}}}
}

// PostWorkflowTask opens a workflow task (validators' report keys).
func PostWorkflowTask(t *subnetv1.WorkflowTask) *subnetv1.Msg {
	return postTask(&subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Workflow{Workflow: t}})
}

// PostArenaTask opens an arena task (validators' report keys); a nil
// DefaultBaseline takes the app's default.
func PostArenaTask(t *subnetv1.ArenaTask) *subnetv1.Msg {
	return postTask(&subnetv1.MsgPostTask{Task: &subnetv1.MsgPostTask_Arena{Arena: t}})
}

func postTask(m *subnetv1.MsgPostTask) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_PostTask{PostTask: m}}
}

// WorkflowPayload is a workflow for a workflow task: what a miner commits
// to and reveals (Commit, Reveal). The workflow's retry budget is not the
// miner's to declare: validators read it from the workflow and report it
// (ReportWorkflow).
func WorkflowPayload(taskID uint64, artifactHash []byte) *subnetv1.MsgSubmit {
	return &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Workflow{Workflow: &subnetv1.WorkflowSubmit{
		TaskId: taskID, ArtifactHash: artifactHash}}}
}

// ArenaPayload is a run of an arena task.
func ArenaPayload(taskID uint64, artifactHash []byte) *subnetv1.MsgSubmit {
	return &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Arena{Arena: &subnetv1.ArenaSubmit{
		TaskId: taskID, ArtifactHash: artifactHash}}}
}

// GasPayload predicts the minimum gas price of an EVM block.
func GasPayload(evmChainID, evmBlock uint64, price string) *subnetv1.MsgSubmit {
	return &subnetv1.MsgSubmit{Kind: &subnetv1.MsgSubmit_Gas{Gas: &subnetv1.GasPredict{
		EvmChainId: evmChainID, EvmBlock: evmBlock, Price: price}}}
}

// ReportWorkflow reports the measurements of a workflow submission
// (validators), the workflow's declared retry budget among them.
func ReportWorkflow(submissionID uint64, m *subnetv1.WorkflowMeasurement) *subnetv1.Msg {
	return report(&subnetv1.MsgReport{SubmissionId: submissionID, Measurement: &subnetv1.MsgReport_Workflow{Workflow: m}})
}

// ReportArena reports the measurements of an arena submission (validators).
func ReportArena(submissionID uint64, m *subnetv1.ArenaMeasurement) *subnetv1.Msg {
	return report(&subnetv1.MsgReport{SubmissionId: submissionID, Measurement: &subnetv1.MsgReport_Arena{Arena: m}})
}

// DuplicateOf sets a report's duplicate_of (ReportWorkflow, ReportArena):
// the id of an earlier revealed submission of the same task that the
// validator judges the reported one a near-copy of; 0 names none. It
// returns m; a message that is not a report is returned unchanged.
func DuplicateOf(m *subnetv1.Msg, submissionID uint64) *subnetv1.Msg {
	if r := m.GetReport(); r != nil {
		r.DuplicateOf = submissionID
	}
	return m
}

func report(m *subnetv1.MsgReport) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Report{Report: m}}
}

// Truth reports an EVM block's minimum non-zero gas price and its timestamp
// (unix seconds) (validators).
func Truth(evmChainID, evmBlock uint64, minPrice string, timestamp int64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{
		EvmChainId: evmChainID, EvmBlock: evmBlock, MinPrice: minPrice, Timestamp: timestamp}}}
}

// EmptyTruth reports that an EVM block (window) had no transaction with a
// non-zero effective gas price, with its timestamp (unix seconds)
// (validators).
func EmptyTruth(evmChainID, evmBlock uint64, timestamp int64) *subnetv1.Msg {
	return &subnetv1.Msg{Sum: &subnetv1.Msg_Truth{Truth: &subnetv1.MsgTruth{
		EvmChainId: evmChainID, EvmBlock: evmBlock, Timestamp: timestamp, Empty: true}}}
}

// ArtifactHash is a 32-byte artifact hash derived from parts (SHA-256 of
// their fmt.Sprint): fixed test and demo artifacts.
func ArtifactHash(parts ...any) []byte {
	h := sha256.Sum256([]byte(fmt.Sprint(parts...)))
	return h[:]
}
