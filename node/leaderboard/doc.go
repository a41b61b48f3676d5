// Package leaderboard serves a node's leaderboard page: a landing page
// (status, each track's top miners, the tasks and their phase), an HTML
// table per track, per miner (its submissions, windows, gas agents and
// weights, with charts drawn as inline SVG), per arena task (its results)
// and per epoch, and the last epochs' weights, each with the JSON it is
// built from, read at every request from the committed state
// through the app's own Query (in-process, package internal/appquery). The
// pages carry their CSS inline and no script, so they work offline; they
// reload themselves every 10 s (a meta refresh).
//
//	srv := &http.Server{Addr: "127.0.0.1:26680", Handler: leaderboard.Handler(application)}
//
// Paths: / (and /index.json), /track/<name>, /miner/<uid>, /epoch,
// /epoch/<n>, /epochs, /task/<id> and the same with .json;
// /submission/<id>.json; /task?id=<id> and /miner?uid=<uid> redirect.
// Lists page by ?after=: the landing page's tasks and a miner's
// submissions below an id, a track's board after a rank (trackRows, 50, a
// page; its JSON carries the page's rows and the board's total), so no
// request reads more than a page's rows; a bad ?after= is a 400.
//
// Every text colour of the stylesheet keeps WCAG 2's 4.5:1 against each
// background it can sit on (TestStylesheetContrast). The long test
// TestPagesInChromium loads the pages in headless Chromium and checks its
// screenshots by their layout colours, not glyphs (shot_test.go): the
// size, that the page is not blank, a header band per table in view with
// a row band for each of its rows that fits, the contrast of the darkest
// text in each band and on the line above each table, the miner page's
// chart.
package leaderboard
