// Package extest builds an example command and runs it the way a daemon
// does (through daemon/extcmd), for the examples' tests.
package extest
