// Package leaderboard serves a node's leaderboard page: an HTML table per
// track, per arena task (its results) and for the latest epoch, each with the
// JSON it is built from, read at every request from the committed state
// through the app's own Query (in-process, package internal/appquery). The
// pages carry their CSS inline and no script, so they work offline; they
// reload themselves every 10 s (a meta refresh).
//
//	srv := &http.Server{Addr: "127.0.0.1:26680", Handler: leaderboard.Handler(application)}
//
// Paths: / (index), /track/<name>, /epoch, /task/<id> and the same with
// .json; /task?id=<id> redirects to /task/<id>.
package leaderboard
