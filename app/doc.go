// Package app is the ABCI application of the scoring subnet, a shell over
// units: one validity function for CheckTx, PrepareProposal,
// ProcessProposal and FinalizeBlock; one route table (route.go) that sends
// each message to its unit (app/tasks, app/gas, app/membership, app/mirror,
// app/governance) for its checks and its execution; block execution into
// an in-memory overlay over badger; the end of block as an ordered list of
// named, metered steps the units provide; an incremental multiset hash of
// the full state as the app hash; one badger transaction per Commit; the
// Query method over app/query; crash points for tests.
//
//	a, err := app.New(app.Config{DataDir: home + "/data/app"})
//	defer a.Close()
//	tx, err := app.SignTx("subnet-1", minerKey, 0, &subnetv1.Msg{
//		Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{}}})
//	// hand a to CometBFT (mempoolconn.NewClientCreator(a, mempoolconn.SharedLock, true)) and broadcast tx.
package app
