// Command loadgen is the one load tool of validatord: every mode drives a running network over
// one shared set-up (setup: the testnet's genesis, RPC addresses and report keys, keys from
// seeds, the messages, the posting of tasks; client: signing, nonces, resends).
//
//	loadgen [rounds] FLAGS   honest rounds of every track, at a bounded rate (package rounds)
//	loadgen flood FLAGS      the rounds with an open-loop flood of commits beside (--flood-rate)
//	loadgen adversary FLAGS  the rounds with a validator below 1/3 attacking beside (--adversary)
//	loadgen bench FLAGS      open-loop or in-flight commits, validatord or kvstore (package bench)
//	loadgen bench table DIR...  the bench runs' table
//	loadgen demo FLAGS       a short load of every track on one node, then its results (package demo)
//
// Without a mode name the mode is rounds, so `loadgen --testnet DIR …` runs as it always has.
// scripts/e2e runs rounds, flood and adversary; scripts/bench-localnet.sh runs bench;
// scripts/demo.sh (make demo) runs demo.
package main
