// Package toy is the shared vocabulary of the example solver and measure
// commands: the JSON shapes they read and write, and the deterministic
// "right answers" the solver aims at and the measurement checks. It is a
// small, honest stand-in for a real evaluation, not the subnet's own.
package toy
