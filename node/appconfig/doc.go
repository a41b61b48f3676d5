// Package appconfig owns <home>/config/app.toml: the settings of one node
// that are not consensus rules, so two nodes of a chain may differ in them
// (how many state versions a node keeps for queries at a height, how often
// it writes state-sync snapshots and how many it keeps, how many blocks its
// block store retains, whether CheckTx runs beside block execution, where
// the leaderboard page is served). A home without the file gets the defaults; a file
// with an unknown key or a value out of range is refused with the key named.
package appconfig
