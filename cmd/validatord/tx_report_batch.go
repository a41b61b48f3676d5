package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineReportBatch is `tx report batch`: the reports of a JSON-lines file
// (client.DecodeReportLines) in one MsgReportBatch.
func defineReportBatch(fs *flag.FlagSet, env Env) func() (*subnetv1.Msg, error) {
	return defineBatch(fs, env, "one report a line: {submission_id, workflow{…} or arena{…}, duplicate_of}", client.DecodeReportLines, client.ReportBatch)
}

// defineTruthBatch is `tx truth batch`: the truths of a JSON-lines file
// (client.DecodeTruthLines) in one MsgTruthBatch.
func defineTruthBatch(fs *flag.FlagSet, env Env) func() (*subnetv1.Msg, error) {
	return defineBatch(fs, env, `one truth a line: {evm_chain_id, evm_block, min_price or "empty": true, timestamp}`, client.DecodeTruthLines, client.TruthBatch)
}

// defineBatch is a batch message's --batch flag: JSON lines (a file, or -
// for stdin) that decode reads into single messages and batch puts into
// one message, which refuses a shape the chain would refuse whole.
func defineBatch(fs *flag.FlagSet, env Env, line string, decode func(io.Reader) ([]*subnetv1.Msg, error),
	batch func(...*subnetv1.Msg) (*subnetv1.Msg, error)) func() (*subnetv1.Msg, error) {
	file := fs.String("batch", "", fmt.Sprintf("JSON lines, %s, field names as in docs/cli.md; - reads stdin (at most %d lines)", line, wire.MaxBatch))
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "batch"); err != nil {
			return nil, err
		}
		bz, err := readInput(env, *file)
		if err != nil {
			return nil, fmt.Errorf("--batch: %w", err)
		}
		msgs, err := decode(bytes.NewReader(bz))
		if err != nil {
			return nil, fmt.Errorf("--batch %s: %w", *file, err)
		}
		msg, err := batch(msgs...)
		if err != nil {
			return nil, fmt.Errorf("--batch %s: %w", *file, err)
		}
		return msg, nil
	}
}
