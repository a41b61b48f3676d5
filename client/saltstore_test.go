package client_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoringsubnet/validatord/client"
	subnetv1 "github.com/scoringsubnet/validatord/proto/subnet/v1"
)

// entry is a pending reveal of the miner key for payload.
func entry(t *testing.T, payload *subnetv1.MsgSubmit) client.PendingReveal {
	t.Helper()
	target, err := client.TargetOf(payload)
	if err != nil {
		t.Fatal(err)
	}
	salt, err := client.NewSalt()
	if err != nil {
		t.Fatal(err)
	}
	return client.PendingReveal{Target: target, Sender: key("miner").Public().(ed25519.PublicKey), UID: 3, Payload: payload, Salt: salt,
		CommitTx: strings.Repeat("AB", 32)}
}

func samePending(t *testing.T, got, want client.PendingReveal) {
	t.Helper()
	gp, _ := got.Payload.Marshal()
	wp, _ := want.Payload.Marshal()
	same := got.Target == want.Target && bytes.Equal(got.Sender, want.Sender) && got.UID == want.UID && bytes.Equal(gp, wp) &&
		got.Salt == want.Salt && got.CommitTx == want.CommitTx && got.CommitHeight == want.CommitHeight &&
		(got.SubmissionID == nil) == (want.SubmissionID == nil) && (got.SubmissionID == nil || *got.SubmissionID == *want.SubmissionID)
	if !same {
		t.Fatalf("loaded %+v\nwant %+v", got, want)
	}
}

// TestSaltStoreRoundTrip: an entry of each target kind reads back as
// written, under <home>/reveals/<chain id>/<key>/<target>.json; a second Create is
// refused and leaves the first; Update replaces; Remove deletes.
func TestSaltStoreRoundTrip(t *testing.T) {
	home := t.TempDir()
	st, err := client.NewSaltStore(home, testChainID, testSender)
	if err != nil {
		t.Fatal(err)
	}
	wf := entry(t, client.WorkflowPayload(7, client.ArtifactHash("w")))
	gas := entry(t, client.GasPayload(8453, 20_000_001, "21.300000000000000000"))
	for _, p := range []client.PendingReveal{wf, gas} {
		if _, err := st.Load(p.Target); !errors.Is(err, client.ErrNoPendingReveal) {
			t.Fatalf("load before create: %v", err)
		}
		if err := st.Create(p); err != nil {
			t.Fatal(err)
		}
		got, err := st.Load(p.Target)
		if err != nil {
			t.Fatal(err)
		}
		samePending(t, got, p)
	}
	if want := filepath.Join(home, "reveals", testChainID, hex.EncodeToString(testSender), "task-7.json"); st.Path(wf.Target) != want {
		t.Fatalf("path %s, want %s", st.Path(wf.Target), want)
	}
	if want := filepath.Join(home, "reveals", testChainID, hex.EncodeToString(testSender), "evm-8453-20000001.json"); st.Path(gas.Target) != want {
		t.Fatalf("path %s, want %s", st.Path(gas.Target), want)
	}
	other := entry(t, client.WorkflowPayload(7, client.ArtifactHash("other")))
	if err := st.Create(other); !errors.Is(err, client.ErrRevealExists) {
		t.Fatalf("second create: %v", err)
	}
	if got, _ := st.Load(wf.Target); got.Salt != wf.Salt {
		t.Fatal("a refused create changed the entry")
	}
	id := uint64(4)
	wf.CommitHeight, wf.SubmissionID = 12, &id
	if err := st.Update(wf); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load(wf.Target)
	if err != nil {
		t.Fatal(err)
	}
	samePending(t, got, wf)
	if err := st.Remove(wf.Target); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(wf.Target); !errors.Is(err, client.ErrNoPendingReveal) {
		t.Fatalf("load after remove: %v", err)
	}
	if err := st.Remove(wf.Target); !errors.Is(err, client.ErrNoPendingReveal) {
		t.Fatalf("second remove: %v", err)
	}
	// no temporary file is left behind
	files, _ := os.ReadDir(st.Dir())
	if len(files) != 1 || files[0].Name() != "evm-8453-20000001.json" {
		t.Fatalf("files %v", files)
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`} {
		if _, err := client.NewSaltStore(home, bad, testSender); err == nil {
			t.Errorf("chain id %q accepted", bad)
		}
	}
}

// testSender is the key whose reveals the stores of these tests keep.
var testSender = bytes.Repeat([]byte{7}, 32)

// TestSaltStoreKeysApart: two keys of one home that commit to one target
// keep one entry each; a store needs a key.
func TestSaltStoreKeysApart(t *testing.T) {
	home := t.TempDir()
	a, _ := client.NewSaltStore(home, testChainID, bytes.Repeat([]byte{1}, 32))
	b, _ := client.NewSaltStore(home, testChainID, bytes.Repeat([]byte{2}, 32))
	p := entry(t, client.WorkflowPayload(3, client.ArtifactHash("w")))
	if err := a.Create(p); err != nil {
		t.Fatal(err)
	}
	if err := b.Create(p); err != nil {
		t.Fatalf("the second key's entry for the same target: %v", err)
	}
	if a.Path(p.Target) == b.Path(p.Target) {
		t.Fatalf("both keys write %s", a.Path(p.Target))
	}
	if _, err := client.NewSaltStore(home, testChainID, nil); err == nil {
		t.Fatal("a store without a key")
	}
}

// TestSaltStorePermissions: files 0600, the directories 0700, even when
// reveals/ existed with wider perms; a file readable by others is refused.
func TestSaltStorePermissions(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "reveals"), 0o755); err != nil {
		t.Fatal(err)
	}
	st, _ := client.NewSaltStore(home, testChainID, testSender)
	p := entry(t, client.ArenaPayload(1, client.ArtifactHash("a")))
	if err := st.Create(p); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		filepath.Join(home, "reveals"): 0o700, filepath.Dir(st.Dir()): 0o700, st.Dir(): 0o700, st.Path(p.Target): 0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %04o", path, fi.Mode().Perm(), err, want)
		}
	}
	p.CommitHeight = 5 // an Update keeps the mode too
	if err := st.Update(p); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(st.Path(p.Target)); fi.Mode().Perm() != 0o600 {
		t.Errorf("after update: %v", fi.Mode().Perm())
	}
	if err := os.Chmod(st.Path(p.Target), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := st.Load(p.Target)
	var fe *client.RevealFileError
	if !errors.As(err, &fe) || !errors.Is(err, client.ErrBadRevealFile) || fe.Path != st.Path(p.Target) || !strings.Contains(err.Error(), "too open") {
		t.Fatalf("file readable by others: %v", err)
	}
}

// TestSaltStoreCorrupted: a file that is not a well-formed entry of this
// chain and target is a *RevealFileError naming the file and the problem.
func TestSaltStoreCorrupted(t *testing.T) {
	home := t.TempDir()
	st, _ := client.NewSaltStore(home, testChainID, testSender)
	p := entry(t, client.WorkflowPayload(2, client.ArtifactHash("w")))
	if err := st.Create(p); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(st.Path(p.Target))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(field string, v any) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		if v == nil {
			delete(m, field)
		} else {
			m[field] = v
		}
		bz, _ := json.Marshal(m)
		return bz
	}
	// an unknown field 15 (varint 0): it decodes, but not to these bytes
	nonCanonical := append(mustMarshal(t, p.Payload), 0x78, 0x00)
	cases := []struct {
		name string
		bz   []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "not a pending reveal"},
		{"empty", nil, "not a pending reveal"},
		{"trailing", append(append([]byte{}, good...), []byte("{}")...), "trailing data"},
		{"unknown field", edit("extra", 1), "unknown field"},
		{"other chain", edit("chain_id", "other-chain"), `chain_id "other-chain"`},
		{"other target", edit("target", "task-3"), `target "task-3"`},
		{"short salt", edit("salt", "abcd"), "salt: want 32 bytes of hex"},
		{"salt not hex", edit("salt", strings.Repeat("zz", 32)), "salt"},
		{"no sender", edit("sender", nil), "sender"},
		{"payload not proto", edit("payload", []byte{0xff, 0xff}), "payload"},
		{"payload of another task", edit("payload", mustMarshal(t, client.WorkflowPayload(3, client.ArtifactHash("w")))), "not a payload for task 2"},
		{"payload not canonical", edit("payload", nonCanonical), "canonical"},
		{"negative height", edit("commit_height", -1), "commit_height"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(st.Path(p.Target), c.bz, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := st.Load(p.Target)
			var fe *client.RevealFileError
			if !errors.As(err, &fe) || !errors.Is(err, client.ErrBadRevealFile) || !strings.Contains(err.Error(), st.Path(p.Target)) ||
				!strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want a RevealFileError naming the file and %q", err, c.want)
			}
		})
	}
}

func mustMarshal(t *testing.T, p *subnetv1.MsgSubmit) []byte {
	t.Helper()
	bz, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return bz
}
