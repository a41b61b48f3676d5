package main

import "testing"

func TestParseNonce(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    uint64
		wantErr bool
	}{
		{`{"next_nonce":"7"}`, 7, false},
		{`{"next_nonce":7}`, 7, false},
		{`{"next_nonce":"0"}`, 0, false},
		{`{"pubkey":"ab"}`, 0, false}, // absent: a fresh account
		{`{"next_nonce":"18446744073709551615"}`, 18446744073709551615, false},
		{`{"next_nonce":"-1"}`, 0, true},
		{`{"next_nonce":"x"}`, 0, true},
		{`not json`, 0, true},
	} {
		got, err := parseNonce([]byte(tc.in))
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("parseNonce(%s) = %d, %v; want %d, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}
