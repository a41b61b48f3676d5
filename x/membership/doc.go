// Package membership owns the rules of a miner uid's lifecycle (issue 11):
// the proof of work a registration pays, the difficulty that adjusts toward
// a target rate, the per-block cap, immunity, and which uid a registration
// replaces when every uid is taken. It is pure: it imports only the
// standard library, takes heights as arguments and never reads state, a
// clock or randomness.
package membership
