package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/scoringsubnet/validatord/app/wire"
	"github.com/scoringsubnet/validatord/client"
)

// Output formats of --output (-o).
const (
	outputJSON = "json"
	outputText = "text"
)

// outputFlag is --output json|text, with -o for short.
type outputFlag struct{ format string }

func (o *outputFlag) String() string {
	if o == nil {
		return ""
	}
	return o.format
}

func (o *outputFlag) Set(v string) error {
	switch v {
	case outputJSON, outputText:
		o.format = v
		return nil
	}
	return fmt.Errorf("%q, want json or text", v)
}

// defineOutput registers --output and -o (default json, the stable object
// scripts read).
func defineOutput(fs *flag.FlagSet) *outputFlag {
	o := &outputFlag{format: outputJSON}
	fs.Var(o, "output", "output `format`: json (a stable object: code, name, codespace, log, hash, height, events, scores) or text (lines for people)")
	fs.Var(o, "o", "`format`: shorthand for --output")
	return o
}

// print writes v in the chosen format.
func (o *outputFlag) print(w io.Writer, v any) error {
	if o.format != outputText {
		return printJSON(w, v)
	}
	var b strings.Builder
	switch r := v.(type) {
	case client.TxResult:
		textResult(&b, "", r)
	case dryRunResult:
		b.WriteString("dry run: CheckTx's answer; nothing was broadcast\n")
		textResult(&b, "", r.TxResult)
	case client.SubmitResult:
		textSubmit(&b, r)
	case client.UnsignedTx:
		fmt.Fprintf(&b, "unsigned tx for chain %s, sender %s, nonce %d\nmessage %s\nmsg %s\n", r.ChainID, r.Sender, r.Nonce, r.Message, r.Msg)
	case client.SignedTx:
		fmt.Fprintf(&b, "signed tx %s for chain %s, sender %s, nonce %d\ntx %s\n", r.Hash, r.ChainID, r.Sender, r.Nonce, r.Tx)
	default:
		return printJSON(w, v)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// dryRunResult is CheckTx's answer to --dry-run: its JSON is the result's.
type dryRunResult struct{ client.TxResult }

// textResult writes a transaction's result, each line after indent.
func textResult(b *strings.Builder, indent string, r client.TxResult) {
	fmt.Fprintf(b, "%scode %d (%s)", indent, r.Code, r.Name)
	if r.Codespace != "" {
		fmt.Fprintf(b, " codespace %s", r.Codespace)
	}
	fmt.Fprintf(b, "\n%shash %s\n", indent, r.Hash)
	if r.Height > 0 {
		fmt.Fprintf(b, "%sheight %d\n", indent, r.Height)
	}
	if r.Log != "" {
		fmt.Fprintf(b, "%slog %s\n", indent, r.Log)
	}
	for _, e := range r.Events {
		attrs := make([]string, len(e.Attributes))
		for i, a := range e.Attributes {
			attrs[i] = a.Key + "=" + a.Value
		}
		fmt.Fprintf(b, "%sevent %s %s\n", indent, e.Type, strings.Join(attrs, " "))
	}
	for _, s := range r.Scores {
		fmt.Fprintf(b, "%sscore %s: submission %d (uid %d) %s\n", indent, s.Track, s.SubmissionID, s.UID, s.Score)
	}
	if sub, ok := r.Attr(wire.EventReportReceived, "submission_id"); ok && r.Height > 0 && len(r.Scores) == 0 {
		fmt.Fprintf(b, "%sscore none yet: a workflow submission is scored when its reports reach quorum or at its report deadline, "+
			"an arena run at the end of a block with work budget left (validatord query submission %s)\n", indent, sub)
	}
}

// textSubmit writes a commit-reveal step's results.
func textSubmit(b *strings.Builder, r client.SubmitResult) {
	b.WriteString("commit:\n")
	textResult(b, "  ", r.Commit)
	if r.Reveal != nil {
		b.WriteString("reveal:\n")
		textResult(b, "  ", *r.Reveal)
	}
	if r.Pending != "" {
		fmt.Fprintf(b, "pending reveal %s (reveal with `validatord tx reveal` once its window is open)\n", r.Pending)
	}
}
