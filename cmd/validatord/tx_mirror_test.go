package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	"github.com/scoringsubnet/validatord/x/mirror"
)

const (
	aliceSeedHex = "e5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a"
	aliceSS58    = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
)

// TestTxMirrorMessages: attest-metagraph reads its snapshot file (with its
// bytes, or the digest alone), bind-hotkey carries uid, parent block and
// signature; missing or malformed flags are refused.
func TestTxMirrorMessages(t *testing.T) {
	file := filepath.Join(t.TempDir(), "snapshot.json")
	if err := os.WriteFile(file, []byte(`{"entries": [{"uid": 2, "hotkey": "`+aliceSS58+`", "registered_block": 9}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	msg, err := buildMsg(t, "attest-metagraph", "--file", file, "--parent-block", "720")
	if err != nil {
		t.Fatal(err)
	}
	s, err := mirror.Decode(msg.GetAttestMetagraph().Snapshot, mirror.DefaultParams())
	d := s.Digest()
	if err != nil || s.ParentBlock != 720 || len(s.Entries) != 1 || s.Entries[0].UID != 2 || hex.EncodeToString(msg.GetAttestMetagraph().Digest) != hex.EncodeToString(d[:]) {
		t.Fatalf("attest-metagraph built %v (%v)", msg, err)
	}
	if msg, err := buildMsg(t, "attest-metagraph", "--file", file, "--parent-block", "720", "--digest-only"); err != nil || msg.GetAttestMetagraph().Snapshot != nil {
		t.Fatalf("--digest-only built %v (%v)", msg, err)
	}
	sig := strings.Repeat("ab", 64)
	msg, err = buildMsg(t, "bind-hotkey", "--uid", "3", "--parent-block", "700", "--signature", sig)
	if b := msg.GetBindHotkey(); err != nil || b.Uid != 3 || b.ParentBlock != 700 || hex.EncodeToString(b.Signature) != sig {
		t.Fatalf("bind-hotkey built %v (%v)", msg, err)
	}
	for _, bad := range [][]string{
		{"attest-metagraph", "--file", file},
		{"attest-metagraph", "--file", filepath.Join(t.TempDir(), "none.json"), "--parent-block", "720"},
		{"bind-hotkey", "--uid", "3", "--parent-block", "700"},
		{"bind-hotkey", "--uid", "3", "--parent-block", "700", "--signature", "abcd"},
	} {
		if _, err := buildMsg(t, bad[0], bad[1:]...); err == nil {
			t.Errorf("%v: built", bad)
		}
	}
}

// TestKeysSignBinding: keys sign-binding signs for a --tx-key (or the
// --from key) with the seed's hotkey, and the signature verifies.
func TestKeysSignBinding(t *testing.T) {
	home := t.TempDir()
	runCmd(t, "keys", "add", "miner", "--home", home)
	_, out, _ := runCmd(t, "keys", "show", "miner", "--home", home)
	var info struct {
		PubKey string `json:"pub_key"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	for _, keyArgs := range [][]string{{"--from", "miner"}, {"--tx-key", info.PubKey}} {
		args := append([]string{"keys", "sign-binding", "--home", home, "--sr25519-seed", aliceSeedHex, "--chain-id", "subnet-1",
			"--uid", "4", "--parent-block", "360"}, keyArgs...)
		code, out, errOut := runCmd(t, args...)
		var v client.BindingSignature
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Hotkey != aliceSS58 || v.TxKey != info.PubKey {
			t.Fatalf("%v: code %d, out %q, stderr %q", keyArgs, code, out, errOut)
		}
		hk, _ := client.DecodeHex32("hotkey", v.HotkeyHex)
		tk, _ := client.DecodeHex32("tx key", v.TxKey)
		sig, _ := client.DecodeSignature(v.Signature)
		if err := mirror.VerifyBinding(hk, mirror.BindingMessage("subnet-1", 4, tk, 360), sig); err != nil {
			t.Fatalf("%v: %v", keyArgs, err)
		}
	}
	if code, _, _ := runCmd(t, "keys", "sign-binding", "--sr25519-seed", aliceSeedHex, "--chain-id", "c", "--uid", "1", "--parent-block", "1"); code == 0 {
		t.Fatal("signed without a tx key")
	}
}

// TestInitMirror: init --registration mirror writes a mirror genesis (the
// netuid and start block given) that passes the start checks; a bad mode or
// an off-cadence start block is refused.
func TestInitMirror(t *testing.T) {
	home := filepath.Join(t.TempDir(), "h")
	if code, _, errOut := runCmd(t, "init", "--home", home, "--registration", "mirror", "--mirror-netuid", "3", "--mirror-start-block", "720"); code != 0 {
		t.Fatalf("init: code %d stderr %q", code, errOut)
	}
	files, err := loadNodeFiles(home)
	if err != nil {
		t.Fatal(err)
	}
	if st := files.appState; !st.IsMirror() || st.Mirror.NetUID != 3 || st.Mirror.StartBlock != 720 || int(st.Mirror.MaxEntries) != st.Chain.MaxUIDs {
		t.Fatalf("chain %+v mirror %+v", st.Chain, st.Mirror)
	}
	for _, bad := range []struct{ flag, value, want string }{
		{"--registration", "pos", "--registration"},
		{"--mirror-start-block", "7", "mirror.start_block"},
	} {
		args := []string{"init", "--home", t.TempDir(), "--registration", "mirror", bad.flag, bad.value}
		if code, _, errOut := runCmd(t, args...); code != 1 || !strings.Contains(errOut, bad.want) {
			t.Errorf("%s %s: code %d stderr %q", bad.flag, bad.value, code, errOut)
		}
	}
}
