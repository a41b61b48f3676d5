// Package offline is the offline scorer: JSON lines in, formula results out.
//
// Each mode reads one JSON value per line, runs the consensus code on it
// (x/scoring, x/window, x/receipt) and writes one JSON line per result, or
// {"line": N, "error": "..."} for a line that could not be scored; good lines
// after a bad one are still scored, and the mode returns an error at the end
// if any line failed. Numbers may be JSON numbers or strings and never pass
// through float64.
//
//	err := offline.Workflow(os.Stdin, os.Stdout, scoring.DefaultWorkflowParams())
//	err = offline.Weights(r, w, cap, burnUID)
//	err = offline.Gas(r, w, scoring.DefaultGasParams())
//	err = offline.Receipts(r, w, nil) // or appState.ReceiptChain(): also compare the recorded params
//
// `validatord score <mode>` is a flag shim over these functions.
package offline
