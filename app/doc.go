// Package app is the ABCI application of the scoring subnet: one validity
// function for CheckTx, PrepareProposal, ProcessProposal and FinalizeBlock;
// block execution into an in-memory overlay over badger; an incremental
// multiset hash of the full state as the app hash; one badger transaction
// per Commit; JSON queries with score receipts; crash points for tests.
//
//	a, err := app.New(app.Config{DataDir: home + "/data/app"})
//	defer a.Close()
//	tx, err := app.SignTx("subnet-1", minerKey, 0, &subnetv1.Msg{
//		Sum: &subnetv1.Msg_RegisterMiner{RegisterMiner: &subnetv1.MsgRegisterMiner{}}})
//	// hand a to CometBFT (mempoolconn.NewClientCreator(a, mempoolconn.SharedLock, true)) and broadcast tx.
package app
