package keyfile

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// keyType is the only key type of the format.
const keyType = "ed25519"

// file is the JSON form of a key on disk.
type file struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	PubKey  string `json:"pub_key"`  // hex, 32 bytes
	PrivKey string `json:"priv_key"` // hex, 64 bytes (seed ‖ public key)
}

// Info is what may be shown about a key: never the private part.
type Info struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	PubKey string `json:"pub_key"` // hex, 32 bytes
}

// InfoOf is the Info of key under name.
func InfoOf(name string, key ed25519.PrivateKey) Info {
	return Info{Name: name, Type: keyType, PubKey: hex.EncodeToString(key.Public().(ed25519.PublicKey))}
}

// encode is the file content of key under name.
func encode(name string, key ed25519.PrivateKey) ([]byte, error) {
	f := file{Name: name, Type: keyType, PubKey: hex.EncodeToString(key.Public().(ed25519.PublicKey)), PrivKey: hex.EncodeToString(key)}
	bz, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(bz, '\n'), nil
}

// Decode parses the content bz of the key file at path (path only names it in errors)
// and checks that its parts agree.
func Decode(path string, bz []byte) (ed25519.PrivateKey, error) {
	var f file
	dec := json.NewDecoder(bytes.NewReader(bz))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("key file %s: %v", path, err)
	}
	if f.Type != keyType {
		return nil, fmt.Errorf("key file %s: type: %q, want %q", path, f.Type, keyType)
	}
	priv, err := hex.DecodeString(f.PrivKey)
	if err != nil || len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("key file %s: priv_key: want %d bytes of hex", path, ed25519.PrivateKeySize)
	}
	key := ed25519.NewKeyFromSeed(priv[:ed25519.SeedSize])
	if hex.EncodeToString(key.Public().(ed25519.PublicKey)) != strings.ToLower(f.PubKey) {
		return nil, fmt.Errorf("key file %s: pub_key: %q does not match the private key", path, f.PubKey)
	}
	return key, nil
}
