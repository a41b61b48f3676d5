// Command solver is an example miner solver for `validatord miner run`: a
// small, honest stand-in, not the subnet's real work.
//
// Contract: stdin is one JSON object
//
//	{"track":"workflow"|"arena","uid":N,"chain_id":"…","task":{…}}
//
// where task is the task view as `validatord query task N` prints it (id,
// track, workflow{total_steps,max_budget,max_latency_seconds,…} or
// arena{category,difficulty,criteria_total,…}, deadlines…). stdout is the
// artifact bytes, a small JSON document:
//
//	workflow: {"task":id,"uid":uid,"plan":[{"step":1,"action":"fetch","check":"…","cost_micros":…,"latency_micros":…},…],"error_handling":[{"step":1,"retry_count":1},…]}
//	arena:    {"task":id,"uid":uid,"run":{"calls":[{"tool":…,"input":…,"output":…},…],"answers":["…",…]}}
//
// The artifact is a deterministic function of the task, the uid and
// -quality, so the same miner gets the same artifact on a rerun and two
// miners get different ones. -quality in [0,1] (default 1) is how much of
// the task it does: the share of the plan's steps, or of the arena
// criteria, it gets right. A non-zero exit status with a message on stderr
// means no artifact.
package main
