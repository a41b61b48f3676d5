// Command measure is an example measurement for `validatord validator run`:
// a small, honest stand-in for the subnet's real evaluation, matching the
// example solver's artifacts.
//
// Contract: stdin is one JSON object
//
//	{"track":"workflow"|"arena","submission":{…},"task":{…},"artifact":"<base64>"}
//
// with the submission and task views as `validatord query submission N` and
// `validatord query task N` print them, and the artifact's bytes (already
// checked against the submission's artifact hash). stdout is one JSON
// object, the measurement with the field names and decimal formats a line
// of `validatord tx report --batch` takes (the daemon adds submission_id):
//
//	{"workflow":{"output_quality":"0.500000","steps_completed":2,"cost":"0.123535","latency_seconds":"0.939600","retries":0,"declared_retry_budget":0,"timeouts":0,"hard_failures":0}}
//	{"arena":{"total_tokens":12,"tool_calls":3,"iterations":3,"execution_time":"0.162000","estimated_cost":"0.000024","criteria_passed":2}}
//
// The measurement is a deterministic function of the task, the submission's
// uid and the artifact, so honest validators agree on it, and every field is
// inside the chain's validity ranges. Workflow: a plan step is valid when it
// is in its place, names a known action, carries the task's check for it and
// claims a bounded cost and latency; steps_completed counts valid steps up to
// total_steps, output_quality is their share of total_steps, cost and latency
// sum over them, invalid steps are hard failures, and declared_retry_budget
// sums the retry counts of error_handling. Arena: criteria_passed counts the
// right answers, tool_calls the calls, total_tokens the words of the run, and
// time and cost follow from those. An artifact not in the solver's format,
// or made for another task or miner, gets the lowest valid measurement.
package main
