package genesis

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

func matchState(powers ...int64) (AppState, []ConsensusValidator) {
	st := DefaultGenesis()
	var cons []ConsensusValidator
	for i, p := range powers {
		seed := sha256.Sum256([]byte{byte(i)})
		pk := ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey)
		st.Validators = append(st.Validators, Validator{Name: string(rune('a' + i)), Address: hex.EncodeToString(ConsensusAddress(pk)),
			PubKey: base64.StdEncoding.EncodeToString(pk), Power: p, ReportKey: hex.EncodeToString(seed[:])})
		cons = append(cons, ConsensusValidator{PubKey: pk, Power: p})
	}
	return st, cons
}

// TestMatchValidators: any order matches; a missing key, a changed power or
// a different count is refused with the validator named.
func TestMatchValidators(t *testing.T) {
	st, cons := matchState(10, 20, 30)
	reversed := []ConsensusValidator{cons[2], cons[1], cons[0]}
	if err := st.MatchValidators(reversed); err != nil {
		t.Fatalf("reordered set refused: %v", err)
	}
	cases := []struct {
		name string
		cons []ConsensusValidator
		want string
	}{
		{"count", cons[:2], "genesis.json has 2, app_state.validators has 3"},
		{"power", []ConsensusValidator{cons[0], {cons[1].PubKey, 21}, cons[2]}, `app_state.validators[1].power = 20 ("b"): genesis.json gives its key power 21`},
		{"key", []ConsensusValidator{cons[0], cons[1], {make([]byte, 32), 30}}, `app_state.validators[2].pub_key = `},
	}
	for _, c := range cases {
		err := st.MatchValidators(c.cons)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
