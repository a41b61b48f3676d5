// Package config reads and writes a daemon's configuration: one TOML file,
// commented, whose every option is also a command-line flag.
//
// A configuration is a struct of sections (struct fields tagged `toml`),
// each a struct of options with a `toml` name and a `help` text. Write
// renders it as a TOML file with the help above each option (what `miner
// init` and `validator init` write); Load reads one back strictly (an
// unknown key is an error naming its line, so a typo never silently
// keeps a default); Bind makes a flag of every option, named
// <section>-<option> with '_' as '-' (`[gas] evm_rpc` is --gas-evm-rpc),
// and Binding.Apply puts the flags the user set over what the file said.
// The order is defaults, then the file, then flags.
package config
