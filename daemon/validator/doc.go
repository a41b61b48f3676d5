// Package validator is the validator daemon (`validatord validator run`):
// the long-running program beside a validator's node that measures the
// miners' revealed submissions with the operator's own measurement command
// and reports the measurements, posts tasks on a schedule, and (optionally)
// runs the gas track's truth oracle in the same process.
//
// Every poll ([chain] poll) it lists the tasks whose report window is open
// and their pending submissions that this validator has not reported (its
// vote is not in the submission). For each it fetches the artifact from
// the miner's announced address, checked against the revealed hash and
// bounded in size and time (package artifact), retrying each poll while
// the miner may still publish it, runs the measurement command on it
// (package extcmd; the contract is MeasureInput on stdin and one report
// line without submission_id on stdout, DecodeMeasurement) and signs the
// report. An artifact that is unusable (too large, the wrong bytes) or not
// fetched by fetch_until_blocks_before_deadline blocks before the deadline
// gets NoArtifact's measurement instead of the command's; a command that
// keeps failing until then is a miss, logged and counted.
//
// Crash safety: a measurement goes into the signing record (package
// signrec, fsynced, <home>/validator/signrec.jsonl) before the report that
// carries it is signed, and a submission found in the record is sent with
// the recorded bytes, never measured again: whatever the measurement
// command does, this validator never signs two measurements of one
// submission, across crashes and restarts. The record's lock keeps a
// second daemon off the same home.
//
// Reports go in MsgReportBatch transactions of up to [report] batch_max;
// each entry's report_entry event says whether the chain took it, and one
// not taken for a passing reason is sent again while
// margin_blocks allow.
//
//	cfg, err := validator.Load(validator.ConfigFile(home))
//	d, err := validator.Open(home, cfg, validator.Options{})
//	defer d.Close()
//	err = d.Run(ctx) // until ctx ends
//
// docs/daemons.md is the operator's guide.
package validator
