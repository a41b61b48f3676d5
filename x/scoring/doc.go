// Package scoring holds the subnet's scoring formulas in fixed-point decimals: the workflow
// composite score (subnet-scoring-v1.md), the gas agent utilities (gas-agent-evaluation.md), the
// agentic arena metrics (agentic-arena-metrics.md), the per-miner weight cap and the conversion to
// u16 weights.
//
// It is pure: values in, values or typed errors out. No I/O, clock, randomness, floats or logging,
// so every validator computes the same bits. Every rounding goes through Quo, Round, Exp, Ln, Pow
// and Sqrt at Places (18) decimal places, half away from zero.
//
//	r, err := scoring.ScoreWorkflow(scoring.DefaultWorkflowParams(), in)
//	fmt.Println(scoring.Format(r.Score)) // 0.912500000000000000
package scoring
