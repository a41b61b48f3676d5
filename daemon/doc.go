// Package daemon is the home of the long-running programs of a subnet's
// roles: daemon/miner (`validatord miner run`) and daemon/validator
// (`validatord validator run`), and the parts they share: config (one TOML
// file per daemon, every option also a flag), extcmd (the user's own
// solver, price and measurement commands), artifact (artifacts served and
// fetched off the chain, checked against the hash the chain holds) and
// signrec (a validator's record of what it signed).
//
// Nothing here is consensus code: the daemons are clients of a node, as
// the oracle is, and nothing below cmd/ imports them. docs/daemons.md is
// the guide for the people who run them.
package daemon
