package main

import (
	"bytes"
	"flag"
	"fmt"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// defineReportBatch is `tx report batch`: the reports of a JSON-lines file
// (client.DecodeReportLines) in one MsgReportBatch.
func defineReportBatch(fs *flag.FlagSet, env Env) func() (*subnetv1.Msg, error) {
	file := fs.String("batch", "", fmt.Sprintf("JSON lines, one report a line: {submission_id, workflow{…} or arena{…}, duplicate_of}, field names as in docs/cli.md; - reads stdin (at most %d lines)", wire.MaxReportBatch))
	return func() (*subnetv1.Msg, error) {
		if err := requireSet(fs, "batch"); err != nil {
			return nil, err
		}
		bz, err := readInput(env, *file)
		if err != nil {
			return nil, fmt.Errorf("--batch: %w", err)
		}
		reports, err := client.DecodeReportLines(bytes.NewReader(bz))
		if err != nil {
			return nil, fmt.Errorf("--batch %s: %w", *file, err)
		}
		msg, err := client.ReportBatch(reports...)
		if err != nil {
			return nil, fmt.Errorf("--batch %s: %w", *file, err)
		}
		return msg, nil
	}
}
