// Package durable writes files so that they survive a crash whole or not at
// all, for the daemon parts that keep state on disk (the artifact store and
// the signing record).
package durable
