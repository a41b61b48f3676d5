// Package extcmd runs a user-supplied command for a daemon: a miner's solver
// or price source, a validator's measurement. The command is given as a
// command line that is split without a shell (Parse), runs with its stdin
// written in full, and is bounded in time and in output size. On a timeout,
// a cancellation or oversized output the whole process group is killed, so a
// shell script's children do not outlive it. Every failure is an *Error that
// says which command failed, why, and what the operator can do about it.
package extcmd
