// Package wait holds a caller until a node's app has committed a height, or
// until a task has reached a phase of its life: its reveal window open, its
// report window open, or settled. People use it through `validatord wait`
// (docs/cli.md) between the steps of a session, scripts and tests the same
// way, so that no step is sent too early and no one has to count blocks.
//
// A phase is a range of committed heights read from the task's deadlines
// (query task/<id>): a transaction sent when the app has committed height h
// is judged for block h+1, so the reveal window of a task is open to a new
// reveal from committed height submit_deadline until reveal_deadline-1.
//
//	c, err := client.Dial("tcp://127.0.0.1:26657")
//	t, err := wait.ForTask(ctx, c, 0, wait.Report) // reports open after the reveal deadline
//	res, err := wait.Until(ctx, c, t, wait.Options{Progress: func(s string) { log.Print(s) }})
//	// res.Height: the committed height reached; a phase that already passed
//	// is a *wait.PassedError, and nothing is waited for.
//
// It polls the app's status query; a node that does not answer yet (still
// starting) is asked again until ctx ends.
package wait
