package keyfile

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// sevenKey is the key of the seed 0x07 × 32, and goodFile its well-formed file.
func sevenKey() (ed25519.PrivateKey, file) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	return priv, file{Name: "k", Type: "ed25519", PrivKey: hex.EncodeToString(priv), PubKey: hex.EncodeToString(priv.Public().(ed25519.PublicKey))}
}

func TestDecode(t *testing.T) {
	priv, good := sevenKey()
	enc := func(mut func(*file)) []byte {
		k := good
		mut(&k)
		bz, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		return bz
	}
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{8}, 32))
	cases := []struct {
		name string
		bz   []byte
		want string // "" = accepted
	}{
		{"good", enc(func(*file) {}), ""},
		{"upper-case pub key", enc(func(k *file) { k.PubKey = strings.ToUpper(k.PubKey) }), ""},
		{"upper-case priv key", enc(func(k *file) { k.PrivKey = strings.ToUpper(k.PrivKey) }), ""},
		{"wrong type", enc(func(k *file) { k.Type = "secp256k1" }), `type: "secp256k1", want "ed25519"`},
		{"empty type", enc(func(k *file) { k.Type = "" }), "type"},
		{"short priv", enc(func(k *file) { k.PrivKey = k.PrivKey[:126] }), "priv_key: want 64 bytes of hex"},
		{"long priv", enc(func(k *file) { k.PrivKey += "00" }), "priv_key"},
		{"odd-length priv", enc(func(k *file) { k.PrivKey = k.PrivKey[:127] }), "priv_key"},
		{"not hex", enc(func(k *file) { k.PrivKey = "zz" + k.PrivKey[2:] }), "priv_key"},
		{"mismatched pub", enc(func(k *file) { k.PubKey = hex.EncodeToString(other.Public().(ed25519.PublicKey)) }), "does not match"},
		{"missing pub", enc(func(k *file) { k.PubKey = "" }), "does not match"},
		{"unknown field", []byte(`{"name":"k","type":"ed25519","extra":1}`), "unknown field"},
		{"garbage", []byte("{"), "key file k.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key, err := Decode("k.json", c.bz)
			if c.want == "" {
				if err != nil || !bytes.Equal(key, priv) {
					t.Fatalf("err %v, key equal %v", err, bytes.Equal(key, priv))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "key file k.json: ") {
				t.Fatalf("err %v, want it to name k.json and mention %q", err, c.want)
			}
		})
	}
}

// TestDecodeOwnEncoding: what Add writes, Decode reads back to the same key.
func TestDecodeOwnEncoding(t *testing.T) {
	priv, _ := sevenKey()
	bz, err := encode("k", priv)
	if err != nil {
		t.Fatal(err)
	}
	key, err := Decode("k.json", bz)
	if err != nil || !bytes.Equal(key, priv) {
		t.Fatalf("round trip: err %v, key equal %v", err, bytes.Equal(key, priv))
	}
}

func FuzzDecode(f *testing.F) {
	_, good := sevenKey()
	bz, err := json.Marshal(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(bz)
	f.Add([]byte(`{"type":"ed25519","priv_key":"00","pub_key":""}`))
	f.Add([]byte(`null`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, bz []byte) {
		key, err := Decode("fuzz.json", bz)
		if err != nil {
			if key != nil {
				t.Fatal("key returned with an error")
			}
			return
		}
		// Accepted: the key must be whole and consistent with its file.
		var kf file
		if json.Unmarshal(bz, &kf) != nil {
			t.Fatal("accepted a file that does not unmarshal")
		}
		if len(key) != ed25519.PrivateKeySize || !strings.EqualFold(kf.PubKey, hex.EncodeToString(key.Public().(ed25519.PublicKey))) {
			t.Fatalf("accepted an inconsistent key file %q", bz)
		}
	})
}
