// Package keyfile owns the on-disk format of the ed25519 transaction signing keys of a
// validatord home: one JSON file per key, <home>/keys/<name>.json, with 0600 perms,
//
//	{"name": "bob", "type": "ed25519", "pub_key": "<hex, 32 bytes>", "priv_key": "<hex, 64 bytes: seed ‖ public key>"}
//
// Load is strict: a file readable by group or others, an unknown field, a type other than
// ed25519, a priv_key that is not 64 bytes of hex or a pub_key that does not match the
// private key are all errors naming the file. `validatord keys`, `validatord init` and
// `testnet`, the demo and the load generator all go through this package.
//
// Usage:
//
//	info, err := keyfile.Add(home, "bob", rand.Reader) // refuses to replace an existing key
//	if err != nil { ... }
//	fmt.Println(info.PubKey)                            // hex; Info never holds the private part
//	key, err := keyfile.Load(home, "bob")               // ed25519.PrivateKey
//	if errors.Is(err, keyfile.ErrNotFound) { ... }
//	infos, err := keyfile.List(home)                    // sorted by name; empty when keys/ is missing
//	bz, err := keyfile.Export(home, "bob")              // the file's content, private key included
//	info, err = keyfile.Import(other, "bob", "bob.json", bz, false) // checked as Load; ErrExists unless replace
//	err = keyfile.Delete(home, "bob")                   // ErrNotFound when there is no such key
package keyfile
