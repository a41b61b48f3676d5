// Package miner is `validatord miner run`: the daemon of one miner key,
// serving every track it is configured for, so that no commit-reveal
// window depends on a person typing.
//
// Each poll it reads the chain once and does what is due:
//   - registers the key when it owns no uid (with chain.register), and
//     announces its artifact server's address (MsgServe) when the chain's
//     differs;
//   - workflow and arena: for each open task it has not answered, runs the
//     miner's solver command (task JSON on stdin, the artifact on stdout),
//     stores the artifact under its sha256 and commits to it;
//   - gas: for the EVM windows far enough ahead of the EVM head to count
//     (gas.lead) and near enough to the chain's last closed block to be
//     taken (max_prediction_ahead), asks the price command or feed and
//     commits to every new window;
//   - all of a poll's commits go in one commit batch (client.CommitPayloads,
//     which stores every salt, fsynced, before the broadcast);
//   - reveals every stored commit whose window is open, in reveal batches,
//     publishing a task's artifact on its server first: the reveal window
//     opens after the task's submit deadline, so no commit can copy it;
//   - reads what became of its submissions (scored, counted, late, …) and
//     says so on its log and metrics.
//
// State lives in the key's home: the salts in the client's SaltStore,
// the artifacts in an artifact.Store. Both are written before anything
// that depends on them is sent, so a crash at any point loses no reveal
// that can still be made: the next start finds the stored commits and
// reveals them (resending a commit whose outcome is unknown with the same
// salt: the same commitment). Run holds a lock on the home
// (<home>/miner/lock), so a second daemon on it is refused.
//
// docs/daemons.md is the miners' guide.
package miner
