// Package setup is what every mode of the load tool (scripts/loadgen) sets up the same way: the
// testnet (RPC addresses, genesis, the validators' report keys), keys derived from seeds, the
// messages (tasks, payloads, gas bids) and the posting of tasks.
//
//	net, err := setup.LoadTestnet(".localnet", "")
//	task := setup.WorkflowTask(setup.Windows{Submission: 20, Report: 40})
//	s := client.NewSigner(node, net.ChainID, net.ReportKeys[0])
//	ids, err := setup.PostTasks(ctx, s, task, 100, 100, time.Minute)
package setup
